package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"iter"
	"math"
	"math/rand/v2"
	"os"
	"runtime"
	"slices"
	"time"

	"github.com/spf13/cobra"

	"arbitre/cmd/arbitre/internal/charge"
	"arbitre/cmd/arbitre/internal/cpuprofile"
	"arbitre/cmd/arbitre/internal/storeflags"
	"arbitre/domain/acces"
	"arbitre/domain/archive"
	"arbitre/domain/catalogue"
	"arbitre/domain/classique/tournoiclassique"
	"arbitre/domain/eventstore"
	"arbitre/domain/eventstore/repository"
	"arbitre/projections/projection"
	"arbitre/projections/readmodels"
)

func init() {
	simulateCmd.AddCommand(newSimulateArchiveCmd())
}

// simulateArchiveOptions are the flags of `simulate archive`.
type simulateArchiveOptions struct {
	store     storeflags.Flags
	annees    int
	tournois  int
	licencies int
	debut     int
	seed      uint64
	profile   string
	requetes  int
}

func newSimulateArchiveCmd() *cobra.Command {
	var o simulateArchiveOptions
	cmd := &cobra.Command{
		Use:   "archive --annees N --seed S --data DOSSIER",
		Short: "Importe dans l'archive l'histoire synthétique d'une fédération : N années de tournois duplicate et classique",
		Long: `archive écrit, année après année, les résultats de --tournois tournois par an, moitié duplicate
(3 parties, de 40 à 300 joueurs), moitié classique (7 rondes, de 20 à 60 joueurs, appariés par points puis
par cote), joués par les licenciés d'une fédération qui reviennent d'une année sur l'autre avec leur club
(quelques-uns en changent, quelques-uns arrêtent, d'autres arrivent) et dont la cote évolue à chaque
tournoi classique. Chaque tournoi est écrit en CSV comme « arbitre archive export » l'écrit, puis importé
comme « arbitre archive import » l'importe ; les vues (historique, cotes, face-à-face) sont mises à jour
pendant que les années s'importent, sans que l'import les attende, leurs index et classements annuels une
fois à la fin. La même graine donne la même histoire. La commande affiche, par année et au total, le temps
d'import, la taille du magasin et des vues, et la mémoire : de quoi dimensionner un serveur (docs/charge.md).`,
		Example: "  arbitre simulate archive --annees 20 --seed 1 --data archive-20ans",
		Args:    aucunArgument,
		RunE:    func(cmd *cobra.Command, _ []string) error { return runSimulateArchive(cmd, &o) },
	}
	o.store.AddFlags(cmd)
	f := cmd.Flags()
	f.IntVar(&o.annees, "annees", 1, "nombre d'années d'histoire")
	f.IntVar(&o.tournois, "tournois", 2000, "tournois par an")
	f.IntVar(&o.licencies, "licencies", 15000, "licenciés de la fédération la première année")
	f.IntVar(&o.debut, "debut", 2006, "première année de l'histoire")
	f.Uint64Var(&o.seed, "seed", 1, "graine de l'histoire")
	f.StringVar(&o.profile, "profile", "", "`DOSSIER` où écrire le profil CPU de l'import et des vues (archive.pprof)")
	f.IntVar(&o.requetes, "requetes", 0, "requêtes de l'archive par seconde pendant l'import de la dernière année, qui passe alors par l'API d'un serveur ouvert sur le magasin (0 : aucune)")
	return cmd
}

// Bounds of `simulate archive`.
const (
	maxAnneesSimulees   = 100
	maxTournoisParAn    = 20000
	maxLicenciesSimules = 1000000
	maxRequetesArchive  = 10000
)

