package eventstore_test

import (
	"encoding/json"
	"reflect"
	"testing"

	"arbitre/domain/duplicate"
	"arbitre/domain/eventstore"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// bulletins are payloads of the two event types that make 99.7 % of a
// tournament's log (532,000 of each on the 1.07M-event store), as the
// domain writes them.
var bulletins = []struct{ typ, data string }{
	{"partie.bulletin_depose", `{"coup":2,"licence":"000004","table":1,"arbitre":"A1","bulletin":{"missing":false,"blank":false,"several":false,"late":true,"exchanged":false,"illegible":false,"discipline":0,"solutions":[{"word":"MUSERAIT","written":"v","ref":"5E","raccord":null,"score":86,"crossed":false}]}}`},
	{"partie.bulletin_corrige", `{"coup":17,"licence":"000001","arbitre":"A1","table":1,"moteur":{"paid":14,"sanction":"none","reasons":[],"commission":false,"place":"10K","score_written_back":14,"billet":false,"engine":"arbitre-correction/3 (FISF duplicate 2020)"}}`},
	{"partie.bulletin_corrige", `{"coup":1,"licence":"000033","arbitre":"A2","table":9,"moteur":{"paid":0,"sanction":"zero","reasons":["WORD_NOT_ADMITTED"],"commission":false,"place":"","score_written_back":0,"not_admitted":["BENDRA"],"billet":true,"engine":"arbitre-correction/3 (FISF duplicate 2020)"},"arbitrage":{"paid":12,"sanction":"none","reasons":[],"commission":true,"place":"H4","score_written_back":null,"average_cap":30},"motif":"accepté"}`},
}

func registreDuplicate(tb testing.TB) *eventstore.Registry {
	tb.Helper()
	r := eventstore.NewRegistry()
	require.NoError(tb, duplicate.RegisterEvents(r))
	return r
}

// commeEncodingJSON checks that r decodes data of type typ to the value
// encoding/json gives, and fails where it fails.
func commeEncodingJSON(t *testing.T, r *eventstore.Registry, typ string, data []byte) {
	version, err := r.CurrentVersion(typ)
	require.NoError(t, err)
	obtenu, err := r.Decode(eventstore.Event{Type: typ, Version: version, Data: data})
	var goType reflect.Type
	switch typ {
	case "partie.bulletin_depose":
		goType = reflect.TypeFor[duplicate.BulletinDepose]()
	default:
		goType = reflect.TypeFor[duplicate.BulletinCorrige]()
	}
	attendu := reflect.New(goType)
	errAttendue := json.Unmarshal(data, attendu.Interface())
	if errAttendue != nil {
		assert.Error(t, err, "encoding/json refuses %q", data)
		return
	}
	require.NoError(t, err, "encoding/json accepts %q", data)
	assert.Equal(t, attendu.Elem().Interface(), obtenu, "%q", data)
}

// Issue 16, item 10: the registry decodes a bulletin without encoding/json's
// reflection at every field (16 allocations for a deposited bulletin, 4.3 s
// of a 17 s rebuild): go-json-experiment/json with encoding/json's
// semantics (its v1 options), the same values (FuzzDecodage_CommeEncodingJSON
// and TestReconstruction_DecodageCommeEncodingJSON over a simulated store).
func TestDecodage_BulletinEnPeuDAllocations(t *testing.T) {
	r := registreDuplicate(t)
	for _, b := range bulletins {
		commeEncodingJSON(t, r, b.typ, []byte(b.data))
		version, err := r.CurrentVersion(b.typ)
		require.NoError(t, err)
		e := eventstore.Event{Type: b.typ, Version: version, Data: []byte(b.data)}
		if avecRace {
			continue
		}
		allocations := testing.AllocsPerRun(50, func() {
			if _, err := r.Decode(e); err != nil {
				t.Fatal(err)
			}
		})
		assert.LessOrEqual(t, allocations, 10.0, "%s", b.typ)
	}
}

// FuzzDecodage_CommeEncodingJSON: on any bytes, the registry decodes a
// bulletin exactly as encoding/json does, or fails as it does.
func FuzzDecodage_CommeEncodingJSON(f *testing.F) {
	for i, b := range bulletins {
		f.Add(i%2 == 0, []byte(b.data))
	}
	f.Add(true, []byte(`{"COUP":3,"Licence":"x","coup":4,"bulletin":{"solutions":null},"inconnu":[1,{"a":2}]}`))
	f.Add(false, []byte(`{"coup":"3"}`))
	f.Add(false, []byte("{\"licence\":\"\xff\xfe\",\"moteur\":null}"))
	r := registreDuplicate(f)
	f.Fuzz(func(t *testing.T, depose bool, data []byte) {
		typ := "partie.bulletin_corrige"
		if depose {
			typ = "partie.bulletin_depose"
		}
		commeEncodingJSON(t, r, typ, data)
	})
}

// Issue 16, item 10: an accelerated type's decoder reads the current
// version only, and what it gives up on is decoded the general way; it is
// refused for a type registered with another Go type.
func TestAccelerer_VersionCouranteSinonDecodageGeneral(t *testing.T) {
	reg := newTestRegistry(t)
	marque := tirageV3{Tirage: []string{"rapide"}}
	require.NoError(t, eventstore.Accelerate(reg, "partie.tirage", func(data []byte) (tirageV3, bool) {
		return marque, string(data) == `{"tirage":["A"]}`
	}))
	for _, c := range []struct {
		version int
		data    string
		attendu tirageV3
	}{
		{3, `{"tirage":["A"]}`, marque},
		{3, `{"tirage": ["A"]}`, tirageV3{Tirage: []string{"A"}}},
		{2, `{"tirage":"A"}`, tirageV3{Tirage: []string{"A"}}},
	} {
		obtenu, err := reg.Decode(eventstore.Event{Type: "partie.tirage", Version: c.version, Data: json.RawMessage(c.data)})
		require.NoError(t, err)
		assert.Equal(t, c.attendu, obtenu, "v%d %s", c.version, c.data)
	}
	assert.Error(t, eventstore.Accelerate(reg, "partie.tirage", func([]byte) (decisionRendue, bool) { return decisionRendue{}, false }))
	assert.Error(t, eventstore.Accelerate(reg, "partie.inconnu", func([]byte) (tirageV3, bool) { return tirageV3{}, false }))
}
