package duplicate

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbitre/domain/eventstore"
	"arbitre/engine/correction"
)

// dernierCoupJoue is a game of L1, L2, L3 whose coup 21 is topped with BE
// and, every letter placed, ends the game (§3.7): the top of the last coup
// ends the drawing, and its bulletins are still on the players' tables.
func dernierCoupJoue(t *testing.T) *Partie {
	t.Helper()
	p := nouvellePartie(t, configDirecteur, fixe(t, coup(t, "H8", "BE", 8)))
	etat(t, p, 21, "BE", "")
	require.NoError(t, p.RetenirTop("H8", "BE"))
	require.NotNil(t, p.Fin())
	return p
}

// TestIntroduction_Guide3_2_LeDernierCoupCompte: « à l'issue de chaque
// coup, les joueurs marquent les points que leur rapporte la solution
// qu'ils ont eux-mêmes trouvée » (introduction), and they stay seated « en
// attendant le passage de leur arbitre » (guide §3.2): the end of the game
// closes the drawing, not the arbiters' work. The last coup's bulletins are
// typed, corrected, checked and sanctioned after its top ended the game,
// until the director closes the results; closing is refused while a
// bulletin is missing or uncorrected, unless he confirms it missing (it
// counts zero, §5.7).
func TestIntroduction_Guide3_2_LeDernierCoupCompte(t *testing.T) {
	t.Run("après le dernier top, le travail des arbitres continue", func(t *testing.T) {
		p := dernierCoupJoue(t)
		require.NoError(t, p.DeposerBulletin(BulletinDepose{Coup: 21, Licence: "L1", Bulletin: BulletinEcrit("H8", "BE", entier(8), false, false)}))
		require.NoError(t, p.CorrigerBulletin(Correction{Coup: 21, Licence: "L1", Arbitre: "A1"}))
		require.NoError(t, p.ContreArbitrer(DoubleArbitrage{Coup: 21, Licence: "L1", Arbitre: "A2", Confirme: true}))
		require.NoError(t, p.Sanctionner(sanction(21, "L1", SanctionAvertissement)))
		require.NoError(t, p.DeposerBulletin(BulletinDepose{Coup: 21, Licence: "L2", Bulletin: correction.Bulletin{Blank: true}}))
		refuse(t, p, CodeInvalidBulletin, func() error { return p.DeposerBulletin(BulletinDepose{Coup: 22, Licence: "L3"}) })
		refuse(t, p, CodeInvalidSanction, func() error { return p.Sanctionner(sanction(22, "L3", SanctionAvertissement)) })
		refuse(t, p, CodeGameOver, func() error { return p.Tirer("A") })
	})
	t.Run("la clôture est refusée tant qu'un bulletin manque ou attend sa correction", func(t *testing.T) {
		p := dernierCoupJoue(t)
		require.NoError(t, p.DeposerBulletin(BulletinDepose{Coup: 21, Licence: "L2", Bulletin: correction.Bulletin{Blank: true}}))
		require.NoError(t, p.CorrigerAMain(aMain(21, "L1", paye(8))))
		assert.Equal(t, []BulletinManquant{{Coup: 21, Licence: "L2"}, {Coup: 21, Licence: "L3"}}, p.BulletinsEnAttente())
		refuse(t, p, CodeBulletinsPending, func() error { return p.CloreResultats(false, eventstore.Instant{}) })
		assert.False(t, p.ResultatsClos())
	})
	t.Run("le directeur confirme les bulletins manquants : ils comptent zéro", func(t *testing.T) {
		p := dernierCoupJoue(t)
		require.NoError(t, p.CorrigerAMain(aMain(21, "L1", paye(8))))
		vider(p)
		lecture := eventstore.MonotonicReading{Origin: "serveur", Elapsed: time.Hour}
		require.NoError(t, p.CloreResultats(true, eventstore.Instant{Wall: time.Now(), Monotonic: &lecture}))
		clos := ResultatsClos{Manquants: []BulletinManquant{{Coup: 21, Licence: "L2"}, {Coup: 21, Licence: "L3"}},
			Monotone: &lecture} // an appeal's 15 minutes are measured from it (§6.3)
		assert.Equal(t, []any{clos}, vider(p))
		assert.True(t, p.ResultatsClos())
		assert.Empty(t, p.BulletinsEnAttente())
		d, ok := p.DecisionSanctionnee(21, "L3")
		require.True(t, ok)
		assert.Equal(t, DecisionManquant(), d, "§5.7 a missing bulletin is a zéro")
	})
	t.Run("résultats clos : plus de saisie, de correction ni de sanction ; l'appel reste ouvert", func(t *testing.T) {
		p := dernierCoupJoue(t)
		for _, l := range []string{"L1", "L2", "L3"} {
			require.NoError(t, p.CorrigerAMain(aMain(21, l, paye(8))))
		}
		require.NoError(t, p.CloreResultats(false, eventstore.Instant{}), "nothing pending: no confirmation needed")
		refuse(t, p, CodeResultsClosed, func() error {
			return p.DeposerBulletin(BulletinDepose{Coup: 21, Licence: "L1", Bulletin: correction.Bulletin{Blank: true}})
		})
		refuse(t, p, CodeResultsClosed, func() error { return p.CorrigerAMain(aMain(21, "L1", paye(7))) })
		refuse(t, p, CodeResultsClosed, func() error { return p.CorrigerBulletin(Correction{Coup: 21, Licence: "L1", Arbitre: "A1"}) })
		refuse(t, p, CodeResultsClosed, func() error {
			return p.ContreArbitrer(DoubleArbitrage{Coup: 21, Licence: "L1", Arbitre: "A2", Confirme: true})
		})
		refuse(t, p, CodeResultsClosed, func() error { return p.Sanctionner(sanction(21, "L1", SanctionAvertissement)) })
		refuse(t, p, CodeResultsClosed, func() error { return p.CloreResultats(true, eventstore.Instant{}) })
		d := paye(6)
		require.NoError(t, p.DeciderAppel(DecisionCommission{Coup: 21, Licence: "L2", Appel: "r1", Niveau: 1, Issue: AppelAmende, Decision: &d, Motif: "mot mal placé"}),
			"§6.3 appeals are decided after the results")
	})
	t.Run("§3.8.4 topping : les temps du dernier coup se notent après la fin", func(t *testing.T) {
		cfg := Config{TempsParCoup: time.Minute, Source: SourceDirecteur, Mode: ModeTopping}
		p := nouvellePartie(t, cfg, fixe(t, coup(t, "H8", "BE", 8)), "A", "B")
		etat(t, p, 21, "BE", "")
		require.NoError(t, p.RetenirTop("H8", "BE"))
		require.NotNil(t, p.Fin())
		require.NoError(t, p.Topper(21, "A", 12, true))
		assert.Equal(t, []BulletinManquant{{Coup: 21, Licence: "B"}}, p.BulletinsEnAttente(), "B's time is not recorded yet")
		require.NoError(t, p.Topper(21, "B", 0, false))
		require.NoError(t, p.CloreResultats(false, eventstore.Instant{}))
		refuse(t, p, CodeResultsClosed, func() error { return p.Topper(21, "A", 12, true) })
	})
	t.Run("pas de clôture pendant la partie", func(t *testing.T) {
		p, _ := deuxCoups(t, configDirecteur)
		refuse(t, p, CodeWrongState, func() error { return p.CloreResultats(true, eventstore.Instant{}) })
		q := Nouvelle(fixe(t))
		refuse(t, q, CodeNotFound, func() error { return q.CloreResultats(true, eventstore.Instant{}) })
	})
	t.Run("§3.7 une partie interrompue : seuls les coups validés attendent leurs bulletins", func(t *testing.T) {
		debut := time.Date(2026, 3, 1, 14, 0, 0, 0, time.UTC)
		p := nouvellePartie(t, configDirecteur, fixe(t))
		for c := 1; c <= 16; c++ {
			p.tops[c] = TopRetenu{Coup: c}
		}
		for c := 1; c <= 15; c++ {
			p.ramasses[c] = true
		}
		p.statut, p.prochainCoup = StatutAttenteTirage, 17
		require.NoError(t, p.Interrompre(murale(debut)))
		require.NoError(t, p.Reprendre(murale(debut.Add(16*time.Minute))))
		assert.Len(t, p.BulletinsEnAttente(), 15*3, "coups 1 to 15 stand, coup 16 does not")
		refuse(t, p, CodeInvalidBulletin, func() error { return p.DeposerBulletin(BulletinDepose{Coup: 16, Licence: "L1"}) })
	})
	t.Run("l'historique rejoué donne la même partie", func(t *testing.T) {
		p := Nouvelle(fixe(t, coup(t, "H8", "BAC", 14), coup(t, "I8", "DE", 14)))
		require.NoError(t, p.Creer("p1", "t1", 1, configDirecteur, []string{"L1", "L2"}))
		require.NoError(t, p.Tirer("ABCDEF?"))
		require.NoError(t, p.RetenirTop("H8", "BAC"))
		require.NoError(t, p.CorrigerAMain(aMain(1, "L1", paye(14))))
		partie := vider(p)
		fin := []any{PartieTerminee{Motif: FinToutesLettresPlacees, DernierCoup: 1}}
		require.NoError(t, p.Apply(fin[0]))
		require.NoError(t, p.CloreResultats(true, eventstore.Instant{}))
		q := rejouer(t, partie, fin, vider(p))
		assert.True(t, q.ResultatsClos())
		d, ok := q.DecisionSanctionnee(1, "L2")
		assert.True(t, ok)
		assert.Equal(t, DecisionManquant(), d)
		assert.ErrorIs(t, q.Apply(ResultatsClos{}), ErrCorruptHistory, "closed once")
		r := Nouvelle(nil)
		require.NoError(t, r.Apply(PartieCreee{Partie: "p1", Config: configDirecteur, Joueurs: []string{"L1"}}))
		assert.ErrorIs(t, r.Apply(ResultatsClos{}), ErrCorruptHistory, "not before the end")
	})
}
