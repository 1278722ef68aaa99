package historique_test

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	darchive "arbitre/domain/archive"
	"arbitre/domain/archive/archivetest"
	"arbitre/domain/catalogue"
	"arbitre/domain/eventstore"
	"arbitre/domain/eventstore/repository"
	"arbitre/domain/eventstore/sqlitestore"
	"arbitre/domain/eventstore/streamname"
	"arbitre/projections/historique"
	"arbitre/projections/projection"
)

// Two past tournaments: a classique one in 2018 where L1 (who played the
// live duplicate D1) met J0001 of the live classique C1, and a duplicate
// game in 2019.
const (
	classique2018 = "tournoi;nom_tournoi;date;ronde;match;licence;nom;club;adversaire;score;score_adversaire;points_de_match;cote_avant;cote_apres\n" +
		"lyon-2018;Open de Lyon;2018-03-10;1;lyon-2018-1;L1;Joueur L1;Lyon;J0001;420;380;3;1500;1512\n" +
		"lyon-2018;Open de Lyon;2018-03-10;1;lyon-2018-1;J0001;Joueur 1;;L1;380;420;1;1450;1438\n"
	duplicate2019 = "tournoi;nom_tournoi;date;partie;numero;licence;nom;club;serie;score;top;rang;cumul;top_cumul;pourcentage;rang_general\n" +
		"vichy-2019;Festival de Vichy;2019-05-04;vichy-2019-1;1;L1;Joueur L1;Vichy;A;900;920;1;900;920;97,83;1\n" +
		"vichy-2019;Festival de Vichy;2019-05-04;vichy-2019-1;1;L2;Joueur L2;Cusset;B;850;920;2;850;920;92,39;2\n"
)

// importer imports each file (name, content) into the archive, in order,
// and brings the read models up to date.
func importer(t testing.TB, store eventstore.Store, runners []*projection.Runner, fichiers ...[2]string) {
	t.Helper()
	ctx := context.Background()
	reg, err := catalogue.Registre()
	require.NoError(t, err)
	for _, f := range fichiers {
		_, err := darchive.Importer(ctx, repository.Streams{Store: store, Registry: reg}, f[0], []byte(f[1]), eventstore.Metadata{Actor: "test"})
		require.NoError(t, err)
	}
	for _, r := range runners {
		_, err := r.CatchUp(ctx, nil)
		require.NoError(t, err)
	}
}

