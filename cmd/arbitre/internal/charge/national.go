package charge

import (
	"bytes"
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"sync"
	"time"

	"golang.org/x/text/language"
	"golang.org/x/text/message"

	"arbitre/cmd/arbitre/internal/cpuprofile"
	"arbitre/cmd/arbitre/internal/storeflags"
	"arbitre/domain/acces"
	"arbitre/domain/eventstore"
)

// The national simultaneous event of issue 34 item 2 (guide §2.17): its
// id, and the targets.
const (
	EpreuveNationale      = "simultane-national"
	targetNationalComplet = 5 * time.Second
	targetNationalP99     = 100 * time.Millisecond
	// GraineNationale seeds the pre-drawn game's tirages, the same in every
	// centre; each centre's players answer from their own seed.
	GraineNationale = 17
)

// fr prints the reports' figures the French way, as the CLI does.
var fr = message.NewPrinter(language.French)

// nationalQuery is the public national ranking, every line.
const nationalQuery = `query($e: ID!) { classementNational(epreuve: $e) { classement { rang licence nom club serie centre score moyennes } } }`

// NationalConfig is what `arbitre charge national` is asked to run.
type NationalConfig struct {
	Data, LexPath, ProfileDir string
	Centres, Players, QPS     int
	Arrivee, Duration         time.Duration
	JSON                      bool
}

