package historique_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbitre/domain/catalogue"
	"arbitre/domain/duplicate"
	"arbitre/domain/eventstore"
	"arbitre/projections/historique"
	"arbitre/projections/projection"
)

// ajouterPartieAvecRetard appends a live duplicate game of A and B where C
// arrives late, is withdrawn, and arrives again, then D arrives.
func ajouterPartieAvecRetard(t *testing.T, store eventstore.Store) {
	t.Helper()
	ctx := context.Background()
	reg, err := catalogue.Registre()
	require.NoError(t, err)
	cfg, err := duplicate.Config{TempsParCoup: time.Minute}.Valider()
	require.NoError(t, err)
	for n, e := range []any{duplicate.PartieCreee{Partie: "D9-1", Tournoi: "D9", Numero: 1, Config: cfg, Joueurs: []string{"L01", "L02"}},
		duplicate.JoueurArrive{Licence: "L03", PremierCoup: 2}, duplicate.JoueurRetire{Licence: "L03", Motif: "licence mal tapée"},
		duplicate.JoueurArrive{Licence: "L03", PremierCoup: 3}, duplicate.JoueurArrive{Licence: "L04", PremierCoup: 3}} {
		d, err := reg.NewEventData(uuid.NewSHA1(uuid.NameSpaceOID, fmt.Appendf(nil, "partie-D9-1/%d", n)), e, eventstore.Metadata{Actor: "test"})
		require.NoError(t, err)
		_, err = store.Append(ctx, "partie-D9-1", eventstore.Any, d)
		require.NoError(t, err)
	}
}

// TestIssue34_MasseVerseLesParticipationsDansLOrdreDeLaCle: during a bulk
// the participations (keyed by player, each of whom plays all along the
// log) reach hist_participations sorted by their key — one sorted run at
// the bulk's end, and one before a late player's withdrawal, which reads
// them — instead of one row at a random place of the table at each line;
// the rows are the live ones, by the runner's rebuild, every read model's
// pass, and a bulk that stopped before its end and was ended by the next
// opening.
func TestIssue34_MasseVerseLesParticipationsDansLOrdreDeLaCle(t *testing.T) {
	ctx := context.Background()
	store, db, runners := archiveVide(t)
	fichiers := tournoisAuHasard(t, 40, 9)
	importer(t, store, runners, fichiers[:20]...)
	ajouterPartieAvecRetard(t, store)
	importer(t, store, runners, fichiers[20:30]...)
	// The trigger and its table are the connection's own (temp): the
	// dumps compared do not see them.
	_, err := db.Exec(`CREATE TEMP TABLE ordre (n INTEGER PRIMARY KEY, joueur TEXT, position INTEGER);
		CREATE TEMP TRIGGER participation AFTER INSERT ON main.hist_participations BEGIN INSERT INTO ordre (joueur, position) VALUES (new.joueur, new.position); END`)
	require.NoError(t, err)
	type cle struct {
		joueur   string
		position int64
	}
	// runs are the sorted runs in which the rows were inserted.
	runs := func(t *testing.T) int {
		t.Helper()
		rows, err := db.Query(`SELECT joueur, position FROM ordre ORDER BY n`)
		require.NoError(t, err)
		defer rows.Close()
		n := 0
		var avant *cle
		for rows.Next() {
			var c cle
			require.NoError(t, rows.Scan(&c.joueur, &c.position))
			if avant == nil || c.joueur < avant.joueur || c.joueur == avant.joueur && c.position < avant.position {
				n++
			}
			avant = &c
		}
		require.NoError(t, rows.Err())
		_, err = db.Exec(`DELETE FROM ordre`)
		require.NoError(t, err)
		return n
	}
	reg, err := catalogue.Registre()
	require.NoError(t, err)
	hist := projection.Lecture(runners, historique.Name)
	for _, c := range []struct {
		nom         string
		reconstruir func() error
	}{
		{"the runner's rebuild", func() error {
			_, err := hist.Rebuild(ctx, nil)
			return err
		}},
		{"every read model in one pass", func() error {
			_, err := projection.RebuildAll(ctx, store, reg, runners, nil)
			return err
		}},
		{"a bulk ended by the next opening", func() error {
			if err := hist.CommencerMasse(ctx); err != nil {
				return err
			}
			importer(t, store, runners, fichiers[30:]...)
			p, err := historique.NewProjection(projection.Journal{Store: store, Registry: reg})
			if err != nil {
				return err
			}
			_, err = projection.NewRunner(ctx, db, p, store)
			return err
		}},
	} {
		t.Run(c.nom, func(t *testing.T) {
			require.NoError(t, c.reconstruir())
			assert.LessOrEqual(t, runs(t), 2, "one sorted run before the withdrawal, one at the end")
			var restees int
			require.NoError(t, db.QueryRow(`SELECT count(*) FROM hist_participations_masse`).Scan(&restees))
			assert.Zero(t, restees)
			vivant, _ := vues(t, store, t.TempDir())
			attendu, err := projection.Dump(ctx, vivant)
			require.NoError(t, err)
			assert.Contains(t, string(attendu), "L03")
			rebuilt, err := projection.Dump(ctx, db)
			require.NoError(t, err)
			assert.Equal(t, string(attendu), string(rebuilt))
		})
	}
}
