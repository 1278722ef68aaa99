package main

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestE2EGuide2_14_BarrageJoueursDepartages: over HTTP, a barrage is
// created for the tied players the director names, not for every player
// of the tournament (guide §2.14); badly named players are refused with
// INVALID_TIEBREAK and create nothing.
func TestE2EGuide2_14_BarrageJoueursDepartages(t *testing.T) {
	s, director, _ := salleT1(t, 3)
	creer := `mutation($p: ID!, $c: ConfigPartieInput!, $j: [ID!]) { creerPartie(tournoi:"T1", partie:$p, config:$c, joueurs:$j) { joueurs } }`
	refus := []struct {
		name    string
		config  map[string]any
		joueurs []string
		code    string
	}{
		{"barrage sans joueurs", map[string]any{"mode": "barrage"}, nil, "INVALID_TIEBREAK"},
		{"partie normale nommée", map[string]any{}, []string{"L1", "L2"}, "INVALID_TIEBREAK"},
		{"un seul joueur", map[string]any{"mode": "barrage"}, []string{"L1"}, "INVALID_TIEBREAK"},
		{"non inscrit", map[string]any{"mode": "barrage"}, []string{"L1", "L9"}, "UNKNOWN_PLAYER"},
	}
	for _, tt := range refus {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.code, s.gql(director, creer, map[string]any{"p": "T1-B", "c": tt.config, "j": tt.joueurs}).code())
		})
	}
	var tournoi struct{ Parties []string }
	s.gql(director, `{ tournoi(id:"T1") { parties } }`, nil).into(t, "tournoi", &tournoi)
	assert.Empty(t, tournoi.Parties, "a refused game is not added")

	var partie struct{ Joueurs []string }
	s.gql(director, creer, map[string]any{"p": "T1-B", "c": map[string]any{"mode": "barrage"}, "j": []string{"L2", "L1"}}).into(t, "creerPartie", &partie)
	assert.Equal(t, []string{"L1", "L2"}, partie.Joueurs, "only the tied players play the barrage")
	s.gql(director, creer, map[string]any{"p": "T1-1", "c": map[string]any{}}).into(t, "creerPartie", &partie)
	assert.Equal(t, []string{"L1", "L2", "L3"}, partie.Joueurs, "a normal game takes every player")
}

// TestE2EGuide2_14_BarrageEntreExAequo: over HTTP, a barrage between
// players who are not level on the cumul, as the stored games make it, is
// refused with INVALID_TIEBREAK and creates nothing; one between the
// players level at the top is created (guide §2.14).
func TestE2EGuide2_14_BarrageEntreExAequo(t *testing.T) {
	s, director, arbiter := salleT1(t, 3)
	require.Empty(t, s.gql(director, `mutation { creerPartie(tournoi:"T1", partie:"T1-1", config:{source: logiciel, graine: 7}) { version } }`, nil).Errors)
	top := jouerCoupExact(t, s, director, arbiter, "T1-1", "L1", "L2")
	require.Positive(t, top, "L1 and L2 score the top, L3 nothing")

	creer := `mutation($p: ID!, $j: [ID!]) { creerPartie(tournoi:"T1", partie:$p, config:{mode: barrage}, joueurs:$j) { joueurs } }`
	assert.Equal(t, "INVALID_TIEBREAK", s.gql(director, creer, map[string]any{"p": "T1-B", "j": []string{"L1", "L3"}}).code())
	var tournoi struct{ Parties []string }
	s.gql(director, `{ tournoi(id:"T1") { parties } }`, nil).into(t, "tournoi", &tournoi)
	assert.Equal(t, []string{"T1-1"}, tournoi.Parties, "a refused barrage is not added")

	var partie struct{ Joueurs []string }
	s.gql(director, creer, map[string]any{"p": "T1-B", "j": []string{"L2", "L1"}}).into(t, "creerPartie", &partie)
	assert.Equal(t, []string{"L1", "L2"}, partie.Joueurs)
}
