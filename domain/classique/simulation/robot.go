// Package simulation plays classique matches and whole tournaments with the
// engine, for `arbitre simulate classique`, tests and benchmarks: greedy
// players (the top move) who sometimes pass, exchange, play a phony or
// contest, every decision drawn from a seeded source so a seed always gives
// the same games.
package simulation

import (
	"math/rand/v2"
	"slices"
	"strings"

	"arbitre/domain/classique/matchclassique"
	"arbitre/engine/board"
	"arbitre/engine/lexicon"
	"arbitre/engine/movegen"
	"arbitre/engine/tile"
)

// Comportement gives the probabilities of the robots' choices.
type Comportement struct {
	Passe  float64 // pass although a word is available
	Change float64 // exchange although a word is available (bag ≥ 7)
	Phony  float64 // play the top move with one letter changed
	// ContesteFaux is the chance to contest a play that holds an invalid
	// word; ContesteJuste to contest a valid play (and be penalised).
	ContesteFaux  float64
	ContesteJuste float64
}

// ComportementParDefaut is the behaviour of `arbitre simulate classique`.
func ComportementParDefaut() Comportement {
	return Comportement{Passe: 0.01, Change: 0.03, Phony: 0.04, ContesteFaux: 0.8, ContesteJuste: 0.02}
}

// maxActions bounds a match: a game has far fewer actions (102 tiles).
const maxActions = 1000

// Robot plays matches with one move generator; not safe for concurrent use.
type Robot struct {
	lex  *lexicon.Lexicon
	gen  *movegen.Generator
	comp Comportement
	// grille is the board of the search under way.
	grille board.Board
	// recherches counts the searches for the top (Bilan.Recherches).
	recherches int
}

// NewRobot returns a robot over a lexicon.
func NewRobot(lex *lexicon.Lexicon, comp Comportement) *Robot {
	return &Robot{lex: lex, gen: movegen.New(lex, movegen.Options{Variant: movegen.Standard, FirstMoveVertical: true}), comp: comp}
}

// Jouer plays a created match to its end and has both players sign the
// feuille de match. Every step goes through the aggregate's commands.
func (r *Robot) Jouer(p *matchclassique.Match, rng *rand.Rand) error {
	joueurs := p.Creation().Joueurs
	for range maxActions {
		if p.Phase() != matchclassique.PhaseTirageInitial && p.Phase() != matchclassique.PhaseEnCours {
			break
		}
		if err := r.Etape(p, rng); err != nil {
			return err
		}
	}
	if p.Phase() != matchclassique.PhaseTerminee {
		return nil
	}
	scores, _, _, _ := p.Resultat()
	if err := p.SignerFeuille(joueurs[0], scores); err != nil {
		return err
	}
	return p.SignerFeuille(joueurs[1], scores)
}

// Etape performs the next action of a match in play: a draw, a
// contestation or its acceptance, or the turn of the player to move.
func (r *Robot) Etape(p *matchclassique.Match, rng *rand.Rand) error {
	joueurs := p.Creation().Joueurs
	if j, n := p.TirageDu(); j >= 0 {
		return p.Tirer(joueurs[j], matchclassique.TirerAuHasard(p.Sac(), n, rng))
	}
	if auteur, mots, ok := p.Contestable(); ok {
		contestataire := joueurs[1-auteur]
		if faux := r.motsFaux(mots); len(faux) > 0 && rng.Float64() < r.comp.ContesteFaux {
			return p.Contester(contestataire, faux)
		} else if len(faux) == 0 && rng.Float64() < r.comp.ContesteJuste {
			return p.Contester(contestataire, mots[:1])
		}
		if p.FinEnAttente() {
			return p.Cloturer(contestataire)
		}
	}
	j := p.Trait()
	joueur := joueurs[j]
	if p.TempsEpuise(j) {
		return p.Passer(joueur)
	}
	sac := p.Sac()
	if sac.Size() < matchclassique.MinimumEchange && p.Passes() >= 2 {
		return p.ConstaterBlocage()
	}
	peutChanger := sac.Size() >= matchclassique.MinimumEchange && !p.TempsEpuise(1-j)
	x := rng.Float64()
	// A pass drawn when no exchange is allowed, or an exchange drawn when
	// one is, is what the robot does whatever its rack makes: no search.
	switch passe, change := x < r.comp.Passe, x < r.comp.Passe+r.comp.Change; {
	case passe && !peutChanger:
		return p.Passer(joueur)
	case !passe && change && peutChanger:
		return r.changer(p, joueur, j, rng)
	}
	moves := r.tops(p, j)
	switch {
	case len(moves) == 0 && peutChanger:
		return r.changer(p, joueur, j, rng)
	case len(moves) == 0:
		return p.Passer(joueur)
	case x < r.comp.Passe:
		return p.Passer(joueur)
	case x < r.comp.Passe+r.comp.Change && peutChanger:
		return r.changer(p, joueur, j, rng)
	case x < r.comp.Passe+r.comp.Change+r.comp.Phony:
		if r.phony(p, joueur, j, &moves[0], rng) {
			return nil
		}
	}
	m := &moves[rng.IntN(len(moves))]
	return p.PlacerMot(joueur, m.Ref().String(), m.WordString())
}

// tops returns every top of player j's rack (movegen.TopPruned: the
// robot's move is drawn among them), searched on the robot's own copy of
// the board with its one generator: nothing is allocated per move.
func (r *Robot) tops(p *matchclassique.Match, j int) []movegen.Move {
	r.grille = p.Grille()
	moves, _ := r.gen.Generate(&r.grille, p.Chevalet(j), movegen.TopPruned)
	r.recherches++
	return moves
}

// motsFaux lists the words of a play that are not in the lexicon.
func (r *Robot) motsFaux(mots []string) []string {
	var faux []string
	for _, m := range mots {
		if m = strings.ToUpper(m); !r.lex.ContainsString(m) && !slices.Contains(faux, m) {
			faux = append(faux, m)
		}
	}
	return faux
}

// changer exchanges a random non-empty part of the rack.
func (r *Robot) changer(p *matchclassique.Match, joueur string, j int, rng *rand.Rand) error {
	rack := p.Chevalet(j)
	var out tile.Rack
	for l := range rack {
		for range rack[l] {
			if rng.IntN(2) == 0 {
				out[l]++
			}
		}
	}
	if out.Size() == 0 {
		for l := range rack {
			if rack[l] > 0 {
				out[l]++
				break
			}
		}
	}
	return p.Echanger(joueur, out.String(), matchclassique.TirerAuHasard(p.Sac(), out.Size(), rng))
}

// phony plays move m with one put-down letter replaced by another letter of
// the rack; it reports false when no such placement is accepted.
func (r *Robot) phony(p *matchclassique.Match, joueur string, j int, m *movegen.Move, rng *rand.Rand) bool {
	rack := p.Chevalet(j)
	word := []byte(m.WordString())
	for try := 0; try < int(m.Len); try++ {
		i := (rng.IntN(int(m.Len)) + try) % int(m.Len)
		if !m.IsPlaced(i) || m.Word[i].IsJoker() {
			continue
		}
		for l := tile.Letter(1); l <= tile.Alphabet; l++ {
			if l == m.Word[i].Letter() || rack[l] == 0 {
				continue
			}
			alt := append([]byte(nil), word...)
			alt[i] = l.Byte()
			if p.PlacerMot(joueur, m.Ref().String(), string(alt)) == nil {
				return true
			}
		}
	}
	return false
}