func runSimulateArchive(cmd *cobra.Command, o *simulateArchiveOptions) error {
	switch {
	case o.annees < 1 || o.annees > maxAnneesSimulees:
		return fmt.Errorf("simulate archive : --annees va de 1 à %d", maxAnneesSimulees)
	case o.tournois < 1 || o.tournois > maxTournoisParAn:
		return fmt.Errorf("simulate archive : --tournois va de 1 à %d", maxTournoisParAn)
	case o.licencies < 300 || o.licencies > maxLicenciesSimules:
		return fmt.Errorf("simulate archive : --licencies va de 300 à %d", maxLicenciesSimules)
	case o.requetes < 0 || o.requetes > maxRequetesArchive:
		return fmt.Errorf("simulate archive : --requetes va de 0 à %d", maxRequetesArchive)
	case o.requetes > 0 && (o.annees < 2 || o.tournois < 2):
		// The queries ask about the years before the last, and about
		// classique opponents: tournament 1 of a year is the first
		// classique one.
		return fmt.Errorf("simulate archive : --requetes interroge l'histoire des années d'avant la dernière et ses matchs classiques : --annees 2 et --tournois 2 au moins")
	case o.debut < 1900 || o.debut+o.annees > 3000:
		return fmt.Errorf("simulate archive : --debut est une année entre 1900 et %d", 3000-o.annees)
	}
	ctx := cmd.Context()
	out := cmd.OutOrStdout()
	o.store.Init = true // a simulation makes its store
	store, _, err := o.store.Open(ctx)
	if err != nil {
		return fmt.Errorf("simulate archive : %w", err)
	}
	defer store.Close()
	registry, err := catalogue.Registre()
	if err != nil {
		return err
	}
	db, err := projection.OpenDB(o.store.ProjectionDBPath())
	if err != nil {
		return fmt.Errorf("simulate archive : %w", err)
	}
	defer db.Close()
	runners, err := readmodels.Runners(ctx, db, registry, store)
	if err != nil {
		return fmt.Errorf("simulate archive : %w", err)
	}
	// Nobody reads the views while the history is written: it is one bulk
	// (projection.Masse), whose end builds the archive's queries' indexes
	// and ranks each year once rather than at each page.
	for _, r := range runners {
		if err := r.CommencerMasse(ctx); err != nil {
			return fmt.Errorf("simulate archive : %w", err)
		}
	}
	flux := repository.Streams{Store: store, Registry: registry}
	md := eventstore.Metadata{Actor: "simulation", Role: string(acces.Directeur)}
	f := nouvelleFederation(o.seed, o.licencies)
	e := charge.NouvelEchantillon(rand.New(rand.NewPCG(o.seed, 1)), f.clubs)
	debut := time.Now()
	var lignes, importes int
	// The views fold the history in the background while the years are
	// imported: each keeps a core busy, and the import waits for the
	// views only at its end.
	ctxVues, finVues := context.WithCancel(ctx)
	vues := plier(ctxVues, store, runners, o.annees)
	defer func() {
		finVues()
		vues.attendre()
	}()
	err = cpuprofile.Run(o.profile, "archive", func() error {
		for a := range o.annees {
			annee := o.debut + a
			e.Annee(annee)
			if o.requetes > 0 && a == o.annees-1 {
				if err := vues.attendre(); err != nil {
					return err
				}
				if err := finirMasse(ctx, runners, out); err != nil {
					return err
				}
				rep, err := outilsCharge.ImporterSousRequetes(ctx, &o.store, e, o.requetes, f.tournois(annee, o.tournois))
				if err != nil {
					return fmt.Errorf("simulate archive : %w", err)
				}
				lignes += rep.Lignes
				importes += rep.Tournois
				rep.Afficher(out, annee, o.requetes)
				continue
			}
			debutAnnee := time.Now()
			lignesAnnee := 0
			lot := make([]archive.Fichier, 0, tournoisParLot)
			importer := func() error {
				bilans, err := archive.ImporterLot(ctx, flux, lot, md)
				if err != nil {
					return fmt.Errorf("simulate archive : %w", err)
				}
				for _, b := range bilans {
					if !b.DejaImporte {
						importes++
					}
					lignesAnnee += b.Lignes
				}
				lot = lot[:0]
				return nil
			}
			for n := range o.tournois {
				d := f.tournoi(annee, n, o.tournois)
				e.Noter(d)
				var csv bytes.Buffer
				if err := archive.EcrireCSV(&csv, d); err != nil {
					return err
				}
				lot = append(lot, archive.Fichier{Nom: d.Tournoi + ".csv", Contenu: csv.Bytes()})
				if len(lot) == tournoisParLot || n == o.tournois-1 {
					if err := importer(); err != nil {
						return err
					}
				}
			}
			importe := time.Since(debutAnnee)
			lignes += lignesAnnee
			f.finDAnnee()
			if err := vues.echec(); err != nil {
				return err
			}
			fin := time.Now()
			tete, err := store.LastPosition(ctx)
			if err != nil {
				return fmt.Errorf("simulate archive : %w", err)
			}
			vues.noter(tete, func() {
				fr.Fprintf(out, "année %s : %d tournois, %d lignes importées en %s, vues à jour %s après ; magasin %s, vues %s\n",
					fmt.Sprint(annee), o.tournois, lignesAnnee, duree(importe), duree(time.Since(fin)),
					octetsEnClair(tailleFichiers(o.store.StorePath())), octetsEnClair(tailleFichiers(o.store.ProjectionDBPath())))
			})
		}
		if err := vues.attendre(); err != nil {
			return err
		}
		return finirMasse(ctx, runners, out)
	})
	if err != nil {
		return err
	}
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	last, err := store.LastPosition(ctx)
	if err != nil {
		return err
	}
	// Closed, the files hold everything: their journals are folded in.
	if err := errors.Join(db.Close(), store.Close()); err != nil {
		return fmt.Errorf("simulate archive : %w", err)
	}
	fr.Fprintf(out, "histoire de %d ans : %d tournois importés, %d lignes, %d événements en %s ; magasin %s, vues %s ; mémoire obtenue du système par Go %s\n",
		o.annees, importes, lignes, last, duree(time.Since(debut)),
		octetsEnClair(tailleFichiers(o.store.StorePath())), octetsEnClair(tailleFichiers(o.store.ProjectionDBPath())), octetsEnClair(int64(m.Sys)))
	return nil
}

