package graphql

import (
	"fmt"
	"unicode/utf8"

	"arbitre/domain/duplicate"
	"arbitre/domain/erreur"
	"arbitre/engine/board"
	"arbitre/engine/movegen"
	"arbitre/engine/play"
	"arbitre/engine/tile"
	"arbitre/graphql/generated"
	"arbitre/graphql/model"
)

// maxListedPlacements caps how many placements one answer lists (tous).
const maxListedPlacements = 1000

// codeCancelled reports a search stopped because its request ended.
const codeCancelled Code = "CANCELLED"

// Costs of the engine's fields in the complexity limit (server.Limits),
// proportional to their work: solving walks the lexicon from every anchor
// of the board, checking one placement only reads its words.
const (
	costResoudre     = 200
	costVerifierCoup = 20
)

// Complexity gives the engine's fields their cost in gqlgen's complexity
// limit (every other field counts 1): resoudre costs costResoudre plus one
// per listed placement, verifierCoup costVerifierCoup, each plus its
// selection. With the default limit of 5000, a request asks at most 24
// solutions and 200 aliases of resoudre are refused before any work.
func Complexity() generated.ComplexityRoot {
	var c generated.ComplexityRoot
	c.Query.Resoudre = func(child int, _ model.PositionInput, tous *int) int {
		listed := 0
		if tous != nil {
			listed = max(*tous, 0)
		}
		return costResoudre + listed + child
	}
	c.Query.VerifierCoup = func(child int, _ model.PositionInput, _, _ string) int {
		return costVerifierCoup + child
	}
	return c
}

type position struct {
	board board.Board
	rack  tile.Rack
	opts  movegen.Options
}

// parsePosition reads a position and refuses what no game can hold: a grid
// other than 15 rows of 15 squares, a tirage longer than the formula's
// (§3.8.2) or with more jokers than the set (§1.1). The checks run before
// the engine sees the position, and the messages never repeat the input
// beyond one tirage.
func parsePosition(in model.PositionInput) (position, error) {
	var p position
	var err error
	p.opts.Variant = movegen.Standard
	if in.Formule != nil {
		if p.opts.Variant, err = movegen.VariantNamed(string(*in.Formule)); err != nil {
			return p, refusal("formule", "formule inconnue (normal, 7sur8, 7et8 ou 789)", err)
		}
	}
	if p.board, err = board.Parse(in.Grille); err != nil {
		return p, invalidInput("grille", err)
	}
	v := p.opts.Variant
	tropLong := func(n int) error {
		return refusal("tirage", fmt.Sprintf("%d lettres, un tirage en formule %s compte au plus %d lettres", n, v.Name, v.RackSize), nil)
	}
	if n := utf8.RuneCountInString(in.Tirage); n > v.RackSize {
		return p, tropLong(n)
	}
	if p.rack, err = tile.ParseRack(in.Tirage); err != nil {
		return p, invalidInput("tirage", err)
	}
	if n := p.rack.Size(); n > v.RackSize { // a ligature is two letters
		return p, tropLong(n)
	}
	if n, most := int(p.rack[tile.NoLetter]), tile.NoLetter.Count(); n > most {
		return p, refusal("tirage", fmt.Sprintf("%d jokers, le jeu n'en compte que %d", n, most), nil)
	}
	return p, nil
}

// listed is how many placements resoudre lists, refused outside
// 0..maxListedPlacements.
func listed(tous *int) (int, error) {
	if tous == nil {
		return 0, nil
	}
	if *tous < 0 || *tous > maxListedPlacements {
		return 0, refusal("tous", fmt.Sprintf("entre 0 et %d placements", maxListedPlacements), nil)
	}
	return *tous, nil
}

// cancelled reports a search its request's end stopped.
func cancelled(err error) *erreur.Erreur {
	return &erreur.Erreur{Code: codeCancelled, Message: "recherche interrompue : la requête a pris fin", Err: err}
}

func parsePlacement(mot, reference string) (board.Ref, []tile.Tile, error) {
	ref, err := board.ParseRef(reference)
	if err != nil {
		return ref, nil, invalidInput("reference", err)
	}
	word, err := play.ParseWord(mot)
	if err != nil {
		return ref, nil, invalidInput("mot", err)
	}
	return ref, word, nil
}

func placements(ms []movegen.Move) []model.Placement {
	out := make([]model.Placement, len(ms))
	for i := range ms {
		m := &ms[i]
		out[i] = model.Placement{Mot: m.WordString(), Reference: m.Ref().String(), Score: int(m.Score),
			AvecJoker: m.UsesJoker, VideTirage: m.EmptiesRack}
	}
	return out
}

// verdict is the answer of verifierCoup: the placement's problem, or
// INVALID_WORD when the rules allow it but a word is not in the lexicon.
func verdict(res *play.Result) *model.VerdictCoup {
	probleme := res.Problem.String()
	if res.Problem == play.OK && !res.Playable() {
		probleme = string(duplicate.CodeInvalidWord)
	}
	v := &model.VerdictCoup{Probleme: model.ProblemeCoup(probleme), Jouable: res.Playable(), Score: int(res.Score), Mots: []model.MotForme{}}
	for i := 0; i < res.NWords; i++ {
		w := &res.Words[i]
		v.Mots = append(v.Mots, model.MotForme{Mot: w.Text(), Reference: w.Ref.String(), Score: int(w.Score), Valide: w.Valid})
	}
	return v
}
