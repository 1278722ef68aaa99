package charge

import (
	"testing"

	"github.com/anishathalye/porcupine"
	"github.com/stretchr/testify/assert"
)

// Issue 32: the model refuses the histories the API must never show, and
// takes the concurrent ones it may.
func TestFiabilite_ModeleDeCoherence(t *testing.T) {
	op := func(client int, in entreeVerif, appel, fin int64, out sortieVerif) porcupine.Operation {
		return porcupine.Operation{ClientId: client, Input: in, Call: appel, Output: out, Return: fin}
	}
	creer := op(0, entreeVerif{op: opCreer}, 0, 1, sortieVerif{coup: 1, statut: "attente_tirage", version: 1})
	tirer := op(0, entreeVerif{op: opTirer, coup: 1}, 2, 10, sortieVerif{coup: 1, statut: "tirage", version: 2, solutions: true})
	cas := []struct {
		nom      string
		histoire []porcupine.Operation
		correcte bool
	}{
		{"a read after the tirage's acknowledgement shows it", []porcupine.Operation{creer, tirer,
			op(1, entreeVerif{op: opLire}, 20, 30, sortieVerif{coup: 1, statut: "tirage", version: 2})}, true},
		{"a read after the tirage's acknowledgement shows the game before it (stale)", []porcupine.Operation{creer, tirer,
			op(1, entreeVerif{op: opLire}, 20, 30, sortieVerif{coup: 1, statut: "attente_tirage", version: 1})}, false},
		{"a read concurrent with the tirage may show either", []porcupine.Operation{creer, tirer,
			op(1, entreeVerif{op: opLire}, 5, 8, sortieVerif{coup: 1, statut: "attente_tirage", version: 1})}, true},
		{"a read goes back after another showed the tirage (not monotonic)", []porcupine.Operation{creer, tirer,
			op(1, entreeVerif{op: opLire}, 2, 4, sortieVerif{coup: 1, statut: "tirage", version: 2}),
			op(1, entreeVerif{op: opLire}, 5, 8, sortieVerif{coup: 1, statut: "attente_tirage", version: 1})}, false},
		{"the director reads the tirage without the engine's tops (store read stale)", []porcupine.Operation{creer, tirer,
			op(0, entreeVerif{op: opLireDirecteur}, 11, 12, sortieVerif{coup: 1, statut: "tirage", version: 2})}, false},
		{"a bulletin acknowledged is listed", []porcupine.Operation{creer, tirer,
			op(2, entreeVerif{op: opDeposer, coup: 1, joueur: 1}, 11, 12, sortieVerif{}),
			op(3, entreeVerif{op: opLireBulletins, coup: 1}, 13, 14, sortieVerif{joueurs: 1 << 1}),
			op(4, entreeVerif{op: opLire}, 13, 14, sortieVerif{coup: 1, statut: "tirage", version: 3})}, true},
		{"a display reads the game without a bulletin acknowledged before (stale version)", []porcupine.Operation{creer, tirer,
			op(2, entreeVerif{op: opDeposer, coup: 1, joueur: 1}, 11, 12, sortieVerif{}),
			op(4, entreeVerif{op: opLire}, 13, 14, sortieVerif{coup: 1, statut: "tirage", version: 2})}, false},
		{"a bulletin acknowledged is missing (lost)", []porcupine.Operation{creer, tirer,
			op(2, entreeVerif{op: opDeposer, coup: 1, joueur: 1}, 11, 12, sortieVerif{}),
			op(3, entreeVerif{op: opLireBulletins, coup: 1}, 13, 14, sortieVerif{})}, false},
		{"a bulletin applied twice", []porcupine.Operation{creer, tirer,
			op(2, entreeVerif{op: opDeposer, coup: 1, joueur: 1}, 11, 12, sortieVerif{}),
			op(2, entreeVerif{op: opDeposer, coup: 1, joueur: 1}, 13, 14, sortieVerif{})}, false},
		{"a top the director may retain is refused", []porcupine.Operation{creer, tirer,
			op(0, entreeVerif{op: opTop, coup: 1}, 11, 12, sortieVerif{refus: "INVALID_TOP"})}, false},
	}
	for _, c := range cas {
		t.Run(c.nom, func(t *testing.T) {
			assert.Equal(t, c.correcte, porcupine.CheckOperations(modeleVerif(8), c.histoire))
		})
	}
}