// finirMasse ends the views' bulk, once: the archive's queries' indexes
// are built and each year ranked.
func finirMasse(ctx context.Context, runners []*projection.Runner, out io.Writer) error {
	debut := time.Now()
	for _, r := range runners {
		if err := r.FinirMasse(ctx); err != nil {
			return fmt.Errorf("simulate archive : %w", err)
		}
	}
	fr.Fprintf(out, "index des requêtes et classements annuels de l'archive construits en %s\n", duree(time.Since(debut)))
	return nil
}

// pli is the views' fold of the history, run in a goroutine while the
// years are imported.
type pli struct {
	// annees holds each year imported and not yet folded; it never fills
	// (one place per year).
	annees chan anneeImportee
	// fin brings the fold's end: its error, or nil once annees is closed
	// and every year in it folded.
	fin  chan error
	err  error
	fini bool
}

// anneeImportee is a year in the log: where it ends, and what to say once
// it is in the views.
type anneeImportee struct {
	fin  uint64
	fait func()
}

// plier starts the views' fold of up to annees years: told a year is
// imported (noter), it folds the log into the views up to that year's
// end, not into the next year's events written meanwhile, and then says
// so; a failed fold ends it.
func plier(ctx context.Context, store eventstore.Reader, runners []*projection.Runner, annees int) *pli {
	p := &pli{annees: make(chan anneeImportee, annees), fin: make(chan error, 1)}
	go func() {
		for a := range p.annees {
			if err := plierVues(ctx, journalJusqua{Reader: store, fin: a.fin}, runners, pageSimulee); err != nil {
				p.fin <- err
				return
			}
			a.fait()
		}
		p.fin <- nil
	}()
	return p
}

