package charge

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"iter"
	"math/rand/v2"
	"sync"
	"time"

	"arbitre/cmd/arbitre/internal/storeflags"
	"arbitre/domain/acces"
	"arbitre/domain/archive"
)

// requetesArchive are the five queries a federation asks its archive
// (issue 34 item 1), each with its arguments drawn from the history
// already imported.
var requetesArchive = []struct {
	nom, query string
	vars       func(e *EchantillonArchive, r *rand.Rand) map[string]any
}{
	{"historique d'un joueur", `query($j: ID!) { joueur(id: $j) { historique(first: 100) { edges { node { partie tournoi type score } } } } }`,
		func(e *EchantillonArchive, r *rand.Rand) map[string]any {
			return map[string]any{"j": e.paires[r.IntN(len(e.paires))][r.IntN(2)]}
		}},
	{"face-à-face", `query($j: ID!, $a: ID!) { joueur(id: $j) { faceAFace(adversaire: $a) { parties victoires nuls defaites pointsPour pointsContre } } }`,
		func(e *EchantillonArchive, r *rand.Rand) map[string]any {
			p := e.paires[r.IntN(len(e.paires))]
			return map[string]any{"j": p[0], "a": p[1]}
		}},
	{"cotes au fil du temps", `query($j: ID!) { joueur(id: $j) { cotes { tournoi le avant apres } } }`,
		func(e *EchantillonArchive, r *rand.Rand) map[string]any {
			return map[string]any{"j": e.paires[r.IntN(len(e.paires))][r.IntN(2)]}
		}},
	{"classement annuel", `query($an: Int!, $t: GenreTournoi!) { classementAnnuel(annee: $an, type: $t, first: 100) { edges { node { rang joueur nom club parties pourcentage cote } } } }`,
		func(e *EchantillonArchive, r *rand.Rand) map[string]any {
			return map[string]any{"an": e.annees[r.IntN(len(e.annees))], "t": []string{"duplicate", "classique"}[r.IntN(2)]}
		}},
	{"résultats d'un club", `query($c: String!, $an: Int!, $t: GenreTournoi!) { resultatsClub(club: $c, annee: $an, type: $t, first: 100) { edges { node { rang joueur nom parties pourcentage cote } } } }`,
		func(e *EchantillonArchive, r *rand.Rand) map[string]any {
			return map[string]any{"c": e.clubs[r.IntN(len(e.clubs))], "an": e.annees[r.IntN(len(e.annees))],
				"t": []string{"duplicate", "classique"}[r.IntN(2)]}
		}},
}

// maxPairesEchantillon bounds the classique opponents kept to ask about.
const maxPairesEchantillon = 10000

// EchantillonArchive is what the queries ask about: players who met in
// a classique match of the history imported before the last year (a
// sample of them), the clubs, the years; it does not change while the
// queries run.
type EchantillonArchive struct {
	r      *rand.Rand
	vues   int
	paires [][2]string
	clubs  []string
	annees []int
}

// NouvelEchantillon is an empty sample of a history whose players belong
// to clubs; r draws the opponents kept.
func NouvelEchantillon(r *rand.Rand, clubs []string) *EchantillonArchive {
	return &EchantillonArchive{r: r, clubs: clubs}
}

// Annee adds a year the history holds.
func (e *EchantillonArchive) Annee(annee int) { e.annees = append(e.annees, annee) }

// Noter keeps a sample of the document's classique opponents (each match
// as likely to be kept, whatever the history's length), from a random
// source of its own: the history drawn stays the same.
func (e *EchantillonArchive) Noter(d archive.Document) {
	for _, l := range d.Classique {
		if l.Adversaire == "" || l.Licence > l.Adversaire {
			continue
		}
		e.vues++
		switch {
		case len(e.paires) < maxPairesEchantillon:
			e.paires = append(e.paires, [2]string{l.Licence, l.Adversaire})
		case e.r.IntN(e.vues) < maxPairesEchantillon:
			e.paires[e.r.IntN(maxPairesEchantillon)] = [2]string{l.Licence, l.Adversaire}
		}
	}
}

// RapportArchive is what a year's import under queries measured.
type RapportArchive struct {
	Tournois, Lignes int
	importe          time.Duration
	// imports are each import's time from its first sending to its
	// answer; renvois how many were sent again.
	imports []time.Duration
	renvois int
	aVide   []latency
	debits  []debit
}

// maxEnvoisImport bounds the sendings of one import.
const maxEnvoisImport = 5

// maxDureeSousCharge bounds the queries' phase (and the latencies kept).
const maxDureeSousCharge = time.Hour

