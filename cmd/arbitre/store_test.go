package main

import (
	"bytes"
	"context"
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"arbitre/domain/acces"
	"arbitre/domain/catalogue"
	"arbitre/domain/classique/tournoiclassique"
	"arbitre/domain/eventstore"
	"arbitre/domain/eventstore/eventstoretest"
	"arbitre/domain/eventstore/sqlitestore"
	"arbitre/domain/tournoi"

	"github.com/google/uuid"
	"github.com/spf13/pflag"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// runArbitre executes the root command with args and returns its output;
// the flags of the command it runs start from their defaults and its
// context is forgotten afterwards (cobra keeps both on the command, and a
// kept context would outlive the next ExecuteContext).
func runArbitre(t testing.TB, args ...string) (string, error) {
	t.Helper()
	if cmd, _, err := rootCmd.Find(args); err == nil {
		cmd.Flags().VisitAll(func(f *pflag.Flag) {
			if list, ok := f.Value.(pflag.SliceValue); ok {
				_ = list.Replace(nil) // Set would append to a repeatable flag
			} else {
				_ = f.Value.Set(f.DefValue)
			}
			f.Changed = false
		})
		defer cmd.SetContext(nil)
	}
	var out bytes.Buffer
	rootCmd.SetOut(&out)
	rootCmd.SetErr(&out)
	rootCmd.SetArgs(args)
	err := rootCmd.ExecuteContext(context.Background())
	return out.String(), err
}

func seedStore(t *testing.T, dir string) {
	t.Helper()
	ctx := context.Background()
	store, err := sqlitestore.OpenDir(ctx, dir, sqlitestore.Options{})
	require.NoError(t, err)
	registry, err := catalogue.Registre()
	require.NoError(t, err)
	for _, stream := range []string{"acces-2", "acces-1", "acces-2"} {
		events := make([]eventstore.EventData, 4)
		for i := range events {
			events[i], err = registry.NewEventData(uuid.New(), acces.JetonRevoque{ID: fmt.Sprint(i)}, eventstore.Metadata{Actor: "test"})
			require.NoError(t, err)
		}
		_, err := store.Append(ctx, stream, eventstore.Any, events...)
		require.NoError(t, err)
	}
	require.NoError(t, store.Close())
}

func TestStoreVerifyPassesOnAHealthyStore(t *testing.T) {
	dir := t.TempDir()
	seedStore(t, dir)
	out, err := runArbitre(t, "store", "verify", "--data", dir)
	require.NoError(t, err)
	assert.Equal(t, "événements : 12\nflux : 2\ndernière position : 12\nrésultat : OK\n", out)
}

func TestStoreVerifyFailsWithAPreciseReport(t *testing.T) {
	dir := t.TempDir()
	seedStore(t, dir)
	db, err := sql.Open("sqlite", filepath.Join(dir, sqlitestore.FileName))
	require.NoError(t, err)
	_, err = db.Exec(`UPDATE events SET data = '{"n":' WHERE position = 6; DELETE FROM events WHERE position = 10`)
	require.NoError(t, err)
	require.NoError(t, db.Close())

	out, err := runArbitre(t, "store", "verify", "--data", dir)
	require.EqualError(t, err, "store verify : 5 problème(s) trouvé(s)")
	assert.Contains(t, out, "position 6 (acces-1@1): eventstore.tampered")
	assert.Contains(t, out, "position 11 (acces-2@6): eventstore.tampered")
	assert.Contains(t, out, "position 6 (acces-1@1): eventstore.malformed_payload: le contenu de acces.jeton_revoque v1 n'est pas du JSON valide")
	assert.Contains(t, out, "position 11 (acces-2@6): eventstore.corrupt_store: trou dans les positions globales : attendue 10")
	assert.Contains(t, out, "position 11 (acces-2@6): eventstore.corrupt_store: trou dans les révisions du flux : attendue la révision 5")
}

// An event whose type the catalogue does not know is reported, not skipped.
func TestStoreVerifyReportsUnknownEventTypes(t *testing.T) {
	dir := t.TempDir()
	seedStore(t, dir)
	store, err := sqlitestore.OpenDir(context.Background(), dir, sqlitestore.Options{})
	require.NoError(t, err)
	_, err = store.Append(context.Background(), "partie-9", eventstore.Any, eventstoretest.Events(1)...)
	require.NoError(t, err)
	require.NoError(t, store.Close())
	out, err := runArbitre(t, "store", "verify", "--data", dir)
	require.EqualError(t, err, "store verify : 1 problème(s) trouvé(s)")
	assert.Contains(t, out, "position 13 (partie-9@0)")
}

func TestStoreVerifyRefusesADamagedFile(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, writeFile(filepath.Join(dir, sqlitestore.FileName), "definitely not sqlite, just some bytes to fill a header......................................................"))
	_, err := runArbitre(t, "store", "verify", "--data", dir)
	require.ErrorIs(t, err, eventstore.ErrCorruptStore)
}

