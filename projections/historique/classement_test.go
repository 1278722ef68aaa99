package historique_test

import (
	"bytes"
	"context"
	"database/sql"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	darchive "arbitre/domain/archive"
	"arbitre/domain/catalogue"
	"arbitre/domain/classique/tournoiclassique"
	"arbitre/projections/historique"
	"arbitre/projections/projection"
)

// tournoisAuHasard writes n past tournaments of years 2019 and 2020, half
// duplicate (one game, scores on a coarse grid so that shares of the tops
// tie), half classique (one round, cotes drawn so that some tie), played
// by twenty players of four clubs, each playing under the club of the
// file.
func tournoisAuHasard(t testing.TB, n int, graine uint64) [][2]string {
	t.Helper()
	return tournoisDe(t, n, graine, 20, 0)
}

// tournoisDe is tournoisAuHasard played by licencies players, plus more
// players at each tournament.
func tournoisDe(t testing.TB, n int, graine uint64, licencies, plus int) [][2]string {
	t.Helper()
	r := rand.New(rand.NewPCG(graine, graine))
	clubs := []string{"Vichy", "Moulins", "Cusset", "Lyon"}
	var out [][2]string
	for k := range n {
		d := darchive.Document{Tournoi: fmt.Sprintf("t%d-%d", graine, k), Nom: fmt.Sprintf("Tournoi %d", k),
			Date: fmt.Sprintf("%d-%02d-%02d", 2019+r.IntN(2), 1+r.IntN(12), 1+r.IntN(28))}
		joueurs := r.Perm(licencies)[:plus+4+2*r.IntN(5)]
		if k%2 == 0 {
			d.Genre = darchive.GenreDuplicate
			top := 900
			scores := make([]int, len(joueurs))
			for i := range scores {
				scores[i] = 450 + 50*r.IntN(10)
			}
			for i, j := range joueurs {
				rang := 1
				for _, s := range scores {
					if s > scores[i] {
						rang++
					}
				}
				d.Duplicate = append(d.Duplicate, darchive.LigneDuplicate{Partie: d.Tournoi + "-1", Numero: 1,
					Licence: fmt.Sprintf("L%02d", j), Nom: fmt.Sprintf("Joueur %d", j), Club: clubs[r.IntN(len(clubs))], Serie: "A",
					Score: scores[i], Top: top, Rang: rang, Cumul: scores[i], TopCumul: top,
					Pourcentage: math.Round(float64(scores[i])*10000/float64(top)) / 100, RangGeneral: rang})
			}
		} else {
			d.Genre = darchive.GenreClassique
			e := tournoiclassique.ConfigParDefaut().Exempt
			d.Exempt = &e
			for i := 0; i < len(joueurs); i += 2 {
				a, b := fmt.Sprintf("L%02d", joueurs[i]), fmt.Sprintf("L%02d", joueurs[i+1])
				sa, sb := 300+10*r.IntN(10), 300+10*r.IntN(10)
				pa, pb := 1, 1
				switch {
				case sa > sb:
					pa, pb = 3, 1
				case sb > sa:
					pa, pb = 1, 3
				default:
					pa, pb = 2, 2
				}
				match := fmt.Sprintf("%s-1-%d", d.Tournoi, i)
				ca, cb := 1400+50*r.IntN(4), 1400+50*r.IntN(4)
				d.Classique = append(d.Classique,
					darchive.LigneClassique{Ronde: 1, Match: match, Licence: a, Nom: "Joueur " + a, Club: clubs[r.IntN(len(clubs))], Adversaire: b,
						Score: sa, ScoreAdversaire: sb, PointsDeMatch: pa, CoteAvant: ca, CoteApres: ca + 10*(pa-2)},
					darchive.LigneClassique{Ronde: 1, Match: match, Licence: b, Nom: "Joueur " + b, Club: clubs[r.IntN(len(clubs))], Adversaire: a,
						Score: sb, ScoreAdversaire: sa, PointsDeMatch: pb, CoteAvant: cb, CoteApres: cb + 10*(pb-2)})
			}
		}
		var csv bytes.Buffer
		require.NoError(t, darchive.EcrireCSV(&csv, d))
		out = append(out, [2]string{d.Tournoi + ".csv", csv.String()})
	}
	return out
}

