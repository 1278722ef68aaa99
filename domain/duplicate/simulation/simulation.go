// Package simulation plays whole duplicate games deterministically from a
// seed: software draws, the engine's admissible top, and for every player a
// bulletin with the mistakes real players make. It is the demo, the load
// generator and the end-to-end test of the duplicate aggregate.
package simulation

import (
	"fmt"
	"sort"

	"arbitre/domain/duplicate"
	"arbitre/engine/board"
	"arbitre/engine/correction"
	"arbitre/engine/lexicon"
	"arbitre/engine/movegen"
	"arbitre/engine/tile"
)

// maxCoups bounds a game: the French set cannot last longer.
const maxCoups = 100

// Simulateur plays games on one lexicon. Not safe for concurrent use.
type Simulateur struct {
	lex      *lexicon.Lexicon
	moteur   duplicate.Moteur
	gen      *movegen.Generator
	corr     *correction.Corrector
	variante string
	coups    []movegen.Move
	deposes  []duplicate.BulletinDepose
	premier  int
}

// New returns a simulator for the variant of cfg.
func New(lex *lexicon.Lexicon, cfg duplicate.Config) *Simulateur {
	opts := movegen.Options{Variant: cfg.Variant()}
	return &Simulateur{lex: lex, moteur: duplicate.NewMoteur(lex, cfg.Variant()), gen: movegen.New(lex, opts),
		corr: correction.NewCorrector(lex), variante: string(cfg.Variante)}
}

// Moteur is the engine the simulated director uses.
func (s *Simulateur) Moteur() duplicate.Moteur { return s.moteur }

// Partie describes the game to play.
type Partie struct {
	ID, Tournoi string
	Numero      int
	Config      duplicate.Config
	Joueurs     []string
	// Graine seeds the players' answers; Config.Graine seeds the bag.
	Graine uint64
}

// Jouer plays a whole game. sauver is called after each step of the
// director (creation, tirage, bulletins and top) with the game holding the
// new events, so a caller can append them to a store.
func (s *Simulateur) Jouer(def Partie, sauver func(*duplicate.Partie) error) (*duplicate.Partie, error) {
	p := duplicate.Nouvelle(s.moteur)
	if err := p.Creer(def.ID, def.Tournoi, def.Numero, def.Config, def.Joueurs); err != nil {
		return nil, err
	}
	if err := sauver(p); err != nil {
		return nil, err
	}
	rng := splitmix{def.Graine}
	niveaux := make(map[string]uint64, len(def.Joueurs))
	for _, j := range def.Joueurs {
		niveaux[j] = 40 + rng.next()%55 // chance in % of finding the top
	}
	for n := 0; p.Fin() == nil; n++ {
		if n == maxCoups {
			return nil, fmt.Errorf("partie %s : plus de %d coups", def.ID, maxCoups)
		}
		if err := p.Tirer(""); err != nil {
			return nil, err
		}
		if err := sauver(p); err != nil {
			return nil, err
		}
		sols := p.Solutions()
		if len(sols) == 0 {
			if err := p.AnnulerCoup(duplicate.AnnulationAucuneSolution); err != nil {
				return nil, err
			}
			if err := sauver(p); err != nil {
				return nil, err
			}
			continue
		}
		if err := s.bulletins(p, &rng, niveaux, def.Joueurs); err != nil {
			return nil, err
		}
		top := &sols[0].Move
		avant, tirage := p.Grille(), p.Rack()
		if err := p.RetenirTop(top.Ref().String(), top.WordString()); err != nil {
			return nil, err
		}
		if err := s.corriger(p, avant, tirage, int(top.Score)); err != nil {
			return nil, err
		}
		if err := sauver(p); err != nil {
			return nil, err
		}
	}
	return p, nil
}

// bulletins hands in every player's bulletin for the coup being played and
// collects them.
func (s *Simulateur) bulletins(p *duplicate.Partie, rng *splitmix, niveaux map[string]uint64, joueurs []string) error {
	g := p.Grille()
	moves, _ := s.gen.Generate(&g, p.Rack(), movegen.AllMoves)
	s.coups = append(s.coups[:0], moves...)
	sort.SliceStable(s.coups, func(i, j int) bool { return s.coups[i].Score > s.coups[j].Score })
	coup := p.ProchainCoup()
	if coup == 1 {
		s.premier = 0
	}
	s.deposes = s.deposes[:0]
	for _, j := range joueurs {
		b := s.bulletin(coup, j, niveaux[j], rng)
		if err := p.DeposerBulletin(b); err != nil {
			return err
		}
		s.deposes = append(s.deposes, b)
	}
	return p.Ramasser()
}

