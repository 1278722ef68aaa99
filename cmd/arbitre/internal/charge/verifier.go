package charge

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"os"
	"os/exec"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/anishathalye/porcupine"

	"arbitre/apiclient"
	"arbitre/cmd/arbitre/internal/storeflags"
	"arbitre/domain/acces"
	"arbitre/domain/duplicate"
	"arbitre/domain/duplicate/simulation"
	"arbitre/domain/eventstore"
	"arbitre/domain/eventstore/streamname"
)

// The consistency checker of issue 32: directors, arbiters and displays
// run commands and reads concurrently against `arbitre serve` in a process
// of its own on loopback, every call is recorded with its start, its end
// and its answer, and porcupine checks, game by game, that the history is
// linearizable against modeleVerif, what the API promises
// (docs/architecture.md, "What the API promises"); then the store, once the
// server is stopped, must hold exactly the acknowledged commands' facts.
// The server can be killed (kill -9) and restarted during the writes.

// VerifConfig is what `arbitre charge --verifier` runs.
type VerifConfig struct {
	Data     string
	LexPath  string
	Joueurs  int    // players of the tournament, 4 per table
	Parties  int    // games played at once in each round
	Coups    int    // coups of each game
	Tours    int    // rounds, each on new games
	Lecteurs int    // displays per game
	Graine   uint64 // seeds the games' tirages and the clients' pauses
	TuerTous int    // kill -9 the server after every TuerTous acknowledged commands (0: never)
	// Lancer makes the command that runs `arbitre ARGS...` (the test
	// binary runs itself; the command, its own executable).
	Lancer func(args ...string) *exec.Cmd
	// Servir, when set, runs the server in this process instead, on addr
	// over the store in data, and returns how to stop it: its clock can be
	// moved, a separate process's cannot. Sauter then takes the place of
	// the kill -9 of every TuerTous acknowledged commands: the n-th fault
	// (from 1) moves the server's clock (issue 32 item 3).
	Servir func(ctx context.Context, data, addr string) (arreter func() error)
	Sauter func(n int)
}

// maxBulletinsVerif is the bulletins one game's state can hold (etatVerif).
const maxBulletinsVerif = 256

func (c VerifConfig) validate() error {
	if c.Joueurs < 1 || c.Parties < 1 || c.Coups < 1 || c.Tours < 1 || c.Lecteurs < 0 || c.TuerTous < 0 {
		return errors.New("--players, --parties, --coups et --tours doivent être positifs, --lecteurs et --tuer-tous au moins 0")
	}
	if c.Joueurs*c.Coups > maxBulletinsVerif {
		return fmt.Errorf("--players × --coups vaut au plus %d avec --verifier", maxBulletinsVerif)
	}
	if c.Coups > 12 {
		return errors.New("--coups vaut au plus 12 avec --verifier (le sac doit suffire)")
	}
	return nil
}

// VerifReport is what a run checked.
type VerifReport struct {
	Historiques int `json:"historiques"`
	Operations  int `json:"operations"`
	Ecritures   int `json:"ecritures"`
	Lectures    int `json:"lectures"`
	// SansReponse are reads that got no answer (server down, UNAVAILABLE,
	// TIMEOUT): they observe nothing and are left out of the history.
	SansReponse int `json:"lectures_sans_reponse"`
	// Renvois are commands sent again with their clientMutationId after
	// no answer or a CONFLICT.
	Renvois int `json:"renvois"`
	Pannes  int `json:"pannes_injectees"`
	// SautsHorloge are the faults that moved the server's clock (Sauter).
	SautsHorloge int `json:"sauts_horloge,omitempty"`
	// Violations are the games whose history porcupine refused, plus the
	// facts lost, duplicated or unexpected in the store.
	Violations int      `json:"violations"`
	Details    []string `json:"details,omitempty"`
	DureeS     float64  `json:"duree_s"`
}

// The operations of a game's history.
const (
	opCreer         = "creerPartie"
	opTirer         = "tirer"
	opTop           = "retenirTop"
	opDeposer       = "deposerBulletin"
	opLire          = "partie"           // a display: coup and statut, public
	opLireDirecteur = "partie+solutions" // the director: with the engine's tops, read from the store
	opLireBulletins = "bulletins"        // the director: a coup's bulletins, read from the store
)

