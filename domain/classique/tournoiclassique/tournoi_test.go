package tournoiclassique_test

import (
	"fmt"
	"testing"

	"github.com/google/uuid"

	"arbitre/domain/classique/matchclassique"
	"arbitre/domain/classique/pairing"
	"arbitre/domain/classique/tournoiclassique"
	"arbitre/domain/erreur"
	"arbitre/domain/eventstore"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func joueurs(l []tournoiclassique.Ligne) []string {
	out := make([]string, len(l))
	for i, x := range l {
		out[i] = x.Joueur
	}
	return out
}

func res(a, b string, sa, sb int) tournoiclassique.Rencontre {
	_, pm := matchclassique.Vainqueur([2]int{sa, sb})
	return tournoiclassique.Rencontre{Joueurs: [2]string{a, b}, Scores: [2]int{sa, sb}, PointsDeMatch: pm}
}

func TestClasserTieBreaks(t *testing.T) {
	p := func(id string, cote int) tournoiclassique.Participant {
		return tournoiclassique.Participant{Joueur: id, Cote: cote}
	}
	tests := []struct {
		name         string
		participants []tournoiclassique.Participant
		rencontres   []tournoiclassique.Rencontre
		exempts      []string
		want         []string
	}{
		{"points de match first", []tournoiclassique.Participant{p("a", 0), p("b", 0)},
			[]tournoiclassique.Rencontre{res("a", "b", 300, 400)}, nil, []string{"b", "a"}},
		{"capped spread before cote", []tournoiclassique.Participant{p("a", 1000), p("b", 500), p("c", 0), p("d", 0)},
			// a and b both 3 PM, never met: a wins by 500 (capped 200), b by 150.
			[]tournoiclassique.Rencontre{res("a", "c", 800, 300), res("b", "d", 450, 300)}, nil, []string{"a", "b", "d", "c"}},
		{"cap makes the cote decide", []tournoiclassique.Participant{p("a", 500), p("b", 1000), p("c", 0), p("d", 0)},
			[]tournoiclassique.Rencontre{res("a", "c", 800, 300), res("b", "d", 600, 300)}, nil, []string{"b", "a", "c", "d"}},
		{"withdrawn after the last", []tournoiclassique.Participant{{Joueur: "a", Cote: 2000, Retire: true}, p("b", 0), p("c", 0)},
			[]tournoiclassique.Rencontre{res("a", "b", 500, 300)}, nil, []string{"b", "c", "a"}},
		{"bye counts as 450-350", []tournoiclassique.Participant{p("a", 0), p("b", 0), p("c", 0)},
			[]tournoiclassique.Rencontre{res("a", "b", 550, 300)}, []string{"c"}, []string{"a", "c", "b"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := tournoiclassique.Classer(tournoiclassique.ConfigParDefaut(), tt.participants, tt.rencontres, tt.exempts)
			if tt.want != nil {
				assert.Equal(t, tt.want, joueurs(got))
			}
			for i, l := range got {
				assert.Equal(t, i+1, l.Rang)
			}
		})
	}
}

func TestPPMAppliesOnlyWhenAllTiedPlayersMet(t *testing.T) {
	ps := []tournoiclassique.Participant{{Joueur: "a"}, {Joueur: "b"}, {Joueur: "c"}, {Joueur: "d"}}
	// a and b tie on 4 PM and met: b beat a narrowly but a has the bigger spread.
	met := []tournoiclassique.Rencontre{res("a", "b", 400, 401), res("a", "c", 600, 300), res("b", "d", 400, 401)}
	got := tournoiclassique.Classer(tournoiclassique.ConfigParDefaut(), ps, met, nil)
	assert.Equal(t, []string{"b", "a"}, joueurs(got)[:2], "head-to-head before spread")
	assert.Equal(t, 3, got[0].PPM)
	// Same points but a and b never met: spread decides.
	apart := []tournoiclassique.Rencontre{res("a", "c", 400, 401), res("a", "d", 600, 300), res("b", "c", 401, 400), res("b", "d", 400, 401)}
	got = tournoiclassique.Classer(tournoiclassique.ConfigParDefaut(), ps, apart, nil)
	assert.Equal(t, "a", got[0].Joueur)
	assert.Zero(t, got[0].PPM)
}

func ouvert(t *testing.T, n int) *tournoiclassique.TournoiClassique {
	t.Helper()
	tr := tournoiclassique.Nouveau()
	err := tr.Ouvrir("open", "Open de test", 3, tournoiclassique.ConfigParDefaut())
	require.NoError(t, err)
	for i := range n {
		require.NoError(t, tr.Inscrire(fmt.Sprintf("p%d", i), "", 1000+10*i))
	}
	return tr
}

// jouer records a result for every table of the last round: the first
// listed player wins 400-350.
func jouer(t *testing.T, tr *tournoiclassique.TournoiClassique) {
	t.Helper()
	pub := tr.Publiees()
	for _, tb := range pub[len(pub)-1].Tables {
		f := matchclassique.FeuilleValidee{Joueurs: [2]string{tb.Premier, tb.Second}, Fin: matchclassique.FinReliquatEpuise,
			Scores: [2]int{400, 350}, Perdant: 1, PointsDeMatch: [2]int{3, 1}}
		require.NoError(t, tr.EnregistrerResultat(tb.Match, f))
	}
}

func assertReplay(t *testing.T, tr *tournoiclassique.TournoiClassique) {
	t.Helper()
	reg := eventstore.NewRegistry()
	require.NoError(t, tournoiclassique.RegisterEvents(reg))
	var decoded []any
	for _, e := range tr.Pending() {
		data, err := reg.NewEventData(uuid.New(), e, eventstore.Metadata{})
		require.NoError(t, err)
		v, err := reg.Decode(eventstore.Event{Type: data.Type, Version: data.Version, Data: data.Data})
		require.NoError(t, err)
		decoded = append(decoded, v)
	}
	r, err := tournoiclassique.Rejouer(decoded)
	require.NoError(t, err)
	assert.Equal(t, tr.Classement(), r.Classement())
	assert.Equal(t, tr.Publiees(), r.Publiees())
	assert.Equal(t, tr.Inscrits(), r.Inscrits())
	assert.Equal(t, tr.Version(), r.Version())
}

func refused(t *testing.T, tr *tournoiclassique.TournoiClassique, code tournoiclassique.Code, cmd func() error) {
	t.Helper()
	n := tr.Version()
	err := cmd()
	assert.Equal(t, code, erreur.CodeOf(err), "%v", err)
	assert.Equal(t, n, tr.Version())
}

func TestRoundsProposedAmendedPublished(t *testing.T) {
	tr := ouvert(t, 5)
	refused(t, tr, tournoiclassique.CodeWrongState, func() error { return tr.Proposer(pairing.InitialByCote, false) })
	refused(t, tr, tournoiclassique.CodeInvalidPlayer, func() error { return tr.Inscrire("p1", "", 0) })
	refused(t, tr, tournoiclassique.CodeInvalidPlayer, func() error { return tr.Inscrire("x", "", -1) })
	require.NoError(t, tr.EtablirTetesDeSerie())
	assert.Equal(t, []string{"p4", "p3", "p2", "p1", "p0"}, tr.TetesDeSerie())
	refused(t, tr, tournoiclassique.CodeWrongState, func() error { return tr.Inscrire("late", "", 0) })

	require.NoError(t, tr.Proposer(pairing.InitialByCote, false))
	prop, _ := tr.Proposition()
	require.NotNil(t, prop)
	assert.Len(t, prop.Tables, 2)
	assert.NotEmpty(t, prop.Exempt, "odd count: a bye")

	// The director amends: bad amendments are refused and change nothing.
	refused(t, tr, tournoiclassique.CodeInvalidPairing, func() error {
		return tr.Amender([]tournoiclassique.TableAmendee{{"p0", "p1"}, {"p2", "p3"}}, "", "no bye")
	})
	refused(t, tr, tournoiclassique.CodeInvalidPairing, func() error {
		return tr.Amender([]tournoiclassique.TableAmendee{{"p0", "p0"}, {"p2", "p3"}}, "p4", "self")
	})
	refused(t, tr, tournoiclassique.CodeInvalidPairing, func() error {
		return tr.Amender([]tournoiclassique.TableAmendee{{"p0", "p1"}}, "p4", "missing players")
	})
	require.NoError(t, tr.Amender([]tournoiclassique.TableAmendee{{"p0", "p1"}, {"p2", "p3"}}, "p4", "club mates apart"))
	require.NoError(t, tr.Publier())
	pub := tr.Publiees()[0]
	assert.True(t, pub.Amende)
	assert.Equal(t, "open-r1-t1", pub.Tables[0].Match)
	assert.Equal(t, "p4", pub.Exempt)

	refused(t, tr, tournoiclassique.CodeRoundIncomplete, func() error { return tr.Proposer(pairing.Swiss, false) })
	refused(t, tr, tournoiclassique.CodeInvalidResult, func() error {
		return tr.EnregistrerResultat("open-r1-t1", matchclassique.FeuilleValidee{Joueurs: [2]string{"p0", "p2"}})
	})
	jouer(t, tr)
	refused(t, tr, tournoiclassique.CodeInvalidResult, func() error {
		return tr.EnregistrerResultat("open-r1-t1", matchclassique.FeuilleValidee{Joueurs: [2]string{"p0", "p1"}})
	})

	// Round 2: the proposal is kept unchanged; p4 cannot get a second bye.
	require.NoError(t, tr.Proposer(pairing.Swiss, false))
	prop, _ = tr.Proposition()
	assert.NotEqual(t, "p4", prop.Exempt)
	refused(t, tr, tournoiclassique.CodeInvalidPairing, func() error {
		return tr.Amender([]tournoiclassique.TableAmendee{{"p0", "p1"}, {"p2", "p3"}}, "p4", "second bye")
	})
	require.NoError(t, tr.Publier())
	assert.False(t, tr.Publiees()[1].Amende)
	jouer(t, tr)

	// A withdrawal (§9): not paired again, ranked after the last.
	require.NoError(t, tr.Retirer("p0", "malade"))
	refused(t, tr, tournoiclassique.CodeAlreadyWithdrawn, func() error { return tr.Retirer("p0", "") })
	require.NoError(t, tr.Proposer(pairing.Swiss, false))
	prop, _ = tr.Proposition()
	assert.Len(t, prop.Tables, 2)
	assert.Empty(t, prop.Exempt)
	for _, tb := range prop.Tables {
		assert.NotContains(t, []string{tb.Premier, tb.Second}, "p0")
	}
	require.NoError(t, tr.Publier())
	refused(t, tr, tournoiclassique.CodeRoundIncomplete, func() error { return tr.Clore() })
	jouer(t, tr)
	refused(t, tr, tournoiclassique.CodeWrongState, func() error { return tr.Proposer(pairing.Swiss, false) })
	require.NoError(t, tr.Clore())
	cl := tr.Classement()
	assert.Equal(t, "p0", cl[len(cl)-1].Joueur)
	assert.True(t, cl[len(cl)-1].Retire)
	assertReplay(t, tr)
}

// Issue 33 item 1 (one way to create): a tournament is opened once; Ouvrir
// on an opened one is ALREADY_EXISTS and changes nothing.
func TestCreation_TournoiOuvertUneFois(t *testing.T) {
	tr := tournoiclassique.Nouveau()
	require.NoError(t, tr.Ouvrir("open", "Open de test", 3, tournoiclassique.ConfigParDefaut()))
	err := tr.Ouvrir("open", "Autre", 5, tournoiclassique.ConfigParDefaut())
	assert.Equal(t, erreur.CodeAlreadyExists, erreur.CodeOf(err))
	assert.Equal(t, 1, tr.Version())
	assert.Len(t, tr.Pending(), 1)
}