// NationalReport is what `arbitre charge national` measured.
type NationalReport struct {
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

// RunNational runs `arbitre charge national` and writes its report to out.
func (o Outils) RunNational(ctx context.Context, out io.Writer, c NationalConfig) error {
	if c.Centres < 1 || c.Players < 1 || c.QPS < 1 || c.Duration <= 0 || c.Arrivee < 0 {
		return fmt.Errorf("--centres, --players, --qps et --duration valent au moins 1 ; --arrivee n'est pas négatif")
	}
	dir := c.Data
	if dir == "" {
		tmp, err := os.MkdirTemp("", "arbitre-national-")
		if err != nil {
			return err
		}
		defer os.RemoveAll(tmp)
		dir = tmp
	}
	rep := NationalReport{Centres: c.Centres, Players: c.Players, QPS: c.QPS, Arrivee: c.Arrivee.String(),
		Duration: c.Duration.String(), CPUs: runtime.NumCPU()}
	start := time.Now()
	paquets, coups, err := o.JouerCentres(ctx, &storeflags.Flags{DataDir: filepath.Join(dir, "centres"), Backend: storeflags.SQLite, Init: true}, c)
	if err != nil {
		return err
	}
	rep.Coups = coups
	for _, p := range paquets {
		rep.BundleKiB += float64(len(p)) / 1024 / float64(len(paquets))
	}
	federationFlags := &storeflags.Flags{DataDir: filepath.Join(dir, "federation"), Backend: storeflags.SQLite, Init: true}
	jetons, err := o.ouvrirEpreuveNationale(ctx, federationFlags, c.Centres, coups)
	if err != nil {
		return err
	}
	rep.Preparation = ms(time.Since(start))

	cl, stopServer, err := o.demarrerServeurCharge(ctx, federationFlags, c.LexPath)
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
	if c.JSON {
		return o.EcrireJSON(out, rep)
	}
	rep.print(out)
	return nil
}

// CentreNational names the k-th centre of the national event.
func CentreNational(k int) string { return fmt.Sprintf("C%03d", k+1) }

// ouvrirEpreuveNationale opens the event at the federation (as `arbitre
// centre ouvrir`) and issues each centre's token, before the server opens
// the store.
func (o Outils) ouvrirEpreuveNationale(ctx context.Context, flags *storeflags.Flags, nCentres, coups int) ([]string, error) {
	md := eventstore.Metadata{Actor: "charge national", Role: string(acces.Directeur)}
	if err := o.OuvrirEpreuve(ctx, flags, EpreuveNationale, "Simultané national", coups, md); err != nil {
		return nil, err
	}
	demandes := make([]acces.Demande, nCentres)
	for k := range demandes {
		demandes[k] = acces.Demande{Role: acces.Centre, Tournoi: EpreuveNationale, Centre: CentreNational(k)}
	}
	return emettreJetons(ctx, flags, "charge national", 2*time.Hour, demandes)
}

// phasesNationales sends the centres' bundles, each at a random time within
// c.Arrivee, waits for the national ranking to hold every player, then
// queries it at c.QPS for c.Duration.
func phasesNationales(ctx context.Context, cl *chargeClient, c NationalConfig, paquets [][]byte, jetons []string, rep *NationalReport) error {
	for attente := time.Now(); ; {
		err := cl.Do(ctx, "", nationalQuery, map[string]any{"e": EpreuveNationale}, nil)
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
	if err := cpuprofile.Run(c.ProfileDir, "paquets", func() error { return envoyerPaquets(ctx, cl, c, paquets, jetons, rep) }); err != nil {
		return err
	}
	return cpuprofile.Run(c.ProfileDir, "requetes", func() error { return interrogerNational(ctx, cl, c, rep) })
}

// envoyerPaquets sends each centre's bundle at a random time within
// c.Arrivee, as the centre's token.
func envoyerPaquets(ctx context.Context, cl *chargeClient, c NationalConfig, paquets [][]byte, jetons []string, rep *NationalReport) error {
	rng := rand.New(rand.NewPCG(GraineNationale, 0))
	depart := time.Now()
	var mu sync.Mutex
	var lat []time.Duration
	var dernier time.Time
	var wg sync.WaitGroup
	for k, paquet := range paquets {
		at := depart.Add(time.Duration(rng.Int64N(int64(c.Arrivee) + 1)))
		wg.Go(func() {
			select {
			case <-ctx.Done():
				return
			case <-time.After(time.Until(at)):
			}
			envoi := time.Now()
			err := cl.Do(ctx, jetons[k], `mutation($p: String!, $c: String) { envoyerResultatsCentre(paquet: $p, clientMutationId: $c) { joueurs } }`,
				map[string]any{"p": base64.StdEncoding.EncodeToString(paquet), "c": "charge-" + CentreNational(k)}, nil)
			fin := time.Now()
			mu.Lock()
			defer mu.Unlock()
			lat = append(lat, fin.Sub(envoi))
			if err != nil {
				rep.Bundles.Errors++
				if rep.Bundles.FirstErr == "" {
					rep.Bundles.FirstErr = CentreNational(k) + " : " + err.Error()
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
// then queries it at c.QPS for c.Duration.
func interrogerNational(ctx context.Context, cl *chargeClient, c NationalConfig, rep *NationalReport) error {
	dernier := rep.dernierPaquet
	attendus := c.Centres * c.Players
	query := func(int) error {
		var res struct{ ClassementNational lignesComptees }
		if err := cl.Do(ctx, "", nationalQuery, map[string]any{"e": EpreuveNationale}, &res); err != nil {
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
	complet, err := cl.Raw(ctx, "", nationalQuery, map[string]any{"e": EpreuveNationale})
	if err != nil {
		return err
	}
	if err := query(0); err != nil {
		return err
	}
	meme := func(int) error {
		return cl.Read(ctx, "", nationalQuery, map[string]any{"e": EpreuveNationale}, func(r io.Reader) error {
			if err := memeReponse(r, complet); err != nil {
				return fmt.Errorf("classement national : %w", err)
			}
			return nil
		})
	}
	if rep.Queries.Unloaded, err = sansCharge(meme); err != nil {
		return err
	}
	rep.Queries.debit = aDebitFixe(ctx, c.QPS, c.Duration, meme)
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
				return fmt.Errorf("la réponse diffère de la réponse complète (%d octets) après %d octets : %.200s", len(attendue), lus, tampon[:n])
			}
			lus += n
		}
		if err == io.EOF {
			if lus != len(attendue) {
				return fmt.Errorf("réponse de %d octets, la réponse complète en a %d", lus, len(attendue))
			}
			return nil
		}
		if err != nil {
			return err
		}
	}
}

func (rep *NationalReport) print(w io.Writer) {
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
