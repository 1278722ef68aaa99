package matchclassique

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbitre/domain/aggregate"
	"arbitre/domain/aggregate/aggregatetest"
	"arbitre/domain/erreur"
	"arbitre/engine/lexicon"
	"arbitre/engine/tile"
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
			p := Nouveau(regles)
			err := p.Creer(Creation{Match: "m1", Tournoi: "t1", Ronde: 1, Table: 1, Joueurs: [2]string{"ana", "bob"}, Premier: "ana"})
			require.NoError(t, err)
			temoin := p.Copie()
			assert.Equal(t, CodeCorruptHistory, erreur.CodeOf(aggregate.Record(p, tt.lot...)))
			assert.Equal(t, temoin, p)
			require.Len(t, p.Pending(), 1)
			assert.Len(t, p.Pending(), 1, "Nouveaux ne vide pas")
			p.MarkSaved()
			assert.Empty(t, p.Pending())
		})
	}
}

// TestAtomicite_EvenementRefuseLaisseMatchIdentique (issue 33, item 1): the
// transition checks an event before changing anything. A refused event
// leaves the match identical, compared with a print made by reflection
// (aggregatetest.Empreinte), not with the match's own copy. Today
// onMotPlace took the first letters from the rack and set them on the board
// before refusing the missing one, onEchange took the rejected letters from
// the rack before finding the drawn ones absent from the bag, and
// onContestation dropped the contestable play before refusing it.
func TestAtomicite_EvenementRefuseLaisseMatchIdentique(t *testing.T) {
	lex, err := lexicon.Compile(strings.NewReader("MAISON\nTE\n"), "test")
	require.NoError(t, err)
	regles, err := NewRegles(lex)
	require.NoError(t, err)
	tests := []struct {
		name   string
		avant  []any
		trafic func(p *Match)
		evt    any
	}{
		{"mot posé dont la dernière lettre manque au chevalet", nil, nil,
			MotPlace{Joueur: 0, Ref: "H4", Mot: "MAISON", Score: 20}},
		{"échange dont les lettres tirées manquent au sac", nil, nil,
			Echange{Joueur: 0, Rejetees: "AE", Tirees: "ZZZ"}},
		{"contestation d'un coup dont les lettres tirées ont quitté le chevalet",
			[]any{MotPlace{Joueur: 0, Ref: "H4", Mot: "MAIS", Score: 10}, Tirage{Joueur: 0, Lettres: "BCDE"}},
			func(p *Match) {
				w, _ := tile.LetterOf('W')
				p.dernier.tirees[w]++
			},
			ContestationTranchee{Contestataire: 1, Retire: true}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := Nouveau(regles)
			err := p.Creer(Creation{Match: "m1", Tournoi: "t1", Ronde: 1, Table: 1, Joueurs: [2]string{"ana", "bob"}, Premier: "ana"})
			require.NoError(t, err)
			require.NoError(t, aggregate.Record(p, Tirage{Joueur: 0, Lettres: "MAISOEU"}, Tirage{Joueur: 1, Lettres: "AEIRSTU"}))
			require.NoError(t, aggregate.Record(p, tt.avant...))
			if tt.trafic != nil {
				tt.trafic(p)
			}
			avant := aggregatetest.Empreinte(p)
			assert.Equal(t, CodeCorruptHistory, erreur.CodeOf(p.Apply(tt.evt)))
			aggregatetest.Identique(t, avant, p)
		})
	}
}