// journalJusqua is the log up to position fin included: what a year's
// fold reads.
type journalJusqua struct {
	eventstore.Reader
	fin uint64
}

// ReadAll reads the log from position from, up to fin.
func (j journalJusqua) ReadAll(ctx context.Context, from uint64, limit int) ([]eventstore.Event, error) {
	events, err := j.Reader.ReadAll(ctx, from, limit)
	return j.borner(events), err
}

// ReadAllAfter reads the log after position after, up to fin.
func (j journalJusqua) ReadAllAfter(ctx context.Context, after uint64, limit int) ([]eventstore.Event, error) {
	if after >= j.fin {
		return nil, ctx.Err()
	}
	events, err := j.Reader.ReadAllAfter(ctx, after, limit)
	return j.borner(events), err
}

// borner cuts events, in log order, at position fin.
func (j journalJusqua) borner(events []eventstore.Event) []eventstore.Event {
	if n := slices.IndexFunc(events, func(e eventstore.Event) bool { return e.Position > j.fin }); n >= 0 {
		return events[:n]
	}
	return events
}

// plierVues folds the log into the views: projection.RattraperEnsemble,
// which a test holds to see what the import does meanwhile.
var plierVues = projection.RattraperEnsemble

// noter tells the fold a year is in the log up to position fin; fait
// says so once it is in the views. It never waits.
func (p *pli) noter(fin uint64, fait func()) { p.annees <- anneeImportee{fin: fin, fait: fait} }

// echec is the fold's error if it has already failed, without waiting.
func (p *pli) echec() error {
	if !p.fini {
		select {
		case err := <-p.fin:
			p.fini, p.err = true, err
		default:
			return nil
		}
	}
	return p.erreur()
}

// attendre waits for the fold of every year noted, once; after it no
// year can be noted.
func (p *pli) attendre() error {
	if !p.fini {
		close(p.annees)
		p.fini, p.err = true, <-p.fin
	}
	return p.erreur()
}

// erreur is the fold's error as the command reports it.
func (p *pli) erreur() error {
	if p.err != nil {
		return fmt.Errorf("simulate archive : %w", p.err)
	}
	return nil
}

// tournoisParLot is how many files the simulation imports in one batch
// of the store (archive.ImporterLot): one commit, and its fsync, for 64
// tournaments rather than one each.
const tournoisParLot = 64

// pageSimulee is how many events the simulation's views fold in one
// transaction: a year's import, some 146,000 events, is folded in five
// rather than in 146 pages of a server's catch-up (eventstore.PageSize):
// fewer commits write the views' busiest pages fewer times.
const pageSimulee = 32768

// tailleFichiers is the size of a SQLite file with its journal (-wal,
// -shm), 0 for a file that is not there.
func tailleFichiers(chemin string) int64 {
	var n int64
	for _, suffixe := range []string{"", "-wal", "-shm"} {
		if info, err := os.Stat(chemin + suffixe); err == nil {
			n += info.Size()
		}
	}
	return n
}

// octetsEnClair writes a size in MB or GB.
func octetsEnClair(n int64) string {
	if n >= 1<<30 {
		return fr.Sprintf("%.2f Go", float64(n)/(1<<30))
	}
	return fr.Sprintf("%.1f Mo", float64(n)/(1<<20))
}

// licencie is a player of the synthetic federation.
type licencie struct {
	licence, nom string
	club         int
	// niveau is his share of the top in duplicate (0.5 to 0.98), which
	// also makes his classique scores; cote is his classique rating.
	niveau float64
	cote   int
	actif  bool
}

// federationSimulee is the synthetic federation: its players, clubs and towns,
// drawn from one seed.
type federationSimulee struct {
	r        *rand.Rand
	joueurs  []*licencie
	actifs   []int
	clubs    []string
	prochain int
}

