package main

import (
	"bytes"
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"sync"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"arbitre/domain/acces"
	"arbitre/domain/duplicate"
	"arbitre/domain/eventstore"
	"arbitre/domain/federation/command"
	"arbitre/projections/centres"
)

// The national simultaneous event of issue 34 item 2 (guide §2.17): its
// id, and the targets.
const (
	nationalEpreuve       = "simultane-national"
	targetNationalComplet = 5 * time.Second
	targetNationalP99     = 100 * time.Millisecond
	// nationalGraine seeds the pre-drawn game's tirages, the same in every
	// centre; each centre's players answer from their own seed.
	nationalGraine = 17
)

// nationalQuery is the public national ranking, every line.
const nationalQuery = `query($e: ID!) { classementNational(epreuve: $e) { classement { rang licence nom club serie centre score moyennes } } }`

type nationalConfig struct {
	data, lexPath, profileDir string
	centres, players, qps     int
	arrivee, duration         time.Duration
	jsonOut                   bool
}

// nationalReport is what `arbitre charge national` measured.
type nationalReport struct {
	Centres  int    `json:"centres"`
	Players  int    `json:"players_per_centre"`
	QPS      int    `json:"qps"`
	Arrivee  string `json:"arrivals_within"`
	Duration string `json:"duration"`
	CPUs     int    `json:"cpus"`
	// Preparation: the centres' games played and their bundles written.
	Preparation float64 `json:"preparation_ms"`
	Coups       int     `json:"coups"`
	BundleKiB   float64 `json:"bundle_kib_mean"`
	Bundles     struct {
		// ElapsedMS runs from the first bundle sent to the last
		// acknowledged.
		ElapsedMS float64 `json:"elapsed_ms"`
		Latency   latency `json:"latency"`
		Errors    int     `json:"errors"`
		FirstErr  string  `json:"first_error,omitempty"`
	} `json:"bundles"`
	// CompleteMS runs from the last bundle acknowledged to a national
	// ranking holding every player.
	CompleteMS float64 `json:"ranking_complete_ms"`
	Queries    struct {
		Unloaded latency `json:"unloaded"`
		debit
	} `json:"queries"`
	TargetOK bool `json:"target_ok"`

	dernierPaquet time.Time
}

func chargeNationalCmd() *cobra.Command {
	var c nationalConfig
	cmd := &cobra.Command{
		Use:   "national [--centres 150 --players 40 --arrivee 60s --qps 500 --duration 20s]",
		Short: "Banc d'une épreuve nationale en simultané (guide §2.17) : les paquets des centres, le classement national complet, ses requêtes publiques",
		Example: `  arbitre charge national
  arbitre charge national --centres 150 --players 40 --arrivee 60s --qps 500 --duration 20s --json`,
		Args: aucunArgument,
		RunE: func(cmd *cobra.Command, _ []string) error {
			ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt, syscall.SIGTERM)
			defer stop()
			return runChargeNational(ctx, cmd.OutOrStdout(), c)
		},
	}
	f := cmd.Flags()
	f.StringVar(&c.data, "data", "", "`DOSSIER` neuf où garder les données des centres (centres/) et de la fédération (federation/) ; par défaut un dossier temporaire, supprimé à la fin")
	lexiconFlag(cmd, &c.lexPath)
	f.IntVar(&c.centres, "centres", 150, "centres qui jouent la partie prétirée")
	f.IntVar(&c.players, "players", 40, "joueurs par centre")
	f.DurationVar(&c.arrivee, "arrivee", time.Minute, "les paquets des centres arrivent au hasard dans ce délai (0 : tous à la fois)")
	f.IntVar(&c.qps, "qps", 500, "requêtes du classement national par seconde")
	f.DurationVar(&c.duration, "duration", 20*time.Second, "durée de la phase de requêtes")
	f.BoolVar(&c.jsonOut, "json", false, "affiche le rapport en JSON")
	f.StringVar(&c.profileDir, "profile", "", "`DOSSIER` d'un profil CPU par phase (paquets.pprof, requetes.pprof), serveur et client étiquetés side=server et side=client")
	return cmd
}

