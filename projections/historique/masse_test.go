package historique_test

import (
	"context"
	"database/sql"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	darchive "arbitre/domain/archive"
	"arbitre/domain/catalogue"
	"arbitre/domain/duplicate"
	"arbitre/domain/eventstore"
	"arbitre/domain/eventstore/repository"
	"arbitre/projections/historique"
	"arbitre/projections/projection"
)

// ajouterPartieAvecRetard appends a live duplicate game of A and B where C
// arrives late, is withdrawn, and arrives again, then D arrives.
func ajouterPartieAvecRetard(t *testing.T, store eventstore.Store) {
	t.Helper()
	ctx := context.Background()
	reg, err := catalogue.Registre()
	require.NoError(t, err)
	cfg, err := duplicate.Config{TempsParCoup: time.Minute}.Valider()
	require.NoError(t, err)
	for n, e := range []any{duplicate.PartieCreee{Partie: "D9-1", Tournoi: "D9", Numero: 1, Config: cfg, Joueurs: []string{"L01", "L02"}},
		duplicate.JoueurArrive{Licence: "L03", PremierCoup: 2}, duplicate.JoueurRetire{Licence: "L03", Motif: "licence mal tapée"},
		duplicate.JoueurArrive{Licence: "L03", PremierCoup: 3}, duplicate.JoueurArrive{Licence: "L04", PremierCoup: 3}} {
		d, err := reg.NewEventData(uuid.NewSHA1(uuid.NameSpaceOID, fmt.Appendf(nil, "partie-D9-1/%d", n)), e, eventstore.Metadata{Actor: "test"})
		require.NoError(t, err)
		_, err = store.Append(ctx, "partie-D9-1", eventstore.Any, d)
		require.NoError(t, err)
	}
}

// TestIssue34_MasseVerseLesParticipationsDansLOrdreDeLaCle: during a bulk
// the participations (keyed by player, each of whom plays all along the
// log) reach hist_participations sorted by their key — one sorted run at
// the bulk's end, and one before a late player's withdrawal, which reads
// them — instead of one row at a random place of the table at each line;
// the rows are the live ones, by the runner's rebuild, every read model's
// pass, and a bulk that stopped before its end and was ended by the next
// opening.
func TestIssue34_MasseVerseLesParticipationsDansLOrdreDeLaCle(t *testing.T) {
	ctx := context.Background()
	store, db, runners := archiveVide(t)
	fichiers := tournoisAuHasard(t, 40, 9)
	importer(t, store, runners, fichiers[:20]...)
	ajouterPartieAvecRetard(t, store)
	importer(t, store, runners, fichiers[20:30]...)
	// The trigger and its table are the connection's own (temp): the
	// dumps compared do not see them.
	_, err := db.Exec(`CREATE TEMP TABLE ordre (n INTEGER PRIMARY KEY, joueur TEXT, position INTEGER);
		CREATE TEMP TRIGGER participation AFTER INSERT ON main.hist_participations BEGIN INSERT INTO ordre (joueur, position) VALUES (new.joueur, new.position); END`)
	require.NoError(t, err)
	type cle struct {
		joueur   string
		position int64
	}
	// runs are the sorted runs in which the rows were inserted.
	runs := func(t *testing.T) int {
		t.Helper()
		rows, err := db.Query(`SELECT joueur, position FROM ordre ORDER BY n`)
		require.NoError(t, err)
		defer rows.Close()
		n := 0
		var avant *cle
		for rows.Next() {
			var c cle
			require.NoError(t, rows.Scan(&c.joueur, &c.position))
			if avant == nil || c.joueur < avant.joueur || c.joueur == avant.joueur && c.position < avant.position {
				n++
			}
			avant = &c
		}
		require.NoError(t, rows.Err())
		_, err = db.Exec(`DELETE FROM ordre`)
		require.NoError(t, err)
		return n
	}
	reg, err := catalogue.Registre()
	require.NoError(t, err)
	hist := projection.Lecture(runners, historique.Name)
	for _, c := range []struct {
		nom         string
		reconstruir func() error
	}{
		{"the runner's rebuild", func() error {
			_, err := hist.Rebuild(ctx, nil)
			return err
		}},
		{"every read model in one pass", func() error {
			_, err := projection.RebuildAll(ctx, store, reg, runners, nil)
			return err
		}},
		{"a bulk ended by the next opening", func() error {
			if err := hist.CommencerMasse(ctx); err != nil {
				return err
			}
			importer(t, store, runners, fichiers[30:]...)
			p, err := historique.NewProjection(projection.Journal{Store: store, Registry: reg})
			if err != nil {
				return err
			}
			_, err = projection.NewRunner(ctx, db, p, store)
			return err
		}},
	} {
		t.Run(c.nom, func(t *testing.T) {
			require.NoError(t, c.reconstruir())
			assert.LessOrEqual(t, runs(t), 2, "one sorted run before the withdrawal, one at the end")
			var restees int
			require.NoError(t, db.QueryRow(`SELECT count(*) FROM hist_participations_masse`).Scan(&restees))
			assert.Zero(t, restees)
			vivant, _ := vues(t, store, t.TempDir())
			attendu, err := projection.Dump(ctx, vivant)
			require.NoError(t, err)
			assert.Contains(t, string(attendu), "L03")
			rebuilt, err := projection.Dump(ctx, db)
			require.NoError(t, err)
			assert.Equal(t, string(attendu), string(rebuilt))
		})
	}
}

