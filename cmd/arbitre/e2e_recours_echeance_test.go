package main

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestArt6_3_RecoursApresLaPartieSuivante: over HTTP, an appeal on a game
// is recevable until the next game of the tournament starts (its first
// tirage, §6.3); after it, DEADLINE_PASSED and nothing is stored.
func TestArt6_3_RecoursApresLaPartieSuivante(t *testing.T) {
	data := t.TempDir()
	director := apiToken(t, data, "--role", "director")
	s := startAPIServer(t, data)
	defer s.stop()
	a := nouvelleAppelPartie(t, s, director, "A")

	require.Empty(t, s.gql(director, deposerAppelMutation, map[string]any{"a": a.depot("E1", "L2")}).Errors, "no next game yet")
	suivante := map[string]any{"t": a.tournoi, "p": "A-2"}
	require.Empty(t, s.gql(director, `mutation($t: ID!, $p: ID!) { creerPartie(tournoi:$t, partie:$p, config:{source: logiciel, graine: 7}) { version } }`, suivante).Errors)
	require.Empty(t, s.gql(director, deposerAppelMutation, map[string]any{"a": a.depot("E2", "L1")}).Errors, "next game created, not started")

	require.Empty(t, s.gql(director, `mutation($p: ID!) { tirer(partie:$p) { version } }`, suivante).Errors)
	res := s.gql(director, deposerAppelMutation, map[string]any{"a": a.depot("E3", "L20")})
	assert.Equal(t, "DEADLINE_PASSED", res.code())
	require.NotEmpty(t, res.Errors)
	assert.Contains(t, res.Errors[0].Message, "§6.3")
	assert.Equal(t, "null", string(s.gql(director, appelQuery, map[string]any{"id": "E3"}).Data["appel"]), "late appeal not stored")
}