func TestStoreFlagsRefuseAnUnknownBackend(t *testing.T) {
	_, err := runArbitre(t, "store", "verify", "--data", t.TempDir(), "--store", "postgres")
	assert.EqualError(t, err, `store verify : --store vaut sqlite ou esdb, pas "postgres"`)
	_, err = runArbitre(t, "store", "verify", "--data", t.TempDir(), "--store", "esdb", "--esdb-url", "")
	assert.EqualError(t, err, "store verify : --store esdb demande --esdb-url")
}

func TestProjectionsRebuildIsQuietWhenNotOnATerminal(t *testing.T) {
	dir := t.TempDir()
	seedStore(t, dir)
	out, err := runArbitre(t, "projections", "rebuild", "--data", dir, "--store", "sqlite")
	require.NoError(t, err)
	assert.Regexp(t, `^projections rebuild : 5 projections \(standings, .*\) reconstruites en une passe sur 12 événements en \d+,\d{3} s \([\d\x{a0}]+ événements/s\)\n$`, out,
		"only the result, no progress, outside a terminal")

}

// Issue 16, item 10: on a terminal a long command shows events done, rate,
// share done and time left, on one redrawn line.
func TestProgression_EvenementsDebitTempsRestant(t *testing.T) {
	var out bytes.Buffer
	now := time.Date(2026, 1, 1, 9, 0, 0, 0, time.UTC)
	p := newProgressionSur(&out, "store verify", func() time.Time { return now })
	now = now.Add(2 * time.Second)
	p.avancer(200000, 0.25)
	now = now.Add(50 * time.Millisecond)
	p.avancer(210000, 0.26) // too soon after the last line: not drawn
	now = now.Add(5950 * time.Millisecond)
	p.avancer(800000, 1)
	p.terminer()
	assert.Equal(t, "\rstore verify : 200000 événements, 100000/s,  25 %, reste 6s  "+
		"\rstore verify : 800000 événements, 100000/s, 100 %, reste 0s  \n", out.String())

	var nulle *progression
	nulle.avancer(1, 0.5)
	nulle.terminer()
	assert.Nil(t, newProgression(&out, "piped"), "nothing is drawn outside a terminal")
}

func writeFile(path, content string) error {
	return os.WriteFile(path, []byte(content), 0o644)
}

// Issue 11 item 11: a store where a duplicate tournament landed in a
// classique tournament's stream (written by a build that allowed it) does
// not verify.
func TestSecurite_StoreVerifyEvenementEtranger(t *testing.T) {
	dir := t.TempDir()
	ctx := context.Background()
	store, err := sqlitestore.OpenDir(ctx, dir, sqlitestore.Options{})
	require.NoError(t, err)
	registry, err := catalogue.Registre()
	require.NoError(t, err)
	var events []eventstore.EventData
	for _, e := range []any{tournoiclassique.TournoiOuvert{Tournoi: "X", Nom: "Open", Rondes: 3}, tournoi.TournoiCree{Tournoi: "classique-X", Nom: "Pirate"}} {
		d, err := registry.NewEventData(uuid.New(), e, eventstore.Metadata{Actor: "test"})
		require.NoError(t, err)
		events = append(events, d)
	}
	_, err = store.Append(ctx, "tournoi-classique-X", eventstore.NoStream, events...)
	require.NoError(t, err)
	require.NoError(t, store.Close())

	out, err := runArbitre(t, "store", "verify", "--data", dir, "--store", "sqlite")
	require.EqualError(t, err, "store verify : 1 problème(s) trouvé(s)")
	assert.Contains(t, out, "position 2 (tournoi-classique-X@1): eventstore.foreign_event: le type tournoi.cree appartient à un autre genre d'agrégat que le flux tournoi-classique-X")
}