// TestArchive_Art2_2_ImportDansLHistorique: the cotes of classique §2.2 and
// the rest of imported past tournaments reach the
// archive like live ones: tournaments dated as the file says, players,
// their games with their result, head-to-head, and the cote history in
// the order of the dates; a rebuild gives the same rows.
func TestArchive_Art2_2_ImportDansLHistorique(t *testing.T) {
	ctx := context.Background()
	store, db, runners := archive(t)
	// N1's club in 2020, then in 2017: the older file does not replace it.
	nouveau := func(tournoi, date, club string) string {
		return duplicate2019[:strings.Index(duplicate2019, "\n")+1] +
			tournoi + ";Simultané;" + date + ";" + tournoi + "-1;1;N1;Nouveau;" + club + ";C;700;920;1;700;920;76,09;1\n"
	}
	importer(t, store, runners, [2]string{"lyon.csv", classique2018}, [2]string{"vichy.csv", duplicate2019},
		[2]string{"s2020.csv", nouveau("s2020", "2020-01-11", "Vichy")}, [2]string{"s2017.csv", nouveau("s2017", "2017-01-14", "Moulins")})

	ts, _, err := historique.LecteurDe(db).Tournois(ctx, historique.Page{})
	require.NoError(t, err)
	require.Len(t, ts, 6)
	lyon, ok, err := historique.LecteurDe(db).TournoiDe(ctx, "lyon-2018")
	require.NoError(t, err)
	require.True(t, ok)
	assert.Equal(t, historique.KindClassique, lyon.Kind)
	assert.Equal(t, time.Date(2018, 3, 10, 0, 0, 0, 0, time.UTC), lyon.OuvertLe)
	assert.Equal(t, lyon.OuvertLe, lyon.ClosLe, "a past classique tournament is closed")

	j, _, err := historique.LecteurDe(db).JoueurDe(ctx, "L1")
	require.NoError(t, err)
	assert.Equal(t, historique.Joueur{ID: "L1", Nom: "Joueur L1", Club: "Club"}, j, "an import does not replace a live registration's club")
	j, _, err = historique.LecteurDe(db).JoueurDe(ctx, "N1")
	require.NoError(t, err)
	assert.Equal(t, historique.Joueur{ID: "N1", Nom: "Nouveau", Club: "Vichy"}, j, "the club of the latest file by date")
	parts, _, err := historique.LecteurDe(db).Participations(ctx, "L1", historique.Page{})
	require.NoError(t, err)
	var vus []string
	for _, p := range parts {
		vus = append(vus, p.Partie)
	}
	assert.Equal(t, []string{"D1-1", "lyon-2018-1", "vichy-2019-1"}, vus)
	parts, _, err = historique.LecteurDe(db).Participations(ctx, "L2", historique.Page{})
	require.NoError(t, err)
	require.Len(t, parts, 2)
	assert.Equal(t, "vichy-2019-1", parts[1].Partie)
	assert.Equal(t, &historique.Resultat{Score: 850, Top: 920, Rang: 2}, parts[1].Resultat)
	assert.Nil(t, parts[0].Resultat, "a live game's result is the standings'")

	h2h, err := historique.LecteurDe(db).FaceAFace(ctx, "J0001", "L1")
	require.NoError(t, err)
	require.Len(t, h2h, 1)
	assert.Equal(t, [2]string{"L1", "J0001"}, h2h[0].Joueurs)
	assert.Equal(t, [2]int{420, 380}, h2h[0].Scores)
	assert.Equal(t, [2]int{3, 1}, h2h[0].PointsDeMatch, "the second line completes the match")

	cotes, err := historique.LecteurDe(db).Cotes(ctx, "J0001")
	require.NoError(t, err)
	require.Len(t, cotes, 2, "the imported 2018 cote, then the live C1's")
	assert.Equal(t, historique.Cote{Tournoi: "lyon-2018", Le: lyon.ClosLe, Avant: 1450, Apres: 1438,
		Politique: historique.PolitiqueImport, Version: historique.VersionImport}, cotes[0])
	assert.Equal(t, "C1", cotes[1].Tournoi)

	reconstruitCommeVivant(t, db, runners)
}

// TestArchive_TournoiJoueApresUnImportDeMemeID: a tournament and a game
// created live with the ids of an imported past tournament do not stop the
// archive (the imported rows stay); the live game's players are in it.
func TestArchive_TournoiJoueApresUnImportDeMemeID(t *testing.T) {
	ctx := context.Background()
	store, db, runners := archive(t)
	reg, err := catalogue.Registre()
	require.NoError(t, err)
	_, err = darchive.Importer(ctx, repository.Streams{Store: store, Registry: reg}, "d2.csv",
		[]byte(strings.ReplaceAll(duplicate2019, "vichy-2019", "D2")), eventstore.Metadata{Actor: "test"})
	require.NoError(t, err)
	jouerPartie(t, store, reg, "D2", "Open joué ici", []string{"L7"}, 6)
	for _, r := range runners {
		_, err := r.CatchUp(ctx, nil)
		require.NoError(t, err, "the archive goes on")
	}
	d2, _, err := historique.LecteurDe(db).TournoiDe(ctx, "D2")
	require.NoError(t, err)
	assert.Equal(t, "Festival de Vichy", d2.Nom, "the imported row stays")
	parts, _, err := historique.LecteurDe(db).Participations(ctx, "L7", historique.Page{})
	require.NoError(t, err)
	require.Len(t, parts, 1)
	assert.Equal(t, "D2-1", parts[0].Partie)
}

