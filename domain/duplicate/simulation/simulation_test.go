package simulation

import (
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbitre/domain/duplicate"
	"arbitre/domain/eventstore"
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
	cfg := duplicate.Config{TempsParCoup: 3 * time.Minute, Source: duplicate.SourceLogiciel, GraineTest: new(uint64(graine))}
	s := New(lex, cfg)
	var evts []any
	p, err := s.Jouer(Partie{ID: "p1", Config: cfg, Joueurs: joueurs(n), Graine: graine}, func(p *duplicate.Partie) error {
		evts = append(evts, p.Pending()...)
		p.MarkSaved()
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
			require.NoError(t, r.Apply(e))
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

// The games' views (projections/parties) pass the events of the bulletins'
// life (Partie.Passer) without decoding them: for any seed, the game
// replayed so shows what the game that applied them shows (grid, bag,
// tirage, tops, chrono, status, end) and has its version. Passer refuses
// any other event, and a game not created.
func TestSimulation_PasserLesBulletinsGardeLEtatPublic(t *testing.T) {
	reg := eventstore.NewRegistry()
	require.NoError(t, duplicate.RegisterEvents(reg))
	for graine := uint64(1); graine <= 4; graine++ {
		p, evts := jouer(t, graine, 12)
		vue := duplicate.Nouvelle(nil)
		passes := 0
		for _, e := range evts {
			data, err := reg.NewEventData(uuid.Nil, e, eventstore.Metadata{})
			require.NoError(t, err)
			if !duplicate.DuBulletin(data.Type) {
				require.NoError(t, vue.Apply(e))
				continue
			}
			require.NoError(t, vue.Passer(data.Type))
			passes++
		}
		assert.Greater(t, passes, 12*15, "graine %d : les bulletins et leurs corrections", graine)
		assert.Equal(t, p.Version(), vue.Version(), "graine %d", graine)
		assert.Equal(t, p.Grille(), vue.Grille())
		assert.Equal(t, p.Sac(), vue.Sac())
		assert.Equal(t, p.Rack(), vue.Rack())
		assert.Equal(t, p.Statut(), vue.Statut())
		assert.Equal(t, p.ProchainCoup(), vue.ProchainCoup())
		assert.Equal(t, p.Chrono(), vue.Chrono())
		assert.Equal(t, p.Joueurs(), vue.Joueurs())
		assert.Equal(t, p.Fin(), vue.Fin())
		for c := 1; c < p.ProchainCoup(); c++ {
			top, _ := p.Top(c)
			passe, _ := vue.Top(c)
			assert.Equal(t, top, passe, "graine %d coup %d", graine, c)
		}
		assert.ErrorIs(t, vue.Passer(duplicate.TypeTopRetenu), duplicate.ErrCorruptHistory)
	}
	assert.ErrorIs(t, duplicate.Nouvelle(nil).Passer(duplicate.TypeBulletinDepose), duplicate.ErrCorruptHistory)
}
