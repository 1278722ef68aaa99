package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"net"
	"net/http"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/go-json-experiment/json/jsontext"
	"github.com/gorilla/websocket"
	"github.com/spf13/cobra"

	"arbitre/apiclient"
	"arbitre/domain/acces"
	"arbitre/domain/duplicate"
	"arbitre/domain/duplicate/simulation"
	"arbitre/domain/eventstore"
	"arbitre/domain/eventstore/streamname"
	"arbitre/graphql/server"
)

// The load benchmark of issue 7: a simulated tournament served by the real
// server on loopback, then three phases driven over HTTP and websocket like
// any client: standings queries at a fixed rate, live displays waiting for
// an announced top, arbiters entering bulletins concurrently.

// chargeConfig is what `arbitre charge` is asked to run.
type chargeConfig struct {
	data       string
	lexPath    string
	players    int
	displays   int
	arbiters   int
	qps        int
	duration   time.Duration
	jsonOut    bool
	profileDir string
	// verifier runs the consistency checker instead (verifier.go).
	verifier bool
	verif    verifConfig
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

func init() {
	var c chargeConfig
	cmd := &cobra.Command{
		Use:   "charge [--players 1000 --displays 1000 --arbiters 50 --qps 200 --duration 20s]",
		Short: "Banc de charge contre un vrai serveur local : requêtes de classement, affichages en direct, saisie simultanée des bulletins",
		Example: `  arbitre charge
  arbitre charge --players 1000 --displays 1000 --arbiters 50 --qps 200 --duration 20s --json
  arbitre charge --verifier --tours 20 --tuer-tous 50`,
		Args: aucunArgument,
		RunE: func(cmd *cobra.Command, _ []string) error {
			ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt, syscall.SIGTERM)
			defer stop()
			if c.verifier {
				return runChargeVerifier(ctx, cmd.OutOrStdout(), c, cmd.Flags().Changed("players"))
			}
			return runCharge(ctx, cmd.OutOrStdout(), c)
		},
	}
	f := cmd.Flags()
	f.StringVar(&c.data, "data", "", "`DOSSIER` de données neuf à conserver (par défaut un dossier temporaire, supprimé à la fin)")
	lexiconFlag(cmd, &c.lexPath)
	f.IntVar(&c.players, "players", 1000, "joueurs du tournoi")
	f.IntVar(&c.displays, "displays", 1000, "affichages websocket qui suivent la partie en direct")
	f.IntVar(&c.arbiters, "arbiters", 50, "arbitres saisissant des bulletins en même temps, sur des tables disjointes")
	f.IntVar(&c.qps, "qps", 200, "requêtes de classement par seconde")
	f.DurationVar(&c.duration, "duration", 20*time.Second, "durée de la phase de classement")
	f.BoolVar(&c.jsonOut, "json", false, "affiche le rapport en JSON")
	f.BoolVar(&c.verifier, "verifier", false, "vérifie la cohérence plutôt que la charge : directeurs, arbitres et affichages jouent des parties en même temps contre un serveur lancé à part, chaque appel est noté et l'historique de chaque partie vérifié (porcupine), puis le journal (docs/charge.md)")
	f.IntVar(&c.verif.parties, "parties", 4, "avec --verifier : parties jouées en même temps à chaque tour")
	f.IntVar(&c.verif.coups, "coups", 6, "avec --verifier : coups de chaque partie")
	f.IntVar(&c.verif.tours, "tours", 10, "avec --verifier : tours, chacun sur de nouvelles parties")
	f.IntVar(&c.verif.lecteurs, "lecteurs", 3, "avec --verifier : affichages qui lisent chaque partie sans cesse")
	f.Uint64Var(&c.verif.graine, "graine", 32, "avec --verifier : graine des tirages et des pauses des clients")
	f.IntVar(&c.verif.tuerTous, "tuer-tous", 0, "avec --verifier : tue le serveur (kill -9) et le relance toutes les N commandes acquittées (0 : jamais)")
	f.StringVar(&c.profileDir, "profile", "", "`DOSSIER` d'un profil CPU par phase (standings.pprof, displays.pprof, bulletins.pprof), serveur et client étiquetés side=server et side=client")
	cmd.AddCommand(chargeNationalCmd())
	rootCmd.AddCommand(cmd)
}

