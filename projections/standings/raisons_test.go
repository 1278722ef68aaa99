package standings_test

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbitre/domain/duplicate"
	"arbitre/domain/duplicate/adapters"
	"arbitre/domain/duplicate/command"
	"arbitre/engine/correction"
	"arbitre/projections/projection"
	"arbitre/projections/standings"
)

// TestArt5_8_ZeroDisciplinaireGardeLAvertissementDuBulletin: a bulletin
// whose own discipline flag made it a warning (§5.5), then given a
// disciplinary zéro (§5.7), keeps that avertissement (§5.8: a disciplinary
// avertissement cumulates with a zéro). The SQL projection keeps the
// decision's reasons, so it counts it as the domain does over the same
// events.
func TestArt5_8_ZeroDisciplinaireGardeLAvertissementDuBulletin(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Second)
	defer cancel()
	store := magasin(t, ctx)
	r := registre(t)
	app, licences := tournoiJusquA(t, ctx, store, r, 3, 2)
	bavard := licences[0]
	d := correction.Decision{Paid: 0, Sanction: correction.Warning, Reasons: []correction.Reason{correction.Discipline}, Billet: true}
	require.NoError(t, app.CorrigerAMain(ctx, "t1-1", duplicate.Correction{Coup: 2, Licence: bavard, Arbitre: "A1", Arbitrage: &d,
		Motif: "bavardage noté sur le bulletin"}))
	require.NoError(t, app.SanctionDisciplinaire(ctx, command.SanctionDisciplinaire{Partie: "t1-1", Coup: 2, Licence: bavard,
		Nature: duplicate.SanctionZero, Motif: "motif disciplinaire grave"}))

	p, err := adapters.NewDepot(store, r, nil).Charger(ctx, "t1-1")
	require.NoError(t, err)
	domaine := p.Avertissements(bavard).Warnings
	require.Positive(t, domaine, "§5.8 the domain keeps the bulletin's disciplinary avertissement")

	run, db := runner(t, store, r)
	_, err = run.Rebuild(ctx, nil)
	require.NoError(t, err)
	lignes, err := standings.LirePartie(ctx, db, "t1-1")
	require.NoError(t, err)
	assert.Equal(t, domaine, ligneDe(t, lignes, bavard).Avertissements, "the projection agrees with the domain")

	fold, err := standings.Reconstruire(ctx, store, r)
	require.NoError(t, err)
	memoire, err := fold.Partie("t1-1")
	require.NoError(t, err)
	assert.Equal(t, memoire, lignes, "projection and in-memory fold give the same figures")
}

// TestArt5_8_ProjectionAnterieureGagneLesRaisons: a projection database
// made before the decisions kept their reasons gets the column when the
// server starts; a rebuild fills it.
func TestArt5_8_ProjectionAnterieureGagneLesRaisons(t *testing.T) {
	ctx := context.Background()
	db, err := projection.OpenDB(filepath.Join(t.TempDir(), projection.FileName))
	require.NoError(t, err)
	t.Cleanup(func() { db.Close() })
	_, err = db.ExecContext(ctx, `CREATE TABLE standings_decisions (partie TEXT NOT NULL, coup INTEGER NOT NULL, licence TEXT NOT NULL,
		paid INTEGER NOT NULL, sanction TEXT NOT NULL, discipline INTEGER NOT NULL, average_cap INTEGER NOT NULL,
		PRIMARY KEY (partie, coup, licence))`)
	require.NoError(t, err)
	store := magasin(t, ctx)
	_, err = projection.NewRunner(ctx, db, standings.NewProjection(registre(t)), store)
	require.NoError(t, err)
	var raisons int
	require.NoError(t, db.QueryRowContext(ctx, `SELECT COUNT(*) FROM pragma_table_info('standings_decisions') WHERE name = 'raisons'`).Scan(&raisons))
	assert.Equal(t, 1, raisons)
}
