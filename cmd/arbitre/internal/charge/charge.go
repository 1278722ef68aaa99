package charge

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"runtime"
	"runtime/pprof"
	"slices"
	"time"

	"arbitre/apiclient"
	"arbitre/cmd/arbitre/internal/cpuprofile"
	"arbitre/cmd/arbitre/internal/storeflags"
	"arbitre/domain/acces"
	"arbitre/domain/duplicate/simulation"
	"arbitre/domain/eventstore"
	"arbitre/graphql/server"
)

// The load benchmark of issue 7: a simulated tournament served by the real
// server on loopback, then three phases driven over HTTP and websocket like
// any client: standings queries at a fixed rate, live displays waiting for
// an announced top, arbiters entering bulletins concurrently.

// Outils are what the benchmarks take from the command line tool they
// measure (cmd/arbitre gives its own): `arbitre serve` run in-process and
// the commands that prepare a store before the server opens it.
type Outils struct {
	// Serve runs `arbitre serve` over flags' store, listening at addr,
	// until ctx ends.
	Serve func(ctx context.Context, flags *storeflags.Flags, addr string, lexPaths []string, log *slog.Logger, configure ...func(*server.Config)) error
	// SimulerSalle plays the simulated game of joueurs players into flags'
	// store, as `arbitre simulate duplicate --seed graine` does (tournament
	// sim-<graine>).
	SimulerSalle func(ctx context.Context, flags *storeflags.Flags, lexPath string, joueurs int, graine uint64) error
	// JouerCentres plays the pre-drawn game in every centre of c (one
	// tournament per centre, CentreNational(k), tirages seeded by
	// GraineNationale) into flags' store and exports each centre's bundle
	// for EpreuveNationale, as `arbitre centre export` does; coups is the
	// game's length.
	JouerCentres func(ctx context.Context, flags *storeflags.Flags, c NationalConfig) (paquets [][]byte, coups int, err error)
	// OuvrirEpreuve opens an event at the federation, as `arbitre centre
	// ouvrir` does.
	OuvrirEpreuve func(ctx context.Context, flags *storeflags.Flags, epreuve, nom string, coups int, md eventstore.Metadata) error
	// EcrireJSON writes a report as every command's --json does.
	EcrireJSON func(w io.Writer, v any) error
}

// Config is what `arbitre charge` is asked to run.
type Config struct {
	Data       string
	LexPath    string
	Players    int
	Displays   int
	Arbiters   int
	QPS        int
	Duration   time.Duration
	JSON       bool
	ProfileDir string
	// verifier runs the consistency checker instead (verifier.go).
	Verifier bool
	Verif    VerifConfig
	// SautsHorloge, with Verifier, runs the server in this process and
	// jumps its clock every SautsHorloge acknowledged commands
	// (verifier_horloge.go); 0: never.
	SautsHorloge int
}

const (
	// chargeSeed seeds the simulated tournament: tournament sim-1, its
	// simulated game sim-1-1 and the live game sim-1-2.
	chargeSeed = 1
	// chargeWait bounds every wait: server start, projections catching up,
	// displays connecting and receiving.
	chargeWait = 30 * time.Second
	// maxAttempts bounds how often an arbiter sends one bulletin.
	maxAttempts = 200
	// Targets of issues 7 and 17.
	targetStandingsP99 = 20 * time.Millisecond
	targetDisplayP99   = 500 * time.Millisecond
	targetCoup         = 2 * time.Second
	targetBulletinP99  = 150 * time.Millisecond
)

// Report is what the benchmark measured.
type Report struct {
	Players     int             `json:"players"`
	Displays    int             `json:"displays"`
	Arbiters    int             `json:"arbiters"`
	QPS         int             `json:"qps"`
	Duration    string          `json:"duration"`
	CPUs        int             `json:"cpus"`
	Preparation float64         `json:"preparation_ms"`
	Standings   standingsReport `json:"standings"`
	Live        displaysReport  `json:"displays_phase"`
	Bulletins   bulletinsReport `json:"bulletins"`
}

type standingsReport struct {
	// Unloaded is one query at a time, before the fixed rate: the service
	// time of a query on an idle server.
	Unloaded latency `json:"unloaded"`
	debit
	TargetOK bool `json:"target_ok"`
}

// debit is what a phase of queries sent at a fixed rate measured.
type debit struct {
	Sent int `json:"sent"`
	// Rate is how fast they were sent, Served how many answers came back
	// right per second until the last one.
	Rate       float64 `json:"rate_per_s"`
	Served     float64 `json:"served_per_s"`
	Errors     int     `json:"errors"`
	FirstError string  `json:"first_error,omitempty"`
	Latency    latency `json:"latency"`
}