func runChargeNational(ctx context.Context, out io.Writer, c nationalConfig) error {
	if c.centres < 1 || c.players < 1 || c.qps < 1 || c.duration <= 0 || c.arrivee < 0 {
		return fmt.Errorf("--centres, --players, --qps et --duration valent au moins 1 ; --arrivee n'est pas négatif")
	}
	dir := c.data
	if dir == "" {
		tmp, err := os.MkdirTemp("", "arbitre-national-")
		if err != nil {
			return err
		}
		defer os.RemoveAll(tmp)
		dir = tmp
	}
	rep := nationalReport{Centres: c.centres, Players: c.players, QPS: c.qps, Arrivee: c.arrivee.String(),
		Duration: c.duration.String(), CPUs: runtime.NumCPU()}
	start := time.Now()
	paquets, coups, err := jouerCentres(ctx, &storeFlags{dataDir: filepath.Join(dir, "centres"), backend: backendSQLite, init: true}, c)
	if err != nil {
		return err
	}
	rep.Coups = coups
	for _, p := range paquets {
		rep.BundleKiB += float64(len(p)) / 1024 / float64(len(paquets))
	}
	federationFlags := &storeFlags{dataDir: filepath.Join(dir, "federation"), backend: backendSQLite, init: true}
	jetons, err := ouvrirEpreuveNationale(ctx, federationFlags, c.centres, coups)
	if err != nil {
		return err
	}
	rep.Preparation = ms(time.Since(start))

	cl, stopServer, err := demarrerServeurCharge(ctx, federationFlags, c.lexPath)
	if err != nil {
		return err
	}
	var runErr error
	pprof.Do(ctx, pprof.Labels("side", "client"), func(ctx context.Context) {
		runErr = phasesNationales(ctx, cl, c, paquets, jetons, &rep)
	})
	if err := errors.Join(runErr, stopServer()); err != nil {
		return err
	}
	rep.TargetOK = rep.Bundles.Errors == 0 && rep.Queries.Errors == 0 && rep.CompleteMS <= ms(targetNationalComplet) &&
		rep.Queries.Latency.P99 <= ms(targetNationalP99)
	if c.jsonOut {
		return ecrireJSON(out, rep)
	}
	rep.print(out)
	return nil
}

// jouerCentres plays the pre-drawn game in every centre (one tournament per
// centre, the same tirages everywhere, each player his own answers) into
// one store, and exports each centre's bundle as `arbitre centre export`
// does; coups is the game's length.
func jouerCentres(ctx context.Context, flags *storeFlags, c nationalConfig) (paquets [][]byte, coups int, err error) {
	ws, err := flags.openWorkspace(ctx, []string{c.lexPath})
	if err != nil {
		return nil, 0, err
	}
	defer ws.store.Close()
	for k := range c.centres {
		centre := centreNational(k)
		licences := make([]string, c.players)
		for i := range licences {
			licences[i] = fmt.Sprintf("%s-%03d", centre, i+1)
		}
		t := tournoiSimule{id: centre, nom: "Simultané national, centre " + centre, licences: licences, parties: 1,
			graineTirages: func(int) uint64 { return nationalGraine }, graineJoueurs: func(int) uint64 { return uint64(k + 1) }}
		var joues int
		if err := jouerTournoiSimule(ctx, &ws, t, "national", func(_ int, p *duplicate.Partie, fini bool) {
			if fini {
				joues = p.ProchainCoup() - 1
			}
		}); err != nil {
			return nil, 0, err
		}
		if k > 0 && joues != coups {
			return nil, 0, fmt.Errorf("centre %s : %d coups, les autres %d (la partie prétirée est la même partout)", centre, joues, coups)
		}
		coups = joues
		var paquet bytes.Buffer
		m := centres.Manifeste{Epreuve: nationalEpreuve, Centre: centre, Partie: centre + "-1"}
		if err := centres.Exporter(ctx, ws.store, ws.registry, m, &paquet); err != nil {
			return nil, 0, err
		}
		paquets = append(paquets, paquet.Bytes())
	}
	return paquets, coups, nil
}

func centreNational(k int) string { return fmt.Sprintf("C%03d", k+1) }

