package charge

import (
	"context"
	"errors"
	"log/slog"
	"sync"
	"time"

	"arbitre/cmd/arbitre/internal/storeflags"
	"arbitre/domain/eventstore"
	"arbitre/graphql/server"
)

// horlogeSautante is the server's clock under `charge --verifier
// --sauts-horloge`: the system's, its wall time moved by the jumps; its
// monotonic readings are the process's own, which no jump moves (as an
// operator's or an NTP step's setting of the clock would not).
type horlogeSautante struct {
	mu       sync.Mutex
	decalage time.Duration
}

var systeme = eventstore.SystemClock.(eventstore.MonotonicClock)

func (h *horlogeSautante) Now() time.Time {
	h.mu.Lock()
	defer h.mu.Unlock()
	return systeme.Now().Add(h.decalage)
}

func (h *horlogeSautante) Monotonic() eventstore.MonotonicReading { return systeme.Monotonic() }

// sauter is the n-th jump (from 1): one hour forward, then back.
func (h *horlogeSautante) sauter(n int) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if n%2 == 1 {
		h.decalage += time.Hour
	} else {
		h.decalage -= time.Hour
	}
}

// sautsHorloge makes v run the server in this process, on a clock that
// jumps one hour forward then back every tous acknowledged commands in
// place of the kill -9 (issue 32 item 3): its use cases, its tokens'
// expiry and its store's stamps read that clock. Refused with a kill -9
// asked for too: a server in this process cannot be killed.
func (o Outils) sautsHorloge(v *VerifConfig, tous int) error {
	switch {
	case tous < 0:
		return errors.New("--sauts-horloge vaut au moins 0")
	case tous == 0:
		return nil
	case v.TuerTous > 0:
		return errors.New("--sauts-horloge et --tuer-tous s'excluent : le serveur lancé dans ce processus pour que son horloge saute ne peut être tué (kill -9)")
	}
	h := &horlogeSautante{}
	var lexiques []string
	if v.LexPath != "" {
		lexiques = []string{v.LexPath}
	}
	v.TuerTous, v.Sauter = tous, h.sauter
	v.Servir = func(ctx context.Context, data, addr string) func() error {
		ctx, cancel := context.WithCancel(ctx)
		fini := make(chan error, 1)
		go func() {
			fini <- o.Serve(ctx, &storeflags.Flags{DataDir: data, Backend: storeflags.SQLite, Clock: h}, addr, lexiques, slog.New(slog.DiscardHandler),
				func(c *server.Config) {
					c.Limits = server.DefaultLimits
					c.Limits.Rate = 0 // as `serve --rate 0`: the clients go as fast as the machine
					c.Resolver.Clock, c.Now = h, h.Now
				})
		}()
		return func() error { cancel(); return <-fini }
	}
	return nil
}
