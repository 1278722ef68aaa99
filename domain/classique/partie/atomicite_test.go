package partie

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbitre/engine/lexicon"
)

// TestAtomicite_LotRefuseLaisseMatchIntact: a command's events are recorded
// all or nothing. A batch whose second event is refused leaves the match
// exactly as it was, its new events included; Nouveaux only reads them and
// Sauves forgets them.
func TestAtomicite_LotRefuseLaisseMatchIntact(t *testing.T) {
	lex, err := lexicon.Compile(strings.NewReader("MAISON\nTE\n"), "test")
	require.NoError(t, err)
	regles, err := NewRegles(lex)
	require.NoError(t, err)
	tests := []struct {
		name string
		lot  []any
	}{
		{"tirage puis tirage de lettres absentes du sac", []any{Tirage{Joueur: 0, Lettres: "AEIOUST"}, Tirage{Joueur: 1, Lettres: "ZZZZZZZ"}}},
		{"tirage puis seconde création", []any{Tirage{Joueur: 0, Lettres: "AEIOUST"}, MatchCree{Match: "m2"}}},
		// Issue 13 item 1: an event naming a third player is refused, never a panic.
		{"tirage d'un joueur 5", []any{Tirage{Joueur: 0, Lettres: "AEIOUST"}, Tirage{Joueur: 5, Lettres: "EEE"}}},
		{"pénalité d'un joueur -1", []any{Tirage{Joueur: 0, Lettres: "AEIOUST"}, Penalite{Joueur: -1, Points: 5}}},
		{"signature d'un joueur 2", []any{Tirage{Joueur: 0, Lettres: "AEIOUST"}, FeuilleSignee{Joueur: 2}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := Creer(regles, Creation{Match: "m1", Tournoi: "t1", Ronde: 1, Table: 1, Joueurs: [2]string{"ana", "bob"}, Premier: "ana"})
			require.NoError(t, err)
			temoin := p.clone()
			assert.Equal(t, CodeCorruptHistory, CodeOf(p.record(tt.lot...)))
			assert.Equal(t, temoin, p)
			require.Len(t, p.Nouveaux(), 1)
			assert.Len(t, p.Nouveaux(), 1, "Nouveaux ne vide pas")
			p.Sauves()
			assert.Empty(t, p.Nouveaux())
		})
	}
}