type displaysReport struct {
	Connected        int     `json:"connected"`
	ConnectMS        float64 `json:"connect_ms"`
	MutationMS       float64 `json:"mutation_ms"`
	CoupAnnounced    latency `json:"coup_announced"`
	StandingsChanged latency `json:"standings_changed"`
	Errors           int     `json:"errors"`
	TargetOK         bool    `json:"target_ok"`
}

type bulletinsReport struct {
	Coup       int     `json:"coup"`
	Expected   int     `json:"expected"`
	ElapsedMS  float64 `json:"elapsed_ms"`
	Conflicts  int     `json:"conflict_retries"`
	Replays    int     `json:"replays"`
	Errors     int     `json:"errors"`
	Latency    latency `json:"latency"`
	Listed     int     `json:"listed"`
	InStore    int     `json:"in_store"`
	Missing    int     `json:"missing"`
	Duplicated int     `json:"duplicated"`
	// TargetOK: none lost, duplicated, refused or answered CONFLICT.
	TargetOK bool `json:"target_ok"`
	// TimingOK: the coup entered within targetCoup, p99 within
	// targetBulletinP99.
	TimingOK bool `json:"timing_ok"`
}

// latency summarizes durations in milliseconds; N is how many there are.
type latency struct {
	N   int     `json:"n"`
	P50 float64 `json:"p50_ms"`
	P95 float64 `json:"p95_ms"`
	P99 float64 `json:"p99_ms"`
	Max float64 `json:"max_ms"`
}

// summarize computes the percentiles of ds (nearest rank).
func summarize(ds []time.Duration) latency {
	if len(ds) == 0 {
		return latency{}
	}
	s := slices.Clone(ds)
	slices.Sort(s)
	at := func(q float64) float64 { return ms(s[max(0, int(q*float64(len(s))+0.999999)-1)]) }
	return latency{N: len(s), P50: at(0.50), P95: at(0.95), P99: at(0.99), Max: ms(s[len(s)-1])}
}

// ms converts d to milliseconds.
func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

func (c Config) validate() error {
	if c.Players < 1 || c.Displays < 1 || c.Arbiters < 1 || c.QPS < 1 || c.Duration <= 0 {
		return errors.New("--players, --displays, --arbiters, --qps et --duration doivent être positifs")
	}
	if tables, _ := simulation.Placement(c.Players - 1); c.Arbiters > tables {
		return fmt.Errorf("--arbiters %d : %d joueurs n'occupent que %d tables", c.Arbiters, c.Players, tables)
	}
	return nil
}

// arbiterTables is the k-th of c.Arbiters disjoint slices of the tables of
// the simulated hall.
func (c Config) arbiterTables(k int) acces.Tables {
	tables, _ := simulation.Placement(c.Players - 1)
	return acces.Tables{Min: k*tables/c.Arbiters + 1, Max: (k + 1) * tables / c.Arbiters}
}

// The simulated tournament's ids.
var (
	chargeTournoi = fmt.Sprintf("sim-%d", chargeSeed)
	chargeGame    = chargeTournoi + "-1" // simulated, whole
	chargeLive    = chargeTournoi + "-2" // played live during the benchmark
)

// Run runs `arbitre charge` and writes its report to out.
func (o Outils) Run(ctx context.Context, out io.Writer, c Config) error {
	if err := c.validate(); err != nil {
		return err
	}
	dir := c.Data
	if dir != "" {
		if err := os.MkdirAll(dir, 0o700); err != nil {
			return err
		}
	} else {
		tmp, err := os.MkdirTemp("", "arbitre-charge-")
		if err != nil {
			return err
		}
		defer os.RemoveAll(tmp)
		dir = tmp
	}
	flags := &storeflags.Flags{DataDir: dir, Backend: storeflags.SQLite, Init: true}
	rep := Report{Players: c.Players, Displays: c.Displays, Arbiters: c.Arbiters, QPS: c.QPS,
		Duration: c.Duration.String(), CPUs: runtime.NumCPU()}
	start := time.Now()
	tokens, err := o.prepareCharge(ctx, flags, c)
	if err != nil {
		return err
	}
	rep.Preparation = ms(time.Since(start))

	cl, stopServer, err := o.demarrerServeurCharge(ctx, flags, c.LexPath)
	if err != nil {
		return err
	}
	var runErr error
	pprof.Do(ctx, pprof.Labels("side", "client"), func(ctx context.Context) {
		runErr = runPhases(ctx, cl, tokens, c, &rep)
	})
	runErr = errors.Join(runErr, stopServer())
	if runErr == nil {
		runErr = countStored(ctx, flags, &rep.Bulletins)
	}
	if runErr != nil {
		return runErr
	}
	b := &rep.Bulletins
	b.TargetOK = b.Errors == 0 && b.Conflicts == 0 && b.Missing == 0 && b.Duplicated == 0 && b.Listed == b.Expected && b.InStore == b.Expected
	b.TimingOK = b.ElapsedMS <= ms(targetCoup) && b.Latency.P99 <= ms(targetBulletinP99)
	if c.JSON {
		if err := o.EcrireJSON(out, rep); err != nil {
			return err
		}
	} else {
		rep.print(out)
	}
	if !b.TargetOK {
		return fmt.Errorf("bulletins perdus, en double ou refusés : %d manquants, %d en double, %d erreurs, %d CONFLICT", b.Missing, b.Duplicated, b.Errors, b.Conflicts)
	}
	return nil
}

