package simulation

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbitre/domain/duplicate"
	"arbitre/engine/lexicon/libre"
)

func joueurs(n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = string(rune('A'+i%26)) + string(rune('0'+i/26))
	}
	return out
}

func jouer(t testing.TB, graine uint64, n int) (*duplicate.Partie, []any) {
	lex, err := libre.Lexicon()
	require.NoError(t, err)
	cfg := duplicate.Config{TempsParCoup: 3 * time.Minute, Graine: graine}
	s := New(lex, cfg)
	var evts []any
	p, err := s.Jouer(Partie{ID: "p1", Config: cfg, Joueurs: joueurs(n), Graine: graine}, func(p *duplicate.Partie) error {
		evts = append(evts, p.Nouveaux()...)
		p.Sauves()
		return nil
	})
	require.NoError(t, err)
	return p, evts
}

// Property (§3.4, §3.7): for any seed, the recorded events replay to the
// same game, every announced top is a maximum-score move of the engine on
// the replayed position, and the game ends by a rule of §3.7.
func TestSimulation_RejoueEtTopsMaximaux(t *testing.T) {
	lex, err := libre.Lexicon()
	require.NoError(t, err)
	for graine := uint64(1); graine <= 6; graine++ {
		p, evts := jouer(t, graine, 20)
		moteur := duplicate.NewMoteur(lex, p.Config().Variant())
		r := duplicate.Nouvelle(moteur)
		tops := 0
		for _, e := range evts {
			if top, ok := e.(duplicate.TopRetenu); ok {
				g := r.Grille()
				best := moteur.Tops(&g, r.Rack())
				require.NotEmpty(t, best)
				assert.Equal(t, int(best[0].Score), top.Score, "graine %d coup %d : le top est un coup de score maximal (§3.4)", graine, top.Coup)
				tops++
			}
			require.NoError(t, r.Appliquer(e))
		}
		assert.Equal(t, p.Grille(), r.Grille(), "graine %d", graine)
		assert.Equal(t, p.Sac(), r.Sac())
		assert.Equal(t, p.Rack(), r.Rack())
		assert.Equal(t, p.Version(), r.Version())
		require.NotNil(t, r.Fin(), "graine %d : la partie se termine (§3.7)", graine)
		assert.Equal(t, *p.Fin(), *r.Fin())
		assert.Greater(t, tops, 15)
	}
}

func TestSimulation_Deterministe(t *testing.T) {
	_, a := jouer(t, 42, 5)
	_, b := jouer(t, 42, 5)
	assert.Equal(t, a, b)
}