// corriger has engine/correction decide every bulletin of the coup just
// topped (§5) and records the decisions.
func (s *Simulateur) corriger(p *duplicate.Partie, avant board.Board, tirage tile.Rack, top int) error {
	coup := p.ProchainCoup() - 1
	t, _ := p.Top(coup)
	if coup == 1 {
		s.premier = len(t.Mot)
	}
	cp, err := correction.NewCoup(s.lex, correction.Context{Board: avant.Rows(), Tirage: tirage.String(), Coup: coup,
		FirstWordLength: s.premier, Top: &top, Variant: s.variante})
	if err != nil {
		return err
	}
	for i := range s.deposes {
		b := &s.deposes[i]
		d := s.corr.Decide(cp, versCorrection(b))
		c := duplicate.BulletinCorrige{Coup: coup, Licence: b.Licence, Score: d.Paid, Avertissements: d.DisciplineWarnings,
			Motif: string(d.Sanction)}
		switch d.Sanction {
		case correction.Warning:
			c.Avertissements++
		case correction.Penalty:
			c.Score, c.Penalites = d.Paid+5, 1 // the regulation's 5 points, kept apart for §3.5
		case correction.Zero:
			c.Nullite, c.Score = true, 0
		case correction.Average:
			c.Moyenne, c.ScoreRevendique, c.ScoreMerite = true, d.AverageCap, min(d.AverageCap, top)
		}
		if err := p.CorrigerBulletin(c); err != nil {
			return err
		}
	}
	return nil
}

// versCorrection writes a bulletin the way correction reads it: the
// letter a joker stands for circled, in parentheses.
func versCorrection(b *duplicate.BulletinDepose) *correction.Bulletin {
	out := &correction.Bulletin{Blank: b.Blanc, Late: b.Retard}
	if b.Blanc {
		return out
	}
	var mot []byte
	for i := 0; i < len(b.Mot); i++ {
		if c := b.Mot[i]; c >= 'a' && c <= 'z' {
			mot = append(mot, '(', c-'a'+'A', ')')
		} else {
			mot = append(mot, c)
		}
	}
	sens := "h"
	if r, err := board.ParseRef(b.Ref); err == nil && r.Vertical {
		sens = "v"
	}
	ref := b.Ref
	out.Solutions = []correction.Solution{{Word: string(mot), Written: sens, Ref: &ref, Score: b.Score}}
	return out
}

// bulletin is one player's answer: the top or a lesser move, with the
// mistakes of §4–§5 at realistic rates.
func (s *Simulateur) bulletin(coup int, licence string, niveau uint64, rng *splitmix) duplicate.BulletinDepose {
	b := duplicate.BulletinDepose{Coup: coup, Licence: licence}
	de := rng.next() % 100
	if de < 2 {
		b.Blanc = true
		return b
	}
	m := s.coups[0]
	if rng.next()%100 >= niveau {
		m = s.coups[rng.next()%uint64(min(len(s.coups), 30))]
	}
	ref, mot, score := m.Ref(), []byte(m.WordString()), int(m.Score)
	switch {
	case de < 5: // missing score
		b.Ref, b.Mot = ref.String(), string(mot)
		return b
	case de < 11: // wrong score
		score += 1 + int(rng.next()%9)
	case de < 14: // wrong reference
		ref = ref.Transposed()
	case de < 16 && m.UsesJoker: // wrong joker circling
		for i, c := range mot {
			if c >= 'a' {
				mot[i], mot[(i+1)%len(mot)] = c-'a'+'A', mot[(i+1)%len(mot)]|0x20
				break
			}
		}
	case de < 18: // invalid word
		i := rng.next() % uint64(len(mot))
		mot[i] = 'A' + (mot[i]&^0x20-'A'+1+byte(rng.next()%25))%26
	case de < 20:
		b.Retard = true
	}
	b.Ref, b.Mot, b.Score = ref.String(), string(mot), &score
	return b
}

// splitmix is SplitMix64: the same stream on every platform.
type splitmix struct{ s uint64 }

func (g *splitmix) next() uint64 {
	g.s += 0x9e3779b97f4a7c15
	z := g.s
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}
