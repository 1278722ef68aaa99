package duplicate

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbitre/domain/eventstore"
	"arbitre/engine/correction"
)

// Version 1 events keep replaying: partie.bulletin_depose v1 becomes the
// bulletin as written (§4, jokers circled), partie.bulletin_corrige v1 the
// arbiter's decision (§5.6 penalty without its 5 points, §5.8 extra warnings
// disciplinary, §5.9 average capped by the claimed score).
func TestUpcasters_Version1(t *testing.T) {
	r := eventstore.NewRegistry()
	require.NoError(t, RegisterEvents(r))
	decode := func(typ, data string) any {
		t.Helper()
		v, err := r.Decode(eventstore.Event{Type: typ, Version: 1, Data: json.RawMessage(data)})
		require.NoError(t, err)
		return v
	}
	score := 80
	ref := "8H"
	assert.Equal(t, BulletinDepose{Coup: 3, Licence: "L1", Bulletin: correction.Bulletin{Solutions: []correction.Solution{
		{Word: "MUTIN(E)R", Written: "v", Ref: &ref, Score: &score}}}},
		decode(TypeBulletinDepose, `{"coup":3,"licence":"L1","ref":"8H","mot":"MUTINeR","score":80}`), "§4.2 the joker's letter circled")
	assert.Equal(t, BulletinDepose{Coup: 3, Licence: "L1", Bulletin: correction.Bulletin{Blank: true}},
		decode(TypeBulletinDepose, `{"coup":3,"licence":"L1","blanc":true}`))

	tests := []struct {
		name string
		v1   string
		want correction.Decision
	}{
		{"§5.6 pénalité", `{"coup":1,"licence":"L1","score":30,"penalites":1}`, correction.Decision{Paid: 25, Sanction: correction.Penalty}},
		{"§5.8 deux avertissements", `{"coup":1,"licence":"L1","score":30,"avertissements":2}`, correction.Decision{Paid: 30, Sanction: correction.Warning, DisciplineWarnings: 1}},
		{"§5.7 nullité", `{"coup":1,"licence":"L1","score":0,"nullite":true}`, correction.Decision{Sanction: correction.Zero}},
		{"§5.9 moyenne", `{"coup":1,"licence":"L1","moyenne":true,"scoreRevendique":12,"scoreMerite":10}`, correction.Decision{Sanction: correction.Average, AverageCap: 12}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, ok := decode(TypeBulletinCorrige, tt.v1).(BulletinCorrige)
			require.True(t, ok)
			assert.Nil(t, c.Moteur, "a version 1 correction was made by hand")
			d := c.Finale()
			assert.Equal(t, []any{tt.want.Paid, tt.want.Sanction, tt.want.DisciplineWarnings, tt.want.AverageCap},
				[]any{d.Paid, d.Sanction, d.DisciplineWarnings, d.AverageCap})
		})
	}
}