// demarrerServeurCharge starts the real server (o.Serve, SQLite) over
// flags' store on a free loopback port, without its rate limit (every
// client of a benchmark comes from one address), and returns a client of
// its API; stop stops it and returns how it ended.
func (o Outils) demarrerServeurCharge(ctx context.Context, flags *storeflags.Flags, lexPath string) (cl *chargeClient, stop func() error, err error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, nil, err
	}
	addr := ln.Addr().String()
	if err := ln.Close(); err != nil {
		return nil, nil, err
	}
	srvCtx, stopServer := context.WithCancel(ctx)
	served := make(chan error, 1)
	limits := server.DefaultLimits
	limits.Rate = 0
	// The server's goroutines and the client's carry a profile label
	// (side=server, side=client), inherited by every goroutine they start,
	// so that a profile splits the CPU between them (docs/charge.md).
	go pprof.Do(srvCtx, pprof.Labels("side", "server"), func(srvCtx context.Context) {
		served <- o.Serve(srvCtx, flags, addr, []string{lexPath}, slog.New(slog.NewTextHandler(io.Discard, nil)),
			func(c *server.Config) { c.Limits = limits })
	})
	return nouveauChargeClient(addr), func() error { stopServer(); return <-served }, nil
}

// chargeTokens are the secrets the phases act with.
type chargeTokens struct {
	director string
	arbiters []string // arbiter k corrects the k-th slice of the tables
}

// prepareCharge simulates a whole game of the tournament's players (events
// written straight into the store, as `arbitre simulate duplicate` does) and
// issues the tokens, before the server opens the store.
func (o Outils) prepareCharge(ctx context.Context, flags *storeflags.Flags, c Config) (chargeTokens, error) {
	var tk chargeTokens
	if err := o.SimulerSalle(ctx, flags, c.LexPath, c.Players, chargeSeed); err != nil {
		return tk, err
	}
	demandes := []acces.Demande{{Role: acces.Directeur}}
	for k := range c.Arbiters {
		demandes = append(demandes, acces.Demande{Role: acces.Arbitre, Tournoi: chargeTournoi, Tables: c.arbiterTables(k)})
	}
	jetons, err := emettreJetons(ctx, flags, "charge", 2*time.Hour, demandes)
	if err != nil {
		return tk, err
	}
	tk.director, tk.arbiters = jetons[0], jetons[1:]
	return tk, nil
}

// emettreJetons issues the tokens asked, in flags' store before a server
// opens it, as the director of the tool named libelle; they live duree.
func emettreJetons(ctx context.Context, flags *storeflags.Flags, libelle string, duree time.Duration, demandes []acces.Demande) ([]string, error) {
	store, _, err := flags.Open(ctx)
	if err != nil {
		return nil, err
	}
	defer store.Close()
	reg := eventstore.NewRegistry()
	if err := acces.RegisterEvents(reg); err != nil {
		return nil, err
	}
	svc := &acces.Service{Store: store, Registry: reg, Clock: eventstore.SystemClock}
	jetons := make([]string, len(demandes))
	for i, d := range demandes {
		d.Duree, d.Libelle = duree, libelle
		if jetons[i], _, err = svc.Emettre(ctx, d, eventstore.Metadata{Actor: libelle, Role: string(acces.Directeur)}); err != nil {
			return nil, err
		}
	}
	return jetons, nil
}

// nouveauChargeClient is a client of the API served at addr, for the
// benchmarks' many concurrent callers. It does not ask for gzip: the
// server does not compress, and the header cost the load generator a map
// per request (docs/charge.md, séance 13).
func nouveauChargeClient(addr string) *chargeClient {
	return &chargeClient{apiclient.New("http://"+addr, &http.Client{Timeout: chargeWait,
		Transport: &http.Transport{MaxIdleConnsPerHost: 256, DisableCompression: true}})}
}

