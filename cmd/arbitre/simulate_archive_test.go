package main

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbitre/domain/catalogue"
	"arbitre/domain/eventstore"
	"arbitre/domain/eventstore/sqlitestore"
	"arbitre/projections/historique"
	"arbitre/projections/projection"
	"arbitre/projections/readmodels"
)

// TestIssue34_SimulateArchiveHistoireDeLaFederation: `simulate archive`
// imports years of duplicate and classique tournaments through `archive
// import`'s path: each tournament exports back as the file it came from,
// players come back from one year to the next with their cote of the year
// before, and the same seed writes the same history.
func TestIssue34_SimulateArchiveHistoireDeLaFederation(t *testing.T) {
	ctx := context.Background()
	data := t.TempDir()
	simuler := func(dir string) string {
		out, err := runArbitre(t, "simulate", "archive", "--annees", "2", "--tournois", "6", "--licencies", "300", "--seed", "3", "--data", dir)
		require.NoError(t, err)
		return out
	}
	out := simuler(data)
	assert.Contains(t, out, "année 2006 : 6 tournois")
	assert.Contains(t, out, "histoire de 2 ans : 12 tournois importés")

	db, err := projection.OpenDB(filepath.Join(data, projection.FileName))
	require.NoError(t, err)
	defer db.Close()
	// The archive's runner on the database the simulation left, read as it
	// stands (not run).
	runners, err := readmodels.Runners(ctx, db, nil, nil, historique.Name)
	require.NoError(t, err)
	lu := historique.NewLecteur(projection.Lecture(runners, historique.Name))
	ts, _, err := lu.Tournois(ctx, historique.Page{})
	require.NoError(t, err)
	require.Len(t, ts, 12)
	assert.Equal(t, []historique.Kind{historique.KindDuplicate, historique.KindClassique}, []historique.Kind{ts[0].Kind, ts[1].Kind})
	assert.Equal(t, 3, ts[0].Parties, "three duplicate games")

	// A player of the first year's first classique tournament played in
	// later ones, each starting from the cote the one before ended with.
	rs, err := lu.RencontresDuTournoi(ctx, ts[1].ID)
	require.NoError(t, err)
	require.NotEmpty(t, rs)
	revenus := 0
	vus := map[string]bool{}
	for _, r := range rs {
		for _, j := range r.Joueurs {
			if vus[j] {
				continue
			}
			vus[j] = true
			cotes, err := lu.Cotes(ctx, j)
			require.NoError(t, err)
			for k := 1; k < len(cotes); k++ {
				assert.Equal(t, cotes[k-1].Apres, cotes[k].Avant, "the cote goes on from one tournament to the next")
				if cotes[k].Le.Year() > cotes[0].Le.Year() {
					revenus++
				}
			}
		}
	}
	assert.Positive(t, revenus, "players come back the next year")

	db.Close()
	for _, tr := range []historique.Tournoi{ts[0], ts[1], ts[len(ts)-1]} {
		d := exporter(t, data, tr.ID, "csv")
		importe := t.TempDir()
		fichier := filepath.Join(t.TempDir(), tr.ID+".csv")
		require.NoError(t, os.WriteFile(fichier, d, 0o600))
		_, err := runArbitre(t, "archive", "import", fichier, "--data", importe, "--init")
		require.NoError(t, err)
		assert.Equal(t, string(d), string(exporter(t, importe, tr.ID, "csv")), "export, import, export: the same file")
	}

	encore := t.TempDir()
	simuler(encore)
	assert.Equal(t, evenementsDuMagasin(t, data), evenementsDuMagasin(t, encore))
	for _, tr := range []historique.Tournoi{ts[1], ts[len(ts)-1]} {
		assert.Equal(t, string(exporter(t, data, tr.ID, "csv")), string(exporter(t, encore, tr.ID, "csv")), "the same seed, the same history")
	}
}