// TestIssue34_MasseTrieSesParticipationsEnChemin: a bulk sorts its
// participations into hist_participations as soon as it holds a given
// number of them, at the end of the batch that reaches it, so that the
// pages they take in the file are taken again by the next ones rather
// than left empty at its end; the rows are the live ones.
func TestIssue34_MasseTrieSesParticipationsEnChemin(t *testing.T) {
	ctx := context.Background()
	store, _, _ := archiveVide(t)
	reg, err := catalogue.Registre()
	require.NoError(t, err)
	p, err := historique.NewProjection(projection.Journal{Store: store, Registry: reg})
	require.NoError(t, err)
	const enAttente = 40
	historique.FixerParticipationsEnAttente(p, enAttente)
	db, err := projection.OpenDB(filepath.Join(t.TempDir(), projection.FileName))
	require.NoError(t, err)
	t.Cleanup(func() { db.Close() })
	r, err := projection.NewRunner(ctx, db, p, store)
	require.NoError(t, err)
	require.NoError(t, r.CommencerMasse(ctx))
	for i, f := range tournoisAuHasard(t, 30, 4) {
		importer(t, store, []*projection.Runner{r}, f)
		var enMasse, triees int
		require.NoError(t, db.QueryRow(`SELECT count(*) FROM hist_participations_masse`).Scan(&enMasse))
		require.NoError(t, db.QueryRow(`SELECT count(*) FROM hist_participations`).Scan(&triees))
		assert.Less(t, enMasse, enAttente, "file %d", i)
		assert.Positive(t, enMasse+triees, "file %d", i)
	}
	require.NoError(t, r.FinirMasse(ctx))
	vivant, _ := vues(t, store, t.TempDir())
	hist := func(db *sql.DB) string {
		var out strings.Builder
		rows, err := db.Query(`SELECT joueur, position, partie, tournoi, kind FROM hist_participations`)
		require.NoError(t, err)
		defer rows.Close()
		for rows.Next() {
			var j, partie, tournoi, kind string
			var pos int64
			require.NoError(t, rows.Scan(&j, &pos, &partie, &tournoi, &kind))
			fmt.Fprintln(&out, j, pos, partie, tournoi, kind)
		}
		require.NoError(t, rows.Err())
		return out.String()
	}
	attendu := hist(vivant)
	assert.NotEmpty(t, attendu)
	assert.Equal(t, attendu, hist(db))
}