var (
	prenomsSimules = []string{"Élise", "Léo", "Jean", "Marie", "Paul", "Anne", "Hugo", "Chloé", "Louis", "Camille",
		"Pierre", "Sophie", "Marc", "Julie", "Éric", "Claire", "Yves", "Agnès", "René", "Odile", "Luc", "Inès"}
	nomsSimules = []string{"Dupont", "Martin", "Petit", "Durand", "Leroy", "Moreau", "Simon", "Laurent", "Michel",
		"Garcia", "Bernard", "Roux", "Fournier", "Girard", "Bonnet", "Lambert", "Fontaine", "Rousseau", "Vincent", "Muller"}
	villesSimulees = []string{"Vichy", "Lyon", "Nantes", "Lille", "Rennes", "Dijon", "Nîmes", "Pau", "Tours", "Metz",
		"Brest", "Caen", "Niort", "Agen", "Albi", "Cusset", "Moulins", "Annecy", "Vannes", "Bayonne"}
)

func nouvelleFederation(seed uint64, licencies int) *federationSimulee {
	f := &federationSimulee{r: rand.New(rand.NewPCG(seed, 0x61726368697665))}
	for i := range max(licencies/30, 1) {
		f.clubs = append(f.clubs, fmt.Sprintf("%s %d", villesSimulees[i%len(villesSimulees)], i/len(villesSimulees)+1))
	}
	for range licencies {
		f.nouveau()
	}
	return f
}

// nouveau licenses a new player, in a club.
func (f *federationSimulee) nouveau() {
	f.prochain++
	j := &licencie{licence: fmt.Sprintf("%07d", f.prochain),
		nom:    nomsSimules[f.r.IntN(len(nomsSimules))] + " " + prenomsSimules[f.r.IntN(len(prenomsSimules))],
		club:   f.r.IntN(len(f.clubs)),
		niveau: min(0.98, max(0.5, 0.78+0.09*f.r.NormFloat64())), actif: true}
	j.cote = int(math.Round(1500 + (j.niveau-0.78)*2500))
	f.actifs = append(f.actifs, len(f.joueurs))
	f.joueurs = append(f.joueurs, j)
}

// finDAnnee: one player in twelve stops, as many start, one in thirty
// changes clubs, and everyone's level drifts a little.
func (f *federationSimulee) finDAnnee() {
	restent := f.actifs[:0]
	partis := 0
	for _, i := range f.actifs {
		j := f.joueurs[i]
		if f.r.IntN(12) == 0 {
			j.actif = false
			partis++
			continue
		}
		if f.r.IntN(30) == 0 {
			j.club = f.r.IntN(len(f.clubs))
		}
		j.niveau = min(0.98, max(0.5, j.niveau+0.01*f.r.NormFloat64()))
		restent = append(restent, i)
	}
	f.actifs = restent
	for range partis {
		f.nouveau()
	}
}

// choisir draws n distinct active players, two in three from the clubs
// near the host club (the twenty next in the list), the others from
// anywhere.
func (f *federationSimulee) choisir(n, hote int) []*licencie {
	n = min(n, len(f.actifs))
	// Most draws are a player from afar, refused: they are refused
	// before the look-up of the players already drawn.
	vus := make([]bool, len(f.joueurs))
	out := make([]*licencie, 0, n)
	for essais := 0; len(out) < n; essais++ {
		i := f.actifs[f.r.IntN(len(f.actifs))]
		loin := (f.joueurs[i].club-hote+len(f.clubs))%len(f.clubs) > 20
		if (loin && len(out) < n*2/3 && essais < 100*n) || vus[i] {
			continue
		}
		vus[i] = true
		out = append(out, f.joueurs[i])
	}
	return out
}

// tournois are the year's total tournaments, one after another.
func (f *federationSimulee) tournois(annee, total int) iter.Seq[archive.Document] {
	return func(yield func(archive.Document) bool) {
		for n := range total {
			if !yield(f.tournoi(annee, n, total)) {
				return
			}
		}
	}
}

