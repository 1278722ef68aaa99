package main

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"arbitre/domain/acces"
	"arbitre/domain/catalogue"
	"arbitre/domain/eventstore"
	"arbitre/domain/eventstore/sqlitestore"
	"arbitre/domain/tournoi"
	"arbitre/projections/projection"
	"arbitre/projections/standings"

	"github.com/google/uuid"
	"github.com/spf13/pflag"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// runStoreCommand runs `arbitre store SUB args...` with the subcommand's
// flags back at their defaults (flags outlive a run).
func runStoreCommand(t *testing.T, sub string, args ...string) (string, error) {
	t.Helper()
	cmd, _, err := rootCmd.Find([]string{"store", sub})
	require.NoError(t, err)
	cmd.Flags().VisitAll(func(f *pflag.Flag) { _ = f.Value.Set(f.DefValue) })
	return runArbitre(t, append([]string{"store", sub}, args...)...)
}

// appendRevocations appends n revocations over two access streams.
func appendRevocations(t *testing.T, dir string, n int) {
	t.Helper()
	ctx := context.Background()
	store, err := sqlitestore.OpenDir(ctx, dir, sqlitestore.Options{})
	require.NoError(t, err)
	defer func() { require.NoError(t, store.Close()) }()
	registry, err := catalogue.Registre()
	require.NoError(t, err)
	for i := range n {
		data, err := registry.NewEventData(uuid.New(), acces.JetonRevoque{ID: fmt.Sprint(i)}, eventstore.Metadata{Actor: "test"})
		require.NoError(t, err)
		_, err = store.Append(ctx, fmt.Sprintf("acces-%d", i%2), eventstore.Any, data)
		require.NoError(t, err)
	}
}

// copyData copies the store file and its seal into a new data directory
// and runs damage (SQL) on the copy.
func copyData(t *testing.T, dir, damage string) string {
	t.Helper()
	out := t.TempDir()
	for _, name := range []string{sqlitestore.FileName, sqlitestore.SealName} {
		data, err := os.ReadFile(filepath.Join(dir, name))
		require.NoError(t, err)
		require.NoError(t, os.WriteFile(filepath.Join(out, name), data, 0o600))
	}
	if damage != "" {
		db, err := sql.Open("sqlite", filepath.Join(out, sqlitestore.FileName))
		require.NoError(t, err)
		_, err = db.Exec(damage)
		require.NoError(t, err)
		require.NoError(t, db.Close())
	}
	return out
}

// Issue 16 item 1: `store verify` reports every way of editing the file,
// with the position; deleting the tail is caught by the seal file.
func TestChaine_StoreVerifyReportsEachTampering(t *testing.T) {
	dir := t.TempDir()
	appendRevocations(t, dir, 120)
	cases := []struct {
		name, damage string
		want         []string
	}{
		{"one byte of a payload", `UPDATE events SET data = replace(data, '"37"', '"87"') WHERE position = 38`,
			[]string{"position 38 (acces-1@18): eventstore.tampered"}},
		{"the last 50 events deleted", `DELETE FROM events WHERE position > 70`,
			[]string{"position 120 (@0): eventstore.tampered: le fichier de sceau a vu le journal jusqu'à la position 120, qui n'y est plus (le journal finit à 70)"}},
		{"one event deleted in the middle", `DELETE FROM events WHERE position = 50`,
			[]string{"position 51 (acces-0@25): eventstore.tampered", "position 51 (acces-0@25): eventstore.corrupt_store: trou dans les positions globales : attendue 50"}},
		{"two payloads swapped", `CREATE TEMP TABLE swap AS SELECT position, data FROM events WHERE position IN (10, 30);
			UPDATE events SET data = (SELECT data FROM swap WHERE swap.position = 40 - events.position) WHERE position IN (10, 30)`,
			[]string{"position 10 (acces-1@4): eventstore.tampered", "position 30 (acces-1@14): eventstore.tampered"}},
		{"one event inserted", `INSERT INTO events SELECT 121, 'acces-1', 60, randomblob(16), type, version, data, actor, role,
			correlation_id, causation_id, recorded_at, requete, hash FROM events WHERE position = 120`,
			[]string{"position 121 (acces-1@60): eventstore.tampered"}},
		{"two events reordered", `UPDATE events SET position = -1 WHERE position = 60; UPDATE events SET position = 60 WHERE position = 61;
			UPDATE events SET position = 61 WHERE position = -1`,
			[]string{"position 60 (acces-0@30): eventstore.tampered", "position 61 (acces-1@29): eventstore.tampered"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			out, err := runStoreCommand(t, "verify", "--data", copyData(t, dir, c.damage))
			require.Error(t, err, out)
			for _, w := range c.want {
				assert.Contains(t, out, w)
			}
		})
	}
	out, err := runStoreCommand(t, "verify", "--data", copyData(t, dir, ""))
	require.NoError(t, err, out)
}

