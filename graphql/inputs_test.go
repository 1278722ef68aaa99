package graphql

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	"arbitre/graphql/model"
)

func TestSecurite_EntreesNFC(t *testing.T) {
	decompose := "E\u0301te\u0301"
	club := decompose
	in := model.JoueurInput{Licence: "L1", Nom: decompose, Club: &club}
	out := nfc(in).(model.JoueurInput)
	assert.Equal(t, "\u00c9t\u00e9", out.Nom)
	assert.Equal(t, "\u00c9t\u00e9", *out.Club)
	assert.Equal(t, decompose, in.Nom, "the original is not modified")
	assert.Equal(t, decompose, club, "nor what it points to")
	assert.Equal(t, []string{"\u00c9t\u00e9"}, nfc([]string{decompose}))
	assert.Nil(t, nfc(nil))
}

func TestSecurite_EntreesEcho(t *testing.T) {
	long := "abcdefghijklmnopqrstuvwxyz0123456789"
	court := "abcdefghijklmnopqrstuvwxyz012345…"
	cases := []struct {
		name, msg string
		entrees   []string
		want      string
	}{
		{"an argument repeated", "la partie " + long + " n'existe pas", []string{long}, "la partie " + court + " n'existe pas"},
		{"a short argument untouched", "la partie P1 n'existe pas", []string{"P1"}, "la partie P1 n'existe pas"},
		{"a long quoted input", `Cannot query field "` + long + `" on type "Query".`, nil, `Cannot query field "` + court + `" on type "Query".`},
		{"accents count as one character", `Value "` + strings.Repeat("é", 40) + `"`, nil, `Value "` + strings.Repeat("é", 32) + `…"`},
	}
	for _, c := range cases {
		assert.Equal(t, c.want, abregerMessage(c.msg, c.entrees), c.name)
	}
}
