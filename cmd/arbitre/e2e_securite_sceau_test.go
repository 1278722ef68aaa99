package main

import (
	"context"
	"database/sql"
	"io"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbitre/cmd/arbitre/internal/storeflags"
	"arbitre/domain/eventstore/sqlitestore"
	"arbitre/projections/standings"
)

// alterer runs damage (SQL) on the store file of dir in place, as someone
// with the file would.
func alterer(t *testing.T, dir, damage string) {
	t.Helper()
	db, err := sql.Open("sqlite", filepath.Join(dir, sqlitestore.FileName))
	require.NoError(t, err)
	res, err := db.Exec(damage)
	require.NoError(t, err)
	n, err := res.RowsAffected()
	require.NoError(t, err)
	require.NotZero(t, n, "the damage changed nothing")
	require.NoError(t, db.Close())
}

// serveRefus runs serve on dir and returns the error it stops with: a
// server that starts is stopped once it answers /healthz, and then stops
// without one (nil).
func serveRefus(t *testing.T, dir string) error {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan error, 1)
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	go func() {
		done <- runServe(ctx, &storeflags.Flags{DataDir: dir, Backend: storeflags.SQLite}, ecouteLibre, nil, log)
	}()
	for {
		select {
		case err := <-done:
			return err
		case <-time.After(20 * time.Millisecond):
		}
		addr := adresseEcoutee(dir, os.Getpid())
		if addr == "" {
			continue
		}
		if resp, err := http.Get("http://" + addr + "/healthz"); err == nil {
			resp.Body.Close()
			cancel()
			return <-done
		}
	}
}

// Issue 28 item 3: a tail deleted from the file is not laundered. The
// append of `token create` is refused and leaves the seal where it was, so
// `store verify` still names the missing tail; serve refuses to start and
// says why in French.
func TestSecurite_QueueRetireeNiBlanchieNiServie(t *testing.T) {
	dir := t.TempDir()
	appendRevocations(t, dir, 120)
	avant, err := os.ReadFile(filepath.Join(dir, sqlitestore.SealName))
	require.NoError(t, err)
	require.Regexp(t, `^120:`, string(avant))
	alterer(t, dir, `DELETE FROM events WHERE position > 100`)

	_, err = runTokenCreate(t, dir, "--role", "director")
	require.Error(t, err, "an append over a log that does not extend its seal")
	assert.Contains(t, err.Error(), "le journal ne prolonge plus le fichier de sceau")
	apres, err := os.ReadFile(filepath.Join(dir, sqlitestore.SealName))
	require.NoError(t, err)
	assert.Equal(t, string(avant), string(apres), "the seal moved over a log that does not extend it")
	out, err := runStoreCommand(t, "verify", "--data", dir)
	require.Error(t, err)
	assert.Contains(t, out, "le fichier de sceau a vu le journal jusqu'à la position 120, qui n'y est plus (le journal finit à 100)")

	err = serveRefus(t, dir)
	require.Error(t, err, "serve started over a log that does not extend its seal")
	assert.Contains(t, err.Error(), "le journal ne prolonge plus le fichier de sceau : il a vu la position 120")
}

// Issue 28 item 3: the tail and the seal file deleted together are still
// caught by the projections' checkpoints: serve refuses to start rather
// than rebuild them silently from the shorter log.
func TestSecurite_QueueEtSceauRetiresServeRefuseParLesProjections(t *testing.T) {
	dir := t.TempDir()
	appendRevocations(t, dir, 60)
	_, err := runArbitre(t, "projections", "rebuild", "--data", dir)
	require.NoError(t, err)
	alterer(t, dir, `DELETE FROM events WHERE position > 40`)
	require.NoError(t, os.Remove(filepath.Join(dir, sqlitestore.SealName)))

	err = serveRefus(t, dir)
	require.Error(t, err, "serve started over a log that does not extend its projections' checkpoints")
	assert.Contains(t, err.Error(), "la projection "+standings.Name+" a vu le journal jusqu'à la position 60, que le journal ne prolonge plus")
}

// Issue 28 item 3: a bulletin's correction edited in the file (its score
// paid 56 becomes 99) is not served: loading the game checks the chain of
// what it reads, and the bulletins answer LOG_TAMPERED.
func TestSecurite_BulletinAltereNestPasServi(t *testing.T) {
	data := t.TempDir()
	director := apiToken(t, data, "--role", "director")
	s := startAPIServer(t, data)
	p := nouvelleAppelPartie(t, s, director, "A")
	const bulletins = `{ bulletins(partie:"A-1", coup:1) { licence } }`
	require.Empty(t, s.gql(director, bulletins, nil).Errors, "the intact record is served")
	s.stop()

	alterer(t, data, `UPDATE events SET data = json_set(data, '$.moteur.paid', 99)
		WHERE position = (SELECT MIN(position) FROM events WHERE type = 'partie.bulletin_corrige' AND json_extract(data, '$.moteur.paid') > 0)`)
	require.NotZero(t, p.top)

	s = startAPIServer(t, data)
	defer s.stop()
	out := s.gql(director, bulletins, nil)
	assert.Equal(t, "LOG_TAMPERED", out.code(), "%+v", out.Errors)
}
