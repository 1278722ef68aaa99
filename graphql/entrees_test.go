package graphql

import (
	"errors"
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
	cases := []struct {
		name string
		err  error
		want string
	}{
		{"API error", &Error{Code: CodeNotFound, Message: "la partie " + long + " n'existe pas"}, "la partie abcdefghijklmnopqrstuvwxyz012345… n'existe pas"},
		{"short input untouched", &Error{Code: CodeNotFound, Message: "la partie P1 n'existe pas"}, "la partie P1 n'existe pas"},
		{"unknown error stays generic", errors.New("boom " + long), "Erreur interne du serveur"},
	}
	for _, c := range cases {
		err := abreger(c.err, map[string]any{"partie": long, "autres": []any{map[string]any{"x": "P1"}}})
		var api *Error
		if errors.As(err, &api) {
			assert.Equal(t, c.want, api.Message, c.name)
			continue
		}
		assert.Equal(t, c.want, translate(err).Message, c.name)
	}
}