// TestArchive_CoteConnueLaPlusRecente: the cote a registration without
// one takes (docs/archive.md) is the latest by date the archive knows: an
// imported tournament's for a player who played none here (L1), the live
// tournament's when it is later than the file (J0001), a later file's when
// it is later than the live one; none for a player never rated.
func TestArchive_CoteConnueLaPlusRecente(t *testing.T) {
	ctx := context.Background()
	store, db, runners := archive(t)
	importer(t, store, runners, [2]string{"lyon.csv", classique2018})
	connues := historique.LecteurDe(db)
	cote := func(joueur string) (int, bool) {
		t.Helper()
		c, ok, err := connues.CoteConnue(ctx, joueur)
		require.NoError(t, err)
		return c, ok
	}
	c, ok := cote("L1")
	assert.True(t, ok)
	assert.Equal(t, 1512, c, "the imported cote: L1 played no classique tournament here")
	vivantes, err := historique.LecteurDe(db).Cotes(ctx, "J0001")
	require.NoError(t, err)
	require.Len(t, vivantes, 2)
	c, _ = cote("J0001")
	assert.Equal(t, vivantes[1].Apres, c, "the live C1 closed after the 2018 file")
	_, ok = cote("L2")
	assert.False(t, ok, "L2 played duplicate only")

	importer(t, store, runners, [2]string{"plus-tard.csv", strings.NewReplacer("lyon-2018", "lyon-2099", "2018-03-10", "2099-03-10").Replace(classique2018)})
	c, _ = cote("J0001")
	assert.Equal(t, 1438, c, "a file dated after the live tournament")
}

// TestIssue34_ImportDUneLigneParEvenementMemesVues: a store whose imports
// were recorded one event per line, before the columns, gives the same
// archive as the same files imported now: players, games, results,
// meetings and cotes (positions aside: the columns take fewer events).
func TestIssue34_ImportDUneLigneParEvenementMemesVues(t *testing.T) {
	ctx := context.Background()
	reg, err := catalogue.Registre()
	require.NoError(t, err)
	fichiers := [][2]string{{"lyon.csv", classique2018}, {"vichy.csv", duplicate2019}, {"vichy2.csv", duplicateDeuxParties}}
	store, db, runners := archiveVide(t)
	importer(t, store, runners, fichiers...)
	ancien, dbAncien, runnersAncien := archiveVide(t)
	for _, f := range fichiers {
		evs := archivetest.EvenementsParLigne(t, f[0], []byte(f[1]))
		o := evs[0].(darchive.ImportOuvert)
		stream, err := streamname.ArchiveStream(string(o.Genre), o.Tournoi)
		require.NoError(t, err)
		require.NoError(t, repository.Streams{Store: ancien, Registry: reg}.Save(ctx, stream, 0, evs, eventstore.Metadata{Actor: "test"}))
	}
	importer(t, ancien, runnersAncien)
	assert.Equal(t, vue(t, db), vue(t, dbAncien))
	reconstruitCommeVivant(t, dbAncien, runnersAncien)
}

// archiveVide is a store that holds nothing, with its archive's views.
func archiveVide(t testing.TB) (eventstore.Store, *sql.DB, []*projection.Runner) {
	t.Helper()
	dir := t.TempDir()
	store, err := sqlitestore.OpenDir(context.Background(), dir, sqlitestore.Options{})
	require.NoError(t, err)
	t.Cleanup(func() { store.Close() })
	db, runners := vues(t, store, dir)
	return store, db, runners
}

// duplicateDeuxParties is a duplicate tournament of two games.
const duplicateDeuxParties = "tournoi;nom_tournoi;date;partie;numero;licence;nom;club;serie;score;top;rang;cumul;top_cumul;pourcentage;rang_general\n" +
	"vichy-2020;Festival de Vichy;2020-05-04;v20-1;1;L1;Joueur L1;Vichy;A;900;920;1;1800;1840;97,83;1\n" +
	"vichy-2020;Festival de Vichy;2020-05-04;v20-2;2;L1;Joueur L1;Vichy;A;900;920;1;1800;1840;97,83;1\n" +
	"vichy-2020;Festival de Vichy;2020-05-04;v20-1;1;L9;Joueur L9;Cusset;B;850;920;2;1700;1840;92,39;2\n" +
	"vichy-2020;Festival de Vichy;2020-05-04;v20-2;2;L9;Joueur L9;Cusset;B;850;920;2;1700;1840;92,39;2\n"

