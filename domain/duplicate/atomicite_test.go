package duplicate

import (
	"arbitre/domain/aggregate"
	"arbitre/domain/erreur"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// vider reads the new events and forgets them, as a save would.
func vider(p *Partie) []any {
	n := p.Pending()
	p.MarkSaved()
	return n
}

// TestAtomicite_EvenementRefuseLaissePartieIntacte: a command's events are
// recorded all or nothing. A refused event, alone or after events that
// apply, leaves the game exactly as it was, its new events included.
func TestAtomicite_EvenementRefuseLaissePartieIntacte(t *testing.T) {
	joker := Config{TempsParCoup: configDirecteur.TempsParCoup, Source: SourceDirecteur, Formule: FormuleJoker}
	tests := []struct {
		name  string
		cfg   Config
		avant func(t *testing.T, p *Partie)
		evts  []any
	}{
		{"tirage puis top dont la troisième lettre manque", configDirecteur, nil,
			[]any{TirageEffectue{Coup: 1, Tirees: "ABCDEFG"}, TopRetenu{Coup: 1, Ref: "H4", Mot: "ABZ", Score: 10}}},
		{"rejet puis tirage de lettres absentes du sac", configDirecteur, nil,
			[]any{TirageRejete{Coup: 1, Tirees: "AAAAAAA", Motif: RejetVoyellesConsonnes}, TirageEffectue{Coup: 1, Tirees: "ZZZZZZZ"}}},
		{"top seul dont la troisième lettre manque", configDirecteur,
			func(t *testing.T, p *Partie) {
				require.NoError(t, aggregate.Record(p, TirageEffectue{Coup: 1, Tirees: "ABCDEFG"}))
			},
			[]any{TopRetenu{Coup: 1, Ref: "H4", Mot: "ABZ", Score: 10}}},
		{"tirage avec joker ajouté et lettres absentes du sac", joker, nil,
			[]any{TirageEffectue{Coup: 1, Tirees: "ZZZZZZ", JokerAjoute: true}}},
		{"éliminations dont le second joueur est inconnu", configDirecteur, nil,
			[]any{EliminationsDecidees{Coup: 1, Elimines: []string{"L1", "L9"}}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := nouvellePartie(t, tt.cfg, fixe(t))
			if tt.avant != nil {
				tt.avant(t, p)
			}
			avant := p.Copie()
			assert.Equal(t, CodeCorruptHistory, erreur.CodeOf(aggregate.Record(p, tt.evts...)))
			assert.Equal(t, avant, p)
		})
	}
}

// TestAtomicite_NouveauxNeVidePas: Nouveaux only reads; Sauves forgets.
func TestAtomicite_NouveauxNeVidePas(t *testing.T) {
	p := Nouvelle(fixe(t))
	require.NoError(t, p.Creer("p1", "t1", 1, configDirecteur, []string{"L1"}))
	require.Len(t, p.Pending(), 1)
	assert.Len(t, p.Pending(), 1)
	p.MarkSaved()
	assert.Empty(t, p.Pending())
}
