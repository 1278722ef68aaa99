package historique_test

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"database/sql/driver"
	"encoding/hex"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"
	"weak"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"modernc.org/sqlite"

	darchive "arbitre/domain/archive"
	"arbitre/domain/catalogue"
	"arbitre/domain/eventstore"
	"arbitre/domain/eventstore/repository"
	"arbitre/domain/eventstore/sqlitestore"
	"arbitre/projections/classique"
	"arbitre/projections/historique"
	"arbitre/projections/projection"
)

// instructions counts the statements a database runs, by text: each
// execution of a prepared statement, or of a statement run directly.
type instructions struct {
	mu sync.Mutex
	n  map[string]int
}

func (c *instructions) noter(query string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.n[query]++
}

// Compter is how many statements whose text holds fragment ran, and
// remettre starts counting again from zero.
func (c *instructions) compter(fragment string) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	total := 0
	for q, n := range c.n {
		if strings.Contains(q, fragment) {
			total += n
		}
	}
	return total
}

func (c *instructions) remettre() {
	c.mu.Lock()
	defer c.mu.Unlock()
	clear(c.n)
}

// connecteur opens the projection database as projection.OpenDB does,
// its connections counting their statements.
type connecteur struct {
	dsn string
	c   *instructions
}

func (k connecteur) Connect(context.Context) (driver.Conn, error) {
	conn, err := (&sqlite.Driver{}).Open(k.dsn)
	if err != nil {
		return nil, err
	}
	return connComptee{conn: conn, c: k.c}, nil
}

func (connecteur) Driver() driver.Driver { return &sqlite.Driver{} }

// connComptee is a connection of the driver that counts its statements.
type connComptee struct {
	conn driver.Conn
	c    *instructions
}

func (k connComptee) Prepare(query string) (driver.Stmt, error) {
	return k.PrepareContext(context.Background(), query)
}

func (k connComptee) PrepareContext(ctx context.Context, query string) (driver.Stmt, error) {
	st, err := k.conn.(driver.ConnPrepareContext).PrepareContext(ctx, query)
	if err != nil {
		return nil, err
	}
	return stmtCompte{st: st, query: query, c: k.c}, nil
}

func (k connComptee) Close() error { return k.conn.Close() }

func (k connComptee) Begin() (driver.Tx, error) {
	return k.BeginTx(context.Background(), driver.TxOptions{})
}

func (k connComptee) BeginTx(ctx context.Context, opts driver.TxOptions) (driver.Tx, error) {
	return k.conn.(driver.ConnBeginTx).BeginTx(ctx, opts)
}

func (k connComptee) ExecContext(ctx context.Context, query string, args []driver.NamedValue) (driver.Result, error) {
	k.c.noter(query)
	return k.conn.(driver.ExecerContext).ExecContext(ctx, query, args)
}

func (k connComptee) QueryContext(ctx context.Context, query string, args []driver.NamedValue) (driver.Rows, error) {
	k.c.noter(query)
	return k.conn.(driver.QueryerContext).QueryContext(ctx, query, args)
}

// stmtCompte is a prepared statement that counts its runs.
type stmtCompte struct {
	st    driver.Stmt
	query string
	c     *instructions
}

func (s stmtCompte) Close() error  { return s.st.Close() }
func (s stmtCompte) NumInput() int { return s.st.NumInput() }

func (s stmtCompte) Exec(args []driver.Value) (driver.Result, error) {
	s.c.noter(s.query)
	return s.st.Exec(args) //nolint:staticcheck // the driver's own interface
}

func (s stmtCompte) Query(args []driver.Value) (driver.Rows, error) {
	s.c.noter(s.query)
	return s.st.Query(args) //nolint:staticcheck // the driver's own interface
}

func (s stmtCompte) ExecContext(ctx context.Context, args []driver.NamedValue) (driver.Result, error) {
	s.c.noter(s.query)
	return s.st.(driver.StmtExecContext).ExecContext(ctx, args)
}

func (s stmtCompte) QueryContext(ctx context.Context, args []driver.NamedValue) (driver.Rows, error) {
	s.c.noter(s.query)
	return s.st.(driver.StmtQueryContext).QueryContext(ctx, args)
}