// runPhases waits for the server, opens the live game and runs the three
// phases, each under its own CPU, mutex and block profiles when asked.
func runPhases(ctx context.Context, cl *chargeClient, tk chargeTokens, c Config, rep *Report) error {
	if err := cl.ready(ctx, c.Players); err != nil {
		return err
	}
	if err := cl.Do(ctx, tk.director, `mutation($t: ID!, $p: ID!) { creerPartie(tournoi:$t, partie:$p, config:{source: logiciel, graine: 2}) { version } }`,
		map[string]any{"t": chargeTournoi, "p": chargeLive}, nil); err != nil {
		return fmt.Errorf("création de la partie en direct : %w", err)
	}
	phases := []struct {
		name string
		run  func() error
	}{
		{"standings", func() error { return standingsPhase(ctx, cl, c, &rep.Standings) }},
		{"displays", func() error { return displaysPhase(ctx, cl, tk, c, &rep.Live) }},
		{"bulletins", func() error { return bulletinsPhase(ctx, cl, tk, c, &rep.Bulletins) }},
	}
	for _, ph := range phases {
		enProfil := func() error { return cpuprofile.Attentes(c.ProfileDir, ph.name, ph.run) }
		if err := cpuprofile.Run(c.ProfileDir, ph.name, enProfil); err != nil {
			return fmt.Errorf("%s: %w", ph.name, err)
		}
	}
	return nil
}

func (rep *Report) print(w io.Writer) {
	verdict := func(ok bool) string {
		if ok {
			return "OK"
		}
		return "ÉCHEC"
	}
	lat := func(l latency) string {
		return fmt.Sprintf("p50 %.1f ms  p95 %.1f ms  p99 %.1f ms  max %.1f ms", l.P50, l.P95, l.P99, l.Max)
	}
	s, d, b := rep.Standings, rep.Live, rep.Bulletins
	fmt.Fprintf(w, "arbitre charge : %d joueurs, %d affichages, %d arbitres, %d req/s pendant %s, %d CPU, %s\n",
		rep.Players, rep.Displays, rep.Arbiters, rep.QPS, rep.Duration, rep.CPUs, runtime.Version())
	fmt.Fprintf(w, "préparation (partie simulée %s, jetons) : %.0f ms\n", chargeGame, rep.Preparation)
	fmt.Fprintf(w, "1. classement  une à une : %s\n", lat(s.Unloaded))
	fmt.Fprintf(w, "               %d requêtes envoyées à %.1f req/s sur %s et le cumul de %s ; %.1f justes par seconde ; %d erreurs\n",
		s.Sent, s.Rate, chargeGame, chargeTournoi, s.Served, s.Errors)
	if s.FirstError != "" {
		fmt.Fprintf(w, "               première erreur : %s\n", s.FirstError)
	}
	fmt.Fprintf(w, "               %s  (objectif p99 ≤ %s : %s)\n", lat(s.Latency), targetStandingsP99, verdict(s.TargetOK))
	fmt.Fprintf(w, "2. affichages  %d/%d connectés en %.0f ms ; retenirTop répond en %.1f ms ; %d erreurs\n", d.Connected, rep.Displays, d.ConnectMS, d.MutationMS, d.Errors)
	fmt.Fprintf(w, "               coupAnnonce      %d reçus  %s\n", d.CoupAnnounced.N, lat(d.CoupAnnounced))
	fmt.Fprintf(w, "               classementChange %d reçus  %s  (objectif tous, p99 ≤ %s : %s)\n", d.StandingsChanged.N, lat(d.StandingsChanged), targetDisplayP99, verdict(d.TargetOK))
	fmt.Fprintf(w, "3. bulletins   %d saisis en %.0f ms, %d reprises sur CONFLICT, %d renvois d'un clientMutationId, %d erreurs\n", b.Expected, b.ElapsedMS, b.Conflicts, b.Replays, b.Errors)
	fmt.Fprintf(w, "               par bulletin %s  (objectif coup ≤ %s, p99 ≤ %s : %s)\n", lat(b.Latency), targetCoup, targetBulletinP99, verdict(b.TimingOK))
	fmt.Fprintf(w, "               listés %d, dans le magasin %d, manquants %d, en double %d (objectif aucun perdu, en double ni CONFLICT : %s)\n", b.Listed, b.InStore, b.Missing, b.Duplicated, verdict(b.TargetOK))
}

// chargeClient is the benchmarks' client of the server under load.
type chargeClient struct{ *apiclient.Client }

// ready waits for the server to answer and for its projections to hold the
// simulated game's standings.
func (cl *chargeClient) ready(ctx context.Context, players int) error {
	deadline := time.Now().Add(chargeWait)
	for {
		var res struct {
			Classement []struct{ Score int }
		}
		err := cl.Do(ctx, "", standingsQuery, map[string]any{"t": chargeTournoi}, &res)
		if err == nil && len(res.Classement) == players && res.Classement[0].Score > 0 {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("le serveur n'a pas servi le classement de %s en %s (dernière erreur : %v)", chargeTournoi, chargeWait, err)
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(50 * time.Millisecond):
		}
	}
}
