// Package archivetest writes imports as stores recorded them before their
// lines were put in columns: one event per line of the file. Tests check
// those stores are still read.
package archivetest

import (
	"crypto/sha256"
	"encoding/hex"
	"testing"

	"github.com/stretchr/testify/require"

	"arbitre/domain/archive"
)

// EvenementsParLigne returns the events an import of contenu recorded
// before archive.PartieDuplicate and archive.MatchClassique: its
// ImportOuvert, then one ResultatDuplicate or ResultatClassique per line.
func EvenementsParLigne(t testing.TB, fichier string, contenu []byte) []any {
	t.Helper()
	d, numeros, err := archive.Lire(contenu)
	require.NoError(t, err)
	somme := sha256.Sum256(contenu)
	out := []any{archive.ImportOuvert{Tournoi: d.Tournoi, Nom: d.Nom, Genre: d.Genre, Date: d.Date, Fichier: fichier,
		Empreinte: hex.EncodeToString(somme[:]), Lignes: len(numeros), Exempt: d.Exempt}}
	for i, n := range numeros {
		if d.Genre == archive.GenreClassique {
			out = append(out, archive.ResultatClassique{Ligne: n, LigneClassique: d.Classique[i]})
		} else {
			out = append(out, archive.ResultatDuplicate{Ligne: n, LigneDuplicate: d.Duplicate[i]})
		}
	}
	return out
}
