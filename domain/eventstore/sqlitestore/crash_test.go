package sqlitestore_test

import (
	"bufio"
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"arbitre/domain/eventstore"
	"arbitre/domain/eventstore/eventstoretest"
	"arbitre/domain/eventstore/integrity"
	"arbitre/domain/eventstore/sqlitestore"
	"arbitre/projections/pipeline"
	"arbitre/projections/projection"
	"arbitre/projections/projection/projectiontest"

	"github.com/google/uuid"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// crashDirEnv tells the re-executed test binary to act as the crashing
// child and where its data directory is.
const crashDirEnv = "ARBITRE_CRASH_CHILD_DIR"

// TestCrashChildProcess is not a test on its own: the crash test runs the
// test binary again with crashDirEnv set, and this function becomes a writer
// that appends batches in a loop, keeps the archive projection live through
// watermill, and reports each batch before ("try") and after ("ack") its
// append, until it is SIGKILLed.
func TestCrashChildProcess(t *testing.T) {
	dir := os.Getenv(crashDirEnv)
	if dir == "" {
		t.Skip("runs only as the child of TestSIGKILLLosesNoAcknowledgedEvent")
	}
	ctx := context.Background()
	store, err := sqlitestore.OpenDir(ctx, dir, sqlitestore.Options{})
	if err != nil {
		fmt.Printf("fail %v\n", err)
		os.Exit(2)
	}
	db, err := projection.OpenDB(filepath.Join(dir, projection.FileName))
	if err != nil {
		fmt.Printf("fail %v\n", err)
		os.Exit(2)
	}
	runner, err := projection.NewRunner(ctx, db, projectiontest.Projection{}, store)
	if err != nil {
		fmt.Printf("fail %v\n", err)
		os.Exit(2)
	}
	go func() {
		if err := pipeline.Run(ctx, store, []*projection.Runner{runner}, pipeline.Config{}, nil); err != nil {
			fmt.Printf("fail %v\n", err)
			os.Exit(2)
		}
	}()
	fmt.Println("ready")
	// Several writers at once, on streams of their own, so that appends
	// are written together (group commit, issue 17): an acknowledged one
	// must survive the kill like a lone one.
	for w := range crashWriters {
		go crashWriter(ctx, store, w)
	}
	select {}
}

// crashWriters is how many writers the crashing child runs at once.
const crashWriters = 4

// crashWriter appends batches to its streams until the process is killed,
// reporting each batch before ("try") and after ("ack") its append.
func crashWriter(ctx context.Context, store *sqlitestore.Store, w int) {
	rng := rand.New(rand.NewPCG(uint64(os.Getpid()), uint64(time.Now().UnixNano())+uint64(w)))
	for {
		stream := fmt.Sprintf("partie-%d-%d", w, rng.IntN(5))
		head, err := store.ReadStream(ctx, stream, 0, 1<<30)
		if err != nil {
			fmt.Printf("fail %v\n", err)
			os.Exit(2)
		}
		expected := eventstore.NoStream
		if len(head) > 0 {
			expected = eventstore.Exact(head[len(head)-1].Revision)
		}
		batch := eventstoretest.Events(1 + rng.IntN(10))
		ids := make([]string, len(batch))
		for i, e := range batch {
			ids[i] = e.ID.String()
		}
		fmt.Printf("try %s %s\n", stream, strings.Join(ids, ","))
		res, err := store.Append(ctx, stream, expected, batch...)
		if err != nil {
			fmt.Printf("fail %v\n", err)
			os.Exit(2)
		}
		fmt.Printf("ack %s %d %d %s\n", stream, res.Revision, res.Position, strings.Join(ids, ","))
	}
}

type crashBatch struct {
	stream   string
	ids      []uuid.UUID
	acked    bool
	revision uint64 // of the last event, when acked
	position uint64
}

func TestSIGKILLLosesNoAcknowledgedEvent(t *testing.T) {
	if testing.Short() {
		t.Skip("crash test skipped in -short mode")
	}
	dir := t.TempDir()
	rng := rand.New(rand.NewPCG(7, 11))
	var batches []*crashBatch
	const kills = 40
	for i := 0; i < kills; i++ {
		lines := runChildUntilKilled(t, dir, time.Duration(40+rng.IntN(260))*time.Millisecond)
		batches = append(batches, parseChildLines(t, lines)...)
		checkAfterCrash(t, dir, batches)
	}
	acked := 0
	for _, b := range batches {
		if b.acked {
			acked++
		}
	}
	t.Logf("%d kills, %d batches tried, %d acknowledged", kills, len(batches), acked)
	require.Greater(t, acked, kills, "the children got real work done between kills")
}

// runChildUntilKilled starts the child, SIGKILLs it after d and returns the
// complete lines it printed.
func runChildUntilKilled(t *testing.T, dir string, d time.Duration) []string {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestCrashChildProcess$")
	cmd.Env = append(os.Environ(), crashDirEnv+"="+dir)
	stdout, err := cmd.StdoutPipe()
	require.NoError(t, err)
	require.NoError(t, cmd.Start())
	linesCh := make(chan []string, 1)
	go func() {
		var lines []string
		r := bufio.NewReader(stdout)
		for {
			line, err := r.ReadString('\n')
			if err != nil { // a line cut by the kill is not a report
				linesCh <- lines
				return
			}
			lines = append(lines, strings.TrimSuffix(line, "\n"))
		}
	}()
	time.Sleep(d)
	require.NoError(t, cmd.Process.Signal(syscall.SIGKILL))
	lines := <-linesCh
	_ = cmd.Wait() // killed: the exit status is the signal
	for _, l := range lines {
		require.False(t, strings.HasPrefix(l, "fail "), "child failed: %s", l)
	}
	return lines
}

func parseChildLines(t *testing.T, lines []string) []*crashBatch {
	t.Helper()
	var out []*crashBatch
	tried := map[string]*crashBatch{}
	for _, line := range lines {
		fields := strings.Fields(line)
		switch fields[0] {
		case "try":
			b := &crashBatch{stream: fields[1], ids: parseIDs(t, fields[2])}
			out = append(out, b)
			tried[fields[2]] = b
		case "ack":
			b := tried[fields[4]]
			require.NotNil(t, b, "acknowledged after it was tried: %s", line)
			require.Equal(t, fields[1], b.stream)
			b.acked = true
			b.revision, _ = strconv.ParseUint(fields[2], 10, 64)
			b.position, _ = strconv.ParseUint(fields[3], 10, 64)
		}
	}
	return out
}

func parseIDs(t *testing.T, s string) []uuid.UUID {
	var ids []uuid.UUID
	for _, part := range strings.Split(s, ",") {
		ids = append(ids, uuid.MustParse(part))
	}
	return ids
}

// checkAfterCrash reopens the store like a restarted server and checks the
// whole history written so far.
func checkAfterCrash(t *testing.T, dir string, batches []*crashBatch) {
	t.Helper()
	ctx := context.Background()
	store, err := sqlitestore.OpenDir(ctx, dir, sqlitestore.Options{})
	require.NoError(t, err, "the store reopens after a kill")
	defer store.Close()

	stored := map[uuid.UUID]eventstore.Event{}
	_, err = eventstore.ForEachAfter(ctx, store, 0, func(e eventstore.Event) error {
		stored[e.ID] = e
		return nil
	})
	require.NoError(t, err)
	for _, b := range batches {
		present := 0
		for _, id := range b.ids {
			if _, ok := stored[id]; ok {
				present++
			}
		}
		if b.acked {
			require.Equal(t, len(b.ids), present, "every event of an acknowledged batch is present")
			last := stored[b.ids[len(b.ids)-1]]
			assert.Equal(t, b.stream, last.Stream)
			assert.Equal(t, b.revision, last.Revision)
			assert.Equal(t, b.position, last.Position)
			continue
		}
		require.Contains(t, []int{0, len(b.ids)}, present, "a batch is written whole or not at all")
	}
	report, err := integrity.Verify(ctx, store, integrity.VerifyOptions{GaplessPositions: true})
	require.NoError(t, err)
	require.True(t, report.OK(), "verify passes: %v", report.Problems)
	require.Equal(t, len(stored), report.Events)

	liveDB, err := projection.OpenDB(filepath.Join(dir, projection.FileName))
	require.NoError(t, err)
	defer liveDB.Close()
	live, err := projection.NewRunner(ctx, liveDB, projectiontest.Projection{}, store)
	require.NoError(t, err)
	_, err = live.CatchUp(ctx, nil) // a restarted server resumes from the checkpoint
	require.NoError(t, err)
	rebuiltDB, err := projection.OpenDB(filepath.Join(t.TempDir(), projection.FileName))
	require.NoError(t, err)
	defer rebuiltDB.Close()
	rebuilt, err := projection.NewRunner(ctx, rebuiltDB, projectiontest.Projection{}, store)
	require.NoError(t, err)
	_, err = rebuilt.Rebuild(ctx, nil)
	require.NoError(t, err)
	liveDump, err := projection.Dump(ctx, liveDB)
	require.NoError(t, err)
	rebuiltDump, err := projection.Dump(ctx, rebuiltDB)
	require.NoError(t, err)
	require.Equal(t, string(rebuiltDump), string(liveDump), "the rebuilt projection equals the live one")
}