// archiveComptee is an empty store with its archive's views (and the
// cotes), their runners decoding ahead as the commands' do, in a database
// that counts its statements; the store's clock stands still
// (live events are dated by it).
func archiveComptee(t testing.TB) (eventstore.Store, *sql.DB, []*projection.Runner, *instructions) {
	t.Helper()
	dir := t.TempDir()
	horloge := eventstore.ClockFunc(func() time.Time { return time.Date(2026, 11, 29, 17, 0, 0, 0, time.UTC) })
	store, err := sqlitestore.OpenDir(context.Background(), dir, sqlitestore.Options{Clock: horloge})
	require.NoError(t, err)
	t.Cleanup(func() { store.Close() })
	c := &instructions{n: map[string]int{}}
	path := filepath.Join(dir, projection.FileName)
	db := sql.OpenDB(connecteur{c: c,
		dsn: "file:" + path + "?_pragma=journal_mode(WAL)&_pragma=synchronous(NORMAL)&_pragma=busy_timeout(10000)&_txlock=immediate"})
	db.SetMaxOpenConns(1)
	t.Cleanup(func() { db.Close() })
	reg, err := catalogue.Registre()
	require.NoError(t, err)
	journal := projection.Journal{Store: store, Registry: reg}
	cotes, err := classique.NewCotes(journal)
	require.NoError(t, err)
	hist, err := historique.NewProjection(journal)
	require.NoError(t, err)
	// As readmodels.Runners: the runners decode ahead.
	runners, err := projection.NewRunners(context.Background(), db, journal, hist, cotes)
	require.NoError(t, err)
	for _, r := range runners {
		_, err = r.CatchUp(context.Background(), nil)
		require.NoError(t, err)
	}
	return store, db, runners, c
}

// importerParLots imports the files (name, content) as simulate archive
// does, 64 to a batch of the store.
func importerParLots(t testing.TB, store eventstore.Store, fichiers [][2]string) {
	t.Helper()
	reg, err := catalogue.Registre()
	require.NoError(t, err)
	for de := 0; de < len(fichiers); de += 64 {
		var lot []darchive.Fichier
		for _, f := range fichiers[de:min(de+64, len(fichiers))] {
			lot = append(lot, darchive.Fichier{Nom: f[0], Contenu: []byte(f[1])})
		}
		_, err := darchive.ImporterLot(context.Background(), repository.Streams{Store: store, Registry: reg}, lot, eventstore.Metadata{Actor: "test"})
		require.NoError(t, err)
	}
}

// plierEnMasse folds the log into the runners as simulate archive does:
// one bulk, one transaction.
func plierEnMasse(t testing.TB, store eventstore.Store, runners []*projection.Runner) {
	t.Helper()
	ctx := context.Background()
	events, err := store.ReadAllAfter(ctx, 0, 1<<20)
	require.NoError(t, err)
	for _, r := range runners {
		require.NoError(t, r.CommencerMasse(ctx))
		_, err := r.Apply(ctx, events)
		require.NoError(t, err)
		require.NoError(t, r.FinirMasse(ctx))
		cp, err := r.Checkpoint(ctx)
		require.NoError(t, err)
		require.Equal(t, events[len(events)-1].Position, cp, "folded to the log's head")
	}
}

// empreinteDesVues is the SHA-256 of the views' rows, the runners'
// checkpoints aside (they hold the chain's hashes, which hold the time
// each event was written).
func empreinteDesVues(t testing.TB, db *sql.DB) string {
	t.Helper()
	dump, err := projection.Dump(context.Background(), db)
	require.NoError(t, err)
	h := sha256.New()
	garder := true
	for ligne := range strings.Lines(string(dump)) {
		if strings.HasPrefix(ligne, "table ") {
			garder = !strings.HasPrefix(ligne, "table projection_checkpoints ")
		}
		if garder {
			h.Write([]byte(ligne))
		}
	}
	return hex.EncodeToString(h.Sum(nil))
}

