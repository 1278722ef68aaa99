package duplicate

import (
	"fmt"
	"strings"

	"arbitre/domain/aggregate"
	"arbitre/domain/erreur"
	"arbitre/domain/eventstore"
	"arbitre/engine/board"
	"arbitre/engine/movegen"
	"arbitre/engine/play"
	"arbitre/engine/tile"
)

// Apply is the one transition function of the game: recording an event
// and replaying the stream both go through it. An event that does not fit
// the state is a corrupt history and is refused.
func (p *Partie) Apply(e any) error {
	if err := aggregate.Apply(&p.Base, p.appliquer, e); err != nil {
		return &erreur.Erreur{Code: CodeCorruptHistory, Message: fmt.Sprintf("événement %T incohérent avec la partie", e), Err: err}
	}
	return nil
}

func (p *Partie) appliquer(e any) error {
	if _, creation := e.(PartieCreee); p.statut == "" && !creation {
		return fmt.Errorf("la partie n'est pas créée")
	}
	switch e := e.(type) {
	case PartieCreee:
		return p.onPartieCreee(e)
	case TirageEffectue:
		return p.onTirageEffectue(e)
	case TirageRejete:
		return p.onTirageRejete(e)
	case TopRetenu:
		return p.onTopRetenu(e)
	case CoupAnnule:
		return p.onCoupAnnule(e)
	case BulletinsRamasses:
		p.ramasses[e.Coup] = true
		p.fermerChrono(e.Coup)
	case BulletinDepose, BulletinCorrige, DoubleArbitrage, BilletEmis, RenvoiCommission, DecisionCommission:
		p.onBulletin(e)
	case SanctionDisciplinaire:
		return p.onSanction(e)
	case JoueurArrive:
		p.joueursAEcrire(0).mettre(e.Licence, joueur{premierCoup: e.PremierCoup, enRetard: true})
	case JoueurRetire:
		if j, ok := p.joueurs.lire(e.Licence); !ok || !j.enRetard {
			return fmt.Errorf("retrait de %s, qui n'est pas un joueur arrivé en retard", e.Licence)
		}
		p.joueursAEcrire(0).oter(e.Licence)
	case PartieInterrompue:
		return p.onPartieInterrompue(e)
	case PartieReprise:
		p.statut = p.avantPause
		if p.chrono.Interruption {
			p.chrono = p.chrono.repris(eventstore.Instant{Wall: e.Fin, Monotonic: e.Monotone})
		}
	case ChronoDemarre, ChronoSuspendu, ChronoRepris:
		return p.onChrono(e)
	case EliminationsDecidees:
		return p.onEliminationsDecidees(e)
	case EliminationsAnnulees:
		return p.onAnnulationEliminations(e)
	case TopTrouve:
		p.toppings.mettre(e.Coup, e.Licence, e, 0)
	case ResultatsClos:
		return p.onClos(e)
	case FeuillePretireeChargee:
		return p.onFeuille(e)
	case PartieTerminee:
		fin := e
		p.fin, p.statut = &fin, StatutTerminee
		p.fermerChrono(p.chrono.Coup)
	default:
		return fmt.Errorf("type d'événement %T inconnu", e)
	}
	return nil
}

// onPartieCreee opens the game: its players, its bag, its engine on its own lexicon.
func (p *Partie) onPartieCreee(e PartieCreee) error {
	if p.statut != "" {
		return fmt.Errorf("partie déjà créée")
	}
	p.id, p.tournoi, p.numero, p.config, p.lexique = e.Partie, e.Tournoi, e.Numero, e.Config, e.Lexique
	if m, ok := p.moteur.(*Moteurs); ok {
		// §3.8.2: the game's own formula, on its own lexicon.
		p.moteur, p.sansLexique = m.PourLexique(e.Lexique, e.Config.Variant())
	}
	p.statut, p.prochainCoup = StatutAttenteTirage, 1
	p.lettres.sac = sacComplet()
	if e.Config.Formule == FormuleJoker {
		// §3.8.1: the two jokers are taken out of the bag beforehand.
		p.lettres.reserve = int(p.lettres.sac[tile.NoLetter])
		p.lettres.sac[tile.NoLetter] = 0
	}
	joueurs := p.joueursAEcrire(len(e.Joueurs))
	for _, l := range e.Joueurs {
		joueurs.mettre(l, joueur{premierCoup: 1})
	}
	return nil
}

