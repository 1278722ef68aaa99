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
	"arbitre/engine/correction"
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
	n := 0
	ajouter := func(evts ...any) {
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
	paye := func(coup int, licence string, score int) duplicate.BulletinCorrige {
		return duplicate.BulletinCorrige{Coup: coup, Licence: licence, Arbitre: "A1",
			Moteur: &correction.Decision{Paid: score, Sanction: correction.None, Reasons: []correction.Reason{}}}
	}
	lire := func() []standings.Ligne {
		t.Helper()
		ls, err := standings.LirePartie(ctx, liveDB, "p1", standings.Public)
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
	cumul, err := standings.LireCumul(ctx, liveDB, "t1", standings.Public)
	require.NoError(t, err)
	assert.False(t, cumul[0].Provisoire, "every game of the tournament closed")

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
