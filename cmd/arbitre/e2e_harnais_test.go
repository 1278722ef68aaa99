package main

// Tests of the end-to-end harness itself (issue 32, item 1): what the
// helpers do when the network fails under them.

import (
	"net"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Issue 32, item 1: e2eRelais read its cut before dialling the server and
// kept the two ends only after, so a connection accepted just before
// interrompre went on through the cut. The relay here dials a pipe held
// by the test; the network is cut while it dials: the client's bytes must
// not reach the server, whose end is closed.
func TestE2EHarnais_ConnexionAccepteeJusteAvantLaCoupure(t *testing.T) {
	r := nouveauRelais(t, "")
	relais, serveur := net.Pipe()
	// A guard against a hang, not a measure; set before the cut, since a
	// pipe whose other end is closed refuses a deadline.
	require.NoError(t, serveur.SetReadDeadline(time.Now().Add(time.Minute)))
	compose, repris := make(chan struct{}), make(chan struct{})
	r.composer = func() (net.Conn, error) {
		close(compose)
		<-repris
		return relais, nil
	}
	client, err := net.Dial("tcp", r.addr())
	require.NoError(t, err)
	defer client.Close()

	<-compose // the relay accepted the connection and dials the server
	r.interrompre()
	close(repris)
	_, _ = client.Write([]byte("ping")) // refused or lost: the link is cut

	n, err := serveur.Read(make([]byte, 4))
	assert.Zero(t, n, "nothing goes through a cut network")
	assert.Error(t, err, "the server's end is closed by the cut")
}

// Issue 32, item 1: postGraphQL required the request to go through, so a
// transport error inside a require.Eventually condition (its own
// goroutine) stopped that goroutine alone: the condition never answered
// again and the wait ran out as « Condition never satisfied ». The server
// here cuts the first connection before answering: the condition sees an
// error answer and the next try succeeds.
func TestE2EHarnais_RequeteCoupeeDansUneAttente(t *testing.T) {
	var requetes atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if requetes.Add(1) == 1 {
			c, _, err := w.(http.Hijacker).Hijack()
			if err == nil {
				c.Close()
			}
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"data":{"__typename":"Query"}}`))
	}))
	defer srv.Close()

	var premier apiResult
	essais := 0
	require.Eventually(t, func() bool {
		essais++
		r := postGraphQL(t, srv.URL, "", `{ __typename }`, nil)
		if essais == 1 {
			premier = r
		}
		return len(r.Errors) == 0
	}, 20*time.Second, 10*time.Millisecond)
	assert.Equal(t, 2, essais, "the cut request is an answer with an error, then tried again")
	assert.Equal(t, codeTransport, premier.code())
}
