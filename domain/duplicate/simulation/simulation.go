// Package simulation plays whole duplicate games deterministically from a
// seed: software draws, the engine's admissible top, and for every player a
// bulletin with the mistakes real players make. It is the demo, the load
// generator and the end-to-end test of the duplicate aggregate.
package simulation

import (
	"fmt"
	"sort"

	"arbitre/domain/duplicate"
	"arbitre/engine/correction"
	"arbitre/engine/lexicon"
	"arbitre/engine/movegen"
)

// maxCoups bounds a game: the French set cannot last longer.
const maxCoups = 100

// Simulateur plays games on one lexicon. Not safe for concurrent use.
type Simulateur struct {
	moteur duplicate.Moteur
	gen    *movegen.Generator
	coups  []movegen.Move
}

// New returns a simulator for the variant of cfg.
func New(lex *lexicon.Lexicon, cfg duplicate.Config) *Simulateur {
	opts := movegen.Options{Variant: cfg.Variant()}
	return &Simulateur{moteur: duplicate.NewMoteur(lex, cfg.Variant()), gen: movegen.New(lex, opts)}
}

// Moteur is the engine the simulated director uses.
func (s *Simulateur) Moteur() duplicate.Moteur { return s.moteur }

// Partie describes the game to play.
type Partie struct {
	ID, Tournoi string
	Numero      int
	Config      duplicate.Config
	Joueurs     []string
	// Graine seeds the players' answers; Config.GraineTest seeds the bag
	// (without it the software draws from crypto/rand).
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
		if err := p.RetenirTop(top.Ref().String(), top.WordString()); err != nil {
			return nil, err
		}
		if err := s.corriger(p, def.Joueurs); err != nil {
			return nil, err
		}
		if err := sauver(p); err != nil {
			return nil, err
		}
	}
	return p, nil
}

// Placement is the seat of the i-th player (from 0) in the simulated hall:
// four players a table, thirty players an arbiter.
func Placement(i int) (table int, arbitre string) {
	return i/4 + 1, fmt.Sprintf("A%d", i/30+1)
}

// bulletins hands in every player's bulletin for the coup being played, as
// typed by the arbiter of his table, and collects them.
func (s *Simulateur) bulletins(p *duplicate.Partie, rng *splitmix, niveaux map[string]uint64, joueurs []string) error {
	g := p.Grille()
	moves, _ := s.gen.Generate(&g, p.Rack(), movegen.AllMoves)
	s.coups = append(s.coups[:0], moves...)
	sort.SliceStable(s.coups, func(i, j int) bool { return s.coups[i].Score > s.coups[j].Score })
	coup := p.ProchainCoup()
	for i, j := range joueurs {
		table, arbitre := Placement(i)
		b := duplicate.BulletinDepose{Coup: coup, Licence: j, Table: table, Arbitre: arbitre,
			Bulletin: s.bulletin(niveaux[j], rng)}
		if err := p.DeposerBulletin(b); err != nil {
			return err
		}
	}
	return p.Ramasser()
}

// corriger has the arbiters confirm engine/correction's decision on every
// bulletin of the coup just topped (§5).
func (s *Simulateur) corriger(p *duplicate.Partie, joueurs []string) error {
	coup := p.ProchainCoup() - 1
	for i, j := range joueurs {
		table, arbitre := Placement(i)
		if err := p.CorrigerBulletin(duplicate.Correction{Coup: coup, Licence: j, Arbitre: arbitre, Table: table}); err != nil {
			return err
		}
	}
	return nil
}

// bulletin is one player's answer: the top or a lesser move, with the
// mistakes of §4–§5 at realistic rates.
func (s *Simulateur) bulletin(niveau uint64, rng *splitmix) correction.Bulletin {
	de := rng.next() % 100
	if de < 2 {
		return duplicate.BulletinEcrit("", "", nil, true, false)
	}
	m := s.coups[0]
	if rng.next()%100 >= niveau {
		m = s.coups[rng.next()%uint64(min(len(s.coups), 30))]
	}
	ref, mot, score := m.Ref(), []byte(m.WordString()), int(m.Score)
	switch {
	case de < 5: // missing score
		return duplicate.BulletinEcrit(ref.String(), string(mot), nil, false, false)
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
		return duplicate.BulletinEcrit(ref.String(), string(mot), &score, false, true)
	}
	return duplicate.BulletinEcrit(ref.String(), string(mot), &score, false, false)
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