// ouvrirEpreuveNationale opens the event at the federation (as `arbitre
// centre ouvrir`) and issues each centre's token, before the server opens
// the store.
func ouvrirEpreuveNationale(ctx context.Context, flags *storeFlags, nCentres, coups int) ([]string, error) {
	if err := avecFederation(ctx, flags, func(apps federationApps) error {
		return apps.centres.OuvrirEpreuve(ctx, command.OuvrirEpreuve{Epreuve: nationalEpreuve, Nom: "Simultané national", Coups: coups}, eventstore.Metadata{Actor: "charge national", Role: string(acces.Directeur)})
	}); err != nil {
		return nil, err
	}
	demandes := make([]acces.Demande, nCentres)
	for k := range demandes {
		demandes[k] = acces.Demande{Role: acces.Centre, Tournoi: nationalEpreuve, Centre: centreNational(k)}
	}
	return emettreJetons(ctx, flags, "charge national", 2*time.Hour, demandes)
}

// phasesNationales sends the centres' bundles, each at a random time within
// c.arrivee, waits for the national ranking to hold every player, then
// queries it at c.qps for c.duration.
func phasesNationales(ctx context.Context, cl *chargeClient, c nationalConfig, paquets [][]byte, jetons []string, rep *nationalReport) error {
	for attente := time.Now(); ; {
		err := cl.Do(ctx, "", nationalQuery, map[string]any{"e": nationalEpreuve}, nil)
		if err == nil {
			break
		}
		if time.Since(attente) > chargeWait {
			return fmt.Errorf("le serveur n'a pas répondu en %s : %w", chargeWait, err)
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(50 * time.Millisecond):
		}
	}
	if err := profiled(c.profileDir, "paquets", func() error { return envoyerPaquets(ctx, cl, c, paquets, jetons, rep) }); err != nil {
		return err
	}
	return profiled(c.profileDir, "requetes", func() error { return interrogerNational(ctx, cl, c, rep) })
}

// envoyerPaquets sends each centre's bundle at a random time within
// c.arrivee, as the centre's token.
func envoyerPaquets(ctx context.Context, cl *chargeClient, c nationalConfig, paquets [][]byte, jetons []string, rep *nationalReport) error {
	rng := rand.New(rand.NewPCG(nationalGraine, 0))
	depart := time.Now()
	var mu sync.Mutex
	var lat []time.Duration
	var dernier time.Time
	var wg sync.WaitGroup
	for k, paquet := range paquets {
		at := depart.Add(time.Duration(rng.Int64N(int64(c.arrivee) + 1)))
		wg.Go(func() {
			select {
			case <-ctx.Done():
				return
			case <-time.After(time.Until(at)):
			}
			envoi := time.Now()
			err := cl.Do(ctx, jetons[k], `mutation($p: String!, $c: String) { envoyerResultatsCentre(paquet: $p, clientMutationId: $c) { joueurs } }`,
				map[string]any{"p": base64.StdEncoding.EncodeToString(paquet), "c": "charge-" + centreNational(k)}, nil)
			fin := time.Now()
			mu.Lock()
			defer mu.Unlock()
			lat = append(lat, fin.Sub(envoi))
			if err != nil {
				rep.Bundles.Errors++
				if rep.Bundles.FirstErr == "" {
					rep.Bundles.FirstErr = centreNational(k) + " : " + err.Error()
				}
			}
			if fin.After(dernier) {
				dernier = fin
			}
		})
	}
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return err
	}
	rep.Bundles.ElapsedMS, rep.Bundles.Latency = ms(dernier.Sub(depart)), summarize(lat)
	rep.dernierPaquet = dernier
	return nil
}

