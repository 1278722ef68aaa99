package duplicate

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestArt3_8_4_Topping: a topping game (§3.8.4) is configured by its mode;
// once the top of a coup is found and put down, the director records each
// player's time; a top not found in the time allotted (the game's time per
// coup, « généralement, une minute ») is given with a 20-second penalty:
// the coup counts the time allotted plus 20 s, whatever the client says.
func TestArt3_8_4_Topping(t *testing.T) {
	cfg := Config{TempsParCoup: time.Minute, Source: SourceDirecteur, Mode: ModeTopping}
	p := nouvellePartie(t, cfg, fixe(t, coup(t, "H8", "BAC", 14)), "A", "B", "C")
	refuse(t, p, CodeWrongState, func() error { return p.Topper(1, "A", 10, true) })
	require.NoError(t, p.Tirer("ABCDEFG"))
	refuse(t, p, CodeWrongState, func() error { return p.Topper(1, "A", 10, true) })
	require.NoError(t, p.RetenirTop("H8", "BAC"))
	vider(p)
	require.NoError(t, p.Topper(1, "A", 42, true))
	require.NoError(t, p.Topper(1, "B", 5, false))
	assert.Equal(t, []any{
		TopTrouve{Coup: 1, Licence: "A", Secondes: 42, Trouve: true},
		TopTrouve{Coup: 1, Licence: "B", Secondes: 80},
	}, vider(p), "§3.8.4 the top given: the minute allotted and 20 s of penalty")
	tests := []struct {
		name     string
		coup     int
		licence  string
		secondes int
		trouve   bool
		code     Code
	}{
		{"§3.8.4 déjà chronométré", 1, "A", 30, true, CodeInvalidTopping},
		{"§3.8.4 trouvé après le temps imparti", 1, "C", 61, true, CodeInvalidTopping},
		{"temps négatif", 1, "C", -1, true, CodeInvalidTopping},
		{"coup sans top", 2, "C", 10, true, CodeWrongState},
		{"joueur inconnu", 1, "Z", 10, true, CodeUnknownPlayer},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			refuse(t, p, tt.code, func() error { return p.Topper(tt.coup, tt.licence, tt.secondes, tt.trouve) })
		})
	}
	t.Run("pas de chronométrage hors topping", func(t *testing.T) {
		q := nouvellePartie(t, configDirecteur, fixe(t, coup(t, "H8", "BAC", 14)))
		require.NoError(t, q.Tirer("ABCDEFG"))
		require.NoError(t, q.RetenirTop("H8", "BAC"))
		refuse(t, q, CodeWrongState, func() error { return q.Topper(1, "L1", 10, true) })
	})
	t.Run("§3.8.4 un joueur seul face au jeu, sans élimination", func(t *testing.T) {
		seul := nouvellePartie(t, cfg, fixe(t, coup(t, "H8", "BAC", 14)), "A")
		require.NoError(t, seul.Tirer("ABCDEFG"))
		require.NoError(t, seul.RetenirTop("H8", "BAC"))
		refuse(t, seul, CodeWrongState, seul.Eliminer)
		require.NoError(t, seul.Topper(1, "A", 12, true))
	})
	t.Run("§3.6 un coup annulé emporte ses temps", func(t *testing.T) {
		require.NoError(t, p.AnnulerCoup(AnnulationErreur))
		assert.Empty(t, p.toppings)
	})
}
