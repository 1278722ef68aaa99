package archive_test

import (
	"bytes"
	"context"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"arbitre/domain/archive"
	"arbitre/domain/eventstore"
	"arbitre/domain/eventstore/repository"
	"arbitre/domain/eventstore/sqlitestore"
)

// lotSimule is a lot of 64 tournaments as `simulate archive` makes them,
// half duplicate (170 players, three games), half classique (40 players,
// seven rounds), their ids prefixed by n.
func lotSimule(n int) []archive.Document {
	var lot []archive.Document
	for t := range 64 {
		id := fmt.Sprintf("l%d-%02d", n, t)
		d := archive.Document{Tournoi: id, Date: "2006-03-04"}
		if t%2 == 0 {
			d.Genre, d.Nom = archive.GenreDuplicate, "Tournoi duplicate de Vichy 2006"
			for j := range 170 {
				for p := range 3 {
					d.Duplicate = append(d.Duplicate, archive.LigneDuplicate{Partie: fmt.Sprintf("%s-%d", id, p+1), Numero: p + 1,
						Licence: fmt.Sprintf("%07d", j*7+t), Nom: "Dupont Élise", Club: "Vichy 1", Serie: "B", Score: 700 + j, Top: 950,
						Rang: j + 1, Cumul: 2100 + 3*j, TopCumul: 2850, Pourcentage: 73.68, RangGeneral: j + 1})
				}
			}
		} else {
			d.Genre, d.Nom = archive.GenreClassique, "Open classique de Lyon 2006"
			for r := range 7 {
				for j := 0; j < 40; j += 2 {
					a, b := fmt.Sprintf("%07d", j*7+t), fmt.Sprintf("%07d", (j+1)*7+t)
					m := fmt.Sprintf("%s-r%d-t%d", id, r+1, j/2+1)
					d.Classique = append(d.Classique,
						archive.LigneClassique{Ronde: r + 1, Match: m, Licence: a, Nom: "Martin Léo", Club: "Lyon 2", Adversaire: b,
							Score: 420, ScoreAdversaire: 380, PointsDeMatch: 3, CoteAvant: 1500 + j, CoteApres: 1510 + j},
						archive.LigneClassique{Ronde: r + 1, Match: m, Licence: b, Nom: "Petit Jean", Club: "Nîmes 1", Adversaire: a,
							Score: 380, ScoreAdversaire: 420, PointsDeMatch: 1, CoteAvant: 1400 + j, CoteApres: 1390 + j})
				}
			}
		}
		lot = append(lot, d)
	}
	return lot
}

// BenchmarkIssue34_ImportDUnLot: the import side of `simulate archive` for
// one lot of 64 tournaments (25,000 lines, 2,400 events): each written as
// CSV, then read, checked and recorded by archive.ImporterLot in an SQLite
// store.
func BenchmarkIssue34_ImportDUnLot(b *testing.B) {
	ctx := context.Background()
	store, err := sqlitestore.Open(ctx, filepath.Join(b.TempDir(), "events.db"), sqlitestore.Options{})
	require.NoError(b, err)
	b.Cleanup(func() { store.Close() })
	reg := eventstore.NewRegistry()
	require.NoError(b, archive.RegisterEvents(reg))
	flux := repository.Streams{Store: store, Registry: reg}
	lots := make([][]archive.Document, b.N)
	for n := range lots {
		lots[n] = lotSimule(n)
	}
	b.ResetTimer()
	for n := range b.N {
		fichiers := make([]archive.Fichier, 0, len(lots[n]))
		for _, d := range lots[n] {
			var csv bytes.Buffer
			require.NoError(b, archive.EcrireCSV(&csv, d))
			fichiers = append(fichiers, archive.Fichier{Nom: d.Tournoi + ".csv", Contenu: csv.Bytes()})
		}
		_, err := archive.ImporterLot(ctx, flux, fichiers, eventstore.Metadata{Actor: "simulation", Role: "directeur"})
		require.NoError(b, err)
	}
}