// ImporterSousRequetes imports the tournaments through the API of a
// server opened on flags' store (the importerArchive mutation, as the
// federation's director), while the five archive queries about e are
// sent at requetes a second in all, open loop, a fifth each, until the
// tournaments are imported; the queries are first timed one at a time.
func (o Outils) ImporterSousRequetes(ctx context.Context, flags *storeflags.Flags, e *EchantillonArchive, requetes int,
	tournois iter.Seq[archive.Document]) (RapportArchive, error) {
	var rep RapportArchive
	jetons, err := emettreJetons(ctx, flags, "simulation", 2*time.Hour, []acces.Demande{{Role: acces.Directeur}})
	if err != nil {
		return rep, err
	}
	cl, arreterServeur, err := o.demarrerServeurCharge(ctx, flags, "")
	if err != nil {
		return rep, err
	}
	err = importerSousRequetes(ctx, cl, jetons[0], e, requetes, tournois, &rep)
	if err := arreterServeur(); err != nil && ctx.Err() == nil {
		return rep, err
	}
	return rep, err
}

func importerSousRequetes(ctx context.Context, cl *chargeClient, jeton string, e *EchantillonArchive, requetes int,
	tournois iter.Seq[archive.Document], rep *RapportArchive) error {
	requete := func(k int) func(i int) error {
		return func(i int) error {
			r := rand.New(rand.NewPCG(uint64(i), uint64(k)))
			q := requetesArchive[k]
			return cl.Do(ctx, "", q.query, q.vars(e, r), nil)
		}
	}
	// Any of the queries answers once the server is up.
	for attente := time.Now(); ; {
		err := requete(0)(0)
		if err == nil {
			break
		}
		if time.Since(attente) > chargeWait {
			return fmt.Errorf("le serveur n'a pas répondu en %s : %w", chargeWait, err)
		}
		time.Sleep(50 * time.Millisecond)
	}
	for k := range requetesArchive {
		l, err := sansCharge(requete(k))
		if err != nil {
			return fmt.Errorf("%s : %w", requetesArchive[k].nom, err)
		}
		rep.aVide = append(rep.aVide, l)
	}
	arret, fini := context.WithCancel(ctx)
	defer fini()
	rep.debits = make([]debit, len(requetesArchive))
	var wg sync.WaitGroup
	for k := range requetesArchive {
		qps := max(1, requetes/len(requetesArchive))
		wg.Go(func() { rep.debits[k] = aDebitFixe(arret, qps, maxDureeSousCharge, requete(k)) })
	}
	debut := time.Now()
	var errImport error
	for d := range tournois {
		if arret.Err() != nil {
			break
		}
		var csv bytes.Buffer
		if errImport = archive.EcrireCSV(&csv, d); errImport != nil {
			break
		}
		var res struct{ ImporterArchive struct{ Lignes int } }
		envoi := time.Now()
		// An import answers once the archive's views hold it: a server
		// slower than the client's patience is asked again with the
		// same clientMutationId, which never imports twice.
		for essai := 1; ; essai++ {
			errImport = cl.Do(ctx, jeton, `mutation($f: String!, $c: String!, $id: String) {
			importerArchive(fichier: $f, contenu: $c, clientMutationId: $id) { lignes } }`,
				map[string]any{"f": d.Tournoi + ".csv", "c": csv.String(), "id": "simulation-" + d.Tournoi}, &res)
			if reponseDefinitive(errImport) || essai == maxEnvoisImport || ctx.Err() != nil {
				break
			}
			rep.renvois++
		}
		if errImport != nil {
			errImport = fmt.Errorf("%s : %w", d.Tournoi, errImport)
			break
		}
		rep.imports = append(rep.imports, time.Since(envoi))
		rep.Tournois++
		rep.Lignes += res.ImporterArchive.Lignes
	}
	rep.importe = time.Since(debut)
	fini()
	wg.Wait()
	return errImport
}

// Afficher writes the year's import under queries and each query's
// latencies, alone then under load.
func (rep RapportArchive) Afficher(w io.Writer, annee, requetes int) {
	fr.Fprintf(w, "année %s importée par l'API sous %d requêtes/s : %d tournois, %d lignes en %s\n",
		fmt.Sprint(annee), requetes, rep.Tournois, rep.Lignes, fr.Sprintf("%.3f s", rep.importe.Seconds()))
	imp := summarize(rep.imports)
	fr.Fprintf(w, "  un import, de son envoi à sa réponse (vues à jour) : p50 %.1f ms, p99 %.1f ms, max %.1f ms ; %d renvoyés\n",
		imp.P50, imp.P99, imp.Max, rep.renvois)
	for k, q := range requetesArchive {
		v, d := rep.aVide[k], rep.debits[k]
		fr.Fprintf(w, "  %s : seule p50 %.1f ms, p99 %.1f ms ; pendant l'import %d envoyées à %.0f/s, p50 %.1f ms, p95 %.1f ms, p99 %.1f ms, max %.1f ms, %d erreurs %s\n",
			q.nom, v.P50, v.P99, d.Sent, d.Rate, d.Latency.P50, d.Latency.P95, d.Latency.P99, d.Latency.Max, d.Errors, d.FirstError)
	}
}