// TestIssue34_SimulateArchiveSousRequetes: with --requetes, the last
// year goes through the API of a server opened on the store (importerArchive)
// while the five archive queries are sent; every query is answered alone
// (the command fails otherwise) and timed during the import (how many
// time out then depends on the machine), and the history written is the
// one the direct import writes.
func TestIssue34_SimulateArchiveSousRequetes(t *testing.T) {
	direct, sousCharge := t.TempDir(), t.TempDir()
	_, err := runArbitre(t, "simulate", "archive", "--annees", "2", "--tournois", "6", "--licencies", "300", "--seed", "3", "--data", direct)
	require.NoError(t, err)
	out, err := runArbitre(t, "simulate", "archive", "--annees", "2", "--tournois", "6", "--licencies", "300", "--seed", "3",
		"--requetes", "50", "--data", sousCharge)
	require.NoError(t, err)
	assert.Contains(t, out, "année 2007 importée par l'API sous 50 requêtes/s : 6 tournois")
	assert.Contains(t, out, "histoire de 2 ans : 12 tournois importés")
	// The five queries a federation asks its archive (issue 34 item 1).
	for _, nom := range []string{"historique d'un joueur", "face-à-face", "cotes au fil du temps", "classement annuel", "résultats d'un club"} {
		// Figures are written the French way: 1 180,7.
		n := `[0-9][0-9\p{Zs},]*`
		assert.Regexp(t, regexp.QuoteMeta(nom)+` : seule p50 `+n+` ms, p99 `+n+` ms ; pendant l'import `+n+` envoyées .* p99 `+n+` ms`, out)
	}
	for _, id := range []string{"d2006-0000", "c2007-0001", "d2007-0004"} {
		assert.Equal(t, string(exporter(t, direct, id, "csv")), string(exporter(t, sousCharge, id, "csv")), id)
	}
}

// TestIssue34_SimulateArchiveRequetesSansHistoire: --requetes asks about
// the years before the last and their classique matches; without them the
// command says so and writes nothing.
func TestIssue34_SimulateArchiveRequetesSansHistoire(t *testing.T) {
	for _, args := range [][]string{
		{"--annees", "1", "--tournois", "6"},
		{"--annees", "2", "--tournois", "1"},
	} {
		data := filepath.Join(t.TempDir(), "archive")
		_, err := runArbitre(t, append([]string{"simulate", "archive", "--licencies", "300", "--requetes", "10", "--data", data}, args...)...)
		require.Error(t, err, args)
		assert.Contains(t, err.Error(), "--annees 2 et --tournois 2 au moins", args)
		assert.NoDirExists(t, data, args)
	}
}

// TestIssue34_SimulateArchiveVuesCommeReconstruites: the views a simulated
// history leaves (each year folded while the next one is imported, in one
// bulk whose end ranks the years and builds the queries' indexes) are
// exactly those `projections rebuild` gives from the same store.
func TestIssue34_SimulateArchiveVuesCommeReconstruites(t *testing.T) {
	ctx := context.Background()
	data := t.TempDir()
	_, err := runArbitre(t, "simulate", "archive", "--annees", "3", "--tournois", "6", "--licencies", "300", "--seed", "4", "--data", data)
	require.NoError(t, err)
	vues := func() string {
		t.Helper()
		db, err := projection.OpenDB(filepath.Join(data, projection.FileName))
		require.NoError(t, err)
		defer db.Close()
		dump, err := projection.Dump(ctx, db)
		require.NoError(t, err)
		return string(dump)
	}
	simulees := vues()
	require.Contains(t, simulees, "2008\tclassique", "the last year is in the views")
	_, err = runArbitre(t, "projections", "rebuild", "--data", data)
	require.NoError(t, err)
	assert.Equal(t, simulees, vues())
}

// lecturesComptees counts the store's reads of the global log.
type lecturesComptees struct {
	eventstore.Store
	lectures int
}

func (l *lecturesComptees) ReadAllAfter(ctx context.Context, after uint64, limit int) ([]eventstore.Event, error) {
	l.lectures++
	return l.Store.ReadAllAfter(ctx, after, limit)
}

// TestIssue34_RattraperLitLeJournalUneFoisPourToutesLesVues: the fold of
// `simulate archive` reads each page of the log once for all the views,
// from the earliest checkpoint, rather than the whole log once per view;
// a view already ahead is not folded twice, and every view ends at the
// head of the log.
func TestIssue34_RattraperLitLeJournalUneFoisPourToutesLesVues(t *testing.T) {
	ctx := context.Background()
	data := t.TempDir()
	_, err := runArbitre(t, "simulate", "archive", "--annees", "1", "--tournois", "4", "--licencies", "300", "--seed", "5", "--data", data)
	require.NoError(t, err)
	store, err := sqlitestore.OpenDir(ctx, data, sqlitestore.Options{})
	require.NoError(t, err)
	defer store.Close()
	last, err := store.LastPosition(ctx)
	require.NoError(t, err)
	require.Less(t, last, uint64(pageSimulee), "the log fits in one page")
	registry, err := catalogue.Registre()
	require.NoError(t, err)
	db, err := projection.OpenDB(filepath.Join(t.TempDir(), projection.FileName))
	require.NoError(t, err)
	defer db.Close()
	comptees := &lecturesComptees{Store: store}
	runners, err := readmodels.Runners(ctx, db, registry, comptees)
	require.NoError(t, err)
	require.Greater(t, len(runners), 2)
	// One view ahead of the others: the first half of the log.
	debut, err := store.ReadAllAfter(ctx, 0, int(last/2))
	require.NoError(t, err)
	_, err = runners[len(runners)-1].Apply(ctx, debut)
	require.NoError(t, err)

	require.NoError(t, projection.RattraperEnsemble(ctx, comptees, runners, pageSimulee))
	assert.Equal(t, 2, comptees.lectures, "one page and the empty read that ends the log, for all the views")
	for _, r := range runners {
		cp, err := r.Checkpoint(ctx)
		require.NoError(t, err)
		assert.Equal(t, last, cp, r.Name())
	}
}