// entreeVerif is an operation's call.
type entreeVerif struct {
	partie int
	op     string
	coup   int
	joueur int // deposerBulletin
}

// sortieVerif is an operation's answer.
type sortieVerif struct {
	refus     string // the code of a definite refusal
	coup      int
	statut    string
	version   int
	solutions bool
	joueurs   uint64 // bulletins: bit i for the coup's i-th player
}

// etatVerif is what a game is, as far as the history sees it: its coup
// and statut as its view shows them, its version (the facts of the game
// and its tables) and the bulletins deposited, bit (coup-1)*joueurs+i.
type etatVerif struct {
	coup      int
	statut    duplicate.Statut
	version   int
	bulletins [maxBulletinsVerif / 64]uint64
}

func (e etatVerif) depose(bit int) bool { return e.bulletins[bit/64]&(1<<(bit%64)) != 0 }

// duCoup is the coup's bulletins, bit i for its i-th player.
func (e etatVerif) duCoup(coup, joueurs int) uint64 {
	var out uint64
	for i := range joueurs {
		if e.depose((coup-1)*joueurs + i) {
			out |= 1 << i
		}
	}
	return out
}

// modeleVerif is the API's promise for one game (a history holds one
// game's operations): every command
// acknowledged is seen by every read that starts after the
// acknowledgement, its own answer included (read-your-writes), reads never
// go back (monotonic), a command is applied once (no lost or duplicated
// fact), and a command the director may send in the state he saw is
// accepted.
func modeleVerif(joueurs int) porcupine.Model {
	return porcupine.Model{
		Init: func() any { return etatVerif{} },
		Step: func(s, in, out any) (bool, any) {
			e, o := s.(etatVerif), out.(sortieVerif)
			return pasVerif(e, in.(entreeVerif), o, joueurs)
		},
		DescribeOperation: func(in, out any) string {
			i, o := in.(entreeVerif), out.(sortieVerif)
			return fmt.Sprintf("%s(coup %d, joueur %d) -> %+v", i.op, i.coup, i.joueur, o)
		},
	}
}

// pasVerif is one step of modeleVerif.
func pasVerif(e etatVerif, in entreeVerif, o sortieVerif, joueurs int) (bool, any) {
	if o.refus != "" {
		return false, e // the workload only sends commands the game accepts
	}
	montre := func(n etatVerif) bool {
		return o.coup == n.coup && o.statut == string(n.statut) && o.version == n.version
	}
	switch in.op {
	case opCreer:
		n := etatVerif{coup: 1, statut: duplicate.StatutAttenteTirage, version: o.version}
		return e.version == 0 && o.version > 0, n
	case opTirer:
		ok := (e.statut == duplicate.StatutAttenteTirage && e.coup == 1 && in.coup == 1) || (e.statut == duplicate.StatutTop && in.coup == e.coup)
		n := e
		n.coup, n.statut, n.version = in.coup, duplicate.StatutTirage, o.version
		return ok && o.version > e.version && montre(n) && o.solutions, n
	case opTop:
		n := e // the view then shows the next coup, top announced
		n.coup, n.statut, n.version = in.coup+1, duplicate.StatutTop, o.version
		return o.version > e.version && e.statut == duplicate.StatutTirage && e.coup == in.coup && montre(n), n
	case opDeposer:
		bit := (in.coup-1)*joueurs + in.joueur
		n := e
		n.bulletins[bit/64] |= 1 << (bit % 64)
		n.version++
		return e.statut == duplicate.StatutTirage && e.coup == in.coup && !e.depose(bit), n
	case opLire:
		return montre(e), e
	case opLireDirecteur:
		return montre(e) && o.solutions == (e.statut == duplicate.StatutTirage), e
	case opLireBulletins:
		return o.joueurs == e.duCoup(in.coup, joueurs), e
	}
	return false, e
}

// historiqueVerif records the operations of every client.
type historiqueVerif struct {
	debut time.Time
	mu    sync.Mutex
	ops   []porcupine.Operation
}

func (h *historiqueVerif) maintenant() int64 { return int64(time.Since(h.debut)) }