// onTirageEffectue puts the coup's letters on the stand and starts its chrono.
func (p *Partie) onTirageEffectue(e TirageEffectue) error {
	if !p.entreCoups() || e.Coup != p.prochainCoup {
		return fmt.Errorf("tirage du coup %d inattendu", e.Coup)
	}
	nouvelles, err := lireLettres(e.Tirees)
	if err != nil {
		return err
	}
	if e.JokerAjoute && p.lettres.reserve == 0 {
		return fmt.Errorf("plus de joker en réserve")
	}
	if !p.lettres.contient(nouvelles) {
		return fmt.Errorf("lettres %q absentes du sac", e.Tirees)
	}
	if e.JokerAjoute {
		p.lettres.reserve--
		p.lettres.rack[tile.NoLetter]++
	}
	p.lettres.puiser(nouvelles)
	p.lettres.tirages++
	p.reliquat, p.tirees, p.jokerAjoute, p.auChoix = e.Reliquat, e.Tirees, e.JokerAjoute, e.AuChoix
	p.interdit = nil
	p.statut = StatutTirage
	p.chrono = p.nouveauChrono(e.Coup)
	return nil
}

// onTirageRejete gives the tirage back to the bag (§3.2, §3.3).
func (p *Partie) onTirageRejete(e TirageRejete) error {
	switch {
	case p.statut == StatutTirage:
	case p.entreCoups():
		p.lettres.tirages++
	default:
		return fmt.Errorf("rejet inattendu")
	}
	p.lettres.rendre(p.config.Formule)
	p.rejets = append(p.rejets, e)
	p.statut = StatutAttenteTirage
	p.chrono = p.nouveauChrono(p.prochainCoup)
	return nil
}

// onTopRetenu plays the top on the board and closes the coup.
func (p *Partie) onTopRetenu(e TopRetenu) error {
	if p.statut != StatutTirage || e.Coup != p.prochainCoup {
		return fmt.Errorf("top du coup %d inattendu", e.Coup)
	}
	grille, apres, err := p.poser(e)
	if err != nil {
		return err
	}
	p.contextes[e.Coup] = contexte{grille: p.grille, tirage: p.lettres.rack}
	p.avant = avantTop{grille: p.grille, lettre: p.lettres}
	p.grille, p.lettres = grille, apres
	if e.Coup == 1 {
		p.premierMot = len(e.Mot)
	}
	p.tops[e.Coup] = e
	p.rejets = nil
	p.fermerChrono(e.Coup)
	p.prochainCoup++
	p.statut = StatutTop
	return nil
}

// onCoupAnnule takes the last coup back (§3.6): its top, its bulletins, its letters.
func (p *Partie) onCoupAnnule(e CoupAnnule) error {
	switch {
	case p.statut == StatutTop && e.Coup == p.prochainCoup-1:
		p.grille, p.lettres = p.avant.grille, p.avant.lettre
		delete(p.tops, e.Coup)
		p.prochainCoup = e.Coup
	case p.statut == StatutTirage && e.Coup == p.prochainCoup:
	default:
		return fmt.Errorf("annulation du coup %d inattendue", e.Coup)
	}
	delete(p.ramasses, e.Coup)
	delete(p.contextes, e.Coup)
	delete(p.deposes, e.Coup)
	delete(p.corrections, e.Coup)
	delete(p.decisions, e.Coup)
	delete(p.billets, e.Coup)
	delete(p.renvois, e.Coup)
	delete(p.toppings, e.Coup)
	p.discipline.Appliquer(e)
	interdit := p.lettres.rack
	p.interdit = &interdit
	p.rejets = nil
	p.lettres.rendre(p.config.Formule)
	p.statut = StatutAttenteTirage
	p.chrono = p.nouveauChrono(p.prochainCoup)
	return nil
}

// onPartieInterrompue stops the game and its chrono (§3.7).
func (p *Partie) onPartieInterrompue(e PartieInterrompue) error {
	p.avantPause, p.pause, p.statut = p.statut, eventstore.Instant{Wall: e.Debut, Monotonic: e.Monotone}, StatutInterrompue
	if p.chrono.Etat == ChronoEnCours {
		p.chrono = p.chrono.suspendu(eventstore.Instant{Wall: e.Debut, Monotonic: e.Monotone})
		p.chrono.Interruption = true
	}
	return nil
}

