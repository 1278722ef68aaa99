package main

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The arbiters' bulletin entry through the API (issue 15, items 12 to 14 of
// fisf-reglement-duplicate-2020.txt §1.1, §4.3.1, §5.5, §5.7): a
// disciplinary avertissement makes the sanction a warning, a single letter
// is recorded and judged a zéro (NOT_A_WORD), a bulletin without `written`
// follows its reference's notation and is not INVERTED.
func TestE2EBulletin_Art5_5_5_7_4_3_1(t *testing.T) {
	s, director, arbiter := salleT1(t, 3)
	var p apiPartie
	s.gql(director, `mutation { creerPartie(tournoi:"T1", partie:"T1-1", config:{source: logiciel, graine: 7}) { `+partieFields+` } }`, nil).into(t, "creerPartie", &p)
	enter := `mutation($c: Int!, $l: ID!, $b: BulletinInput!) { deposerBulletin(partie:"T1-1", coup:$c, licence:$l, bulletin:$b) { licence } }`
	type decision struct {
		Paye     int
		Sanction string
		Raisons  []string
	}
	corriger := func(coup int, licence string) decision {
		t.Helper()
		var b struct{ Decision decision }
		s.gql(arbiter, `mutation($c: Int!, $l: ID!) { corrigerBulletin(partie:"T1-1", coup:$c, licence:$l) { decision { paye sanction raisons } } }`,
			map[string]any{"c": coup, "l": licence}).into(t, "corrigerBulletin", &b)
		return b.Decision
	}
	jouer := func(coup int, bulletins map[string]map[string]any) map[string]decision {
		t.Helper()
		for l, b := range bulletins {
			require.Empty(t, s.gql(arbiter, enter, map[string]any{"c": coup, "l": l, "b": b}).Errors, "%s is recorded, not refused", l)
		}
		var top apiPartie
		s.gql(director, `{ partie(id:"T1-1") { solutions { mot reference score admissible } } }`, nil).into(t, "partie", &top)
		s.gql(director, `mutation($r: String!, $m: String!) { retenirTop(partie:"T1-1", reference:$r, mot:$m) { `+partieFields+` } }`,
			map[string]any{"r": top.Solutions[0].Reference, "m": top.Solutions[0].Mot}).into(t, "retenirTop", &p)
		out := map[string]decision{}
		for l := range bulletins {
			out[l] = corriger(coup, l)
		}
		return out
	}

	s.gql(director, `mutation { tirer(partie:"T1-1") { `+partieFields+` } }`, nil).into(t, "tirer", &p)
	var sols apiPartie
	s.gql(director, `{ partie(id:"T1-1") { solutions { mot reference score admissible } } }`, nil).into(t, "partie", &sols)
	top := sols.Solutions[0]
	exact := map[string]any{"word": top.Mot, "ref": top.Reference, "score": top.Score}
	d := jouer(1, map[string]map[string]any{
		"L1": {"discipline": 1, "solutions": []any{exact}},
		"L2": {"solutions": []any{map[string]any{"word": top.Mot[:1], "ref": top.Reference, "score": 2}}},
		"L3": {"hardToRead": true, "solutions": []any{exact}},
	})
	assert.Equal(t, decision{top.Score, "warning", []string{"DISCIPLINE"}}, d["L1"], "§5.5 a disciplinary avertissement is a warning")
	assert.Equal(t, decision{0, "zero", []string{"NOT_A_WORD"}}, d["L2"], "§1.1, §5.7 a single letter is judged, a zéro")
	assert.Equal(t, decision{top.Score, "warning", []string{"HARD_TO_READ"}}, d["L3"], "§5.5 presentation hard to read")

	// Coup 2: a placement written down, sent without `written`.
	s.gql(director, `mutation { tirer(partie:"T1-1") { `+partieFields+` } }`, nil).into(t, "tirer", &p)
	s.gql(director, `{ partie(id:"T1-1") { solutions { mot reference score admissible } } }`, nil).into(t, "partie", &sols)
	var down *struct {
		Mot, Reference string
		Score          int
		Admissible     bool
	}
	for i := range sols.Solutions {
		if sol := &sols.Solutions[i]; sol.Admissible && sol.Reference[0] >= '0' && sol.Reference[0] <= '9' {
			down = sol
			break
		}
	}
	require.NotNil(t, down, "a placement written down on coup 2")
	top = sols.Solutions[0]
	d = jouer(2, map[string]map[string]any{
		"L1": {"solutions": []any{map[string]any{"word": down.Mot, "ref": down.Reference, "score": down.Score}}},
		"L2": {"solutions": []any{map[string]any{"word": top.Mot, "ref": top.Reference, "score": top.Score}}},
		"L3": {"solutions": []any{map[string]any{"word": down.Mot, "written": "h", "ref": down.Reference, "score": down.Score}}},
	})
	assert.Equal(t, decision{down.Score, "none", []string{}}, d["L1"], "§4.3.1 4H without written: down")
	assert.Equal(t, decision{top.Score, "none", []string{}}, d["L2"], "§4.3.1 the top without written: its reference's direction")
	assert.Equal(t, "warning", d["L3"].Sanction, "§5.5 an explicit sense contradicting the reference")
	assert.Contains(t, d["L3"].Raisons, "INVERTED")
}