func (h *historiqueVerif) noter(client int, in entreeVerif, appel int64, out sortieVerif) {
	fin := h.maintenant()
	h.mu.Lock()
	defer h.mu.Unlock()
	h.ops = append(h.ops, porcupine.Operation{ClientId: client, Input: in, Call: appel, Output: out, Return: fin})
}

// serveurVerif is the server under test, a process of its own on a fixed
// loopback address.
type serveurVerif struct {
	c      VerifConfig
	data   string
	addr   string
	mu     sync.Mutex
	cmd    *exec.Cmd
	fini   chan error
	sortie io.Writer
	// enProcessus stops the server VerifConfig.Servir runs.
	enProcessus func() error
}

func (s *serveurVerif) demarrer(ctx context.Context) error {
	var fini chan error
	if s.c.Servir != nil {
		s.enProcessus = s.c.Servir(ctx, s.data, s.addr)
	} else {
		args := []string{"serve", "--data", s.data, "--listen", s.addr, "--rate", "0"}
		if s.c.LexPath != "" {
			args = append(args, "--lexicon", s.c.LexPath)
		}
		cmd := s.c.Lancer(args...)
		cmd.Stdout, cmd.Stderr = s.sortie, s.sortie
		if err := cmd.Start(); err != nil {
			return err
		}
		fini = make(chan error, 1)
		go func() { fini <- cmd.Wait() }()
		s.mu.Lock()
		s.cmd, s.fini = cmd, fini
		s.mu.Unlock()
	}
	client := &http.Client{Timeout: 2 * time.Second}
	limite := time.Now().Add(chargeWait)
	for {
		resp, err := client.Get("http://" + s.addr + "/healthz")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return nil
			}
		}
		select {
		case err := <-fini:
			return fmt.Errorf("le serveur s'est arrêté au démarrage : %v", err)
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(20 * time.Millisecond):
		}
		if time.Now().After(limite) {
			return fmt.Errorf("le serveur ne répond pas sur /healthz après %s", chargeWait)
		}
	}
}

// arreter stops the server: SIGTERM (a clean stop), or kill -9.
func (s *serveurVerif) arreter(brutal bool) error {
	if s.enProcessus != nil {
		return s.enProcessus()
	}
	s.mu.Lock()
	cmd, fini := s.cmd, s.fini
	s.mu.Unlock()
	if cmd == nil {
		return nil
	}
	sig := os.Signal(syscall.SIGTERM)
	if brutal {
		sig = os.Kill
	}
	if err := cmd.Process.Signal(sig); err != nil {
		return err
	}
	err := <-fini
	if brutal {
		return nil
	}
	return err
}

// clientVerif runs one client's calls, recorded.
type clientVerif struct {
	cl     *chargeClient
	h      *historiqueVerif
	id     int
	jeton  string
	rep    *VerifReport
	mu     *sync.Mutex // guards rep
	alea   *rand.Rand
	limite time.Time // commands unanswered past it fail the run
	// panne is told every tuerTous acknowledged commands (0: never).
	panne    chan<- struct{}
	tuerTous int
}

// reponseDefinitive says whether err is an answer the command was judged
// on: nil or a refusal. No answer (transport, a server killed or
// stopping, whose store then answers INTERNAL), CONFLICT (the command was
// not applied), UNAVAILABLE, TIMEOUT (it may have been) or RATE_LIMITED
// are not: the command is sent again with its clientMutationId, which is
// never applied twice.
func reponseDefinitive(err error) bool {
	var g *apiclient.Error
	if err == nil {
		return true
	}
	if !errors.As(err, &g) {
		return false
	}
	switch g.Code() {
	case "CONFLICT", "UNAVAILABLE", "TIMEOUT", "INTERNAL", "RATE_LIMITED":
		return false
	}
	return true
}

