package historique_test

import (
	"context"
	"fmt"
	"path/filepath"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	darchive "arbitre/domain/archive"
	"arbitre/domain/catalogue"
	"arbitre/domain/eventstore"
	"arbitre/domain/eventstore/sqlitestore"
	"arbitre/projections/projection"
	"arbitre/projections/readmodels"
)

// registreQuiCompte is the registry of every event, counting how many
// times the payloads of the archive's imports are decoded.
func registreQuiCompte(t *testing.T) (*eventstore.Registry, *atomic.Int64) {
	t.Helper()
	reg, err := catalogue.Registre()
	require.NoError(t, err)
	n := new(atomic.Int64)
	// The fast decoder is tried first on every Decode: it counts, then
	// leaves the decoding to the general way.
	require.NoError(t, eventstore.Accelerate(reg, darchive.TypeImportOuvert, func([]byte) (darchive.ImportOuvert, bool) {
		n.Add(1)
		return darchive.ImportOuvert{}, false
	}))
	require.NoError(t, eventstore.Accelerate(reg, darchive.TypePartieDuplicate, func([]byte) (darchive.PartieDuplicate, bool) {
		n.Add(1)
		return darchive.PartieDuplicate{}, false
	}))
	require.NoError(t, eventstore.Accelerate(reg, darchive.TypeMatchClassique, func([]byte) (darchive.MatchClassique, bool) {
		n.Add(1)
		return darchive.MatchClassique{}, false
	}))
	return reg, n
}

// The finding left at the end of session 9, in the archive's fold: a
// rebuild of every read model decoded an imported tournament's events
// once for the standings' fold and again in the archive's own goroutine.
// Each is decoded once, by the rebuild, and the archive folds what it
// decoded; a catch-up (the server's start, simulate archive) decodes each
// once too.
func TestDecodage_UneSeuleFoisParEvenementDansLeRepliDeLArchive(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	store, err := sqlitestore.OpenDir(ctx, dir, sqlitestore.Options{})
	require.NoError(t, err)
	t.Cleanup(func() { store.Close() })
	importer(t, store, nil, tournoisAuHasard(t, 6, 3)...)
	events, err := store.ReadAll(ctx, 0, 10000)
	require.NoError(t, err)
	var archive int64
	for _, e := range events {
		switch e.Type {
		case darchive.TypeImportOuvert, darchive.TypePartieDuplicate, darchive.TypeMatchClassique:
			archive++
		}
	}
	require.Positive(t, archive)

	for _, tc := range []struct {
		nom, message string
		replier      func(reg *eventstore.Registry, runners []*projection.Runner) error
	}{
		{"reconstruction de toutes les vues", "each import's event decoded once", func(reg *eventstore.Registry, runners []*projection.Runner) error {
			read, err := projection.RebuildAll(ctx, store, reg, runners, nil)
			if err == nil && read != len(events) {
				err = fmt.Errorf("%d events rebuilt of %d", read, len(events))
			}
			return err
		}},
		{"rattrapage de chaque vue", "each import's event decoded once, by the archive alone", func(_ *eventstore.Registry, runners []*projection.Runner) error {
			for _, r := range runners {
				if _, err := r.CatchUp(ctx, nil); err != nil {
					return err
				}
			}
			return nil
		}},
	} {
		t.Run(tc.nom, func(t *testing.T) {
			reg, n := registreQuiCompte(t)
			db, err := projection.OpenDB(filepath.Join(t.TempDir(), projection.FileName))
			require.NoError(t, err)
			t.Cleanup(func() { db.Close() })
			runners, err := readmodels.Runners(ctx, db, reg, store)
			require.NoError(t, err)
			require.NoError(t, tc.replier(reg, runners))
			assert.Equal(t, archive, n.Load(), tc.message)
		})
	}
}