// TestIssue34_LotArreteAuPremierEvenementIndecodable: the payloads of a
// batch are folded in order, whether the archive decodes them itself (a
// runner without a registry) or its runner decoded them ahead (one made
// with its journal, projection.NewRunners, as the server's and the
// rebuild's are); an event that does not decode stops the batch right
// before it, named, whatever the events after it (a tournament imported
// after it included).
func TestIssue34_LotArreteAuPremierEvenementIndecodable(t *testing.T) {
	for _, davance := range []bool{false, true} {
		t.Run(fmt.Sprintf("décodés d'avance=%v", davance), func(t *testing.T) {
			ctx := context.Background()
			store, db, runners := archiveVide(t)
			reg, err := catalogue.Registre()
			require.NoError(t, err)
			hist := projection.Lecture(runners, historique.Name)
			if davance {
				p, err := historique.NewProjection(projection.Journal{Store: store, Registry: reg})
				require.NoError(t, err)
				avance, err := projection.NewRunners(ctx, db, projection.Journal{Store: store, Registry: reg}, p)
				require.NoError(t, err)
				hist = avance[0]
			}
			fichiers := tournoisAuHasard(t, 4, 8)
			importer(t, store, []*projection.Runner{hist}, fichiers[:2]...)
			avant, err := projection.Dump(ctx, db)
			require.NoError(t, err)
			res, err := store.Append(ctx, "archive-duplicate-casse", eventstore.Any, eventstore.EventData{ID: uuid.New(),
				Type: darchive.TypePartieDuplicate, Version: 1, Data: []byte(`{"partie": 5}`)})
			require.NoError(t, err)
			for _, f := range fichiers[2:] {
				_, err := darchive.Importer(ctx, repository.Streams{Store: store, Registry: reg}, f[0], []byte(f[1]), eventstore.Metadata{Actor: "test"})
				require.NoError(t, err)
			}
			_, err = hist.CatchUp(ctx, nil)
			var ae *projection.ApplyError
			require.ErrorAs(t, err, &ae)
			assert.Equal(t, res.Position, ae.Position)
			assert.Equal(t, res.Position-1, hist.Position())
			apres, err := projection.Dump(ctx, db)
			require.NoError(t, err)
			assert.Equal(t, string(avant), string(apres), "nothing after the event that does not decode")
		})
	}
}

// TestIssue34_NomsEcritsUneFoisParLot: a player named by several imported
// files of one batch (a year of the federation names each of its 15,000
// players in some fourteen tournaments) has his name, club and their
// origin written once, the latest file's by date, instead of once per
// file; the rows are those of the files folded one batch each.
func TestIssue34_NomsEcritsUneFoisParLot(t *testing.T) {
	ctx := context.Background()
	store, db, runners := archiveVide(t)
	for _, f := range tournoisAuHasard(t, 40, 11) {
		importer(t, store, runners, f)
	}
	unParFichier, err := projection.Dump(ctx, db)
	require.NoError(t, err)
	var joueurs int
	require.NoError(t, db.QueryRow(`SELECT count(*) FROM hist_joueurs`).Scan(&joueurs))
	ecritures, oublier := compterEcritures(t, db)
	_, err = projection.Lecture(runners, historique.Name).Rebuild(ctx, nil)
	require.NoError(t, err)
	for _, table := range []string{"hist_joueurs", "hist_noms_importes"} {
		assert.Equal(t, joueurs, ecritures(table), "%s: one write per player of the batch", table)
	}
	oublier()
	enUnLot, err := projection.Dump(ctx, db)
	require.NoError(t, err)
	assert.Equal(t, string(unParFichier), string(enUnLot))
}

// TestIssue34_OrigineDUnNomChangeeSurPlace: a player named again by a later
// batch has the origin of his name (hist_noms_importes) updated in its row,
// not deleted and inserted again (INSERT OR REPLACE wrote the row and its
// index twice: the largest of the names' costs in a year's fold); the rows
// are those of a rebuild.
func TestIssue34_OrigineDUnNomChangeeSurPlace(t *testing.T) {
	ctx := context.Background()
	store, db, runners := archiveVide(t)
	_, err := db.Exec(`CREATE TEMP TABLE inserees (n INTEGER NOT NULL); INSERT INTO inserees VALUES (0);
		CREATE TEMP TRIGGER origine_inseree AFTER INSERT ON main.hist_noms_importes BEGIN UPDATE inserees SET n = n + 1; END`)
	require.NoError(t, err)
	for _, f := range tournoisAuHasard(t, 40, 11) {
		importer(t, store, runners, f)
	}
	var joueurs, inserees int
	require.NoError(t, db.QueryRow(`SELECT count(*) FROM hist_noms_importes`).Scan(&joueurs))
	require.NoError(t, db.QueryRow(`SELECT n FROM temp.inserees`).Scan(&inserees))
	assert.Equal(t, joueurs, inserees, "one row inserted per player, the later files' origins updated in it")
	_, err = db.Exec(`DROP TRIGGER temp.origine_inseree; DROP TABLE temp.inserees`)
	require.NoError(t, err)
	enDirect, err := projection.Dump(ctx, db)
	require.NoError(t, err)
	_, err = projection.Lecture(runners, historique.Name).Rebuild(ctx, nil)
	require.NoError(t, err)
	reconstruites, err := projection.Dump(ctx, db)
	require.NoError(t, err)
	assert.Equal(t, string(enDirect), string(reconstruites))
}