// Issue 16 item 2: the seal printed by `store seal` still holds once the
// log grew, and fails once the log lost events up to it.
func TestSceau_VerifySealPassesOnExtensionFailsOnTruncation(t *testing.T) {
	dir := t.TempDir()
	appendRevocations(t, dir, 60)
	out, err := runStoreCommand(t, "seal", "--data", dir)
	require.NoError(t, err)
	seal := strings.TrimSpace(out)
	require.Regexp(t, `^60:[0-9a-f]{64}$`, seal)

	appendRevocations(t, dir, 20)
	out, err = runStoreCommand(t, "verify", "--data", dir, "--seal", seal)
	require.NoError(t, err, out)
	assert.Contains(t, out, "résultat : OK")

	cut := copyData(t, dir, `DELETE FROM events WHERE position > 55`)
	require.NoError(t, os.Remove(filepath.Join(cut, sqlitestore.SealName)), "the seal file went with the tail")
	out, err = runStoreCommand(t, "verify", "--data", cut, "--seal", seal)
	require.Error(t, err)
	assert.Contains(t, out, "position 60 (@0): eventstore.tampered: le sceau "+seal+" a vu le journal jusqu'à la position 60")

	_, err = runStoreCommand(t, "verify", "--data", dir, "--seal", "60:abc")
	assert.ErrorContains(t, err, "is not 32 hexadecimal bytes")
}

// Issue 16 items 3 and 4: undecodable events in a tournament's stream and
// in an access stream do not keep serve from starting. /healthz answers 503
// and names the parked projections and the skipped access event with their
// positions; tokens issued after the bad access event still work; `store
// verify` names both events.
func TestSante_UndecodableEventsServeStartsDegraded(t *testing.T) {
	dir := t.TempDir()
	ctx := context.Background()
	store, err := sqlitestore.OpenDir(ctx, dir, sqlitestore.Options{})
	require.NoError(t, err)
	bad := func(stream, typ string) uint64 {
		res, err := store.Append(ctx, stream, eventstore.Any, eventstore.EventData{ID: uuid.New(), Type: typ, Version: 1,
			Data: json.RawMessage(`{"tournoi": 12, "empreinte": []}`)})
		require.NoError(t, err)
		return res.Position
	}
	badTournoi := bad("tournoi-T1", tournoi.TypeTournoiCree)
	badAcces := bad("acces-serveur", acces.TypeJetonEmis)
	require.NoError(t, store.Close())

	director := apiToken(t, dir, "--role", "director")
	srv := startAPIServerWith(t, dir, slog.New(slog.NewTextHandler(io.Discard, nil)))
	defer srv.stop()

	var health struct {
		Status      string `json:"status"`
		Projections []struct {
			Nom      string `json:"nom"`
			Position uint64 `json:"position"`
			Erreur   string `json:"erreur"`
		} `json:"projections"`
	}
	named := map[string]uint64{}
	// The standings projection is parked once its retries are spent.
	var statut int
	var vue derniereErreur
	require.Eventually(t, func() bool {
		resp, err := http.Get(srv.url + "/healthz")
		if !vue.ok(err) {
			return false
		}
		defer resp.Body.Close()
		statut = resp.StatusCode
		if !vue.ok(json.NewDecoder(resp.Body).Decode(&health)) {
			return false
		}
		for _, p := range health.Projections {
			named[p.Nom] = p.Position
		}
		return named["standings"] != 0
	}, e2eAttente, 20*time.Millisecond, "the standings projection parked (%s)", &vue)
	assert.Equal(t, http.StatusServiceUnavailable, statut)
	for _, p := range health.Projections {
		assert.NotEmpty(t, p.Erreur, p.Nom)
	}
	assert.Equal(t, "degraded", health.Status)
	assert.Equal(t, badTournoi, named["standings"], "%+v", health.Projections)
	assert.Equal(t, badAcces, named["jetons"], "%+v", health.Projections)

	var moi struct{ Jeton string }
	srv.gql(director, `{ moi { jeton } }`, nil).into(t, "moi", &moi)
	assert.NotEmpty(t, moi.Jeton, "a token issued after the bad access event is known")
	assert.Empty(t, srv.gql(director, `mutation { creerTournoi(id:"T2", nom:"Open") { id } }`, nil).Errors,
		"what does not depend on the bad streams is served")

	out, err := runStoreCommand(t, "verify", "--data", dir)
	require.Error(t, err)
	assert.Contains(t, out, fmt.Sprintf("position %d (tournoi-T1@0)", badTournoi))
	assert.Contains(t, out, fmt.Sprintf("position %d (acces-serveur@0)", badAcces))
}