// TestIssue34_LImportNAttendPasLesVues: the views fold the history in the
// background while the years are imported, and the import never waits for
// them before its end. Session 14's simulation waited, before each year
// but the second, for the fold begun a year earlier: the two alternated,
// each on one core while the other idled (twenty years, 590 s for some 340
// s of work on each core). Here the first fold holds until the log has
// all three years: the import must write them meanwhile.
func TestIssue34_LImportNAttendPasLesVues(t *testing.T) {
	ctx := context.Background()
	seule := t.TempDir()
	args := func(data string) []string {
		return []string{"simulate", "archive", "--annees", "3", "--tournois", "6", "--licencies", "300", "--seed", "4", "--data", data}
	}
	_, err := runArbitre(t, args(seule)...)
	require.NoError(t, err)
	store, err := sqlitestore.OpenDir(ctx, seule, sqlitestore.Options{})
	require.NoError(t, err)
	histoire, err := store.LastPosition(ctx)
	require.NoError(t, err)
	require.NoError(t, store.Close())

	var jusqua []uint64
	vuAvantDePlier := uint64(0)
	plierVues = func(ctx context.Context, store eventstore.Reader, runners []*projection.Runner, taille int) error {
		if jusqua = append(jusqua, store.(journalJusqua).fin); len(jusqua) == 1 {
			journal := store.(journalJusqua).Reader.(interface {
				LastPosition(context.Context) (uint64, error)
			})
			// Held until the three years are in the log, or long enough
			// that only a wait of the import explains their absence.
			assert.Eventually(t, func() bool {
				tete, err := journal.LastPosition(ctx)
				vuAvantDePlier = tete
				return err == nil && tete == histoire
			}, time.Minute, time.Millisecond, "the import of the years after the first waits for its fold")
		}
		return projection.RattraperEnsemble(ctx, store, runners, taille)
	}
	t.Cleanup(func() { plierVues = projection.RattraperEnsemble })
	data := t.TempDir()
	out, err := runArbitre(t, args(data)...)
	require.NoError(t, err)
	assert.Equal(t, histoire, vuAvantDePlier, "the whole history was imported while the first year was folded")
	// One fold a year, each up to that year's end.
	require.Len(t, jusqua, 3)
	assert.True(t, jusqua[0] < jusqua[1] && jusqua[1] < jusqua[2], jusqua)
	assert.Equal(t, histoire, jusqua[2])
	assert.Regexp(t, `(?s)année 2006 : 6 tournois.*\nannée 2007 : 6 tournois.*\nannée 2008 : 6 tournois`, out, "each year is reported once folded, in order")
	assert.Equal(t, evenementsDuMagasin(t, seule), evenementsDuMagasin(t, data))
}

// TestIssue34_UnPliQuiEchoueArreteLImport: a fold of the views that fails
// ends the command with its error (at the latest once the years are
// imported, when the import first waits for the views), and no history
// is reported written.
func TestIssue34_UnPliQuiEchoueArreteLImport(t *testing.T) {
	plierVues = func(context.Context, eventstore.Reader, []*projection.Runner, int) error {
		return errors.New("disque plein")
	}
	t.Cleanup(func() { plierVues = projection.RattraperEnsemble })
	out, err := runArbitre(t, "simulate", "archive", "--annees", "3", "--tournois", "6", "--licencies", "300", "--seed", "4", "--data", t.TempDir())
	require.Error(t, err)
	assert.Contains(t, err.Error(), "disque plein")
	assert.NotContains(t, out, "histoire de 3 ans")
}
