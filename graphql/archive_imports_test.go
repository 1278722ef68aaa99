package graphql

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	darchive "arbitre/domain/archive"
	"arbitre/domain/catalogue"
	"arbitre/domain/erreur"
	"arbitre/domain/eventstore"
	"arbitre/domain/eventstore/idempotency"
	"arbitre/domain/eventstore/repository"
	"arbitre/domain/eventstore/sqlitestore"
	"arbitre/graphql/model"
	"arbitre/projections/historique"
	"arbitre/projections/projection"
)

// fichierDuplicate2019 is a 2019 duplicate tournament's file whose one game
// two players played.
func fichierDuplicate2019(tournoi, a, b string) string {
	return "tournoi;nom_tournoi;date;partie;numero;licence;nom;club;serie;score;top;rang;cumul;top_cumul;pourcentage;rang_general\n" +
		strings.NewReplacer("T", tournoi, "A", a, "B", b).Replace(
			"T;Festival;2019-05-04;T-1;1;A;Joueur A;Vichy;A;900;920;1;900;920;97,83;1\n"+
				"T;Festival;2019-05-04;T-1;1;B;Joueur B;Cusset;B;850;920;2;850;920;92,39;2\n")
}

// licencesClassees are the players of the 2019 duplicate ranking.
func licencesClassees(t *testing.T, c *model.BilanAnnuelConnection) []string {
	t.Helper()
	var out []string
	for _, e := range c.Edges {
		out = append(out, e.Node.Joueur)
	}
	return out
}

// Issue 34 item 1: the archive's reads wait only for what was acknowledged.
// With the archive's read model held (nobody folds), an import through
// the API is stored but does not answer; a year's ranking asked meanwhile
// answers at once from the views, without that import (it waited for the
// views to fold it: 30 s at 200 queries/s during an import); a write stored
// after the import in flight is waited for; once the views fold, the import
// answers and a read after its answer sees its players.
func TestIssue34_LectureDeLArchivePendantUnImport(t *testing.T) {
	ctx := context.Background()
	store, err := sqlitestore.OpenDir(ctx, t.TempDir(), sqlitestore.Options{})
	require.NoError(t, err)
	t.Cleanup(func() { store.Close() })
	reg, err := catalogue.Registre()
	require.NoError(t, err)
	db, err := projection.OpenDB(filepath.Join(t.TempDir(), projection.FileName))
	require.NoError(t, err)
	t.Cleanup(func() { db.Close() })
	vues, err := historique.NewProjection(projection.Journal{Store: store, Registry: reg})
	require.NoError(t, err)
	run, err := projection.NewRunner(ctx, db, vues, store)
	require.NoError(t, err)
	archive := repository.Streams{Store: store, Registry: reg}
	r := &Resolver{Journal: store, Registry: reg, Archives: historique.NewLecteur(run), Head: store.LastPosition, Lectures: []*projection.Runner{run},
		Cles: idempotency.NewKeys(store), Archive: archive}

	_, err = darchive.Importer(ctx, archive, "a.csv", []byte(fichierDuplicate2019("vichy-2019", "L1", "L2")), eventstore.Metadata{Actor: "test"})
	require.NoError(t, err)
	_, err = run.CatchUp(ctx, nil)
	require.NoError(t, err)
	avant, err := store.LastPosition(ctx)
	require.NoError(t, err)

	type reponse struct {
		imp *model.ImportArchive
		err error
	}
	fin := make(chan reponse, 1)
	go func() {
		imp, err := r.importerArchive(directeurSansTournoi(), "b.csv", fichierDuplicate2019("moulins-2019", "L3", "L4"), nil)
		fin <- reponse{imp, err}
	}()
	require.Eventually(t, func() bool {
		head, err := store.LastPosition(ctx)
		return err == nil && head > avant
	}, time.Minute, time.Millisecond, "the import is stored")
	select {
	case rep := <-fin:
		t.Fatalf("the import answered before the archive's views held its file: %+v %v", rep.imp, rep.err)
	default:
	}

	classement := func(ctx context.Context) ([]string, error) {
		c, err := r.classementAnnuel(ctx, 2019, historique.KindDuplicate, "", nil, nil)
		if err != nil {
			return nil, err
		}
		return licencesClassees(t, c), nil
	}
	pendant, cancel := context.WithTimeout(ctx, 20*time.Second)
	defer cancel()
	lus, err := classement(pendant)
	require.NoError(t, err, "a read during the import does not wait for it")
	assert.Equal(t, []string{"L1", "L2"}, lus, "the views as they are, without the import in flight")

	// A write stored after the import in flight (here an import that did
	// not go through the API) may be acknowledged: a read waits for it,
	// so for the import before it.
	_, err = darchive.Importer(ctx, archive, "c.csv", []byte(fichierDuplicate2019("cusset-2019", "L5", "L6")), eventstore.Metadata{Actor: "test"})
	require.NoError(t, err)
	court, cancel := context.WithTimeout(ctx, 300*time.Millisecond)
	defer cancel()
	_, err = classement(court)
	assert.Equal(t, CodeUnavailable, erreur.CodeOf(err), "the views held, a read waits for the write after the import: %v", err)

	_, err = run.CatchUp(ctx, nil)
	require.NoError(t, err)
	rep := <-fin
	require.NoError(t, rep.err)
	assert.Equal(t, "moulins-2019", rep.imp.Tournoi)
	lus, err = classement(ctx)
	require.NoError(t, err)
	assert.ElementsMatch(t, []string{"L1", "L2", "L3", "L4", "L5", "L6"}, lus, "a read after the import's answer sees its file")
}
