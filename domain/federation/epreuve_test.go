package federation

import (
	"arbitre/domain/erreur"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func joueur(licence, serie string, points ...int) JoueurCentre {
	s := 0
	for _, p := range points {
		s += p
	}
	return JoueurCentre{Licence: licence, Nom: "Joueur " + licence, Serie: serie, Score: s, Points: points}
}

func epreuveOuverte(t *testing.T, coups int) *Epreuve {
	t.Helper()
	e := NouvelleEpreuve()
	require.NoError(t, e.Ouvrir("SIM", "Simultané", coups))
	return e
}

// TestEpreuve_Guide2_17_2_CoupAnnuleMoyenneParSerie: a coup annulled in one centre
// counts, for its players, the average of the other centres' players of
// the same série, A and B together, on that coup (§2.17.2).
func TestEpreuve_Guide2_17_2_CoupAnnuleMoyenneParSerie(t *testing.T) {
	e := epreuveOuverte(t, 3)
	require.NoError(t, e.Recevoir(ResultatsCentre{Centre: "Lyon", Joueurs: []JoueurCentre{
		joueur("L1", "3A", 10, 20, 30), joueur("L2", "5", 10, 2, 30)}}, OrigineEnLigne, "h-lyon"))
	require.NoError(t, e.Recevoir(ResultatsCentre{Centre: "Nice", Joueurs: []JoueurCentre{
		joueur("N1", "3B", 10, 25, 30), joueur("N2", "5", 10, 4, 30)}}, OrigineFichier, "h-nice"))
	require.NoError(t, e.Recevoir(ResultatsCentre{Centre: "Brest", CoupsAnnules: []int{2}, Joueurs: []JoueurCentre{
		joueur("B1", "3A", 10, 0, 30), joueur("B2", "5", 10, 50, 30), joueur("B3", "7", 10, 9, 30)}}, OrigineEnLigne, "h-brest"))

	n := e.Classement()
	score := map[string]LigneNationale{}
	for _, l := range n.Classement {
		score[l.Licence] = l
	}
	tests := []struct {
		licence string
		score   int
	}{
		{"B1", 10 + 23 + 30}, // série 3, A and B together: (20+25)/2 = 22.5, rounded
		{"B2", 10 + 3 + 30},  // série 5: (2+4)/2
		{"B3", 10 + 13 + 30}, // no série 7 elsewhere: every other player, (20+2+25+4)/4 = 12.75
		{"L1", 60},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.score, score[tt.licence].Score, tt.licence)
	}
	assert.Equal(t, []int{2}, score["B1"].Moyennes)
	assert.Equal(t, 1, n.Classement[0].Rang)
	assert.Equal(t, "N1", n.Classement[0].Licence)
}

// TestEpreuve_Guide2_17_3_PartieAnnuleeHorsClassement: a centre whose game was
// annulled stays out of the national ranking, is ranked on its own, with
// its share of the participants per série (§2.17.3, §2.17.4).
func TestEpreuve_Guide2_17_3_PartieAnnuleeHorsClassement(t *testing.T) {
	e := epreuveOuverte(t, 1)
	require.NoError(t, e.Recevoir(ResultatsCentre{Centre: "Lyon", Joueurs: []JoueurCentre{joueur("L1", "3A", 10), joueur("L2", "5", 12)}}, OrigineEnLigne, "a"))
	require.NoError(t, e.Recevoir(ResultatsCentre{Centre: "Brest", PartieAnnulee: true, Joueurs: []JoueurCentre{joueur("B1", "3A", 40)}}, OrigineEnLigne, "b"))
	n := e.Classement()
	require.Len(t, n.Classement, 2)
	require.Len(t, n.HorsClasses, 1)
	assert.Equal(t, "Brest", n.HorsClasses[0].Centre)
	assert.Equal(t, 1, n.HorsClasses[0].Classement[0].Rang)
	assert.Equal(t, []Proportion{{Serie: "3A", Joueurs: 1, Participants: 2}}, n.HorsClasses[0].Proportions)
}

// TestEpreuve_RecevoirDeuxFoisSansEffet: the same results received twice
// (a bundle imported twice) record nothing the second time; other results
// for the same centre are refused.
func TestEpreuve_RecevoirDeuxFoisSansEffet(t *testing.T) {
	e := epreuveOuverte(t, 1)
	r := ResultatsCentre{Centre: "Lyon", Joueurs: []JoueurCentre{joueur("L1", "3A", 10)}}
	require.NoError(t, e.Recevoir(r, OrigineFichier, "h1"))
	e.MarkSaved()
	require.NoError(t, e.Recevoir(r, OrigineFichier, "h1"))
	assert.Empty(t, e.Pending())
	assert.Equal(t, 2, e.Version())
	assert.Equal(t, CodeCentreDejaRecu, erreur.CodeOf(e.Recevoir(r, OrigineFichier, "h2")))
}

// TestEpreuve_ResultatsInvalides: bad results are refused with a code and
// change nothing.
func TestEpreuve_ResultatsInvalides(t *testing.T) {
	tests := []struct {
		name string
		r    ResultatsCentre
		code Code
	}{
		{"sans centre", ResultatsCentre{Joueurs: []JoueurCentre{joueur("X", "1", 1, 2)}}, CodeResultatsInvalides},
		{"coups manquants", ResultatsCentre{Centre: "C", Joueurs: []JoueurCentre{joueur("X", "1", 1)}}, CodeResultatsInvalides},
		{"coup annulé hors partie", ResultatsCentre{Centre: "C", CoupsAnnules: []int{3}, Joueurs: []JoueurCentre{joueur("X", "1", 1, 2)}}, CodeResultatsInvalides},
		{"joueur de deux centres", ResultatsCentre{Centre: "C", Joueurs: []JoueurCentre{joueur("L1", "1", 1, 2)}}, CodeResultatsInvalides},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := epreuveOuverte(t, 2)
			require.NoError(t, e.Recevoir(ResultatsCentre{Centre: "Lyon", Joueurs: []JoueurCentre{joueur("L1", "3A", 1, 2)}}, OrigineEnLigne, "a"))
			temoin := *e
			assert.Equal(t, tt.code, erreur.CodeOf(e.Recevoir(tt.r, OrigineEnLigne, "b")))
			assert.Equal(t, temoin, *e)
		})
	}
	assert.Equal(t, CodeNotFound, erreur.CodeOf(NouvelleEpreuve().Recevoir(ResultatsCentre{}, OrigineEnLigne, "x")))
}

// BenchmarkEpreuve_Recevoir150Centres: a national event's 150 centres of
// 40 players received one after the other, each checked against those
// already received (issue 34 item 2). Checking against every centre again
// made the event's load grow with the square of its centres.
//
//	go test -run '^$' -bench Recevoir150Centres ./domain/federation/
func BenchmarkEpreuve_Recevoir150Centres(b *testing.B) {
	centres := make([]ResultatsCentre, 150)
	for c := range centres {
		centres[c].Centre = fmt.Sprintf("C%03d", c)
		for i := range 40 {
			points := make([]int, 26)
			centres[c].Joueurs = append(centres[c].Joueurs, joueur(fmt.Sprintf("C%03d-%02d", c, i), "3A", points...))
		}
	}
	for b.Loop() {
		e := NouvelleEpreuve()
		if err := e.Ouvrir("N", "National", 26); err != nil {
			b.Fatal(err)
		}
		for _, r := range centres {
			if err := e.Recevoir(r, OrigineEnLigne, r.Centre); err != nil {
				b.Fatal(err)
			}
		}
	}
}
