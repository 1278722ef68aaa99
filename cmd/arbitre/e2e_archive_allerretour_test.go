package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/spf13/cobra"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbitre/cmd/arbitre/internal/storeflags"
	"arbitre/domain/eventstore/sqlitestore"
	"arbitre/domain/eventstore/streamname"
)

// allerRetourFait holds the data directories whose round trip a test has
// already checked (a test that restarts its server checks once).
var allerRetourFait sync.Map

// verifierAllerRetourArchive (issue 26 item 7) exports every tournament a
// test's data directory holds, once the test is over and its server
// stopped, imports each CSV into a fresh store and exports it again: the
// two CSV must be equal byte for byte. So every tournament the test suite
// builds through the API and the pages checks that its export imports
// again (a player added by a mistyped licence once made an export that
// its own import refused, « nom est vide »). A tournament without any
// result (its export is the header alone) has nothing to archive and is
// passed over.
func verifierAllerRetourArchive(t *testing.T, data string) {
	t.Cleanup(func() {
		if t.Failed() {
			return
		}
		if _, fait := allerRetourFait.LoadOrStore(t.Name()+"\x00"+data, true); fait {
			return
		}
		for _, tournoi := range tournoisDuMagasin(t, data) {
			premier, err := exporterCSV(data, tournoi)
			if err != nil || bytes.Count(premier, []byte("\n")) < 2 {
				continue // no results yet: nothing to archive
			}
			fichier := filepath.Join(t.TempDir(), tournoi+".csv")
			require.NoError(t, os.WriteFile(fichier, premier, 0o600))
			vierge := t.TempDir()
			cmd := commandeDeTest()
			if !assert.NoError(t, runArchiveImport(cmd, &storeflags.Flags{DataDir: vierge, Backend: storeflags.SQLite, Init: true}, fichier),
				"the export of %s imports again:\n%s", tournoi, premier) {
				continue
			}
			second, err := exporterCSV(vierge, tournoi)
			require.NoError(t, err, tournoi)
			assert.Equal(t, string(premier), string(second), "the export of %s, imported and exported again, is the same", tournoi)
		}
	})
}

// tournoisDuMagasin lists the tournaments (duplicate and classique) whose
// streams data's store holds.
func tournoisDuMagasin(t *testing.T, data string) []string {
	ctx := context.Background()
	store, err := sqlitestore.OpenDir(ctx, data, sqlitestore.Options{})
	require.NoError(t, err)
	defer store.Close()
	var ids []string
	vus := map[string]bool{}
	for from := uint64(0); ; {
		events, err := store.ReadAllAfter(ctx, from, 1000)
		require.NoError(t, err)
		if len(events) == 0 {
			return ids
		}
		for _, e := range events {
			from = e.Position
			kind, id, err := streamname.ParseStream(e.Stream)
			if err != nil || kind != streamname.KindTournoi {
				continue
			}
			id = strings.TrimPrefix(id, "classique-")
			if !vus[id] {
				vus[id] = true
				ids = append(ids, id)
			}
		}
	}
}

// exporterCSV is `arbitre archive export --tournoi tournoi --data data`.
func exporterCSV(data, tournoi string) ([]byte, error) {
	cmd := commandeDeTest()
	var out bytes.Buffer
	cmd.SetOut(&out)
	err := runArchiveExport(cmd, &storeflags.Flags{DataDir: data, Backend: storeflags.SQLite}, "", tournoi, formatCSV, "")
	return out.Bytes(), err
}

// commandeDeTest is a command of its own for a run outside rootCmd.
func commandeDeTest() *cobra.Command {
	cmd := &cobra.Command{}
	cmd.SetContext(context.Background())
	cmd.SetOut(&bytes.Buffer{})
	cmd.SetErr(&bytes.Buffer{})
	return cmd
}