// commande sends a command until it gets a definite answer and records it
// as one operation, from its first sending to that answer.
func (c *clientVerif) commande(ctx context.Context, in entreeVerif, query string, vars map[string]any, out any, sortie func() sortieVerif) error {
	appel := c.h.maintenant()
	for envoi := 0; ; envoi++ {
		err := c.cl.Do(ctx, c.jeton, query, vars, out)
		if reponseDefinitive(err) {
			o := sortieVerif{}
			var g *apiclient.Error
			if errors.As(err, &g) {
				o.refus = g.Code()
				c.mu.Lock()
				c.rep.Details = append(c.rep.Details, fmt.Sprintf("partie %d : %s du coup %d refusé : %s", in.partie, in.op, in.coup, err))
				c.mu.Unlock()
			} else {
				o = sortie()
			}
			c.h.noter(c.id, in, appel, o)
			c.mu.Lock()
			c.rep.Ecritures++
			c.rep.Renvois += envoi
			if c.tuerTous > 0 && c.rep.Ecritures%c.tuerTous == 0 {
				select {
				case c.panne <- struct{}{}:
				default:
				}
			}
			c.mu.Unlock()
			return err
		}
		if ctx.Err() != nil || time.Now().After(c.limite) {
			return fmt.Errorf("partie %d : %s du coup %d sans réponse : %w", in.partie, in.op, in.coup, err)
		}
		time.Sleep(time.Duration(1+c.alea.IntN(20)) * time.Millisecond)
	}
}

// lecture runs one read and records it when answered; unanswered (the
// server down), it waits a little before the client reads again.
func (c *clientVerif) lecture(ctx context.Context, in entreeVerif, query string, vars map[string]any, out any, sortie func() sortieVerif) {
	appel := c.h.maintenant()
	if err := c.cl.Do(ctx, c.jeton, query, vars, out); err != nil {
		c.mu.Lock()
		c.rep.SansReponse++
		c.mu.Unlock()
		time.Sleep(10 * time.Millisecond)
		return
	}
	c.h.noter(c.id, in, appel, sortie())
	c.mu.Lock()
	c.rep.Lectures++
	c.mu.Unlock()
}

// partieVerif is one game of a round and what its clients share.
type partieVerif struct {
	n, graine int
	id        string
	coup      atomic.Int64 // the coup drawn last, for the bulletins' reader
	fin       chan struct{}
}

// joueurVerif is a player of the tournament and his table.
type joueurVerif struct {
	licence string
	table   int
}

const (
	verifTirer = `mutation($p: ID!, $m: String) { tirer(partie:$p, clientMutationId:$m) {
  coup statut version solutions { mot reference admissible } } }`
	verifTop = `mutation($p: ID!, $r: String!, $w: String!, $m: String) {
  retenirTop(partie:$p, reference:$r, mot:$w, clientMutationId:$m) { coup statut version } }`
	verifLire          = `query($p: ID!) { partie(id:$p) { coup statut version } }`
	verifLireDirecteur = `query($p: ID!) { partie(id:$p) { coup statut version solutions { mot } } }`
	verifBulletins     = `query($p: ID!, $c: Int!) { bulletins(partie:$p, coup:$c) { licence } }`
)

type vuePartieVerif struct {
	Coup      int
	Statut    string
	Version   int
	Solutions []solutionTop
}

func (v vuePartieVerif) sortie() sortieVerif {
	return sortieVerif{coup: v.Coup, statut: v.Statut, version: v.Version, solutions: len(v.Solutions) > 0}
}

// directeurVerif plays the game's coups: the tirage, the director's own
// read, the arbiters' bulletins (started, then awaited), the top.
func directeurVerif(ctx context.Context, c *clientVerif, p *partieVerif, coups int, arbitres []chan int, fait chan struct{}) error {
	defer close(p.fin)
	for coup := 1; coup <= coups; coup++ {
		var t struct{ Tirer vuePartieVerif }
		if err := c.commande(ctx, entreeVerif{partie: p.n, op: opTirer, coup: coup}, verifTirer,
			map[string]any{"p": p.id, "m": fmt.Sprintf("%s-tirer-%d", p.id, coup)}, &t, func() sortieVerif { return t.Tirer.sortie() }); err != nil {
			return refusTermine(err)
		}
		p.coup.Store(int64(coup))
		var top *solutionTop
		for _, s := range t.Tirer.Solutions {
			if s.Admissible {
				top = &s
				break
			}
		}
		if top == nil {
			return fmt.Errorf("partie %s, coup %d : aucun top admissible", p.id, coup)
		}
		var v struct{ Partie vuePartieVerif }
		c.lecture(ctx, entreeVerif{partie: p.n, op: opLireDirecteur, coup: coup}, verifLireDirecteur, map[string]any{"p": p.id}, &v, func() sortieVerif { return v.Partie.sortie() })
		for _, a := range arbitres {
			a <- coup
		}
		for range arbitres {
			select {
			case <-fait:
			case <-ctx.Done():
				return ctx.Err()
			}
		}
		var r struct{ RetenirTop vuePartieVerif }
		if err := c.commande(ctx, entreeVerif{partie: p.n, op: opTop, coup: coup}, verifTop,
			map[string]any{"p": p.id, "r": top.Reference, "w": top.Mot, "m": fmt.Sprintf("%s-top-%d", p.id, coup)}, &r, func() sortieVerif { return r.RetenirTop.sortie() }); err != nil {
			return refusTermine(err)
		}
	}
	return nil
}

