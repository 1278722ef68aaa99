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
	require.NoError(t, app.CorrigerAMain(ctx, command.CorrigerAMain{Partie: "t1-1", Correction: duplicate.Correction{Coup: 2, Licence: bavard, Arbitre: "A1", Arbitrage: &d,
		Motif: "bavardage noté sur le bulletin"}}))
	require.NoError(t, app.SanctionDisciplinaire(ctx, command.SanctionDisciplinaire{Partie: "t1-1", Coup: 2, Licence: bavard,
		Nature: duplicate.SanctionZero, Motif: "motif disciplinaire grave"}))

	p, err := adapters.NewDepot(store, r, nil).Charger(ctx, "t1-1")
	require.NoError(t, err)
	domaine := p.Avertissements(bavard).Warnings
	require.Positive(t, domaine, "§5.8 the domain keeps the bulletin's disciplinary avertissement")

	run, _ := runner(t, store, r)
	_, err = run.Rebuild(ctx, nil)
	require.NoError(t, err)
	lignes, err := standings.NewLecteur(run).Partie(ctx, "t1-1", standings.Public)
	require.NoError(t, err)
	assert.Equal(t, domaine, ligneDe(t, lignes, bavard).Avertissements, "the projection agrees with the domain")

	fold, err := standings.Reconstruire(ctx, store, r)
	require.NoError(t, err)
	memoire, err := fold.Partie("t1-1")
	require.NoError(t, err)
	assert.Equal(t, memoire, lignes, "projection and in-memory fold give the same figures")
}

// TestStandings_DecisionsAncienneDispositionReconstruite: a projection
// database whose decisions table has the former layout (one row per
// decision, issue 16 item 10) gets the new one when the runner starts, and
// the projection starts again from position zero: caught up, it equals a
// rebuild byte for byte.
func TestStandings_DecisionsAncienneDispositionReconstruite(t *testing.T) {
	ctx := context.Background()
	store := magasin(t, ctx)
	r := registre(t)
	tournoiSimule(t, ctx, store, r, 6)
	db, err := projection.OpenDB(filepath.Join(t.TempDir(), projection.FileName))
	require.NoError(t, err)
	t.Cleanup(func() { db.Close() })
	_, err = db.ExecContext(ctx, `CREATE TABLE standings_decisions (partie TEXT NOT NULL, coup INTEGER NOT NULL, licence TEXT NOT NULL,
		paid INTEGER NOT NULL, sanction TEXT NOT NULL, discipline INTEGER NOT NULL, average_cap INTEGER NOT NULL,
		raisons TEXT NOT NULL DEFAULT '[]', PRIMARY KEY (partie, coup, licence));
		INSERT INTO standings_decisions VALUES ('t1-1', 1, '000001', 99, 'none', 0, 0, '[]');
		CREATE TABLE projection_checkpoints (projection TEXT PRIMARY KEY, position INTEGER NOT NULL, hash BLOB NOT NULL DEFAULT x'',
		magasin TEXT NOT NULL DEFAULT '');
		INSERT INTO projection_checkpoints (projection, position) VALUES ('standings', 999999)`)
	require.NoError(t, err)

	p, err := standings.NewProjection(projection.Journal{Store: store, Registry: r})
	require.NoError(t, err)
	run, err := projection.NewRunner(ctx, db, p, store)
	require.NoError(t, err)
	assert.Zero(t, run.Position(), "the projection starts again from position zero")
	_, err = run.CatchUp(ctx, nil)
	require.NoError(t, err)

	rebuilt, rebuiltDB := runner(t, store, r)
	_, err = rebuilt.Rebuild(ctx, nil)
	require.NoError(t, err)
	assert.Equal(t, dump(t, rebuiltDB), dump(t, db))
}