// vue is what the archive answers about the imported players, positions
// aside, and the years' rankings.
func vue(t *testing.T, db *sql.DB) []any {
	t.Helper()
	ctx := context.Background()
	var out []any
	for _, j := range []string{"L1", "L2", "L9", "J0001"} {
		joueur, _, err := historique.LecteurDe(db).JoueurDe(ctx, j)
		require.NoError(t, err)
		out = append(out, joueur)
		parts, _, err := historique.LecteurDe(db).Participations(ctx, j, historique.Page{})
		require.NoError(t, err)
		for _, p := range parts {
			p.Position = 0
			if p.Rencontre != nil {
				rc := *p.Rencontre
				rc.Position = 0
				p.Rencontre = &rc
			}
			out = append(out, p)
		}
		cotes, err := historique.LecteurDe(db).Cotes(ctx, j)
		require.NoError(t, err)
		out = append(out, cotes)
	}
	h2h, err := historique.LecteurDe(db).FaceAFace(ctx, "L1", "J0001")
	require.NoError(t, err)
	for _, r := range h2h {
		r.Position = 0
		out = append(out, r)
	}
	for _, id := range []string{"lyon-2018", "vichy-2019", "vichy-2020"} {
		tr, _, err := historique.LecteurDe(db).TournoiDe(ctx, id)
		require.NoError(t, err)
		tr.Position = 0
		parties, _, err := historique.LecteurDe(db).Parties(ctx, id, historique.Page{})
		require.NoError(t, err)
		for i := range parties {
			parties[i].Position = 0
		}
		out = append(out, tr, parties)
	}
	for _, annee := range []int{2018, 2019, 2020} {
		for _, kind := range []historique.Kind{historique.KindDuplicate, historique.KindClassique} {
			bs, _, err := historique.LecteurDe(db).ClassementAnnuel(ctx, annee, kind, "", historique.Page{})
			require.NoError(t, err)
			club, _, err := historique.LecteurDe(db).ClassementAnnuel(ctx, annee, kind, "Vichy", historique.Page{})
			require.NoError(t, err)
			out = append(out, bs, club)
		}
	}
	return out
}