// classementCalcule ranks a year from scratch, from the players' lines of
// hist_annees, as the ranking is defined: duplicate by share of the tops,
// classique by cote then share of the points de match, ties sharing a
// rank, the licence ordering equal rows.
func classementCalcule(t *testing.T, db *sql.DB, annee int, kind historique.Kind, club string) []historique.Bilan {
	t.Helper()
	rows, err := db.Query(`SELECT a.joueur, COALESCE(j.nom, ''), a.club, a.parties, a.points, a.maximum, a.cote
		FROM hist_annees a LEFT JOIN hist_joueurs j ON j.joueur = a.joueur WHERE a.annee = ? AND a.kind = ?`, annee, kind)
	require.NoError(t, err)
	var bs []historique.Bilan
	for rows.Next() {
		var b historique.Bilan
		require.NoError(t, rows.Scan(&b.Joueur, &b.Nom, &b.Club, &b.Parties, &b.Points, &b.Maximum, &b.Cote))
		bs = append(bs, b)
	}
	require.NoError(t, rows.Close())
	part := func(b historique.Bilan) float64 { return float64(b.Points) / float64(max(b.Maximum, 1)) }
	egal := func(a, b historique.Bilan) bool {
		return part(a) == part(b) && (kind == historique.KindDuplicate || a.Cote == b.Cote)
	}
	slices.SortFunc(bs, func(a, b historique.Bilan) int {
		if kind == historique.KindClassique && a.Cote != b.Cote {
			return b.Cote - a.Cote
		}
		if pa, pb := part(a), part(b); pa != pb {
			if pa > pb {
				return -1
			}
			return 1
		}
		return strings.Compare(a.Joueur, b.Joueur)
	})
	var out []historique.Bilan
	for i := range bs {
		bs[i].Numero, bs[i].Rang = uint64(i+1), i+1
		if i > 0 && egal(bs[i], bs[i-1]) {
			bs[i].Rang = bs[i-1].Rang
		}
		if club == "" || bs[i].Club == club {
			out = append(out, bs[i])
		}
	}
	return out
}

// classementLu reads a year's ranking page after page (three rows each).
func classementLu(t *testing.T, db *sql.DB, annee int, kind historique.Kind, club string) []historique.Bilan {
	t.Helper()
	var out []historique.Bilan
	p := historique.Page{First: 3}
	for {
		bs, plus, err := historique.LecteurDe(db).ClassementAnnuel(context.Background(), annee, kind, club, p)
		require.NoError(t, err)
		out = append(out, bs...)
		if !plus {
			return out
		}
		p.After = bs[len(bs)-1].Numero
	}
}

// TestIssue34_ClassementRangeEgalAuCalculComplet: the ranking the import
// keeps (updated at each batch of events, whatever the batch holds: one
// tournament, several, two years) is the one computed from scratch from
// the players' years, nationally and for each club, after each import and
// after a rebuild; a year no import touched keeps its ranking.
func TestIssue34_ClassementRangeEgalAuCalculComplet(t *testing.T) {
	store, db, runners := archiveVide(t)
	fichiers := tournoisAuHasard(t, 24, 7)
	verifier := func(quand string) {
		t.Helper()
		for _, annee := range []int{2019, 2020} {
			for _, kind := range []historique.Kind{historique.KindDuplicate, historique.KindClassique} {
				for _, club := range []string{"", "Vichy", "Moulins", "Cusset", "Lyon"} {
					attendu := classementCalcule(t, db, annee, kind, club)
					assert.Equal(t, attendu, classementLu(t, db, annee, kind, club), "%s: %d %s %q", quand, annee, kind, club)
				}
			}
		}
	}
	// One tournament a batch, then five in one batch, then the rest.
	for i, f := range fichiers[:8] {
		importer(t, store, runners, f)
		verifier(fmt.Sprintf("after file %d", i))
	}
	importer(t, store, runners, fichiers[8:13]...)
	verifier("after five files at once")
	importer(t, store, runners, fichiers[13:]...)
	verifier("after the rest")
	bs, _, err := historique.LecteurDe(db).ClassementAnnuel(context.Background(), 2019, historique.KindDuplicate, "", historique.Page{})
	require.NoError(t, err)
	require.NotEmpty(t, bs)
	reconstruitCommeVivant(t, db, runners)
	verifier("after a rebuild")
}

// TestIssue34_ClassementDUnMagasinDAvantLeClassementRange: views whose
// years were added up before the ranking was kept (hist_classement empty)
// get their ranking when the projection opens, the one computed from
// scratch.
func TestIssue34_ClassementDUnMagasinDAvantLeClassementRange(t *testing.T) {
	store, db, runners := archiveVide(t)
	importer(t, store, runners, tournoisAuHasard(t, 6, 3)...)
	attendu := classementCalcule(t, db, 2019, historique.KindDuplicate, "")
	require.NotEmpty(t, attendu)
	_, err := db.Exec(`DELETE FROM hist_classement`)
	require.NoError(t, err)
	assert.Empty(t, classementLu(t, db, 2019, historique.KindDuplicate, ""))
	reg, err := catalogue.Registre()
	require.NoError(t, err)
	p, err := historique.NewProjection(projection.Journal{Store: store, Registry: reg})
	require.NoError(t, err)
	_, err = projection.NewRunner(context.Background(), db, p, store)
	require.NoError(t, err)
	assert.Equal(t, attendu, classementLu(t, db, 2019, historique.KindDuplicate, ""))
	assert.Equal(t, classementCalcule(t, db, 2020, historique.KindClassique, "Lyon"), classementLu(t, db, 2020, historique.KindClassique, "Lyon"))
}