// TestIssue34_VuesDeLArchiveInchangees: the archive's views (and the
// cotes) after a fixed history — imported files folded one file a batch
// with a live game among them, and the same files imported 64 to a
// batch and folded in one bulk as simulate archive does, and games of
// more than 150 players — hold exactly
// the rows main's code wrote before session 14 changed the fold (the
// SHA-256 of their dump, checkpoints aside).
func TestIssue34_VuesDeLArchiveInchangees(t *testing.T) {
	fichiers := tournoisAuHasard(t, 300, 23)
	for _, tc := range []struct {
		nom       string
		plier     func(t *testing.T) *sql.DB
		empreinte string
	}{
		{"un fichier par lot, une partie en direct", func(t *testing.T) *sql.DB {
			store, db, runners, _ := archiveComptee(t)
			importer(t, store, runners, fichiers[:150]...)
			ajouterPartieAvecRetard(t, store)
			importer(t, store, runners, fichiers[150:]...)
			return db
		}, "04735fbd90d604bca66de5dad29b3de87b0c9bd5ac8b3d2287825df067ef4864"},
		{"en masse, 64 fichiers par lot", func(t *testing.T) *sql.DB {
			store, db, runners, _ := archiveComptee(t)
			importerParLots(t, store, fichiers)
			plierEnMasse(t, store, runners)
			return db
		}, "12c002c664c405f067505c217752bd8670e6d66518ebcc1ea5ee1ddc880d96d7"},
		{"en masse, parties de plus de 150 joueurs", func(t *testing.T) *sql.DB {
			store, db, runners, _ := archiveComptee(t)
			importerParLots(t, store, tournoisDe(t, 60, 37, 400, 150))
			plierEnMasse(t, store, runners)
			return db
		}, "8297826055e3c1a54898db55478a157493488da3f325478253b79714ec519063"},
	} {
		t.Run(tc.nom, func(t *testing.T) {
			assert.Equal(t, tc.empreinte, empreinteDesVues(t, tc.plier(t)))
		})
	}
}

// TestIssue34_JoueursCherchesUneFoisParTranche: the fold looks up the
// players an import names (are they known, and whence their name?) once
// for all the imported events of a slice of decoded payloads, not once
// per event naming a player it has not met (a year of the federation:
// some 21,000 lookups, each sending first every row held for its group
// of 16); the views are those of the files folded one batch each.
func TestIssue34_JoueursCherchesUneFoisParTranche(t *testing.T) {
	ctx := context.Background()
	store, db, runners, c := archiveComptee(t)
	importerParLots(t, store, tournoisDe(t, 1500, 29, 2000, 0))
	events, err := store.ReadAllAfter(ctx, 0, 1<<20)
	require.NoError(t, err)
	tranches := (len(events) + projection.RebuildPage - 1) / projection.RebuildPage
	require.Greater(t, tranches, 1, "several slices in one transaction")
	c.remettre()
	plierEnMasse(t, store, runners)
	t.Logf("%d events: %d lookups of players, %d inserts", len(events), c.compter("FROM hist_joueurs j"), c.compter("INSERT INTO"))
	assert.Equal(t, tranches, c.compter("FROM hist_joueurs j"), "one lookup of players per slice")
	enMasse := empreinteDesVues(t, db)

	store, db, runners, _ = archiveComptee(t)
	importer(t, store, runners, tournoisDe(t, 1500, 29, 2000, 0)...)
	assert.Equal(t, empreinteDesVues(t, db), enMasse)
}

// TestIssue34_NomInchangeNonReecrit: a batch writes a player's name and
// club (hist_joueurs) only when they are not those the archive holds
// already — a year of the federation names each of its 15,000 players in
// every one of its five transactions, with the same name and, but for one
// in thirty, the same club —; the origin of the name (the date of the
// latest file, hist_noms_importes) is written as before, and the views are
// those of the files folded one batch each.
func TestIssue34_NomInchangeNonReecrit(t *testing.T) {
	fichiers := tournoisDe(t, 1500, 31, 300, 0)
	store, db, runners, _ := archiveComptee(t)
	importerParLots(t, store, fichiers[:700])
	plierEnMasse(t, store, runners)
	_, err := db.Exec(`CREATE TEMP TABLE avant AS SELECT joueur, nom, club FROM main.hist_joueurs`)
	require.NoError(t, err)
	importerParLots(t, store, fichiers[700:])
	ecritures, oublier := compterEcritures(t, db)
	plierEnMasse(t, store, runners)
	var changes int
	require.NoError(t, db.QueryRow(`SELECT count(*) FROM main.hist_joueurs j
		WHERE NOT EXISTS (SELECT 1 FROM temp.avant a WHERE a.joueur = j.joueur AND a.nom = j.nom AND a.club = j.club)`).Scan(&changes))
	require.Positive(t, changes)
	t.Logf("hist_joueurs: %d writes, %d rows new or changed; hist_noms_importes: %d writes", ecritures("hist_joueurs"), changes, ecritures("hist_noms_importes"))
	assert.Equal(t, changes, ecritures("hist_joueurs"), "a write per player new or whose name or club changed")
	oublier()
	_, err = db.Exec(`DROP TABLE temp.avant`)
	require.NoError(t, err)
	enMasse := empreinteDesVues(t, db)

	store, db, runners, _ = archiveComptee(t)
	importer(t, store, runners, fichiers...)
	assert.Equal(t, empreinteDesVues(t, db), enMasse)
}

