package duplicate

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbitre/engine/correction"
)

// TestArt3_8_3_EliminationSurBulletinsJuges: in sudden death « est éliminé
// le joueur dont le coup est inférieur à la meilleure solution trouvée par
// au moins un autre joueur » (§3.8.3): the elimination is decided on judged
// bulletins only. It is refused while a player still in has no judged
// bulletin for the coup (a bulletin not typed, or not corrected, is no
// zero); the director undoes an elimination decided in error, as a new
// event with his reason, the end it caused included, and decides again.
func TestArt3_8_3_EliminationSurBulletinsJuges(t *testing.T) {
	cfg := Config{TempsParCoup: time.Minute, Source: SourceDirecteur, Mode: ModeMortSubite}
	partie := func(t *testing.T) *Partie {
		p := nouvellePartie(t, cfg, fixe(t, coup(t, "H8", "BAC", 14)), "A", "B", "C")
		require.NoError(t, p.Tirer("ABCDEF?"))
		require.NoError(t, p.RetenirTop("H8", "BAC"))
		return p
	}
	t.Run("refusée tant qu'un bulletin n'est pas jugé", func(t *testing.T) {
		p := partie(t)
		require.NoError(t, p.CorrigerAMain(aMain(1, "A", paye(14))))
		require.NoError(t, p.DeposerBulletin(BulletinDepose{Coup: 1, Licence: "B", Bulletin: correction.Bulletin{Blank: true}}))
		refuse(t, p, CodeBulletinsPending, p.Eliminer)
		require.NoError(t, p.CorrigerBulletin(Correction{Coup: 1, Licence: "B", Arbitre: "A1"}))
		refuse(t, p, CodeBulletinsPending, p.Eliminer)
		require.NoError(t, p.CorrigerAMain(aMain(1, "C", paye(12))))
		require.NoError(t, p.Eliminer())
		assert.Equal(t, []string{"A"}, p.Joueurs())
	})
	t.Run("une élimination décidée par erreur s'annule, la fin de partie avec elle", func(t *testing.T) {
		p := partie(t)
		require.NoError(t, p.CorrigerAMain(aMain(1, "A", paye(14))))
		require.NoError(t, p.CorrigerAMain(aMain(1, "B", paye(10))))
		require.NoError(t, p.CorrigerAMain(aMain(1, "C", paye(12))))
		require.NoError(t, p.Eliminer())
		require.NotNil(t, p.Fin())
		// C had found the top too: his bulletin was corrected wrongly.
		require.NoError(t, p.CorrigerAMain(aMain(1, "C", paye(14))), "the eliminated player's coup stays correctable")
		refuse(t, p, CodeAnnulationRefused, func() error { return p.AnnulerEliminations("") })
		vider(p)
		require.NoError(t, p.AnnulerEliminations("bulletin de C mal corrigé"))
		assert.Equal(t, []any{EliminationsAnnulees{Coup: 1, Motif: "bulletin de C mal corrigé"}}, vider(p))
		assert.Nil(t, p.Fin(), "the end the elimination caused is undone")
		assert.Equal(t, StatutTop, p.Statut())
		assert.Equal(t, []string{"A", "B", "C"}, p.Joueurs())
		require.NoError(t, p.Eliminer())
		assert.Equal(t, []string{"A", "C"}, p.Joueurs())
		assert.Nil(t, p.Fin())
		require.NoError(t, p.Tirer("GHI"))
		refuse(t, p, CodeWrongState, func() error { return p.AnnulerEliminations("trop tard") })
		refuse(t, p, CodeEliminated, func() error {
			return p.DeposerBulletin(BulletinDepose{Coup: 2, Licence: "B", Bulletin: correction.Bulletin{Blank: true}})
		})
	})
	t.Run("rien à annuler", func(t *testing.T) {
		p := partie(t)
		refuse(t, p, CodeWrongState, func() error { return p.AnnulerEliminations("erreur") })
		q, _ := deuxCoups(t, configDirecteur)
		refuse(t, q, CodeWrongState, func() error { return q.AnnulerEliminations("erreur") })
	})
	t.Run("l'historique rejoué donne la même partie", func(t *testing.T) {
		hist := []any{}
		q := Nouvelle(fixe(t, coup(t, "H8", "BAC", 14)))
		require.NoError(t, q.Creer("p1", "t1", 1, cfg, []string{"A", "B", "C"}))
		hist = append(hist, vider(q)...)
		require.NoError(t, q.Tirer("ABCDEF?"))
		require.NoError(t, q.RetenirTop("H8", "BAC"))
		require.NoError(t, q.CorrigerAMain(aMain(1, "A", paye(14))))
		require.NoError(t, q.CorrigerAMain(aMain(1, "B", paye(10))))
		require.NoError(t, q.CorrigerAMain(aMain(1, "C", paye(12))))
		require.NoError(t, q.Eliminer())
		require.NoError(t, q.AnnulerEliminations("erreur de saisie"))
		hist = append(hist, vider(q)...)
		r := rejouer(t, hist)
		assert.Equal(t, q.Joueurs(), r.Joueurs())
		assert.Nil(t, r.Fin())
		assert.Equal(t, StatutTop, r.Statut())
		assert.ErrorIs(t, r.Apply(EliminationsAnnulees{Coup: 1, Motif: "deux fois"}), ErrCorruptHistory)
	})
}