// TestIssue34_ReconstructionClasseChaqueAnneeUneFois: a rebuild (the
// runner's own, page after page, or every read model's in one pass) ranks
// each year once, at its end, rather than again at each page that adds
// to it; the rows it gives are the live ones, and the rankings those
// computed from scratch.
func TestIssue34_ReconstructionClasseChaqueAnneeUneFois(t *testing.T) {
	ctx := context.Background()
	store, db, runners := archiveVide(t)
	importer(t, store, runners, tournoisAuHasard(t, 1500, 11)...)
	require.Greater(t, projection.Lecture(runners, historique.Name).Position(), uint64(projection.RebuildPage),
		"the years span several pages of a rebuild")
	_, err := db.Exec(`CREATE TABLE lignes_classees (n INTEGER NOT NULL); INSERT INTO lignes_classees VALUES (0);
		CREATE TRIGGER classee AFTER INSERT ON hist_classement BEGIN UPDATE lignes_classees SET n = n + 1; END`)
	require.NoError(t, err)
	reg, err := catalogue.Registre()
	require.NoError(t, err)
	for _, c := range []struct {
		nom         string
		reconstruir func() error
	}{
		{"the runner's rebuild", func() error {
			_, err := projection.Lecture(runners, historique.Name).Rebuild(ctx, nil)
			return err
		}},
		{"every read model in one pass", func() error {
			_, err := projection.RebuildAll(ctx, store, reg, runners, nil)
			return err
		}},
	} {
		t.Run(c.nom, func(t *testing.T) {
			_, err = db.Exec(`UPDATE lignes_classees SET n = 0`)
			require.NoError(t, err)
			live, err := projection.Dump(ctx, db)
			require.NoError(t, err)
			require.NoError(t, c.reconstruir())
			var classees, lignes int
			require.NoError(t, db.QueryRow(`SELECT n FROM lignes_classees`).Scan(&classees))
			_, err = db.Exec(`UPDATE lignes_classees SET n = 0`)
			require.NoError(t, err)
			require.NoError(t, db.QueryRow(`SELECT count(*) FROM hist_classement`).Scan(&lignes))
			require.NotZero(t, lignes)
			assert.Equal(t, lignes, classees, "each year's ranking written once")
			rebuilt, err := projection.Dump(ctx, db)
			require.NoError(t, err)
			assert.Equal(t, string(live), string(rebuilt))
			for _, annee := range []int{2019, 2020} {
				for _, kind := range []historique.Kind{historique.KindDuplicate, historique.KindClassique} {
					assert.Equal(t, classementCalcule(t, db, annee, kind, ""), classementLu(t, db, annee, kind, ""), "%d %s", annee, kind)
				}
			}
		})
	}
}

// TestIssue34_ClassementAJourApresChaqueImportHorsMasse: out of a bulk a
// ranking read after an import's files are folded counts them, after a
// bulk ended as before any; a bulk stopped before its end (no FinDeMasse)
// is ended by the projection's next opening, its years ranked.
func TestIssue34_ClassementAJourApresChaqueImportHorsMasse(t *testing.T) {
	ctx := context.Background()
	store, db, runners := archiveVide(t)
	hist := projection.Lecture(runners, historique.Name)
	fichiers := tournoisAuHasard(t, 16, 5)
	aJour := func(quand string) {
		t.Helper()
		for _, annee := range []int{2019, 2020} {
			for _, kind := range []historique.Kind{historique.KindDuplicate, historique.KindClassique} {
				attendu := classementCalcule(t, db, annee, kind, "")
				require.NotEmpty(t, attendu, "%s: %d %s", quand, annee, kind)
				assert.Equal(t, attendu, classementLu(t, db, annee, kind, ""), "%s: %d %s", quand, annee, kind)
			}
		}
	}
	require.NoError(t, hist.CommencerMasse(ctx))
	importer(t, store, runners, fichiers[:8]...)
	require.NoError(t, hist.FinirMasse(ctx))
	aJour("after a bulk")
	for i, f := range fichiers[8:12] {
		importer(t, store, runners, f)
		aJour(fmt.Sprintf("after file %d out of a bulk", i))
	}

	require.NoError(t, hist.CommencerMasse(ctx))
	importer(t, store, runners, fichiers[12:]...)
	reg, err := catalogue.Registre()
	require.NoError(t, err)
	p, err := historique.NewProjection(projection.Journal{Store: store, Registry: reg})
	require.NoError(t, err)
	_, err = projection.NewRunner(ctx, db, p, store)
	require.NoError(t, err)
	aJour("after the opening that ends a stopped bulk")
	importer(t, store, runners, tournoisAuHasard(t, 2, 6)...)
	aJour("after a file once the stopped bulk is ended")
}
