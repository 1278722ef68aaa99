package main

// `arbitre serve` in an OS process of its own, as a director starts it:
// the test binary runs itself again, as `arbitre` with the command line
// given, through main (the real flag parsing, the real signal handling,
// the real exit).

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// envProcessus carries the command line of the child process (a JSON
// list of arguments after `arbitre`).
const envProcessus = "ARBITRE_PROCESSUS_ARGS"

// TestProcessusEnfant is `arbitre ARGS...` in the child process
// serveProcessus starts, with ARGS from envProcessus; elsewhere it is
// skipped. It runs main itself: a command that fails prints its error and
// exits 1 as the binary does; `serve` returns after SIGTERM or SIGINT and
// the process exits 0.
func TestProcessusEnfant(t *testing.T) {
	ligne := os.Getenv(envProcessus)
	if ligne == "" {
		t.Skip("the child process of serveProcessus only")
	}
	var args []string
	require.NoError(t, json.Unmarshal([]byte(ligne), &args))
	// The server ends with the test that started it, even one that dies
	// (a timeout): its stdin, a pipe from the test, closes then.
	go func() {
		_, _ = io.Copy(io.Discard, os.Stdin)
		if p, err := os.FindProcess(os.Getpid()); err != nil || p.Signal(syscall.SIGTERM) != nil {
			os.Exit(1)
		}
	}()
	os.Args = append([]string{"arbitre"}, args...)
	err := lancer()
	if fichier := os.Getenv(envPicMemoire); fichier != "" {
		// The process's own peak (VmHWM of its memory after exec): the
		// rusage of a child started by vfork also holds its parent's.
		pic := statutProcessus(os.Getpid(), "VmHWM:")
		if e := os.WriteFile(fichier, []byte(strconv.FormatInt(pic, 10)), 0o600); e != nil {
			os.Exit(2)
		}
	}
	if err != nil {
		os.Exit(1)
	}
}

// envPicMemoire names the file where TestProcessusEnfant writes its peak
// resident memory, in bytes, once the command is over.
const envPicMemoire = "ARBITRE_E2E_PIC_MEMOIRE"

// serveProcessus starts `arbitre serve --data data --listen 127.0.0.1:0
// options...` in a process of its own, reads the port it bound from its
// lock (adresseEcoutee) and waits until /healthz answers there. Its stop
// sends SIGTERM and waits for a clean exit (the store closed, the lock
// released); its kill is kill -9. The process is stopped when the test
// ends, and its output (but the request log) is shown if the test failed.
func serveProcessus(t *testing.T, data string, options ...string) *apiServer {
	t.Helper()
	args := append([]string{"serve", "--data", data, "--listen", ecouteLibre}, options...)
	ligne, err := json.Marshal(args)
	require.NoError(t, err)
	cmd := exec.Command(os.Args[0], "-test.run=^TestProcessusEnfant$")
	cmd.Env = append(os.Environ(), envProcessus+"="+string(ligne))
	sortie := &e2eJournal{}
	cmd.Stdout, cmd.Stderr = sortie, sortie
	_, err = cmd.StdinPipe() // open while this process lives (TestProcessusEnfant)
	require.NoError(t, err)
	require.NoError(t, cmd.Start())
	commande := "arbitre " + strings.Join(args, " ")
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("%s (pid %d) :\n%s", commande, cmd.Process.Pid, sansRequetes(sortie.String()))
		}
	})
	fini := make(chan struct{})
	var etat error
	go func() {
		etat = cmd.Wait()
		close(fini)
	}()

	s := &apiServer{t: t, data: data, pid: cmd.Process.Pid}
	var once sync.Once
	arreter := func(signal os.Signal) {
		once.Do(func() {
			if err := cmd.Process.Signal(signal); err != nil {
				// No SIGTERM on Windows, nor after an exit: end it anyway.
				_ = cmd.Process.Kill()
				signal = os.Kill
			}
			select {
			case <-fini:
			case <-time.After(2 * shutdownGrace):
				_ = cmd.Process.Kill()
				<-fini
				t.Errorf("%s did not stop within %s", commande, 2*shutdownGrace)
			}
			if signal != os.Kill {
				assert.NoError(t, etat, "%s after SIGTERM", commande)
			}
		})
	}
	s.stop = func() { arreter(syscall.SIGTERM) }
	s.tuer = func() { arreter(os.Kill) }
	t.Cleanup(s.stop)

	client := &http.Client{Timeout: 2 * time.Second}
	require.Eventually(t, func() bool {
		select {
		case <-fini:
			return true
		default:
		}
		if s.url == "" {
			a := adresseEcoutee(data, s.pid)
			if a == "" {
				return false
			}
			s.url = "http://" + a
		}
		resp, err := client.Get(s.url + "/healthz")
		if err != nil {
			return false
		}
		resp.Body.Close()
		return resp.StatusCode == http.StatusOK
	}, 20*time.Second, 20*time.Millisecond, "%s answers /healthz", commande)
	select {
	case <-fini:
		require.FailNow(t, fmt.Sprintf("%s stopped while starting: %v", commande, etat))
	default:
	}
	return s
}

// sansRequetes leaves out a server's output the log of each request.
func sansRequetes(sortie string) string {
	var b strings.Builder
	for l := range strings.Lines(sortie) {
		if !strings.Contains(l, `"level":"INFO","msg":"request"`) {
			b.WriteString(l)
		}
	}
	return b.String()
}