// Issue 16 item 1: a tail deleted together with the seal file is still
// caught by the checkpoints of the projections built from the store.
func TestChaine_StoreVerifyChecksTheProjectionsCheckpoints(t *testing.T) {
	dir := t.TempDir()
	appendRevocations(t, dir, 60)
	_, err := runArbitre(t, "projections", "rebuild", "--data", dir)
	require.NoError(t, err)
	cut := copyData(t, dir, `DELETE FROM events WHERE position > 40`)
	require.NoError(t, os.Remove(filepath.Join(cut, sqlitestore.SealName)))
	projections, err := os.ReadFile(filepath.Join(dir, projection.FileName))
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(cut, projection.FileName), projections, 0o600))

	out, err := runStoreCommand(t, "verify", "--data", cut)
	require.Error(t, err)
	assert.Contains(t, out, "position 60 (@0): eventstore.tampered: projection "+standings.Name+" a vu le journal jusqu'à la position 60, qui n'y est plus (le journal finit à 40)")
}

// Issue 16 item 1: the commission's replay reads the game as evidence, so an
// event of the game edited in the file is refused with LOG_TAMPERED, not
// replayed as if nothing happened.
func TestChaine_ReplayDeLaCommissionRefuseUnJournalAltere(t *testing.T) {
	data := t.TempDir()
	director := apiToken(t, data, "--role", "director")
	commission := apiToken(t, data, "--role", "commission")
	s := startAPIServer(t, data)
	nouvelleAppelPartie(t, s, director, "A") // game A-1, coup 1 played and corrected
	const replay = `{ replay(partie:"A-1", coup:1) { coup } }`
	require.Empty(t, s.gql(commission, replay, nil).Errors, "the intact record replays")
	s.stop()

	db, err := sql.Open("sqlite", filepath.Join(data, sqlitestore.FileName))
	require.NoError(t, err)
	res, err := db.Exec(`UPDATE events SET data = data || ' ' WHERE stream = 'partie-A-1' AND revision = 1`)
	require.NoError(t, err)
	n, err := res.RowsAffected()
	require.NoError(t, err)
	require.EqualValues(t, 1, n)
	require.NoError(t, db.Close())

	s = startAPIServer(t, data)
	defer s.stop()
	out := s.gql(commission, replay, nil)
	assert.Equal(t, "LOG_TAMPERED", out.code(), "%+v", out.Errors)
}
