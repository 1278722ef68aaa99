package decodage_test

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"testing"

	"arbitre/domain/duplicate"
	"arbitre/engine/correction"
	"arbitre/projections/decodage"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// commeEncodingJSON checks that when decoder reads data, encoding/json
// reads it too, to the same value.
func commeEncodingJSON[T any](t *testing.T, decoder func([]byte) (T, bool), data []byte) bool {
	t.Helper()
	obtenu, ok := decoder(data)
	if !ok {
		return false
	}
	var attendu T
	require.NoError(t, json.Unmarshal(data, &attendu), "encoding/json reads %q", data)
	require.Equal(t, attendu, obtenu, "%q", data)
	return true
}

func aleatoire(r *rand.Rand) string {
	return []string{"", "A1", "000042", "Hélène", "MUSERAIT", "10K", "ZYX"}[r.IntN(7)]
}

func peutEtre[T any](r *rand.Rand, v T) *T {
	if r.IntN(2) == 0 {
		return nil
	}
	return &v
}

func liste[T any](r *rand.Rand, f func() T) []T {
	switch n := r.IntN(4); n {
	case 0:
		return nil
	default:
		out := make([]T, n-1)
		for i := range out {
			out[i] = f()
		}
		return out
	}
}

func decisionAleatoire(r *rand.Rand) *correction.Decision {
	if r.IntN(3) == 0 {
		return nil
	}
	return &correction.Decision{Paid: r.IntN(200) - 5, Sanction: correction.Sanction(aleatoire(r)),
		Reasons:    liste(r, func() correction.Reason { return correction.Reason(aleatoire(r)) }),
		Commission: r.IntN(2) == 0, Place: aleatoire(r), ScoreWrittenBack: peutEtre(r, r.IntN(100)),
		NotAdmitted: liste(r, func() string { return aleatoire(r) }), AverageCap: r.IntN(3) * 15,
		DisciplineWarnings: r.IntN(2), Billet: r.IntN(2) == 0, Engine: aleatoire(r)}
}

// Issue 16, item 10: every bulletin the domain writes (encoding/json, here
// over fields drawn at random: absent and empty lists, null and set
// pointers, omitted fields) is decoded without reflection, to the value
// encoding/json gives, in a few allocations.
func TestDecodage_BulletinsEcritsParEncodingJSON(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 16))
	for i := range 2000 {
		d := duplicate.BulletinDepose{Coup: r.IntN(30), Licence: aleatoire(r), Table: r.IntN(3), Arbitre: aleatoire(r),
			Bulletin: correction.Bulletin{Missing: r.IntN(2) == 0, Blank: r.IntN(2) == 0, Several: r.IntN(2) == 0,
				Late: r.IntN(2) == 0, Exchanged: r.IntN(2) == 0, Illegible: r.IntN(2) == 0, HardToRead: r.IntN(2) == 0,
				Discipline: r.IntN(3), Solutions: liste(r, func() correction.Solution {
					return correction.Solution{Word: aleatoire(r), Written: correction.Sens(aleatoire(r)), Ref: peutEtre(r, aleatoire(r)),
						Raccord: liste(r, func() correction.RaccordLetter {
							return correction.RaccordLetter{Letter: aleatoire(r), DR: r.IntN(5) - 2, DC: r.IntN(5) - 2}
						}), Score: peutEtre(r, r.IntN(150)), Crossed: r.IntN(2) == 0}
				})}}
		c := duplicate.BulletinCorrige{Coup: r.IntN(30), Licence: aleatoire(r), Arbitre: aleatoire(r), Table: r.IntN(3),
			Moteur: decisionAleatoire(r), Arbitrage: decisionAleatoire(r), Motif: aleatoire(r)}
		depose, err := json.Marshal(d)
		require.NoError(t, err)
		corrige, err := json.Marshal(c)
		require.NoError(t, err)
		require.True(t, commeEncodingJSON(t, decodage.Depose, depose), "tirage %d: %s", i, depose)
		require.True(t, commeEncodingJSON(t, decodage.Corrige, corrige), "tirage %d: %s", i, corrige)
	}
}

