package standings_test

import (
	"context"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbitre/domain/duplicate"
	"arbitre/domain/duplicate/adapters"
	"arbitre/domain/duplicate/command"
	"arbitre/domain/eventstore"
	"arbitre/domain/tournoi"
	"arbitre/projections/standings"
)

// The director's disciplinary decisions (§5.5, §5.7, §6.1) reach the
// standings live, a coup annulled afterwards takes its sanctions with it
// (§3.6), and the projection still equals the in-memory fold and a rebuild
// from position zero.
func TestStandingsLiveEgalReconstruction_SanctionsDisciplinaires(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Second)
	defer cancel()
	store, r, live, liveDB, stop := enDirect(t, ctx)

	app, licences := tournoiJusquA(t, ctx, store, r, 20, 3)
	attendre := func() { attendreTete(t, ctx, store, live) }
	attendre()
	avant, err := standings.NewLecteur(live).Partie(ctx, "t1-1", standings.Public)
	require.NoError(t, err)

	p, err := adapters.NewDepot(store, r, nil).Charger(ctx, "t1-1")
	require.NoError(t, err)
	zero := ""
	for _, l := range licences {
		if d, ok := p.Decision(2, l); ok && d.Paid > 0 && zero == "" {
			zero = l
		}
	}
	require.NotEmpty(t, zero)
	perdu, _ := p.Decision(2, zero)
	bavard, fraudeur := licences[1], licences[2]
	if bavard == zero || fraudeur == zero {
		bavard, fraudeur = licences[3], licences[4]
	}
	autre := ""
	for _, l := range licences {
		if l != zero && l != bavard && l != fraudeur && autre == "" {
			autre = l
		}
	}
	sanctions := []command.SanctionDisciplinaire{
		{Partie: "t1-1", Coup: 2, Licence: zero, Nature: duplicate.SanctionZero, Motif: "motif disciplinaire grave"},
		{Partie: "t1-1", Coup: 3, Licence: fraudeur, Nature: duplicate.SanctionExclusion, Motif: "fraude avérée"},
	}
	for coup := 1; coup <= 3; coup++ {
		for range 2 {
			sanctions = append(sanctions, command.SanctionDisciplinaire{Partie: "t1-1", Coup: coup, Licence: bavard,
				Nature: duplicate.SanctionAvertissement, Motif: "bavardage"})
		}
	}
	for _, s := range sanctions {
		require.NoError(t, app.SanctionDisciplinaire(ctx, s))
	}
	// §3.6: a zéro on coup 4, annulled afterwards, leaves nothing.
	require.NoError(t, app.Tirer(ctx, command.Tirer{Partie: "t1-1"}))
	require.NoError(t, app.SanctionDisciplinaire(ctx, command.SanctionDisciplinaire{Partie: "t1-1", Coup: 4, Licence: autre,
		Nature: duplicate.SanctionZero, Motif: "motif disciplinaire grave"}))
	require.NoError(t, app.AnnulerCoup(ctx, command.AnnulerCoup{Partie: "t1-1", Motif: duplicate.AnnulationErreur}))
	attendre()
	require.NoError(t, stop())

	apres, err := standings.NewLecteur(live).Partie(ctx, "t1-1", standings.Public)
	require.NoError(t, err)
	brut, _, _ := duplicate.Points(perdu)
	assert.LessOrEqual(t, ligneDe(t, apres, zero).Score, ligneDe(t, avant, zero).Score-brut, "§5.7 the coup pays nothing (a solo may go too)")
	assert.Zero(t, ligneDe(t, apres, fraudeur).Score, "§6.1 scores annulled")
	assert.Equal(t, ligneDe(t, avant, bavard).Avertissements+6, ligneDe(t, apres, bavard).Avertissements, "§5.5 each one counts (§5.9)")
	assert.Equal(t, ligneDe(t, avant, autre).Score, ligneDe(t, apres, autre).Score, "§3.6")

	fold, err := standings.Reconstruire(ctx, store, r)
	require.NoError(t, err)
	memoire, err := fold.Partie("t1-1")
	require.NoError(t, err)
	assert.Equal(t, memoire, apres, "projection and in-memory fold give the same figures")

	rebuilt, rebuiltDB := runner(t, store, r)
	_, err = rebuilt.Rebuild(ctx, nil)
	require.NoError(t, err)
	assert.Equal(t, dump(t, liveDB), dump(t, rebuiltDB), "rebuild from position zero is byte-identical")
	enMemoireEgal(t, ctx, store, r, liveDB)
}

// TestArt6_1_ExclusionLiveEgalReconstruction: the director's choice that
// an exclusion annuls the player's earlier games (2020 §6.1) reaches the
// live standings — the player marked excluded, scoring zero, ranked after
// everyone — and the projection still equals the in-memory fold and a
// rebuild from position zero.
func TestArt6_1_ExclusionLiveEgalReconstruction(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Second)
	defer cancel()
	store, r, live, liveDB, stop := enDirect(t, ctx)

	app, licences := tournoiJusquA(t, ctx, store, r, 8, 2)
	fraudeur := licences[0]
	require.NoError(t, app.SanctionDisciplinaire(ctx, command.SanctionDisciplinaire{Partie: "t1-1", Coup: 2, Licence: fraudeur,
		Nature: duplicate.SanctionExclusion, Motif: "fraude avérée"}))
	d, err := r.NewEventData(uuid.NewSHA1(uuid.NameSpaceOID, []byte("tournoi-t1/exclusion")), tournoi.JoueurExclu{Licence: fraudeur, Partie: "t1-1", Motif: "fraude avérée",
		AnnulerParties: true}, eventstore.Metadata{Actor: "directeur", Role: "directeur"})
	require.NoError(t, err)
	_, err = store.Append(ctx, "tournoi-t1", eventstore.Any, d)
	require.NoError(t, err)
	attendreTete(t, ctx, store, live)
	require.NoError(t, stop())

	cumul, err := standings.NewLecteur(live).Cumul(ctx, "t1", standings.Public)
	require.NoError(t, err)
	dernier := cumul[len(cumul)-1]
	assert.Equal(t, fraudeur, dernier.Licence, "§6.1 ranked after everyone")
	assert.True(t, dernier.Exclu, "§6.1 shown as excluded")
	assert.Zero(t, dernier.Score, "§6.1 his games annulled")

	fold, err := standings.Reconstruire(ctx, store, r)
	require.NoError(t, err)
	memoire, err := fold.Cumul()
	require.NoError(t, err)
	assert.Equal(t, memoire, cumul, "projection and in-memory fold give the same figures")

	rebuilt, rebuiltDB := runner(t, store, r)
	_, err = rebuilt.Rebuild(ctx, nil)
	require.NoError(t, err)
	assert.Equal(t, dump(t, liveDB), dump(t, rebuiltDB), "rebuild from position zero is byte-identical")
	enMemoireEgal(t, ctx, store, r, liveDB)
}

// ligneDe is a player's line; a missing player fails the test rather than
// scoring a zero row.
func ligneDe(t *testing.T, ls []standings.Ligne, licence string) standings.Ligne {
	t.Helper()
	for _, l := range ls {
		if l.Licence == licence {
			return l
		}
	}
	t.Fatalf("licence %s absente du classement", licence)
	return standings.Ligne{}
}
