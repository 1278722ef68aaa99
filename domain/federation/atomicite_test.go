package federation

import (
	"testing"

	"arbitre/domain/aggregate"
	"arbitre/domain/erreur"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestAtomicite_EvenementRefuseLaisseEpreuveIntacte: an event that does
// not fit is a corrupt history and leaves the event exactly as it was, its
// new events included.
func TestAtomicite_EvenementRefuseLaisseEpreuveIntacte(t *testing.T) {
	tests := []struct {
		name string
		evt  any
	}{
		{"seconde ouverture", EpreuveOuverte{Epreuve: "X", Coups: 2}},
		{"coups manquants", ResultatsCentreRecus{Resultats: ResultatsCentre{Centre: "C", Joueurs: []JoueurCentre{joueur("X", "1", 1)}}}},
		{"centre reçu deux fois", ResultatsCentreRecus{Resultats: ResultatsCentre{Centre: "Lyon", Joueurs: []JoueurCentre{joueur("Y", "1", 1, 2)}}}},
		{"événement étranger", JumelageCree{Jumelage: "J"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := epreuveOuverte(t, 2)
			require.NoError(t, e.Recevoir(ResultatsCentre{Centre: "Lyon", Joueurs: []JoueurCentre{joueur("L1", "3A", 1, 2)}}, OrigineEnLigne, "a"))
			temoin := *e
			assert.Equal(t, CodeCorruptHistory, erreur.CodeOf(aggregate.Record(e, tt.evt)))
			assert.Equal(t, temoin, *e)
			assert.Len(t, e.Pending(), 2)
		})
	}
}

// TestAtomicite_EvenementRefuseLaisseJumelageIntact: the same for the
// twinning; a command of several events (Retablir after a long cut)
// replaces the twinning only when all of them applied.
func TestAtomicite_EvenementRefuseLaisseJumelageIntact(t *testing.T) {
	tests := []struct {
		name string
		evt  any
	}{
		{"seconde création", JumelageCree{Jumelage: "X", Formule: FormuleEgaux}},
		{"rétablissement sans coupure", LiaisonRetablie{Site: "Nice"}},
		{"coupure d'un site inconnu", LiaisonCoupee{Site: "Paris"}},
		{"événement étranger", EpreuveOuverte{Epreuve: "E"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			j := jumelage(t, FormuleSatellites)
			require.NoError(t, j.Couper("Lyon", "P1", mural(t0)))
			temoin := j.Copie()
			assert.Equal(t, CodeCorruptHistory, erreur.CodeOf(aggregate.Record(j, tt.evt)))
			assert.Equal(t, temoin, j)
		})
	}
	j := jumelage(t, FormuleSatellites)
	require.NoError(t, j.Couper("Lyon", "P1", mural(t0)))
	temoin := j.Copie()
	assert.Error(t, aggregate.Decide(j, func(k *Jumelage) error {
		require.NoError(t, aggregate.Record(k, PartieAnnuleeAuSite{Site: "Lyon", Partie: "P1", A: t0}))
		return aggregate.Record(k, LiaisonRetablie{Site: "Nice"})
	}))
	assert.Equal(t, temoin, j, "the first event of the refused batch is not kept")
}