// A usual bulletin and its correction (one solution, the engine's decision)
// take a handful of allocations: their strings, met before, are not copied.
func TestDecodage_BulletinUsuelEnPeuDAllocations(t *testing.T) {
	depose := []byte(`{"coup":2,"licence":"000004","table":1,"arbitre":"A1","bulletin":{"missing":false,"blank":false,"several":false,"late":true,"exchanged":false,"illegible":false,"discipline":0,"solutions":[{"word":"MUSERAIT","written":"v","ref":"5E","raccord":null,"score":86,"crossed":false}]}}`)
	corrige := []byte(`{"coup":17,"licence":"000001","arbitre":"A1","table":1,"moteur":{"paid":14,"sanction":"none","reasons":[],"commission":false,"place":"10K","score_written_back":14,"billet":false,"engine":"arbitre-correction/3 (FISF duplicate 2020)"}}`)
	require.True(t, commeEncodingJSON(t, decodage.Depose, depose))
	require.True(t, commeEncodingJSON(t, decodage.Corrige, corrige))
	assert.LessOrEqual(t, testing.AllocsPerRun(20, func() { decodage.Depose(depose) }), 4.0)
	assert.LessOrEqual(t, testing.AllocsPerRun(20, func() { decodage.Corrige(corrige) }), 3.0)
}

// Bytes encoding/json did not write in its layout are left to it: escapes,
// spaces, other key orders, numbers that are not ints, trailing bytes.
func TestDecodage_AutresEcrituresLaisseesAEncodingJSON(t *testing.T) {
	for _, data := range []string{
		`{"coup":1,"licence":"a\"b","bulletin":{}}`,
		`{"coup": 1,"licence":"a"}`,
		`{"licence":"a","coup":1}`,
		`{"coup":1.5,"licence":"a"}`,
		`{"coup":01,"licence":"a"}`,
		`{"coup":1,"licence":"a"} `,
		`{"coup":1,"licence":"` + "\xff" + `"}`,
		`{"coup":1,"licence":"a","moteur":null}`,
		`{"coup":1234567890123456789,"licence":"a"}`,
	} {
		_, ok := decodage.Corrige([]byte(data))
		assert.False(t, ok, data)
	}
	_, ok := decodage.Corrige([]byte(`{"coup":-0,"licence":"a"}`))
	assert.True(t, ok, "-0 is an int to encoding/json too")
}

// FuzzDecodage_Bulletins: on any bytes, what a decoder reads, encoding/json
// reads to the same value.
func FuzzDecodage_Bulletins(f *testing.F) {
	f.Add(true, []byte(`{"coup":2,"licence":"000004","table":1,"arbitre":"A1","bulletin":{"missing":false,"blank":false,"several":false,"late":true,"exchanged":false,"illegible":false,"discipline":0,"solutions":[{"word":"MUSERAIT","written":"v","ref":"5E","raccord":[{"letter":"A","dr":0,"dc":-1}],"score":86,"crossed":false}]}}`))
	f.Add(false, []byte(`{"coup":1,"licence":"000033","arbitre":"A2","table":9,"moteur":{"paid":0,"sanction":"zero","reasons":["WORD_NOT_ADMITTED"],"commission":false,"place":"","score_written_back":null,"not_admitted":["BENDRA"],"average_cap":30,"discipline_warnings":1,"billet":true,"engine":"arbitre-correction/3"},"arbitrage":{"paid":12,"sanction":"none","reasons":[],"commission":true,"place":"H4","score_written_back":12,"billet":false,"engine":""},"motif":"accepté"}`))
	f.Fuzz(func(t *testing.T, depose bool, data []byte) {
		if depose {
			commeEncodingJSON(t, decodage.Depose, data)
		} else {
			commeEncodingJSON(t, decodage.Corrige, data)
		}
	})
}

func ExampleCorrige() {
	c, ok := decodage.Corrige([]byte(`{"coup":3,"licence":"000001","moteur":{"paid":14,"sanction":"none","reasons":[],"commission":false,"place":"10K","score_written_back":14,"billet":false,"engine":"e"}}`))
	fmt.Println(ok, c.Coup, c.Licence, c.Moteur.Paid, c.Moteur.Place)
	// Output: true 3 000001 14 10K
}
