package standings_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbitre/domain/duplicate"
	"arbitre/domain/eventstore"
	"arbitre/domain/eventstore/sqlitestore"
	"arbitre/engine/correction"
	"arbitre/projections/projection"
	"arbitre/projections/standings"
)

// TestIntroduction_Guide3_2_ClassementProvisoireJusquALaCloture: the last
// coup's bulletins, corrected after its top ended the game, count
// (introduction, guide §3.2); the standings are provisional until the
// director closes the results, and a bulletin he confirmed missing then
// counts zero (§5.7) instead of waiting forever. The live projection, the
// in-memory fold and a rebuild agree.
func TestIntroduction_Guide3_2_ClassementProvisoireJusquALaCloture(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Second)
	defer cancel()
	store, r, live, liveDB, stop := enDirect(t, ctx)
	ajouter := ajouteur(t, ctx, store, r, live)
	lire := func() []standings.Ligne {
		t.Helper()
		ls, err := standings.NewLecteur(live).Partie(ctx, "p1", standings.Public)
		require.NoError(t, err)
		return ls
	}
	cfg, err := duplicate.Config{TempsParCoup: 3 * time.Minute}.Valider()
	require.NoError(t, err)
	ajouter(duplicate.PartieCreee{Partie: "p1", Tournoi: "t1", Numero: 1, Config: cfg, Joueurs: []string{"A", "B", "C"}},
		duplicate.TopRetenu{Coup: 1, Ref: "H8", Mot: "BAC", Score: 20}, paye(1, "A", 20), paye(1, "B", 12), paye(1, "C", 12),
		duplicate.TopRetenu{Coup: 2, Ref: "I8", Mot: "DE", Score: 30},
		duplicate.PartieTerminee{Motif: duplicate.FinToutesLettresPlacees, DernierCoup: 2},
		paye(2, "A", 30), paye(2, "B", 25))
	enCours := lire()
	for _, l := range enCours {
		assert.True(t, l.Provisoire, "%s: provisional until the results are closed", l.Licence)
	}
	assert.Equal(t, 50, score(enCours, "A"), "the last coup, corrected after the end, counts")
	assert.Equal(t, 1, enAttente(enCours, "C"))

	ajouter(duplicate.ResultatsClos{Manquants: []duplicate.BulletinManquant{{Coup: 2, Licence: "C"}}})
	require.NoError(t, stop())
	clos := lire()
	for _, l := range clos {
		assert.False(t, l.Provisoire, "%s: final once closed", l.Licence)
		assert.Zero(t, l.EnAttente, "%s: nothing waits", l.Licence)
	}
	assert.Equal(t, 12, score(clos, "C"), "§5.7 the bulletin confirmed missing counts zero")

	fold, err := standings.Reconstruire(ctx, store, r)
	require.NoError(t, err)
	memoire, err := fold.Partie("p1")
	require.NoError(t, err)
	assert.Equal(t, memoire, clos, "projection and in-memory fold give the same figures")
	cumul, err := standings.NewLecteur(live).Cumul(ctx, "t1", standings.Public)
	require.NoError(t, err)
	assert.False(t, cumul[0].Provisoire, "every game of the tournament closed")

	rebuilt, rebuiltDB := runner(t, store, r)
	_, err = rebuilt.Rebuild(ctx, nil)
	require.NoError(t, err)
	assert.Equal(t, dump(t, liveDB), dump(t, rebuiltDB), "rebuild from position zero is byte-identical")
	enMemoireEgal(t, ctx, store, r, liveDB)
}

// ajouteur returns a function that records events in the stream partie-p1
// and waits until the live projection has applied them.
func ajouteur(t *testing.T, ctx context.Context, store *sqlitestore.Store, r *eventstore.Registry, live *projection.Runner) func(evts ...any) {
	n := 0
	return func(evts ...any) {
		t.Helper()
		for _, e := range evts {
			d, err := r.NewEventData(uuid.NewSHA1(uuid.NameSpaceOID, fmt.Appendf(nil, "partie-p1/%d", n)), e, eventstore.Metadata{Actor: "directeur"})
			require.NoError(t, err)
			_, err = store.Append(ctx, "partie-p1", eventstore.Any, d)
			require.NoError(t, err)
			n++
		}
		attendreTete(t, ctx, store, live)
	}
}

// paye is the engine's correction of a bulletin paying score.
func paye(coup int, licence string, score int) duplicate.BulletinCorrige {
	return duplicate.BulletinCorrige{Coup: coup, Licence: licence, Arbitre: "A1",
		Moteur: &correction.Decision{Paid: score, Sanction: correction.None, Reasons: []correction.Reason{}}}
}

// TestArt3_8_3_EliminationAnnuleeRouvreLaPartie: the director undoes an
// elimination decided in error (§3.8.3); the end it caused goes with it, so
// the solos are the public's again only at the end of the game (§3.5). The
// live projection, the in-memory fold and a rebuild agree.
func TestArt3_8_3_EliminationAnnuleeRouvreLaPartie(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Second)
	defer cancel()
	store, r, live, liveDB, stop := enDirect(t, ctx)
	ajouter := ajouteur(t, ctx, store, r, live)
	solos := func() int {
		t.Helper()
		ls, err := standings.NewLecteur(live).Partie(ctx, "p1", standings.Public)
		require.NoError(t, err)
		require.Equal(t, "A", ls[0].Licence)
		return ls[0].Solos
	}
	cfg, err := duplicate.Config{TempsParCoup: time.Minute, Mode: duplicate.ModeMortSubite}.Valider()
	require.NoError(t, err)
	ajouter(duplicate.PartieCreee{Partie: "p1", Tournoi: "t1", Numero: 1, Config: cfg, Joueurs: []string{"A", "B", "C"}},
		duplicate.TopRetenu{Coup: 1, Ref: "H8", Mot: "BAC", Score: 14}, paye(1, "A", 14), paye(1, "B", 10), paye(1, "C", 12),
		duplicate.EliminationsDecidees{Coup: 1, Reference: 14, Elimines: []string{"B", "C"}},
		duplicate.PartieTerminee{Motif: duplicate.FinVainqueur, DernierCoup: 1, Vainqueur: "A"})
	assert.Equal(t, 1, solos(), "§3.5 announced at the end")
	ajouter(duplicate.EliminationsAnnulees{Coup: 1, Motif: "bulletin de C mal corrigé"})
	require.NoError(t, stop())
	assert.Zero(t, solos(), "the game goes on: no solo announced yet")

	fold, err := standings.Reconstruire(ctx, store, r)
	require.NoError(t, err)
	memoire, err := fold.Partie("p1")
	require.NoError(t, err)
	lues, err := standings.NewLecteur(live).Partie(ctx, "p1", standings.Public)
	require.NoError(t, err)
	assert.Equal(t, memoire, lues, "projection and in-memory fold give the same figures")
	rebuilt, rebuiltDB := runner(t, store, r)
	_, err = rebuilt.Rebuild(ctx, nil)
	require.NoError(t, err)
	assert.Equal(t, dump(t, liveDB), dump(t, rebuiltDB), "rebuild from position zero is byte-identical")
	enMemoireEgal(t, ctx, store, r, liveDB)
}

func enAttente(ls []standings.Ligne, licence string) int {
	for _, l := range ls {
		if l.Licence == licence {
			return l.EnAttente
		}
	}
	return -1
}