// chargeReport is what the benchmark measured.
type chargeReport struct {
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

func (c chargeConfig) validate() error {
	if c.players < 1 || c.displays < 1 || c.arbiters < 1 || c.qps < 1 || c.duration <= 0 {
		return errors.New("--players, --displays, --arbiters, --qps et --duration doivent être positifs")
	}
	if tables, _ := simulation.Placement(c.players - 1); c.arbiters > tables {
		return fmt.Errorf("--arbiters %d : %d joueurs n'occupent que %d tables", c.arbiters, c.players, tables)
	}
	return nil
}

// arbiterTables is the k-th of c.arbiters disjoint slices of the tables of
// the simulated hall.
func (c chargeConfig) arbiterTables(k int) acces.Tables {
	tables, _ := simulation.Placement(c.players - 1)
	return acces.Tables{Min: k*tables/c.arbiters + 1, Max: (k + 1) * tables / c.arbiters}
}

// The simulated tournament's ids.
var (
	chargeTournoi = fmt.Sprintf("sim-%d", chargeSeed)
	chargeGame    = chargeTournoi + "-1" // simulated, whole
	chargeLive    = chargeTournoi + "-2" // played live during the benchmark
)

func runCharge(ctx context.Context, out io.Writer, c chargeConfig) error {
	if err := c.validate(); err != nil {
		return err
	}
	dir := c.data
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
	flags := &storeFlags{dataDir: dir, backend: backendSQLite, init: true}
	rep := chargeReport{Players: c.players, Displays: c.displays, Arbiters: c.arbiters, QPS: c.qps,
		Duration: c.duration.String(), CPUs: runtime.NumCPU()}
	start := time.Now()
	tokens, err := prepareCharge(ctx, flags, c)
	if err != nil {
		return err
	}
	rep.Preparation = ms(time.Since(start))

	cl, stopServer, err := demarrerServeurCharge(ctx, flags, c.lexPath)
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
	if c.jsonOut {
		if err := ecrireJSON(out, rep); err != nil {
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

// demarrerServeurCharge starts the real server (runServe, SQLite) over
// flags' store on a free loopback port, without its rate limit (every
// client of a benchmark comes from one address), and returns a client of
// its API; stop stops it and returns how it ended.
func demarrerServeurCharge(ctx context.Context, flags *storeFlags, lexPath string) (cl *chargeClient, stop func() error, err error) {
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
		served <- runServe(srvCtx, flags, addr, []string{lexPath}, slog.New(slog.NewTextHandler(io.Discard, nil)),
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
func prepareCharge(ctx context.Context, flags *storeFlags, c chargeConfig) (chargeTokens, error) {
	var tk chargeTokens
	if err := simulerSalle(ctx, flags, c.lexPath, c.players); err != nil {
		return tk, err
	}
	demandes := []acces.Demande{{Role: acces.Directeur}}
	for k := range c.arbiters {
		demandes = append(demandes, acces.Demande{Role: acces.Arbitre, Tournoi: chargeTournoi, Tables: c.arbiterTables(k)})
	}
	jetons, err := emettreJetons(ctx, flags, "charge", 2*time.Hour, demandes)
	if err != nil {
		return tk, err
	}
	tk.director, tk.arbiters = jetons[0], jetons[1:]
	return tk, nil
}

// simulerSalle plays the simulated game of joueurs players (tournament
// chargeTournoi) into flags' store, as `arbitre simulate duplicate --seed
// chargeSeed` does.
func simulerSalle(ctx context.Context, flags *storeFlags, lexPath string, joueurs int) error {
	sim := &cobra.Command{}
	sim.SetContext(ctx)
	sim.SetOut(io.Discard)
	return runSimulateDuplicate(sim, flags, lexPath, joueurs, 1, chargeSeed)
}

// emettreJetons issues the tokens asked, in flags' store before a server
// opens it, as the director of the tool named libelle; they live duree.
func emettreJetons(ctx context.Context, flags *storeFlags, libelle string, duree time.Duration, demandes []acces.Demande) ([]string, error) {
	store, _, err := flags.openStore(ctx)
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
// benchmarks' many concurrent callers.
func nouveauChargeClient(addr string) *chargeClient {
	return &chargeClient{apiclient.New("http://"+addr, &http.Client{Timeout: chargeWait,
		Transport: &http.Transport{MaxIdleConnsPerHost: 256}})}
}

// runPhases waits for the server, opens the live game and runs the three
// phases, each under its own CPU profile when asked.
func runPhases(ctx context.Context, cl *chargeClient, tk chargeTokens, c chargeConfig, rep *chargeReport) error {
	if err := cl.ready(ctx, c.players); err != nil {
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
		if err := profiled(c.profileDir, ph.name, ph.run); err != nil {
			return fmt.Errorf("%s: %w", ph.name, err)
		}
	}
	return nil
}

// profiled runs f under a CPU profile written to dir/name.pprof (no profile
// without dir).
func profiled(dir, name string, f func() error) error {
	if dir == "" {
		return f()
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	file, err := os.Create(filepath.Join(dir, name+".pprof"))
	if err != nil {
		return err
	}
	defer file.Close()
	if err := pprof.StartCPUProfile(file); err != nil {
		return err
	}
	defer pprof.StopCPUProfile()
	return f()
}

const standingsQuery = `query($p: ID, $t: ID) { classement(partie:$p, tournoi:$t) {
  rang licence nom club serie score top negatif pourcentage solos avertissements penalites enAttente } }`

// lignesComptees is the number of lines of a standings answer, read
// without decoding them: the client runs on the server's two cores, and
// decoding the 13 fields of 1,000 lines per answer (encoding/json) cost it
// six times what the server spent answering, which the phase then
// measured (docs/charge.md). The answer is still read whole as JSON.
type lignesComptees int

func (n *lignesComptees) UnmarshalJSON(data []byte) error {
	dec := jsontext.NewDecoder(bytes.NewReader(data))
	if err := attendreJeton(dec, '{'); err != nil {
		return err
	}
	cle, err := dec.ReadToken()
	if err != nil {
		return err
	}
	if cle.String() != "classement" {
		return fmt.Errorf("classement attendu, pas %q", cle.String())
	}
	if err := attendreJeton(dec, '['); err != nil {
		return err
	}
	for *n = 0; dec.PeekKind() != ']'; *n++ {
		if err := dec.SkipValue(); err != nil {
			return err
		}
	}
	return nil
}

// attendreJeton reads the next token, which must be kind.
func attendreJeton(dec *jsontext.Decoder, kind jsontext.Kind) error {
	t, err := dec.ReadToken()
	if err == nil && t.Kind() != kind {
		err = fmt.Errorf("%v attendu, pas %v", kind, t.Kind())
	}
	return err
}

// unloadedQueries is how many standings queries are sent one at a time
// before the fixed rate.
const unloadedQueries = 20

// standingsPhase sends unloadedQueries standings queries one at a time, then
// c.qps a second for c.duration, open loop (each at its scheduled time
// whatever the others do), alternately on the simulated game and on the
// tournament's cumul, each measured from its scheduled time.
func standingsPhase(ctx context.Context, cl *chargeClient, c chargeConfig, r *standingsReport) error {
	vars := func(i int) map[string]any {
		if i%2 == 1 {
			return map[string]any{"t": chargeTournoi}
		}
		return map[string]any{"p": chargeGame}
	}
	query := func(i int) error {
		var lignes lignesComptees
		if err := cl.Do(ctx, "", standingsQuery, vars(i), &lignes); err != nil {
			return err
		}
		if int(lignes) != c.players {
			return fmt.Errorf("classement : %d lignes pour %d joueurs", lignes, c.players)
		}
		return nil
	}
	var err error
	if r.Unloaded, err = sansCharge(query); err != nil {
		return err
	}
	r.debit = aDebitFixe(ctx, c.qps, c.duration, query)
	r.TargetOK = r.Errors == 0 && r.Latency.P99 <= ms(targetStandingsP99)
	return ctx.Err()
}

// sansCharge sends unloadedQueries queries one at a time: the service time
// of a query on an idle server.
func sansCharge(query func(i int) error) (latency, error) {
	unloaded := make([]time.Duration, unloadedQueries)
	for i := range unloaded {
		began := time.Now()
		if err := query(i); err != nil {
			return latency{}, err
		}
		unloaded[i] = time.Since(began)
	}
	return summarize(unloaded), nil
}

// aDebitFixe sends queries at a fixed rate for the duration, open-loop:
// each query leaves at its scheduled time whatever the others do, and its
// latency is measured from that time.
func aDebitFixe(ctx context.Context, qps int, duration time.Duration, query func(i int) error) debit {
	var r debit
	n := int(duration.Seconds() * float64(qps))
	interval := time.Second / time.Duration(qps)
	lat := make([]time.Duration, n)
	var errs atomic.Int64
	var firstErr sync.Once
	var wg sync.WaitGroup
	start := time.Now()
	sent := 0
	for i := range n {
		at := start.Add(time.Duration(i) * interval)
		select {
		case <-ctx.Done():
		case <-time.After(time.Until(at)):
		}
		if ctx.Err() != nil {
			break
		}
		sent++
		wg.Go(func() {
			err := query(i)
			lat[i] = time.Since(at)
			if err != nil {
				errs.Add(1)
				firstErr.Do(func() { r.FirstError = err.Error() })
			}
		})
	}
	r.Rate = float64(sent) / time.Since(start).Seconds()
	wg.Wait()
	r.Sent, r.Errors = sent, int(errs.Load())
	r.Served = float64(sent-r.Errors) / time.Since(start).Seconds()
	r.Latency = summarize(lat[:sent])
	return r
}

// displaysPhase connects c.displays screens following the live game, has
// the director draw and announce the top, and measures for each screen the
// delay from the announcement's response to the screen showing the top, in
// the game's state and in its standings.
func displaysPhase(ctx context.Context, cl *chargeClient, tk chargeTokens, c chargeConfig, r *displaysReport) error {
	_, top, err := cl.draw(ctx, tk.director)
	if err != nil {
		return err
	}
	waitCtx, cancel := context.WithTimeout(ctx, chargeWait)
	defer cancel()
	start := time.Now()
	screens := make([]*display, c.displays)
	work := make(chan int)
	var wg sync.WaitGroup
	for range min(64, c.displays) {
		wg.Go(func() {
			for i := range work {
				screens[i] = openDisplay(ctx, cl.URL)
			}
		})
	}
	for i := range screens {
		work <- i
	}
	close(work)
	wg.Wait()
	defer func() {
		for _, s := range screens {
			s.close()
		}
	}()
	for _, s := range screens {
		if s.waitOrDeadline(s.initial, waitCtx.Done()) {
			r.Connected++
		}
	}
	r.ConnectMS = ms(time.Since(start))

	sentAt := time.Now()
	err = cl.Do(ctx, tk.director, `mutation($p: ID!, $r: String!, $m: String!) { retenirTop(partie:$p, reference:$r, mot:$m) { version } }`,
		map[string]any{"p": chargeLive, "r": top.Reference, "m": top.Mot}, nil)
	answered := time.Now()
	if err != nil {
		return fmt.Errorf("annonce du top : %w", err)
	}
	r.MutationMS = ms(answered.Sub(sentAt))
	waitCtx, cancel = context.WithTimeout(ctx, chargeWait)
	defer cancel()
	for _, s := range screens {
		s.waitOrDeadline(s.topped, waitCtx.Done())
	}
	var coup, standings []time.Duration
	for _, s := range screens {
		s.close()
		if !s.coupAt.IsZero() {
			coup = append(coup, max(0, s.coupAt.Sub(answered)))
		}
		if !s.standingsAt.IsZero() {
			standings = append(standings, max(0, s.standingsAt.Sub(answered)))
		}
		if s.err != nil {
			r.Errors++
		}
	}
	r.CoupAnnounced, r.StandingsChanged = summarize(coup), summarize(standings)
	r.TargetOK = r.Errors == 0 && r.CoupAnnounced.N == c.displays && r.StandingsChanged.N == c.displays &&
		r.CoupAnnounced.P99 <= ms(targetDisplayP99) && r.StandingsChanged.P99 <= ms(targetDisplayP99)
	return ctx.Err()
}

// bulletinsPhase has the arbiters enter at once one bulletin per player of
// their tables for a new coup, retrying on CONFLICT with the same
// clientMutationId and sending every fifth bulletin a second time (a client
// that lost the answer), then lists the coup's bulletins.
func bulletinsPhase(ctx context.Context, cl *chargeClient, tk chargeTokens, c chargeConfig, r *bulletinsReport) error {
	coup, top, err := cl.draw(ctx, tk.director)
	if err != nil {
		return err
	}
	r.Coup = coup
	var t struct {
		Tournoi struct {
			Joueurs []struct {
				Licence string
				Table   int
			}
		}
	}
	if err := cl.Do(ctx, tk.director, `query($t: ID!) { tournoi(id:$t) { joueurs { licence table } } }`, map[string]any{"t": chargeTournoi}, &t); err != nil {
		return err
	}
	var mu sync.Mutex
	var lat []time.Duration
	var wg sync.WaitGroup
	start := time.Now()
	for k, token := range tk.arbiters {
		tables := c.arbiterTables(k)
		wg.Go(func() {
			for i, j := range t.Tournoi.Joueurs {
				if j.Table < tables.Min || j.Table > tables.Max {
					continue
				}
				vars := map[string]any{"p": chargeLive, "c": coup, "l": j.Licence, "b": bulletinOf(i, top),
					"m": fmt.Sprintf("charge-%s-%d-%s", chargeLive, coup, j.Licence)}
				sends := 1
				if i%5 == 0 {
					sends = 2
				}
				for s := range sends {
					began := time.Now()
					conflicts, err := cl.deposit(ctx, token, vars)
					mu.Lock()
					r.Conflicts += conflicts
					if s == 0 {
						r.Expected++
						lat = append(lat, time.Since(began))
					} else {
						r.Replays++
					}
					if err != nil {
						r.Errors++
					}
					mu.Unlock()
				}
			}
		})
	}
	wg.Wait()
	r.ElapsedMS = ms(time.Since(start))
	r.Latency = summarize(lat)
	var listed struct{ Bulletins []struct{ Licence string } }
	if err := cl.Do(ctx, tk.director, `query($p: ID!, $c: Int!) { bulletins(partie:$p, coup:$c) { licence } }`,
		map[string]any{"p": chargeLive, "c": coup}, &listed); err != nil {
		return err
	}
	seen := map[string]int{}
	for _, b := range listed.Bulletins {
		seen[b.Licence]++
	}
	r.Listed = len(listed.Bulletins)
	for _, j := range t.Tournoi.Joueurs {
		switch n := seen[j.Licence]; {
		case n == 0:
			r.Missing++
		case n > 1:
			r.Duplicated += n - 1
		}
	}
	return ctx.Err()
}

// bulletinOf is what the i-th player wrote: the top, the top with a wrong
// score, or nothing.
func bulletinOf(i int, top solutionTop) map[string]any {
	switch i % 3 {
	case 0:
		return map[string]any{"solutions": []any{map[string]any{"word": top.Mot, "ref": top.Reference, "score": top.Score}}}
	case 1:
		return map[string]any{"solutions": []any{map[string]any{"word": top.Mot, "ref": top.Reference, "score": top.Score + 2}}}
	default:
		return map[string]any{"blank": true}
	}
}

// countStored checks the store itself, once the server is stopped: how many
// bulletin events the live coup holds, per player.
func countStored(ctx context.Context, flags *storeFlags, r *bulletinsReport) error {
	store, _, err := flags.openStore(ctx)
	if err != nil {
		return err
	}
	defer store.Close()
	stream, err := streamname.PartieStream(chargeLive)
	if err != nil {
		return err
	}
	events, err := eventstore.ReadFamily(ctx, store, stream)
	if err != nil {
		return err
	}
	perPlayer := map[string]int{}
	for _, e := range events {
		if e.Type != duplicate.TypeBulletinDepose {
			continue
		}
		var b struct {
			Coup    int    `json:"coup"`
			Licence string `json:"licence"`
		}
		if err := json.Unmarshal(e.Data, &b); err != nil {
			return err
		}
		if b.Coup == r.Coup {
			r.InStore++
			perPlayer[b.Licence]++
		}
	}
	duplicated := 0
	for _, n := range perPlayer {
		duplicated += n - 1
	}
	r.Duplicated = max(r.Duplicated, duplicated)
	r.Missing = max(r.Missing, r.Expected-len(perPlayer))
	return nil
}

func (rep *chargeReport) print(w io.Writer) {
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

// solutionTop is one of the engine's tops, as the director sees it.
type solutionTop struct {
	Mot, Reference string
	Score          int
	Admissible     bool
}

// draw has the director draw the live game's next tirage and returns the
// coup and its first admissible top.
func (cl *chargeClient) draw(ctx context.Context, director string) (int, solutionTop, error) {
	var res struct {
		Tirer struct {
			Coup      int
			Solutions []solutionTop
		}
	}
	if err := cl.Do(ctx, director, `mutation($p: ID!) { tirer(partie:$p) { coup solutions { mot reference score admissible } } }`,
		map[string]any{"p": chargeLive}, &res); err != nil {
		return 0, solutionTop{}, fmt.Errorf("tirage : %w", err)
	}
	for _, s := range res.Tirer.Solutions {
		if s.Admissible {
			return res.Tirer.Coup, s, nil
		}
	}
	return 0, solutionTop{}, errors.New("tirage : aucun top admissible")
}

const depositMutation = `mutation($p: ID!, $c: Int!, $l: ID!, $b: BulletinInput!, $m: String) {
  deposerBulletin(partie:$p, coup:$c, licence:$l, bulletin:$b, clientMutationId:$m) { licence } }`

// deposit enters one bulletin, sending it again with the same
// clientMutationId after a CONFLICT (another arbiter wrote the game
// meanwhile) or a transport error; it returns how many conflicts it met.
func (cl *chargeClient) deposit(ctx context.Context, token string, vars map[string]any) (int, error) {
	conflicts := 0
	for attempt := 1; ; attempt++ {
		var res struct{ DeposerBulletin struct{ Licence string } }
		err := cl.Do(ctx, token, depositMutation, vars, &res)
		var gqlErr *apiclient.Error
		switch {
		case err == nil && res.DeposerBulletin.Licence == vars["l"]:
			return conflicts, nil
		case err == nil:
			return conflicts, fmt.Errorf("deposerBulletin a répondu pour %q", res.DeposerBulletin.Licence)
		case errors.As(err, &gqlErr) && gqlErr.Code() != "CONFLICT":
			return conflicts, err
		case attempt == maxAttempts || ctx.Err() != nil:
			return conflicts, err
		}
		if errors.As(err, &gqlErr) {
			conflicts++
		}
		time.Sleep(time.Duration(rand.IntN(1000*min(attempt, 20))) * time.Microsecond)
	}
}

// display is one screen on a websocket (graphql-transport-ws), following the
// live game's state (subscription "c") and standings ("s"). Its reader
// notes when each first shows the announced top.
type display struct {
	conn    *websocket.Conn
	initial chan struct{} // closed once both first states arrived
	topped  chan struct{} // closed once both show the top
	done    chan struct{} // closed when the reader ends
	// Written by the reader, read after done.
	coupAt, standingsAt time.Time
	err                 error
}

const (
	displayGame      = `subscription($p: ID!) { coupAnnonce(partie:$p) { version coup dernierTop { mot score } } }`
	displayStandings = `subscription($p: ID!) { classementChange(partie:$p) { rang nom score top } }`
)

// openDisplay connects a screen; a failure is recorded in the display, whose
// channels then stay open.
func openDisplay(ctx context.Context, url string) *display {
	d := &display{initial: make(chan struct{}), topped: make(chan struct{}), done: make(chan struct{})}
	dialer := websocket.Dialer{Subprotocols: []string{"graphql-transport-ws"}, HandshakeTimeout: chargeWait}
	conn, _, err := dialer.DialContext(ctx, "ws"+strings.TrimPrefix(url, "http"), nil)
	if err != nil {
		d.err = err
		close(d.done)
		return d
	}
	d.conn = conn
	msgs := []map[string]any{
		{"type": "connection_init", "payload": map[string]any{}},
		{"id": "c", "type": "subscribe", "payload": map[string]any{"query": displayGame, "variables": map[string]any{"p": chargeLive}}},
		{"id": "s", "type": "subscribe", "payload": map[string]any{"query": displayStandings, "variables": map[string]any{"p": chargeLive}}},
	}
	for _, m := range msgs {
		if err := conn.WriteJSON(m); err != nil {
			d.err = err
			conn.Close()
			close(d.done)
			return d
		}
	}
	go d.read()
	return d
}

// read handles the server's messages until the connection closes.
func (d *display) read() {
	defer close(d.done)
	var first, top [2]bool // [coupAnnonce, classementChange]
	for {
		_, raw, err := d.conn.ReadMessage()
		now := time.Now()
		if err != nil {
			return
		}
		msg, err := lireEnveloppe(raw)
		if err != nil {
			d.err = err
			return
		}
		switch msg.Type {
		case "connection_ack", "pong":
		case "ping":
			if err := d.conn.WriteJSON(map[string]any{"type": "pong"}); err != nil {
				d.err = err
				return
			}
		case "next":
			shows, err := showsTop(msg.ID, msg.Payload)
			if err != nil {
				d.err = fmt.Errorf("subscription %s: %w", msg.ID, err)
				return
			}
			k := 0
			if msg.ID == "s" {
				k = 1
			}
			if !first[k] {
				first[k] = true
				if first[0] && first[1] {
					close(d.initial)
				}
			}
			if shows && !top[k] {
				top[k] = true
				if k == 0 {
					d.coupAt = now
				} else {
					d.standingsAt = now
				}
				if top[0] && top[1] {
					close(d.topped)
				}
			}
		default:
			d.err = fmt.Errorf("unexpected %s message: %s", msg.Type, msg.Payload)
			return
		}
	}
}

// enveloppe is a graphql-transport-ws message: its type, its id and its
// payload as sent.
type enveloppe struct {
	ID, Type string
	Payload  []byte
}

// lireEnveloppe reads a message's type and id and leaves its payload as
// sent, within raw. Each value of the envelope is delimited by finValeur,
// which counts brackets outside strings and decodes nothing: the payload
// (2,000 standings lines) is not read, since a display reads only its
// start (showsTop). Skipping it token by token (jsontext's SkipValue) was
// most of the displays phase's samples (issue 34).
func lireEnveloppe(raw []byte) (enveloppe, error) {
	var m enveloppe
	i := sauterBlancs(raw, 0)
	if i == len(raw) || raw[i] != '{' {
		return m, fmt.Errorf("message sans objet JSON : %.40q", raw)
	}
	for i = sauterBlancs(raw, i+1); i < len(raw) && raw[i] != '}'; {
		fin := finValeur(raw, i)
		var cle string
		if err := json.Unmarshal(raw[i:fin], &cle); err != nil {
			return m, err
		}
		if i = sauterBlancs(raw, fin); i == len(raw) || raw[i] != ':' {
			return m, fmt.Errorf("« : » attendu après %q", cle)
		}
		i = sauterBlancs(raw, i+1)
		fin = finValeur(raw, i)
		switch cle {
		case "payload":
			m.Payload = raw[i:fin]
		case "id":
			if err := json.Unmarshal(raw[i:fin], &m.ID); err != nil {
				return m, err
			}
		case "type":
			if err := json.Unmarshal(raw[i:fin], &m.Type); err != nil {
				return m, err
			}
		}
		if i = sauterBlancs(raw, fin); i < len(raw) && raw[i] == ',' {
			i = sauterBlancs(raw, i+1)
		}
	}
	if i == len(raw) {
		return m, fmt.Errorf("message JSON inachevé : %.40q", raw)
	}
	return m, nil
}

// sauterBlancs is the first index from i that is not JSON whitespace.
func sauterBlancs(raw []byte, i int) int {
	for i < len(raw) && (raw[i] == ' ' || raw[i] == '\t' || raw[i] == '\r' || raw[i] == '\n') {
		i++
	}
	return i
}

// finValeur is the end of the JSON value that starts at raw[i]: after a
// string's closing quote, after the bracket that closes an object or an
// array (brackets counted outside strings), at what follows a literal;
// len(raw) when the value does not end.
func finValeur(raw []byte, i int) int {
	profondeur, chaine := 0, false
	for j := i; j < len(raw); j++ {
		c := raw[j]
		switch {
		case chaine:
			if c == '\\' {
				j++
			} else if c == '"' {
				chaine = false
				if profondeur == 0 {
					return j + 1
				}
			}
		case c == '"':
			chaine = true
		case c == '{' || c == '[':
			profondeur++
		case c == '}' || c == ']':
			if profondeur == 0 {
				return j
			}
			if profondeur--; profondeur == 0 {
				return j + 1
			}
		case profondeur == 0 && (c == ',' || c == ' ' || c == '\t' || c == '\r' || c == '\n'):
			return j
		}
	}
	return len(raw)
}

// showsTop tells whether a subscription's answer shows the announced top:
// the game's dernierTop (subscription "c"), or a top on the first line of
// the standings ("s"). The standings are 1,000 lines for every display:
// only the answer's start is decoded, up to the first line, so that the
// client, in the same process, spends little of the machine on them.
func showsTop(id string, payload []byte) (bool, error) {
	if id != "s" {
		var p struct {
			Data struct {
				CoupAnnounced *struct {
					DernierTop *struct{ Score int }
				} `json:"coupAnnonce"`
			}
			Errors []apiclient.Error
		}
		if err := json.Unmarshal(payload, &p); err != nil || len(p.Errors) > 0 {
			return false, fmt.Errorf("%s", payload)
		}
		return p.Data.CoupAnnounced != nil && p.Data.CoupAnnounced.DernierTop != nil, nil
	}
	// {"data":{"classementChange":[{...first line...}, ...]}}: errors,
	// when there are, come before data.
	dec := json.NewDecoder(bytes.NewReader(payload))
	for _, want := range []any{json.Delim('{'), "data", json.Delim('{'), "classementChange", json.Delim('[')} {
		if tok, err := dec.Token(); err != nil || tok != want {
			return false, fmt.Errorf("%.200s", payload)
		}
	}
	var first struct{ Top int }
	if dec.More() {
		if err := dec.Decode(&first); err != nil {
			return false, err
		}
	}
	return first.Top > 0, nil
}

// waitOrDeadline waits for ch unless the reader ended or the deadline
// passed; it reports whether ch was closed.
func (d *display) waitOrDeadline(ch, deadline <-chan struct{}) bool {
	select {
	case <-ch:
		return true
	case <-d.done:
		select {
		case <-ch:
			return true
		default:
			return false
		}
	case <-deadline:
		return false
	}
}

// close ends the connection and waits for the reader; closing twice is
// harmless.
func (d *display) close() {
	if d.conn != nil {
		d.conn.Close()
	}
	<-d.done
}
