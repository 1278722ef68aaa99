package sqlitestore_test

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"testing"
	"unsafe"

	"arbitre/domain/eventstore"
	"arbitre/domain/eventstore/eventstoretest"
	"arbitre/domain/eventstore/sqlitestore"

	"github.com/google/uuid"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/sys/unix"
)

// fsyncDirEnv tells the re-executed test binary to act as the child whose
// fsyncs fail, and where its data directory is.
const fsyncDirEnv = "ARBITRE_FSYNC_CHILD_DIR"

// fsyncEnEchec makes every later fsync and fdatasync of this process, on
// every thread, fail with EIO: a seccomp filter, which an unprivileged
// process may install on itself once it gives up gaining privileges. It
// cannot be removed: only a child process calls it.
func fsyncEnEchec() error {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	if err := unix.Prctl(unix.PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0); err != nil {
		return fmt.Errorf("no_new_privs: %w", err)
	}
	eio := uint32(unix.SECCOMP_RET_ERRNO | uint32(unix.EIO))
	filtre := []unix.SockFilter{
		{Code: unix.BPF_LD | unix.BPF_W | unix.BPF_ABS, K: 0}, // seccomp_data.nr
		{Code: unix.BPF_JMP | unix.BPF_JEQ | unix.BPF_K, K: unix.SYS_FSYNC, Jt: 2},
		{Code: unix.BPF_JMP | unix.BPF_JEQ | unix.BPF_K, K: unix.SYS_FDATASYNC, Jt: 1},
		{Code: unix.BPF_RET | unix.BPF_K, K: unix.SECCOMP_RET_ALLOW},
		{Code: unix.BPF_RET | unix.BPF_K, K: eio},
	}
	prog := unix.SockFprog{Len: uint16(len(filtre)), Filter: &filtre[0]}
	if _, _, errno := unix.Syscall(unix.SYS_SECCOMP, unix.SECCOMP_SET_MODE_FILTER, unix.SECCOMP_FILTER_FLAG_TSYNC, uintptr(unsafe.Pointer(&prog))); errno != 0 {
		return fmt.Errorf("seccomp: %w", errno)
	}
	return nil
}

// TestFsyncChildProcess is not a test on its own: TestFiabilite_FsyncEnEchec
// runs the test binary again with fsyncDirEnv set, and this function
// appends events while fsync works ("ack"), then makes fsync fail and
// appends again, reporting each outcome ("ack" or "refus" with the code),
// reads the head back ("tete") and exits without closing the store, as a
// server killed right after would.
func TestFsyncChildProcess(t *testing.T) {
	dir := os.Getenv(fsyncDirEnv)
	if dir == "" {
		t.Skip("runs only as the child of TestFiabilite_FsyncEnEchec")
	}
	ctx := context.Background()
	sortir := func(format string, args ...any) {
		fmt.Printf("fail "+format+"\n", args...)
		os.Exit(2)
	}
	store, err := sqlitestore.OpenDir(ctx, dir, sqlitestore.Options{})
	if err != nil {
		sortir("%v", err)
	}
	ajouter := func() {
		e := eventstoretest.Events(1)
		res, err := store.Append(ctx, "partie-p1", eventstore.Any, e...)
		if err != nil {
			fmt.Printf("refus %s %s %v\n", e[0].ID, eventstore.CodeOf(err), errors.Is(err, eventstore.ErrOutcomeUnknown))
			return
		}
		fmt.Printf("ack %s %d\n", e[0].ID, res.Position)
	}
	for range 5 {
		ajouter()
	}
	if err := fsyncEnEchec(); err != nil {
		fmt.Printf("sans-seccomp %v\n", err)
		os.Exit(0)
	}
	for range 3 {
		ajouter()
	}
	tete, err := store.LastPosition(ctx)
	if err != nil {
		sortir("%v", err)
	}
	fmt.Printf("tete %d\n", tete)
	os.Exit(0)
}

// Issue 32 item 3: an fsync that fails during appends (injected without
// root: a seccomp filter in a child process makes fsync and fdatasync
// return EIO). The append whose fsync fails is refused, never
// acknowledged, and the store does not show it to its own reads; but
// SQLite wrote its commit to the write-ahead log before the flush failed,
// and when the process dies before its next write the reopened store
// recovers it (the last of the refused appends, in every run, while the
// refusal said nothing was recorded). So the refusal is CodeUnavailable marked
// eventstore.ErrOutcomeUnknown (the API tells the client the outcome is
// not certain and to send the same clientMutationId again), and after the
// store is reopened every acknowledged event is there exactly once and a
// refused one at most once.
func TestFiabilite_FsyncEnEchec(t *testing.T) {
	dir := t.TempDir()
	cmd := exec.Command(os.Args[0], "-test.run=^TestFsyncChildProcess$")
	cmd.Env = append(os.Environ(), fsyncDirEnv+"="+dir)
	var sortie bytes.Buffer
	cmd.Stdout = &sortie
	require.NoError(t, cmd.Run(), "%s", sortie.String())

	var acquittes, refuses []uuid.UUID
	var tete, derniere uint64
	texte := sortie.String()
	s := bufio.NewScanner(strings.NewReader(texte))
	for s.Scan() {
		f := strings.Fields(s.Text())
		switch {
		case len(f) == 0:
		case f[0] == "ack":
			acquittes = append(acquittes, uuid.MustParse(f[1]))
			_, err := fmt.Sscan(f[2], &derniere)
			require.NoError(t, err)
		case f[0] == "refus":
			refuses = append(refuses, uuid.MustParse(f[1]))
			assert.Equal(t, string(eventstore.CodeUnavailable), f[2], "a failed fsync is the store unavailable, not the client's fault")
			assert.Equal(t, "true", f[3], "a failed fsync leaves the outcome unknown")
		case f[0] == "tete":
			_, err := fmt.Sscan(f[1], &tete)
			require.NoError(t, err)
		case f[0] == "sans-seccomp":
			t.Skipf("this kernel refuses the seccomp filter that makes fsync fail: %s", s.Text())
		case f[0] == "fail":
			require.FailNow(t, s.Text())
		}
	}
	require.Len(t, acquittes, 5, "acknowledged while fsync worked, none after it failed:\n%s", texte)
	require.Len(t, refuses, 3)
	assert.Equal(t, derniere, tete, "the store's own reads do not show a refused append")

	store, err := sqlitestore.OpenDir(context.Background(), dir, sqlitestore.Options{})
	require.NoError(t, err, "the store reopens after the failed fsyncs")
	defer store.Close()
	vus := map[uuid.UUID]int{}
	_, err = eventstore.ForEachAfter(context.Background(), store, 0, func(e eventstore.Event) error {
		vus[e.ID]++
		return nil
	})
	require.NoError(t, err)
	for _, id := range acquittes {
		assert.Equal(t, 1, vus[id], "acknowledged %s: there once", id)
	}
	retrouves := 0
	for _, id := range refuses {
		assert.LessOrEqual(t, vus[id], 1, "refused %s: never twice\n%s", id, texte)
		retrouves += vus[id]
	}
	t.Logf("%d acknowledged, %d refused after fsync failed, %d of them found recorded after the store was reopened", len(acquittes), len(refuses), retrouves)
}
