package charge

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// BenchmarkIssue34_EnveloppeDUnClassement: what a display of arbitre
// charge spends on one classementChange message of a 2,000-player hall
// (rang nom score top, 2,000 lines), on the same cores as the server.
func BenchmarkIssue34_EnveloppeDUnClassement(b *testing.B) {
	var lignes []string
	for i := range 2000 {
		lignes = append(lignes, fmt.Sprintf(`{"rang":%d,"nom":"Joueur %04d","score":%d,"top":42}`, i+1, i, 900-i/3))
	}
	raw := []byte(`{"payload":{"data":{"classementChange":[` + strings.Join(lignes, ",") + `]}},"id":"s","type":"next"}` + "\n")
	b.SetBytes(int64(len(raw)))
	b.ReportAllocs()
	for range b.N {
		m, err := lireEnveloppe(raw)
		if err != nil || m.ID != "s" || len(m.Payload) == 0 {
			b.Fatal(err, m.ID)
		}
	}
}

// TestIssue34_EnveloppeSansLireLeClassement: a display reads a message's
// type and id and keeps its payload as sent, whatever its place in the
// envelope, its blanks and the brackets and quotes inside its strings; a
// message that is not a whole JSON object is refused.
func TestIssue34_EnveloppeSansLireLeClassement(t *testing.T) {
	tests := []struct {
		name, raw, id, typ, payload string
		refuse                      bool
	}{
		{name: "classement", raw: `{"payload":{"data":{"classementChange":[{"rang":1,"nom":"A \"}]\\","top":42}]}},"id":"s","type":"next"}` + "\n",
			id: "s", typ: "next", payload: `{"data":{"classementChange":[{"rang":1,"nom":"A \"}]\\","top":42}]}}`},
		{name: "erreurs, blancs et autre ordre", raw: " { \"type\" : \"error\" ,\n\"id\":\"c\", \"payload\" : [ {\"message\":\"non, \\\"{\"} ] }",
			id: "c", typ: "error", payload: `[ {"message":"non, \"{"} ]`},
		{name: "sans charge", raw: `{"type":"connection_ack"}`, typ: "connection_ack"},
		{name: "littéraux", raw: `{"payload":null,"n":12,"ok":true,"type":"next"}`, typ: "next", payload: "null"},
		{name: "inachevé", raw: `{"payload":{"data":[1,2}`, refuse: true},
		{name: "pas un objet", raw: `["next"]`, refuse: true},
		{name: "clé sans valeur", raw: `{"type" "next"}`, refuse: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, err := lireEnveloppe([]byte(tt.raw))
			if tt.refuse {
				require.Error(t, err)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.id, m.ID)
			assert.Equal(t, tt.typ, m.Type)
			assert.Equal(t, tt.payload, string(m.Payload))
		})
	}
}

// TestIssue34_EnveloppeDuServeurLueParSesBouts: a next message laid out as
// the server writes it is read by its ends, to the same envelope as value
// after value, whatever its payload holds (a key "id", the envelope's tail
// inside a string); any other layout is left to the reading value after
// value.
func TestIssue34_EnveloppeDuServeurLueParSesBouts(t *testing.T) {
	tests := []struct {
		name, raw   string
		parSesBouts bool
	}{
		{name: "classement", raw: `{"payload":{"data":{"classementChange":[{"rang":1,"nom":"A \"}]\\","top":42}]}},"id":"s","type":"next"}` + "\n", parSesBouts: true},
		{name: "queue dans une chaîne", raw: `{"payload":{"data":{"nom":"x\",\"id\":\"c\",\"type\":\"next\"}"}},"id":"s","type":"next"}` + "\n", parSesBouts: true},
		{name: "clé id dans la charge", raw: `{"payload":{"errors":[{"message":"m","id":"x"}],"data":null},"id":"c","type":"next"}`, parSesBouts: true},
		{name: "id échappé", raw: `{"payload":{"data":null},"id":"a\"b","type":"next"}`},
		{name: "sans id", raw: `{"payload":{"data":null},"type":"next"}`},
		{name: "autre ordre", raw: `{"id":"s","payload":{"data":null},"type":"next"}`},
		{name: "erreur", raw: `{"payload":[{"message":"non"}],"id":"c","type":"error"}`},
		{name: "charge qui n'est pas un objet", raw: `{"payload":null,"id":"c","type":"next"}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			attendu, err := lireValeurs([]byte(tt.raw))
			require.NoError(t, err)
			m, ok := enveloppeDuServeur([]byte(tt.raw))
			require.Equal(t, tt.parSesBouts, ok)
			if ok {
				assert.Equal(t, attendu, m)
			}
			m, err = lireEnveloppe([]byte(tt.raw))
			require.NoError(t, err)
			assert.Equal(t, attendu, m)
		})
	}
}