// interrogerNational waits for the national ranking to hold every player,
// then queries it at c.qps for c.duration.
func interrogerNational(ctx context.Context, cl *chargeClient, c nationalConfig, rep *nationalReport) error {
	dernier := rep.dernierPaquet
	attendus := c.centres * c.players
	query := func(int) error {
		var res struct{ ClassementNational lignesComptees }
		if err := cl.Do(ctx, "", nationalQuery, map[string]any{"e": nationalEpreuve}, &res); err != nil {
			return err
		}
		if int(res.ClassementNational) != attendus {
			return fmt.Errorf("classement national : %d lignes pour %d joueurs", res.ClassementNational, attendus)
		}
		return nil
	}
	for {
		err := query(0)
		if err == nil {
			rep.CompleteMS = ms(time.Since(dernier))
			break
		}
		if time.Since(dernier) > chargeWait {
			return fmt.Errorf("le classement national n'est pas complet %s après le dernier paquet (%d paquets refusés, %s) : %w", chargeWait, rep.Bundles.Errors, rep.Bundles.FirstErr, err)
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(10 * time.Millisecond):
		}
	}
	// The log does not change during the queries: every answer must be
	// the complete one, byte for byte. Comparing costs the client little
	// beside the server on the same cores; decoding 6,000 lines 500 times
	// a second took more than both cores (issue 34 item 2).
	complet, err := cl.Raw(ctx, "", nationalQuery, map[string]any{"e": nationalEpreuve})
	if err != nil {
		return err
	}
	if err := query(0); err != nil {
		return err
	}
	meme := func(int) error {
		return cl.Read(ctx, "", nationalQuery, map[string]any{"e": nationalEpreuve}, func(r io.Reader) error {
			return memeReponse(r, complet)
		})
	}
	if rep.Queries.Unloaded, err = sansCharge(meme); err != nil {
		return err
	}
	rep.Queries.debit = aDebitFixe(ctx, c.qps, c.duration, meme)
	return ctx.Err()
}

// memeReponse reads an answer as it arrives and compares it with attendue,
// without keeping it.
func memeReponse(r io.Reader, attendue []byte) error {
	var tampon [32 << 10]byte
	lus := 0
	for {
		n, err := r.Read(tampon[:])
		if n > 0 {
			if lus+n > len(attendue) || !bytes.Equal(tampon[:n], attendue[lus:lus+n]) {
				return fmt.Errorf("classement national : la réponse diffère de la réponse complète (%d octets) après %d octets : %.200s", len(attendue), lus, tampon[:n])
			}
			lus += n
		}
		if err == io.EOF {
			if lus != len(attendue) {
				return fmt.Errorf("classement national : réponse de %d octets, la réponse complète en a %d", lus, len(attendue))
			}
			return nil
		}
		if err != nil {
			return err
		}
	}
}

func (rep *nationalReport) print(w io.Writer) {
	fr.Fprintf(w, "épreuve nationale en simultané : %d centres × %d joueurs, partie prétirée de %d coups, %d cœurs\n",
		rep.Centres, rep.Players, rep.Coups, rep.CPUs)
	fr.Fprintf(w, "préparation (parties des centres jouées, paquets écrits) : %.1f s, paquet moyen %.1f Kio\n", rep.Preparation/1000, rep.BundleKiB)
	b := rep.Bundles
	fr.Fprintf(w, "paquets : %d envoyés en %.1f s (arrivées au hasard dans %s), réception p50 %.1f ms, p99 %.1f ms, max %.1f ms, %d erreurs %s\n",
		b.Latency.N, b.ElapsedMS/1000, rep.Arrivee, b.Latency.P50, b.Latency.P99, b.Latency.Max, b.Errors, b.FirstErr)
	fr.Fprintf(w, "classement national complet %.1f ms après le dernier paquet (cible ≤ %.0f ms)\n", rep.CompleteMS, ms(targetNationalComplet))
	q := rep.Queries
	fr.Fprintf(w, "requêtes à vide : p50 %.1f ms, p99 %.1f ms\n", q.Unloaded.P50, q.Unloaded.P99)
	fr.Fprintf(w, "requêtes : %d envoyées à %.0f/s, servies %.0f/s, p50 %.1f ms, p95 %.1f ms, p99 %.1f ms, max %.1f ms, %d erreurs %s (cible p99 ≤ %.0f ms)\n",
		q.Sent, q.Rate, q.Served, q.Latency.P50, q.Latency.P95, q.Latency.P99, q.Latency.Max, q.Errors, q.FirstError, ms(targetNationalP99))
	fr.Fprintf(w, "cibles atteintes : %v\n", rep.TargetOK)
}
