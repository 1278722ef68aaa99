package tournoiclassique_test

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbitre/domain/classique/tournoiclassique"
	"arbitre/domain/erreur"
	"arbitre/domain/eventstore"
)

// rangs lists "joueur:rang" in order.
func rangs(l []tournoiclassique.Ligne) []string {
	out := make([]string, len(l))
	for i, x := range l {
		out[i] = x.Joueur + ":" + string(rune('0'+x.Rang))
	}
	return out
}

// TestArt7_Art9_DepartageApresPointsDeMatch: the classique regulation
// counts points de match only (classique §7: victoire 3, nul 2, défaite 1)
// and gives no tie-break: the tournament names its policy, criteria in
// order, with ex aequo allowed or not, and what the bye counts (by default
// §9's 450–350 for a game not played).
func TestArt7_Art9_DepartageApresPointsDeMatch(t *testing.T) {
	p := func(id string, cote int) tournoiclassique.Participant {
		return tournoiclassique.Participant{Joueur: id, Cote: cote}
	}
	defaut := tournoiclassique.ConfigParDefaut()
	avec := func(criteres []tournoiclassique.Critere, exAequo bool, exempt tournoiclassique.Exempt) tournoiclassique.Config {
		return tournoiclassique.Config{Departage: tournoiclassique.Departage{Criteres: criteres, ExAequo: exAequo}, Exempt: exempt}
	}
	// a and b both 3 PM, never met: a wins by 500 (capped 200), b by 300
	// (capped 200); b has the better cote.
	ecarts := []tournoiclassique.Rencontre{res("a", "c", 800, 300), res("b", "d", 600, 300)}
	participants := []tournoiclassique.Participant{p("a", 500), p("b", 1000), p("c", 0), p("d", 0)}
	tests := []struct {
		name         string
		cfg          tournoiclassique.Config
		participants []tournoiclassique.Participant
		rencontres   []tournoiclassique.Rencontre
		exempts      []string
		nom          string
		want         []string
	}{
		{"par défaut : confrontation, écart plafonné, cote", defaut, participants, ecarts, nil,
			"pm>confrontation>ecart_plafonne>cote", []string{"b:1", "a:2", "c:3", "d:4"}},
		{"l'écart sans plafond d'abord", avec([]tournoiclassique.Critere{tournoiclassique.CritereEcart, tournoiclassique.CritereCote}, false, defaut.Exempt), participants, ecarts, nil,
			"pm>ecart>cote", []string{"a:1", "b:2", "d:3", "c:4"}},
		{"ex aequo admis : même rang, le suivant saute", avec([]tournoiclassique.Critere{tournoiclassique.CritereEcartPlafonne}, true, defaut.Exempt), participants, ecarts, nil,
			"pm>ecart_plafonne=ex-aequo", []string{"a:1", "b:1", "c:3", "d:3"}},
		{"points de match seuls, sans ex aequo : l'identifiant tranche", avec([]tournoiclassique.Critere{}, false, defaut.Exempt), participants, ecarts, nil,
			"pm", []string{"a:1", "b:2", "c:3", "d:4"}},
		{"l'exempt par défaut : une victoire 450–350", defaut, []tournoiclassique.Participant{p("a", 0), p("b", 0), p("c", 0)},
			[]tournoiclassique.Rencontre{res("a", "b", 550, 300)}, []string{"c"}, "pm>confrontation>ecart_plafonne>cote", []string{"a:1", "c:2", "b:3"}},
		{"l'exempt du tournoi : un nul 400–400", avec(defaut.Departage.Criteres, false, tournoiclassique.Exempt{PointsDeMatch: 2, Score: 400, ScoreAdverse: 400}),
			[]tournoiclassique.Participant{p("a", 0), p("b", 0), p("c", 0)}, []tournoiclassique.Rencontre{res("a", "b", 550, 300)}, []string{"c"},
			"pm>confrontation>ecart_plafonne>cote", []string{"a:1", "c:2", "b:3"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			require.NoError(t, tt.cfg.Valider())
			assert.Equal(t, tt.nom, tt.cfg.Departage.Nom())
			got := tournoiclassique.Classer(tt.cfg, tt.participants, tt.rencontres, tt.exempts)
			assert.Equal(t, tt.want, rangs(got))
			for _, l := range got {
				if l.Exempts > 0 {
					assert.Equal(t, tt.cfg.Exempt.PointsDeMatch, l.PointsDeMatch, "the bye's points de match")
					assert.Equal(t, tt.cfg.Exempt.Score-tt.cfg.Exempt.ScoreAdverse, l.Ecart, "the bye's spread")
				}
			}
		})
	}
}

// TestArt7_Art9_ConfigurationDuTournoi: the configuration is recorded when
// the tournament opens and read back on replay; a tournament opened before
// it was recorded takes the default; a bad one is refused and opens nothing.
func TestArt7_Art9_ConfigurationDuTournoi(t *testing.T) {
	cfg := tournoiclassique.Config{Departage: tournoiclassique.Departage{Criteres: []tournoiclassique.Critere{tournoiclassique.CritereCote}, ExAequo: true},
		Exempt: tournoiclassique.Exempt{PointsDeMatch: 2, Score: 400, ScoreAdverse: 400}}
	tr := tournoiclassique.Nouveau()
	err := tr.Ouvrir("open", "Open", 3, cfg)
	require.NoError(t, err)
	rejoue, err := tournoiclassique.Rejouer(tr.Pending())
	require.NoError(t, err)
	assert.Equal(t, cfg, rejoue.Config())

	r := eventstore.NewRegistry()
	require.NoError(t, tournoiclassique.RegisterEvents(r))
	ancien, err := r.Decode(eventstore.Event{Type: tournoiclassique.TypeTournoiOuvert, Version: 1, Data: json.RawMessage(`{"tournoi":"open","nom":"Open","rondes":3}`)})
	require.NoError(t, err)
	rejoue, err = tournoiclassique.Rejouer([]any{ancien})
	require.NoError(t, err)
	assert.Equal(t, tournoiclassique.ConfigParDefaut(), rejoue.Config(), "an event without configuration")

	for _, bad := range []tournoiclassique.Config{
		{Departage: tournoiclassique.Departage{Criteres: []tournoiclassique.Critere{"age"}}},
		{Departage: tournoiclassique.Departage{Criteres: []tournoiclassique.Critere{tournoiclassique.CritereCote, tournoiclassique.CritereCote}}},
		{Exempt: tournoiclassique.Exempt{PointsDeMatch: -1}},
	} {
		err := tournoiclassique.Nouveau().Ouvrir("open", "Open", 3, bad)
		assert.Equal(t, tournoiclassique.CodeInvalidInput, erreur.CodeOf(err), "%+v", bad)
	}
}