// TestIssue34_ParticipationsDUnePartieEnUneInstruction: an imported
// duplicate game's participations (170 players at a federation's
// tournament: two thirds of a year's lines) are written by one statement,
// its rows differing only by player, instead of one row each held for its
// group of 16 (projection.RangeesParInsert); a classique match's two rows
// are still held; the views are those of the files folded one batch each.
func TestIssue34_ParticipationsDUnePartieEnUneInstruction(t *testing.T) {
	fichiers := tournoisDe(t, 60, 37, 400, 150)
	store, db, runners, c := archiveComptee(t)
	importerParLots(t, store, fichiers)
	c.remettre()
	plierEnMasse(t, store, runners)
	var parties, lignes, matchs int
	require.NoError(t, db.QueryRow(`SELECT count(DISTINCT partie), count(*) FROM hist_participations WHERE kind = 'duplicate'`).Scan(&parties, &lignes))
	require.NoError(t, db.QueryRow(`SELECT count(*) FROM hist_participations WHERE kind = 'classique'`).Scan(&matchs))
	t.Logf("%d duplicate games, %d lines, %d classique participations: %d statements", parties, lignes, matchs, c.compter("INSERT INTO hist_participations_masse"))
	// A game's statement sends first the classique rows held.
	assert.LessOrEqual(t, c.compter("INSERT INTO hist_participations_masse"), 2*parties+(matchs+projection.RangeesParInsert-1)/projection.RangeesParInsert,
		"one statement per duplicate game, the classique rows by groups")
	enMasse := empreinteDesVues(t, db)

	store, db, runners, _ = archiveComptee(t)
	importer(t, store, runners, fichiers...)
	assert.Equal(t, empreinteDesVues(t, db), enMasse)
}

// TestIssue34_AllocationsDuRepliParLigne: folding imported lines into the
// archive allocates (Go heap, every goroutine: the decoding ahead and the
// driver included) 25 times a line at most, 30 before: the values a row
// binds are the driver's own types (int64, string), which database/sql
// passes as they are instead of converting each by reflection into a new
// value, participer's statement is made once a batch rather than at each
// row, and a classique match no longer builds two maps of its two players.
func TestIssue34_AllocationsDuRepliParLigne(t *testing.T) {
	fichiers := tournoisDe(t, 200, 41, 400, 40)
	store, _, runners, _ := archiveComptee(t)
	importerParLots(t, store, fichiers)
	var lignes int
	for _, f := range fichiers {
		lignes += strings.Count(f[1], "\n") - 1
	}
	var avant, apres runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&avant)
	plierEnMasse(t, store, runners)
	runtime.ReadMemStats(&apres)
	parLigne := float64(apres.Mallocs-avant.Mallocs) / float64(lignes)
	t.Logf("%d lines: %.1f allocations, %.0f bytes a line", lignes, parLigne, float64(apres.TotalAlloc-avant.TotalAlloc)/float64(lignes))
	assert.LessOrEqual(t, parLigne, 26.0)
}

// TestIssue34_TrancheLacheeUneFoisRepliee: the fold keeps nothing of a slice of
// decoded payloads once it is folded (the players the following events
// name are looked up with the slice's, lot.suivants), so that a batch
// holds two slices of payloads at most (projection.Tranches).
func TestIssue34_TrancheLacheeUneFoisRepliee(t *testing.T) {
	ctx := context.Background()
	store, db, _, _ := archiveComptee(t)
	importerParLots(t, store, tournoisDe(t, 40, 43, 300, 0))
	reg, err := catalogue.Registre()
	require.NoError(t, err)
	hist, err := historique.NewProjection(projection.Journal{Store: store, Registry: reg})
	require.NoError(t, err)
	events, err := store.ReadAllAfter(ctx, 0, 1<<20)
	require.NoError(t, err)
	decodes := func(events []eventstore.Event) []projection.Decoded {
		var out []projection.Decoded
		for i := range events {
			out = append(out, projection.Decode(reg, &events[i]))
		}
		return out
	}
	moitie := len(events) / 2
	premiere := decodes(events[:moitie])
	lachee := weak.Make(&premiere[0])
	tranches := func(yield func([]projection.Decoded) bool) {
		if !yield(premiere) {
			return
		}
		premiere = nil
		runtime.GC()
		assert.Nil(t, lachee.Value(), "the first slice is no longer held once folded")
		yield(decodes(events[moitie:]))
	}
	tx, err := db.BeginTx(ctx, nil)
	require.NoError(t, err)
	defer tx.Rollback()
	require.NoError(t, hist.ApplyTranches(ctx, tx, tranches))
}
