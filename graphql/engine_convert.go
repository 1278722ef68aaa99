package graphql

import (
	"arbitre/engine/board"
	"arbitre/engine/movegen"
	"arbitre/engine/play"
	"arbitre/engine/tile"
	"arbitre/graphql/model"
)

// maxListedPlacements caps how many placements one answer lists.
const maxListedPlacements = 1000

type position struct {
	board board.Board
	rack  tile.Rack
	opts  movegen.Options
}

func parsePosition(in model.PositionInput) (position, error) {
	var p position
	var err error
	if p.board, err = board.Parse(in.Grille); err != nil {
		return p, invalidInput("grille", err)
	}
	if p.rack, err = tile.ParseRack(in.Tirage); err != nil {
		return p, invalidInput("tirage", err)
	}
	p.opts.Variant = movegen.Standard
	if in.Formule != nil {
		if p.opts.Variant, err = movegen.VariantNamed(*in.Formule); err != nil {
			return p, invalidInput("formule", err)
		}
	}
	return p, nil
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

func verdict(res *play.Result) *model.VerdictCoup {
	v := &model.VerdictCoup{Probleme: res.Problem.String(), Jouable: res.Playable(), Score: int(res.Score), Mots: []model.MotForme{}}
	for i := 0; i < res.NWords; i++ {
		w := &res.Words[i]
		v.Mots = append(v.Mots, model.MotForme{Mot: w.Text(), Reference: w.Ref.String(), Score: int(w.Score), Valide: w.Valid})
	}
	return v
}