// TestIssue34_ClassementAnnuelEtResultatsDUnClub: a year's national
// ranking adds up each player's games of the year (duplicate: his share
// of the tops; classique: his cote after the year's last tournament, by
// date), ties sharing a rank; a club's results are its players' lines of
// it, with their national rank; another year is apart; pages follow.
func TestIssue34_ClassementAnnuelEtResultatsDUnClub(t *testing.T) {
	ctx := context.Background()
	store, db, runners := archiveVide(t)
	// L2 plays twice in 2019 (850 + 910 of 1,840), L1 once (900 of 920),
	// L3 once in 2020; N1 ties with L1.
	autre2019 := strings.NewReplacer("vichy-2019", "moulins-2019", "2019-05-04", "2019-09-01", ";L1;Joueur L1;Vichy;A;900;920;1;900;920;97,83;1",
		";N1;Nouveau;Moulins;A;900;920;1;900;920;97,83;1", ";850;920;2;850;920;92,39;2", ";910;920;1;910;920;98,91;1").Replace(duplicate2019)
	autre2019 = strings.Replace(autre2019, "Cusset", "Moulins", 1)
	l3 := strings.NewReplacer("vichy-2019", "v2020", "2019-05-04", "2020-01-01").Replace(duplicate2019)
	lyon2019 := strings.NewReplacer("lyon-2018", "lyon-2019", "2018-03-10", "2019-03-10").Replace(classique2018)
	lyon2019bis := strings.NewReplacer("lyon-2018", "lyon-2019b", "2018-03-10", "2019-01-10", ";1512\n", ";1600\n").Replace(classique2018)
	importer(t, store, runners, [2]string{"a.csv", duplicate2019}, [2]string{"b.csv", autre2019}, [2]string{"c.csv", l3},
		[2]string{"d.csv", lyon2019}, [2]string{"e.csv", lyon2019bis})

	rangs := func(bs []historique.Bilan) (out []string) {
		for _, b := range bs {
			out = append(out, fmt.Sprintf("%d %s %s %d/%d %d", b.Rang, b.Joueur, b.Club, b.Points, b.Maximum, b.Cote))
		}
		return out
	}
	bs, plus, err := historique.LecteurDe(db).ClassementAnnuel(ctx, 2019, historique.KindDuplicate, "", historique.Page{})
	require.NoError(t, err)
	assert.False(t, plus)
	assert.Equal(t, []string{"1 L1 Vichy 900/920 0", "1 N1 Moulins 900/920 0", "3 L2 Moulins 1760/1840 0"}, rangs(bs),
		"the share of the tops; L2's club of his latest tournament by date")
	bs, plus, err = historique.LecteurDe(db).ClassementAnnuel(ctx, 2019, historique.KindDuplicate, "", historique.Page{First: 2})
	require.NoError(t, err)
	assert.True(t, plus)
	suite, _, err := historique.LecteurDe(db).ClassementAnnuel(ctx, 2019, historique.KindDuplicate, "", historique.Page{After: bs[1].Numero})
	require.NoError(t, err)
	assert.Equal(t, []string{"3 L2 Moulins 1760/1840 0"}, rangs(suite))

	club, _, err := historique.LecteurDe(db).ClassementAnnuel(ctx, 2019, historique.KindDuplicate, "Moulins", historique.Page{})
	require.NoError(t, err)
	assert.Equal(t, []string{"1 N1 Moulins 900/920 0", "3 L2 Moulins 1760/1840 0"}, rangs(club))

	cl, _, err := historique.LecteurDe(db).ClassementAnnuel(ctx, 2019, historique.KindClassique, "", historique.Page{})
	require.NoError(t, err)
	assert.Equal(t, []string{"1 L1 Lyon 6/6 1512", "2 J0001  2/6 1438"}, rangs(cl), "the cote of the year's last tournament by date, not the last imported")
	autre, _, err := historique.LecteurDe(db).ClassementAnnuel(ctx, 2020, historique.KindDuplicate, "", historique.Page{})
	require.NoError(t, err)
	assert.Len(t, autre, 2)
	reconstruitCommeVivant(t, db, runners)
}

// TestIssue34_LecturesDeLArchiveParIndex: what the archive's queries look
// up by (a tournament's games, a player's games with their meetings and
// results, a player's imported cotes, a year's players) is found through
// an index, not by reading the whole table: with twenty years of tournaments (six million matches) a
// scan per row made tournois(first: 100) take seconds.
func TestIssue34_LecturesDeLArchiveParIndex(t *testing.T) {
	_, db, _ := archiveVide(t)
	for _, q := range []string{
		`SELECT COUNT(*) FROM hist_parties WHERE tournoi = 'x' AND kind = 'duplicate'`,
		`SELECT * FROM hist_parties WHERE tournoi = 'x' AND position > 0 ORDER BY position`,
		strings.NewReplacer("?1", "'classique'", "?2", "'x'", "?3", "0").Replace(historique.RequeteParticipations),
		`SELECT * FROM hist_cotes_importees WHERE joueur = 'x'`,
		`SELECT * FROM hist_annees WHERE annee = 2019 AND kind = 'duplicate'`,
	} {
		rows, err := db.Query(`EXPLAIN QUERY PLAN ` + q)
		require.NoError(t, err)
		var plan []string
		for rows.Next() {
			var id, parent, notused int
			var detail string
			require.NoError(t, rows.Scan(&id, &parent, &notused, &detail))
			plan = append(plan, detail)
		}
		require.NoError(t, rows.Close())
		assert.NotContains(t, strings.Join(plan, "; "), "SCAN", q)
	}
}