// tournoi is tournament n of the year's total: duplicate or classique
// every other one, on a date spread over the year.
func (f *federationSimulee) tournoi(annee, n, total int) archive.Document {
	hote := f.r.IntN(len(f.clubs))
	date := time.Date(annee, 1, 1, 0, 0, 0, 0, time.UTC).AddDate(0, 0, n*365/total)
	d := archive.Document{Date: date.Format(archive.FormatDate)}
	if n%2 == 0 {
		d.Genre, d.Tournoi = archive.GenreDuplicate, fmt.Sprintf("d%d-%04d", annee, n)
		d.Nom = fmt.Sprintf("Tournoi duplicate de %s %d", f.clubs[hote], annee)
		d.Duplicate = f.duplicate(d.Tournoi, f.choisir(40+f.r.IntN(261), hote))
	} else {
		d.Genre, d.Tournoi = archive.GenreClassique, fmt.Sprintf("c%d-%04d", annee, n)
		d.Nom = fmt.Sprintf("Open classique de %s %d", f.clubs[hote], annee)
		e := tournoiclassique.ConfigParDefaut().Exempt
		d.Exempt = &e
		d.Classique = f.classique(d.Tournoi, f.choisir(20+f.r.IntN(41), hote))
	}
	return d
}

// rangs ranks scores, best first, equal scores sharing a rank.
func rangs(scores []int) []int {
	ordre := make([]int, len(scores))
	for i := range ordre {
		ordre[i] = i
	}
	slices.SortStableFunc(ordre, func(a, b int) int { return scores[b] - scores[a] })
	out := make([]int, len(scores))
	for k, i := range ordre {
		out[i] = k + 1
		if k > 0 && scores[ordre[k-1]] == scores[i] {
			out[i] = out[ordre[k-1]]
		}
	}
	return out
}

const partiesDuplicateSimulees = 3

// duplicate plays three games: a top of 850 to 1,050, each player's
// score his level of it give or take, ranked per game and overall.
func (f *federationSimulee) duplicate(id string, joueurs []*licencie) []archive.LigneDuplicate {
	scores := make([][]int, partiesDuplicateSimulees)
	tops := make([]int, partiesDuplicateSimulees)
	cumuls := make([]int, len(joueurs))
	topCumul := 0
	for g := range scores {
		tops[g] = 850 + f.r.IntN(201)
		topCumul += tops[g]
		scores[g] = make([]int, len(joueurs))
		for i, j := range joueurs {
			s := int(float64(tops[g]) * min(1, max(0.2, j.niveau+0.05*f.r.NormFloat64())))
			scores[g][i] = s
			cumuls[i] += s
		}
	}
	general := rangs(cumuls)
	parJeu := make([][]int, len(scores))
	for g := range scores {
		parJeu[g] = rangs(scores[g])
	}
	ordre := make([]int, len(joueurs))
	for i := range ordre {
		ordre[i] = i
	}
	slices.SortStableFunc(ordre, func(a, b int) int { return general[a] - general[b] })
	parties := make([]string, len(scores))
	for g := range parties {
		parties[g] = fmt.Sprintf("%s-%d", id, g+1)
	}
	out := make([]archive.LigneDuplicate, 0, len(joueurs)*len(scores))
	for _, i := range ordre {
		j := joueurs[i]
		serie := string(rune('A' + min(4, int((0.98-j.niveau)/0.08))))
		pourcentage := math.Round(float64(cumuls[i])*10000/float64(topCumul)) / 100
		for g := range scores {
			out = append(out, archive.LigneDuplicate{Partie: parties[g], Numero: g + 1, Licence: j.licence,
				Nom: j.nom, Club: f.clubs[j.club], Serie: serie, Score: scores[g][i], Top: tops[g], Rang: parJeu[g][i],
				Cumul: cumuls[i], TopCumul: topCumul, Pourcentage: pourcentage, RangGeneral: general[i]})
		}
	}
	return out
}

const rondesClassiquesSimulees = 7