// onEliminationsDecidees eliminates the players named after a coup.
func (p *Partie) onEliminationsDecidees(e EliminationsDecidees) error {
	for _, l := range e.Elimines {
		if !p.joueurs.a(l) {
			return fmt.Errorf("joueur %s inconnu", l)
		}
	}
	p.elimines[e.Coup] = true
	joueurs := p.joueursAEcrire(0)
	for _, l := range e.Elimines {
		j, _ := joueurs.lire(l)
		j.elimineAu = e.Coup
		joueurs.mettre(l, j)
	}
	return nil
}

// poser returns the grid and the letters once a top is put down, the
// game unchanged: its letters are taken from the rack and, in the joker
// formula, a replaced joker becomes the letter from the bag and goes back
// to the director (§3.8.1).
func (p *Partie) poser(e TopRetenu) (board.Board, lettres, error) {
	grille, l := p.grille, p.lettres
	r, err := board.ParseRef(e.Ref)
	if err != nil {
		return grille, l, err
	}
	word, err := play.ParseWord(e.Mot)
	if err != nil {
		return grille, l, err
	}
	if (r.Vertical && r.Row+len(word) > board.Size) || (!r.Vertical && r.Col+len(word) > board.Size) {
		return grille, l, fmt.Errorf("%s en %s sort de la grille", e.Mot, e.Ref)
	}
	for i, sq := 0, r.Start(); i < len(word); i, sq = i+1, sq+r.Step() {
		if grille.Square(sq) != tile.Empty {
			continue
		}
		t := word[i]
		x := t.Letter()
		if t.IsJoker() {
			x = tile.NoLetter
		}
		if l.rack[x] == 0 {
			return grille, l, fmt.Errorf("%c absent du tirage", t.Byte())
		}
		l.rack[x]--
		if t.IsJoker() && e.JokerRemplace {
			if l.sac[t.Letter()] == 0 {
				return grille, l, fmt.Errorf("%c absent du sac pour remplacer le joker", t.Letter().Byte())
			}
			l.sac[t.Letter()]--
			l.reserve++
			t = tile.Tile(t.Letter())
		}
		grille.Set(sq/board.Size, sq%board.Size, t)
	}
	return grille, l, nil
}

// lireMot parses the word of a top: whole word, a joker in lower case.
func lireMot(s string) ([]tile.Tile, error) {
	w, err := play.ParseWord(s)
	if err != nil {
		return nil, &erreur.Erreur{Code: CodeInvalidTop, Message: fmt.Sprintf("mot %q illisible", s), Err: err}
	}
	return w, nil
}

// probleme explains why a placement is not playable.
// codeInjouable tells why a top is not playable: letters not in the tirage,
// a word not in the lexicon, or a placement the rules refuse (§1.1, §3.4).
func codeInjouable(res *play.Result) Code {
	switch res.Problem {
	case play.NotInRack:
		return CodeNotInTirage
	case play.OK:
		return CodeInvalidWord
	}
	return CodeInvalidTop
}

func probleme(res *play.Result) string {
	if res.Problem != play.OK {
		return res.Problem.Motif()
	}
	var refuses []string
	for i := 0; i < res.NWords; i++ {
		if !res.Words[i].Valid {
			refuses = append(refuses, res.Words[i].Text())
		}
	}
	return "mots non admis " + strings.Join(refuses, ", ")
}

// lettresPlacees lists the tiles a word puts down on empty squares.
func lettresPlacees(g *board.Board, r board.Ref, word []tile.Tile) []tile.Tile {
	var out []tile.Tile
	for i, sq := 0, r.Start(); i < len(word); i, sq = i+1, sq+r.Step() {
		if g.Square(sq) == tile.Empty {
			out = append(out, word[i])
		}
	}
	return out
}

// lettresPlaceesCoup lists the tiles an engine move puts down.
func lettresPlaceesCoup(m *movegen.Move) []tile.Tile {
	var out []tile.Tile
	for i := 0; i < int(m.Len); i++ {
		if m.IsPlaced(i) {
			out = append(out, m.Word[i])
		}
	}
	return out
}

// texteTuiles renders tiles put down, '?' for a joker.
func texteTuiles(ts []tile.Tile) string {
	b := make([]byte, len(ts))
	for i, t := range ts {
		if t.IsJoker() {
			b[i] = '?'
		} else {
			b[i] = t.Byte()
		}
	}
	return string(b)
}