// refusTermine ends a game whose command was refused: the refusal is in
// its history, which the check refuses; other errors end the round.
func refusTermine(err error) error {
	var refus *apiclient.Error
	if errors.As(err, &refus) {
		return nil
	}
	return err
}

// arbitreVerif deposits his table's bulletins of each coup the director
// hands him, and says when they are all acknowledged.
func arbitreVerif(ctx context.Context, c *clientVerif, p *partieVerif, joueurs []joueurVerif, table int, coups <-chan int, fait chan<- struct{}) error {
	for {
		var coup int
		select {
		case coup = <-coups:
		case <-p.fin:
			return nil
		case <-ctx.Done():
			return ctx.Err()
		}
		for i, j := range joueurs {
			if j.table != table {
				continue
			}
			var r struct{ DeposerBulletin struct{ Licence string } }
			err := c.commande(ctx, entreeVerif{partie: p.n, op: opDeposer, coup: coup, joueur: i}, depositMutation,
				map[string]any{"p": p.id, "c": coup, "l": j.licence, "b": map[string]any{"blank": true}, "m": fmt.Sprintf("%s-%d-%s", p.id, coup, j.licence)},
				&r, func() sortieVerif { return sortieVerif{} })
			var refus *apiclient.Error
			if err != nil && !errors.As(err, &refus) {
				return err
			}
		}
		select {
		case fait <- struct{}{}:
		case <-p.fin:
			return nil
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// lecteurVerif reads the game until it is over: a display its coup and
// statut, the director's reader (bulletins) the bulletins of the coup
// drawn last.
func lecteurVerif(ctx context.Context, c *clientVerif, p *partieVerif, joueurs []joueurVerif, bulletins bool) {
	for {
		select {
		case <-p.fin:
			return
		case <-ctx.Done():
			return
		default:
		}
		if bulletins {
			coup := int(p.coup.Load())
			if coup == 0 {
				time.Sleep(time.Millisecond)
				continue
			}
			var r struct{ Bulletins []struct{ Licence string } }
			c.lecture(ctx, entreeVerif{partie: p.n, op: opLireBulletins, coup: coup}, verifBulletins, map[string]any{"p": p.id, "c": coup}, &r, func() sortieVerif {
				var o sortieVerif
				for _, b := range r.Bulletins {
					for i, j := range joueurs {
						if j.licence == b.Licence {
							o.joueurs |= 1 << i
						}
					}
				}
				return o
			})
		} else {
			var v struct{ Partie vuePartieVerif }
			c.lecture(ctx, entreeVerif{partie: p.n, op: opLire}, verifLire, map[string]any{"p": p.id}, &v, func() sortieVerif { return v.Partie.sortie() })
		}
		time.Sleep(time.Duration(c.alea.IntN(3)) * time.Millisecond)
	}
}

// RunVerifier prepares the tournament, starts the server and runs the
// rounds; an error is a run that could not be carried out, violations are
// in the report. journal receives the server's output.
// RunVerifier runs the consistency checker c and writes each call to journal.
func (o Outils) RunVerifier(ctx context.Context, c VerifConfig, journal io.Writer) (VerifReport, error) {
	var rep VerifReport
	if err := c.validate(); err != nil {
		return rep, err
	}
	debut := time.Now()
	flags := &storeflags.Flags{DataDir: c.Data, Backend: storeflags.SQLite, Init: true}
	directeur, arbitres, err := o.prepareVerif(ctx, flags, c)
	if err != nil {
		return rep, err
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return rep, err
	}
	srv := &serveurVerif{c: c, data: c.Data, addr: ln.Addr().String(), sortie: journal}
	if err := ln.Close(); err != nil {
		return rep, err
	}
	if err := srv.demarrer(ctx); err != nil {
		return rep, err
	}
	cl := nouveauChargeClient(srv.addr)
	var t struct {
		Tournoi struct {
			Joueurs []struct {
				Licence string
				Table   int
			}
		}
	}
	if err := cl.Do(ctx, directeur, `query($t: ID!) { tournoi(id:$t) { joueurs { licence table } } }`, map[string]any{"t": chargeTournoi}, &t); err != nil {
		return rep, errors.Join(err, srv.arreter(false))
	}
	joueurs := make([]joueurVerif, len(t.Tournoi.Joueurs))
	for i, j := range t.Tournoi.Joueurs {
		joueurs[i] = joueurVerif{licence: j.Licence, table: j.Table}
	}
	h := &historiqueVerif{debut: time.Now()}
	var parties []*partieVerif
	var runErr error
	for tour := range c.Tours {
		ps, err := tourVerif(ctx, c, srv, cl, directeur, arbitres, joueurs, tour, h, &rep)
		parties = append(parties, ps...)
		if runErr = err; runErr != nil {
			break
		}
	}
	runErr = errors.Join(runErr, srv.arreter(false))
	if runErr == nil {
		runErr = verifierFaits(ctx, flags, parties, joueurs, h.ops, &rep)
	}
	rep.Operations = len(h.ops)
	rep.DureeS = time.Since(debut).Seconds()
	return rep, runErr
}

// prepareVerif simulates the tournament (sim-1 and its players) and issues
// the director's token and one arbiter's per table, before the server
// opens the store.
func (o Outils) prepareVerif(ctx context.Context, flags *storeflags.Flags, c VerifConfig) (string, map[int]string, error) {
	if err := o.SimulerSalle(ctx, flags, c.LexPath, c.Joueurs, chargeSeed); err != nil {
		return "", nil, err
	}
	tables, _ := simulation.Placement(c.Joueurs - 1)
	demandes := []acces.Demande{{Role: acces.Directeur}}
	for table := 1; table <= tables; table++ {
		demandes = append(demandes, acces.Demande{Role: acces.Arbitre, Tournoi: chargeTournoi, Tables: acces.Tables{Min: table, Max: table}})
	}
	jetons, err := emettreJetons(ctx, flags, "verifier", 12*time.Hour, demandes)
	if err != nil {
		return "", nil, err
	}
	arbitres := map[int]string{}
	for table := 1; table <= tables; table++ {
		arbitres[table] = jetons[table]
	}
	return jetons[0], arbitres, nil
}

// tourVerif plays c.Parties new games at once, the server killed after
// every c.TuerTous acknowledged commands, and checks each game's history.
func tourVerif(ctx context.Context, c VerifConfig, srv *serveurVerif, cl *chargeClient, directeur string, arbitres map[int]string,
	joueurs []joueurVerif, tour int, h *historiqueVerif, rep *VerifReport) ([]*partieVerif, error) {
	var mu sync.Mutex
	client := 0
	panne := make(chan struct{}, 1)
	nouveau := func(jeton string) *clientVerif {
		client++
		return &clientVerif{cl: cl, h: h, id: client, jeton: jeton, rep: rep, mu: &mu,
			alea: rand.New(rand.NewPCG(c.Graine, uint64(tour*1000+client))), limite: time.Now().Add(5 * time.Minute),
			panne: panne, tuerTous: c.TuerTous}
	}
	parties := make([]*partieVerif, c.Parties)
	for g := range parties {
		p := &partieVerif{n: tour*c.Parties + g, graine: int(c.Graine) + tour*c.Parties + g, fin: make(chan struct{})}
		p.id = fmt.Sprintf("%s-v%d-%d", chargeTournoi, tour, g)
		var r struct{ CreerPartie vuePartieVerif }
		if err := nouveau(directeur).commande(ctx, entreeVerif{partie: p.n, op: opCreer}, `mutation($t: ID!, $p: ID!, $g: Int!, $m: String) {
  creerPartie(tournoi:$t, partie:$p, config:{source: logiciel, graine: $g}, clientMutationId:$m) { coup statut version } }`,
			map[string]any{"t": chargeTournoi, "p": p.id, "g": p.graine, "m": p.id}, &r, func() sortieVerif { return r.CreerPartie.sortie() }); err != nil {
			return nil, fmt.Errorf("création de la partie %s : %w", p.id, err)
		}
		parties[g] = p
	}
	travail, finTravail := context.WithCancel(ctx)
	defer finTravail()
	var wg sync.WaitGroup
	var errs []error
	echec := func(err error) {
		if err != nil {
			mu.Lock()
			errs = append(errs, err)
			mu.Unlock()
			finTravail()
		}
	}
	var directeurs sync.WaitGroup
	for _, p := range parties {
		fait := make(chan struct{})
		var files []chan int
		for table, jeton := range arbitres {
			coups := make(chan int, 1)
			files = append(files, coups)
			a := nouveau(jeton)
			wg.Go(func() { echec(arbitreVerif(travail, a, p, joueurs, table, coups, fait)) })
		}
		d := nouveau(directeur)
		directeurs.Go(func() { echec(directeurVerif(travail, d, p, c.Coups, files, fait)) })
		for k := range c.Lecteurs + 1 {
			l := nouveau("")
			if k == c.Lecteurs {
				l = nouveau(directeur)
			}
			wg.Go(func() { lecteurVerif(travail, l, p, joueurs, k == c.Lecteurs) })
		}
	}
	pannesFinies := make(chan struct{})
	arretPannes := make(chan struct{})
	go func() {
		defer close(pannesFinies)
		for {
			select {
			case <-arretPannes:
				return
			case <-travail.Done():
				return
			case <-panne:
			}
			if c.Sauter != nil {
				mu.Lock()
				rep.SautsHorloge++
				n := rep.SautsHorloge
				mu.Unlock()
				c.Sauter(n)
				continue
			}
			// kill -9 in the middle of the writes, then a new process on
			// the same data: nothing acknowledged may be missing.
			if err := srv.arreter(true); err != nil {
				echec(err)
				return
			}
			mu.Lock()
			rep.Pannes++
			mu.Unlock()
			if err := srv.demarrer(ctx); err != nil {
				echec(err)
				return
			}
		}
	}()
	directeurs.Wait()
	close(arretPannes)
	<-pannesFinies
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return parties, err
	}
	modele := modeleVerif(len(joueurs))
	for _, p := range parties {
		var ops []porcupine.Operation
		for _, o := range h.ops {
			if o.Input.(entreeVerif).partie == p.n {
				ops = append(ops, o)
			}
		}
		rep.Historiques++
		switch porcupine.CheckOperationsTimeout(modele, ops, time.Minute) {
		case porcupine.Illegal:
			rep.Violations++
			rep.Details = append(rep.Details, fmt.Sprintf("partie %s : historique de %d opérations non linéarisable", p.id, len(ops)))
		case porcupine.Unknown:
			return parties, fmt.Errorf("partie %s : historique de %d opérations non vérifié en une minute", p.id, len(ops))
		}
	}
	return parties, nil
}

// verifierFaits reads the store, the server stopped, and checks every
// game holds the facts of its acknowledged commands, once each, and
// nothing else: replayed in order, the stored facts give the state the
// acknowledged commands give.
func verifierFaits(ctx context.Context, flags *storeflags.Flags, parties []*partieVerif, joueurs []joueurVerif, ops []porcupine.Operation, rep *VerifReport) error {
	store, _, err := flags.Open(ctx)
	if err != nil {
		return err
	}
	defer store.Close()
	type faits struct {
		tirages, tops int
		bulletins     map[string]int // "coup/licence"
	}
	attendus := map[int]*faits{}
	for _, p := range parties {
		attendus[p.n] = &faits{bulletins: map[string]int{}}
	}
	for _, o := range ops {
		in, out := o.Input.(entreeVerif), o.Output.(sortieVerif)
		a := attendus[in.partie]
		if a == nil || out.refus != "" {
			continue
		}
		switch in.op {
		case opTirer:
			a.tirages++
		case opTop:
			a.tops++
		case opDeposer:
			a.bulletins[fmt.Sprintf("%d/%s", in.coup, joueurs[in.joueur].licence)]++
		}
	}
	for _, p := range parties {
		stream, err := streamname.PartieStream(p.id)
		if err != nil {
			return err
		}
		events, err := eventstore.ReadFamily(ctx, store, stream)
		if err != nil {
			return err
		}
		lus := faits{bulletins: map[string]int{}}
		for _, e := range events {
			switch e.Type {
			case duplicate.TypeTirageEffectue:
				lus.tirages++
			case duplicate.TypeTopRetenu:
				lus.tops++
			case duplicate.TypeBulletinDepose:
				var b duplicate.BulletinDepose
				if err := json.Unmarshal(e.Data, &b); err != nil {
					return err
				}
				lus.bulletins[fmt.Sprintf("%d/%s", b.Coup, b.Licence)]++
			}
		}
		a := attendus[p.n]
		ecart := lus.tirages != a.tirages || lus.tops != a.tops || len(lus.bulletins) != len(a.bulletins)
		for k, n := range lus.bulletins {
			ecart = ecart || n != 1 || a.bulletins[k] != 1
		}
		if ecart {
			rep.Violations++
			rep.Details = append(rep.Details, fmt.Sprintf("partie %s : le journal tient %d tirages, %d tops, %d bulletins (%d en double) ; acquittés : %d, %d, %d",
				p.id, lus.tirages, lus.tops, len(lus.bulletins), doubles(lus.bulletins), a.tirages, a.tops, len(a.bulletins)))
		}
	}
	return nil
}

// doubles counts the facts stored more than once.
func doubles(m map[string]int) int {
	n := 0
	for _, k := range m {
		n += max(k-1, 0)
	}
	return n
}

// RunChargeVerifier is `arbitre charge --verifier`: the server is this
// executable, `arbitre serve`, in a process of its own.
// RunChargeVerifier runs `arbitre charge --verifier` against this executable's `serve`.
func (o Outils) RunChargeVerifier(ctx context.Context, out io.Writer, c Config, joueursDonnes bool) error {
	v := c.Verif
	v.LexPath, v.Joueurs = c.LexPath, 8
	if joueursDonnes {
		v.Joueurs = c.Players
	}
	if err := o.sautsHorloge(&v, c.SautsHorloge); err != nil {
		return err
	}
	moi, err := os.Executable()
	if err != nil {
		return err
	}
	v.Lancer = func(args ...string) *exec.Cmd { return exec.Command(moi, args...) }
	v.Data = c.Data
	if v.Data == "" {
		tmp, err := os.MkdirTemp("", "arbitre-verifier-")
		if err != nil {
			return err
		}
		defer os.RemoveAll(tmp)
		v.Data = tmp
	}
	rep, err := o.RunVerifier(ctx, v, io.Discard)
	if err != nil {
		return err
	}
	if c.JSON {
		if err := o.EcrireJSON(out, rep); err != nil {
			return err
		}
	} else {
		fmt.Fprintf(out, "historiques vérifiés : %d (parties)\nopérations : %d (%d commandes acquittées, %d renvois ; %d lectures, %d sans réponse)\npannes injectées (kill -9) : %d\nviolations : %d\ndurée : %.1f s\n",
			rep.Historiques, rep.Operations, rep.Ecritures, rep.Renvois, rep.Lectures, rep.SansReponse, rep.Pannes, rep.Violations, rep.DureeS)
		if c.SautsHorloge > 0 {
			fmt.Fprintf(out, "sauts d'horloge (une heure en avant, puis en arrière) : %d\n", rep.SautsHorloge)
		}
		for _, d := range rep.Details {
			fmt.Fprintln(out, "  "+d)
		}
	}
	if rep.Violations > 0 {
		return fmt.Errorf("%d violation(s) de cohérence", rep.Violations)
	}
	return nil
}