// TestIssue34_NomsEcritsUneFoisParTransaction: a transaction larger than a
// slice of decoded payloads (simulate archive folds 32,768 events a
// transaction, handed over in slices of projection.RebuildPage) writes
// each player's name, club and their origin once, as one batch, not once
// per slice; the rows are those of a rebuild.
func TestIssue34_NomsEcritsUneFoisParTransaction(t *testing.T) {
	ctx := context.Background()
	store, db, runners := archiveVide(t)
	reg, err := catalogue.Registre()
	require.NoError(t, err)
	fichiers := tournoisAuHasard(t, 2500, 17)
	for de := 0; de < len(fichiers); de += 64 {
		var lot []darchive.Fichier
		for _, f := range fichiers[de:min(de+64, len(fichiers))] {
			lot = append(lot, darchive.Fichier{Nom: f[0], Contenu: []byte(f[1])})
		}
		_, err := darchive.ImporterLot(ctx, repository.Streams{Store: store, Registry: reg}, lot, eventstore.Metadata{Actor: "test"})
		require.NoError(t, err)
	}
	events, err := store.ReadAllAfter(ctx, 0, 1<<20)
	require.NoError(t, err)
	require.Greater(t, len(events), 2*projection.RebuildPage, "three slices in one transaction")
	ecritures, oublier := compterEcritures(t, db)
	r := projection.Lecture(runners, historique.Name)
	applied, err := r.Apply(ctx, events)
	require.NoError(t, err)
	require.Equal(t, len(events), applied)
	var joueurs int
	require.NoError(t, db.QueryRow(`SELECT count(*) FROM hist_joueurs`).Scan(&joueurs))
	for _, table := range []string{"hist_joueurs", "hist_noms_importes"} {
		assert.Equal(t, joueurs, ecritures(table), "%s: one write per player of the transaction", table)
	}
	oublier()
	enUneTransaction, err := projection.Dump(ctx, db)
	require.NoError(t, err)
	_, err = r.Rebuild(ctx, nil)
	require.NoError(t, err)
	reconstruites, err := projection.Dump(ctx, db)
	require.NoError(t, err)
	assert.Equal(t, string(reconstruites), string(enUneTransaction))
}

// compterEcritures counts the rows inserted or updated in hist_joueurs and
// hist_noms_importes from now on: ecritures says how many a table had,
// oublier stops counting (the views' dump then holds nothing of it).
func compterEcritures(t *testing.T, db *sql.DB) (ecritures func(table string) int, oublier func()) {
	_, err := db.Exec(`CREATE TEMP TABLE ecrits (nom TEXT PRIMARY KEY, n INTEGER NOT NULL);
		INSERT INTO ecrits VALUES ('hist_joueurs', 0), ('hist_noms_importes', 0);
		CREATE TEMP TRIGGER joueur_insere AFTER INSERT ON main.hist_joueurs BEGIN UPDATE ecrits SET n = n + 1 WHERE nom = 'hist_joueurs'; END;
		CREATE TEMP TRIGGER joueur_change AFTER UPDATE ON main.hist_joueurs BEGIN UPDATE ecrits SET n = n + 1 WHERE nom = 'hist_joueurs'; END;
		CREATE TEMP TRIGGER origine_inseree AFTER INSERT ON main.hist_noms_importes BEGIN UPDATE ecrits SET n = n + 1 WHERE nom = 'hist_noms_importes'; END;
		CREATE TEMP TRIGGER origine_changee AFTER UPDATE ON main.hist_noms_importes BEGIN UPDATE ecrits SET n = n + 1 WHERE nom = 'hist_noms_importes'; END`)
	require.NoError(t, err)
	ecritures = func(table string) int {
		var n int
		require.NoError(t, db.QueryRow(`SELECT n FROM ecrits WHERE nom = ?`, table).Scan(&n))
		return n
	}
	oublier = func() {
		_, err := db.Exec(`DROP TRIGGER temp.joueur_insere; DROP TRIGGER temp.joueur_change; DROP TRIGGER temp.origine_inseree;
		DROP TRIGGER temp.origine_changee; DROP TABLE temp.ecrits`)
		require.NoError(t, err)
	}
	return ecritures, oublier
}
