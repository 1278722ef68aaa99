package main

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestSecurite_JetonDeCentreDansSonTournoi (issue 28 item 11): tournament
// ids and twinning ids share one namespace, and a centre token's scope
// names a twinning. A director limited to tournament T2 minted a centre
// token for a twinning « T2 » of tournament T1, and followed T1's games
// with it. He now issues centre tokens only for a twinning whose principal
// tournament is his; a director without tournament issues any.
func TestSecurite_JetonDeCentreDansSonTournoi(t *testing.T) {
	data := t.TempDir()
	for _, j := range [][2]string{{"T2", "T1"}, {"T3", "T3"}} { // twinning, its principal tournament
		out, err := runArbitre(t, "jumelage", "creer", "--data", data, "--init", "--jumelage", j[0], "--formule", "1",
			"--principal", "Vichy", "--tournoi", j[1], "--site", "Lyon")
		require.NoError(t, err, out)
	}
	director := apiToken(t, data, "--role", "director")
	directeurT2 := apiToken(t, data, "--role", "director", "--tournoi", "T2")
	directeurT3 := apiToken(t, data, "--role", "director", "--tournoi", "T3")
	s := startAPIServer(t, data)
	defer s.stop()
	attendreJetons(t, s, director, directeurT2, directeurT3)
	emettre := `mutation($t: String!) { emettreJeton(demande:{role: CENTRE, tournoi:$t, centre:"Lyon"}) { secret } }`

	res := s.gql(directeurT2, emettre, map[string]any{"t": "T2"})
	require.Equal(t, "FORBIDDEN", res.code(), "%+v", res.Errors)
	assert.Contains(t, res.Errors[0].Message, "jumelage dont T2 est le tournoi principal")
	assert.Equal(t, "FORBIDDEN", s.gql(directeurT2, emettre, map[string]any{"t": "T1"}).code(), "another tournament, as before")
	assert.Equal(t, "FORBIDDEN", s.gql(directeurT3, emettre, map[string]any{"t": "INCONNU"}).code())
	assert.Empty(t, s.gql(directeurT3, emettre, map[string]any{"t": "T3"}).Errors, "his own tournament's twinning")
	assert.Empty(t, s.gql(director, emettre, map[string]any{"t": "T2"}).Errors, "a director without tournament")
}