// classique plays seven rounds paired by points de match then cote (a
// player meets nobody twice when it can be helped), the lowest without a
// bye exempt when they are odd; each match is won by the better score,
// drawn from the players' levels; cotes move by Elo (K = 20) once, at the
// end.
func (f *federationSimulee) classique(id string, joueurs []*licencie) []archive.LigneClassique {
	n := len(joueurs)
	points := make([]int, n)
	joues := make([]map[int]bool, n)
	for i := range joues {
		joues[i] = map[int]bool{}
	}
	exempte := make([]bool, n)
	attendu, obtenu := make([]float64, n), make([]float64, n)
	type ligne struct {
		ronde, joueur, adversaire int
		match                     string
		score, scoreAdv, pm       int
	}
	var lignes []ligne
	e := tournoiclassique.ConfigParDefaut().Exempt
	for r := 1; r <= rondesClassiquesSimulees; r++ {
		ordre := make([]int, n)
		for i := range ordre {
			ordre[i] = i
		}
		slices.SortStableFunc(ordre, func(a, b int) int {
			if points[a] != points[b] {
				return points[b] - points[a]
			}
			return joueurs[b].cote - joueurs[a].cote
		})
		if n%2 == 1 {
			for k := n - 1; k >= 0; k-- {
				if !exempte[ordre[k]] || k == 0 {
					x := ordre[k]
					exempte[x] = true
					points[x] += e.PointsDeMatch
					lignes = append(lignes, ligne{ronde: r, joueur: x, adversaire: -1, score: e.Score, scoreAdv: e.ScoreAdverse, pm: e.PointsDeMatch})
					ordre = slices.Delete(ordre, k, k+1)
					break
				}
			}
		}
		table := 0
		for len(ordre) > 0 {
			a, k := ordre[0], 1
			for k < len(ordre)-1 && joues[a][ordre[k]] {
				k++
			}
			b := ordre[k]
			ordre = slices.Delete(ordre, k, k+1)[1:]
			joues[a][b], joues[b][a] = true, true
			table++
			sa := int(300 + 200*joueurs[a].niveau + 60*f.r.NormFloat64())
			sb := int(300 + 200*joueurs[b].niveau + 60*f.r.NormFloat64())
			pa, pb := 2, 2
			switch {
			case sa > sb:
				pa, pb = 3, 1
			case sb > sa:
				pa, pb = 1, 3
			}
			points[a], points[b] = points[a]+pa, points[b]+pb
			ea := 1 / (1 + math.Pow(10, float64(joueurs[b].cote-joueurs[a].cote)/400))
			attendu[a], attendu[b] = attendu[a]+ea, attendu[b]+1-ea
			obtenu[a], obtenu[b] = obtenu[a]+float64(pa-1)/2, obtenu[b]+float64(pb-1)/2
			m := fmt.Sprintf("%s-r%d-t%d", id, r, table)
			lignes = append(lignes, ligne{r, a, b, m, sa, sb, pa}, ligne{r, b, a, m, sb, sa, pb})
		}
	}
	cotes := make([][2]int, n)
	for i, j := range joueurs {
		cotes[i] = [2]int{j.cote, max(100, j.cote+int(math.Round(20*(obtenu[i]-attendu[i]))))}
		j.cote = cotes[i][1]
	}
	out := make([]archive.LigneClassique, len(lignes))
	for k, l := range lignes {
		j := joueurs[l.joueur]
		out[k] = archive.LigneClassique{Ronde: l.ronde, Match: l.match, Licence: j.licence, Nom: j.nom, Club: f.clubs[j.club],
			Score: l.score, ScoreAdversaire: l.scoreAdv, PointsDeMatch: l.pm, CoteAvant: cotes[l.joueur][0], CoteApres: cotes[l.joueur][1]}
		if l.adversaire >= 0 {
			out[k].Adversaire = joueurs[l.adversaire].licence
		}
	}
	return out
}
