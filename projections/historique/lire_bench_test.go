package historique_test

import (
	"context"
	"database/sql"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"arbitre/domain/catalogue"
	"arbitre/projections/classique"
	"arbitre/projections/historique"
	"arbitre/projections/projection"
)

// requeteArchive is one of the five queries a federation asks its archive
// (cmd/arbitre/internal/charge's requetesArchive), read as the GraphQL
// resolvers read it.
type requeteArchive struct {
	nom  string
	lire func(ctx context.Context, l *historique.Lecteur, r *rand.Rand) error
}

// joueurBanc draws one of the players of tournoisAuHasard.
func joueurBanc(r *rand.Rand) string { return fmt.Sprintf("L%02d", r.IntN(20)) }

var requetesBanc = []requeteArchive{
	{"historique", func(ctx context.Context, l *historique.Lecteur, r *rand.Rand) error {
		j := joueurBanc(r)
		if _, _, err := l.JoueurDe(ctx, j); err != nil {
			return err
		}
		// Each game with its result, as the resolver reads the page.
		_, _, err := l.Participations(ctx, j, historique.Page{First: 100})
		return err
	}},
	{"faceAFace", func(ctx context.Context, l *historique.Lecteur, r *rand.Rand) error {
		j := joueurBanc(r)
		if _, _, err := l.JoueurDe(ctx, j); err != nil {
			return err
		}
		_, err := l.FaceAFace(ctx, j, joueurBanc(r))
		return err
	}},
	{"cotes", func(ctx context.Context, l *historique.Lecteur, r *rand.Rand) error {
		j := joueurBanc(r)
		if _, _, err := l.JoueurDe(ctx, j); err != nil {
			return err
		}
		_, err := l.Cotes(ctx, j)
		return err
	}},
	{"classementAnnuel", func(ctx context.Context, l *historique.Lecteur, r *rand.Rand) error {
		_, _, err := l.ClassementAnnuel(ctx, 2019+r.IntN(2), []historique.Kind{historique.KindDuplicate, historique.KindClassique}[r.IntN(2)], "", historique.Page{First: 100})
		return err
	}},
	{"resultatsClub", func(ctx context.Context, l *historique.Lecteur, r *rand.Rand) error {
		_, _, err := l.ClassementAnnuel(ctx, 2019+r.IntN(2), []historique.Kind{historique.KindDuplicate, historique.KindClassique}[r.IntN(2)],
			[]string{"Vichy", "Moulins", "Cusset", "Lyon"}[r.IntN(4)], historique.Page{First: 100})
		return err
	}},
}

// Fixed work of the benchmark: an archive of tournoisBanc tournaments
// folded, a batch of lotBanc more stored but not folded, and each
// operation's clientsBanc clients asking toursBanc rounds of the five
// queries.
const (
	tournoisBanc = 600
	lotBanc      = 300
	clientsBanc  = 4
	toursBanc    = 10
)

// BenchmarkIssue34_RequetesDeLArchive runs the five archive queries on a
// fixed archive through a read pool (projection.OpenReadDB, as the server
// reads), alone and while the archive's and the cotes' runners fold a
// fixed batch of imported tournaments in the same process (issue 34 item
// 1: every query's p99 during an import). An operation starts from the
// same copy of the views; it reports each query's latency quantiles over
// every operation.
func BenchmarkIssue34_RequetesDeLArchive(b *testing.B) {
	ctx := context.Background()
	reg, err := catalogue.Registre()
	require.NoError(b, err)
	store, db, runners := archiveVide(b)
	fichiers := tournoisAuHasard(b, tournoisBanc+lotBanc, 34)
	importer(b, store, runners, fichiers[:tournoisBanc]...)
	dir := filepath.Dir(dbPath(b, db))
	require.NoError(b, db.Close())
	modele := filepath.Join(b.TempDir(), "modele.db")
	copier(b, filepath.Join(dir, projection.FileName), modele)
	// The batch is stored, not folded: each operation's views fold it.
	importer(b, store, nil, fichiers[tournoisBanc:]...)

	for _, cas := range []struct {
		nom string
		pli bool
	}{{"seules", false}, {"pendantUnPli", true}} {
		b.Run(cas.nom, func(b *testing.B) {
			lat := make([][]time.Duration, len(requetesBanc))
			for i := 0; b.Loop(); i++ {
				b.StopTimer()
				vd := b.TempDir()
				path := filepath.Join(vd, projection.FileName)
				copier(b, modele, path)
				w, err := projection.OpenDB(path)
				require.NoError(b, err)
				journal := projection.Journal{Store: store, Registry: reg}
				cotes, err := classique.NewCotes(journal)
				require.NoError(b, err)
				hist, err := historique.NewProjection(journal)
				require.NoError(b, err)
				var rs []*projection.Runner
				for _, p := range []projection.Projection{hist, cotes} {
					r, err := projection.NewRunner(ctx, w, p, store)
					require.NoError(b, err)
					rs = append(rs, r)
				}
				lecture, err := projection.OpenReadDB(path)
				require.NoError(b, err)
				l := historique.LecteurDe(lecture)
				b.StartTimer()

				var pli sync.WaitGroup
				if cas.pli {
					pli.Go(func() {
						for _, r := range rs {
							_, err := r.CatchUp(ctx, nil)
							require.NoError(b, err)
						}
					})
				}
				var mu sync.Mutex
				var clients sync.WaitGroup
				for c := range clientsBanc {
					clients.Go(func() {
						r := rand.New(rand.NewPCG(uint64(i), uint64(c)))
						mes := make([][]time.Duration, len(requetesBanc))
						for range toursBanc {
							for k, q := range requetesBanc {
								debut := time.Now()
								require.NoError(b, q.lire(ctx, l, r))
								mes[k] = append(mes[k], time.Since(debut))
							}
						}
						mu.Lock()
						defer mu.Unlock()
						for k := range mes {
							lat[k] = append(lat[k], mes[k]...)
						}
					})
				}
				clients.Wait()
				pli.Wait()

				b.StopTimer()
				require.NoError(b, lecture.Close())
				require.NoError(b, w.Close())
				b.StartTimer()
			}
			for k, q := range requetesBanc {
				slices.Sort(lat[k])
				b.ReportMetric(float64(quantile(lat[k], 0.50).Microseconds()), q.nom+"-p50-µs")
				b.ReportMetric(float64(quantile(lat[k], 0.99).Microseconds()), q.nom+"-p99-µs")
			}
		})
	}
}

// quantile of sorted latencies.
func quantile(s []time.Duration, q float64) time.Duration {
	if len(s) == 0 {
		return 0
	}
	return s[min(len(s)-1, int(q*float64(len(s))))]
}

func copier(tb testing.TB, de, vers string) {
	tb.Helper()
	src, err := os.Open(de)
	require.NoError(tb, err)
	defer src.Close()
	dst, err := os.Create(vers)
	require.NoError(tb, err)
	_, err = io.Copy(dst, src)
	require.NoError(tb, err)
	require.NoError(tb, dst.Close())
}

// dbPath is the file of the database db holds open.
func dbPath(tb testing.TB, db *sql.DB) string {
	tb.Helper()
	var seq int
	var nom, fichier string
	require.NoError(tb, db.QueryRow(`PRAGMA database_list`).Scan(&seq, &nom, &fichier))
	return fichier
}
