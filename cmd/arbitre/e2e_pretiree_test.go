package main

import (
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestE2EGuide2_17_FeuillePretireeChargeeParLAPI (issue 29 item 8): the
// pre-drawn sheet of guide §2.17 was reachable by no field, console or
// command. The director loads it once, checked whole (a bad sheet changes
// nothing), before the first tirage; each tirer then draws the sheet's
// line — the reliquat on the stand and the new letters in the sheet's
// order — without letters typed, and typed letters are refused.
func TestE2EGuide2_17_FeuillePretireeChargeeParLAPI(t *testing.T) {
	feuille := feuillePretiree(t, 3)
	var texte strings.Builder
	for k, l := range feuille {
		fmt.Fprintf(&texte, "%d  %s+%s  %s %s %d\n", k+1, l.reliquat, l.tirees, l.ref, l.mot, l.score)
	}
	s, director, arbiter := salleT1(t, 2)
	require.Empty(t, s.gql(director, `mutation { creerPartie(tournoi:"T1", partie:"T1-1", config:{source: pretiree}) { id } }`, nil).Errors)
	charger := `mutation($f: String!) { chargerFeuillePretiree(partie:"T1-1", feuille:$f) { version } }`

	res := s.gql(director, charger, map[string]any{"f": "1 +ABCDEFG\n3 +HIJKLMN\n"})
	assert.Equal(t, "INVALID_INPUT", res.code(), "a sheet whose coups skip one: %+v", res.Errors)
	assert.Equal(t, "UNAUTHENTICATED", s.gql("", charger, map[string]any{"f": texte.String()}).code())
	assert.Equal(t, "FORBIDDEN", s.gql(arbiter, charger, map[string]any{"f": texte.String()}).code(), "the director's alone")
	assert.Equal(t, "INVALID_DRAW", s.gql(director, `mutation { tirer(partie:"T1-1") { version } }`, nil).code(),
		"no sheet yet: the letters are typed")
	var version struct{ Version int }
	s.gql(director, charger, map[string]any{"f": texte.String()}).into(t, "chargerFeuillePretiree", &version)
	assert.Equal(t, "WRONG_STATE", s.gql(director, charger, map[string]any{"f": texte.String()}).code(), "loaded once")

	for k, l := range feuille {
		assert.Equal(t, "INVALID_DRAW", s.gql(director, `mutation($l: String) { tirer(partie:"T1-1", lettres:$l) { version } }`,
			map[string]any{"l": l.tirees}).code(), "coup %d: the sheet draws, nothing is typed", k+1)
		var p struct{ Reliquat, Nouvelles string }
		s.gql(director, `mutation { tirer(partie:"T1-1") { reliquat nouvelles } }`, nil).into(t, "tirer", &p)
		assert.Equal(t, l.tirees, p.Nouvelles, "coup %d: the new letters in the sheet's order", k+1)
		assert.Equal(t, trier(l.reliquat), trier(p.Reliquat), "coup %d: the reliquat the sheet expects", k+1)
		require.Empty(t, s.gql(director, `mutation($r: String!, $m: String!) { retenirTop(partie:"T1-1", reference:$r, mot:$m) { version } }`,
			map[string]any{"r": l.ref, "m": l.mot}).Errors, "coup %d: the sheet's top", k+1)
	}
}

// trier sorts a word's letters.
func trier(s string) string {
	b := []byte(s)
	sort.Slice(b, func(i, j int) bool { return b[i] < b[j] })
	return string(b)
}
