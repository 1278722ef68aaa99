package main

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The arbiter's bulletin entry (issue 14) through the API: the read-only
// preview of the engine's decision (apercuBulletin), the double arbitrage
// kept beside the first correction, and the idempotent deposit the page's
// offline queue relies on.

// apiDecision is a Decision as the API gives it.
type apiDecision struct {
	Paye     int      `json:"paye"`
	Sanction string   `json:"sanction"`
	Raisons  []string `json:"raisons"`
}

const decisionFields = `paye sanction raisons`

// saisieT1 opens T1 with three players at tables 1 to 3, draws coup 1 and
// announces the engine's first admissible top; it returns that top.
func saisieT1(t *testing.T, s *apiServer, director string) (top struct {
	Mot, Reference string
	Score          int
}) {
	t.Helper()
	inscrireJoueursT1(t, s, director, 3)
	var p apiPartie
	s.gql(director, `mutation { creerPartie(tournoi:"T1", partie:"T1-1", config:{graine: 7}) { `+partieFields+` } }`, nil).into(t, "creerPartie", &p)
	s.gql(director, `mutation { tirer(partie:"T1-1") { `+partieFields+` } }`, nil).into(t, "tirer", &p)
	var sols apiPartie
	s.gql(director, `{ partie(id:"T1-1") { solutions { mot reference score admissible } } }`, nil).into(t, "partie", &sols)
	for _, sol := range sols.Solutions {
		if sol.Admissible {
			s.gql(director, `mutation($r: String!, $m: String!) { retenirTop(partie:"T1-1", reference:$r, mot:$m) { `+partieFields+` } }`,
				map[string]any{"r": sol.Reference, "m": sol.Mot}).into(t, "retenirTop", &p)
			top.Mot, top.Reference, top.Score = sol.Mot, sol.Reference, sol.Score
			return top
		}
	}
	require.Fail(t, "no admissible top")
	return top
}

// §5.5 the engine's decision is shown before anything is written, to the
// arbiter of the player's table only: an arbiter of tables 1-2 cannot
// preview a bulletin of table 3; the preview writes nothing and equals the
// decision corrigerBulletin then records.
func TestE2ESaisie_ApercuBulletinPorteeDesTables(t *testing.T) {
	data := t.TempDir()
	director := apiToken(t, data, "--role", "director")
	arbiter12 := apiToken(t, data, "--role", "arbiter", "--tables", "1-2", "--tournoi", "T1")
	arbiterT2 := apiToken(t, data, "--role", "arbiter", "--tables", "1-4", "--tournoi", "T2")
	commission := apiToken(t, data, "--role", "commission", "--tournoi", "T1")
	s := startAPIServer(t, data)
	defer s.stop()
	top := saisieT1(t, s, director)

	apercu := `query($l: ID!, $c: Int!, $b: BulletinInput!) { apercuBulletin(partie:"T1-1", coup:$c, licence:$l, bulletin:$b) { ` + decisionFields + ` } }`
	exact := map[string]any{"solutions": []any{map[string]any{"word": top.Mot, "ref": top.Reference, "score": top.Score}}}
	faux := map[string]any{"solutions": []any{map[string]any{"word": top.Mot, "ref": top.Reference, "score": top.Score + 3}}}
	version := func() int {
		var v apiPartie
		s.gql(director, `{ partie(id:"T1-1") { version } }`, nil).into(t, "partie", &v)
		return v.Version
	}
	avant := version()

	cases := []struct {
		nom     string
		jeton   string
		licence string
		coup    int
		b       map[string]any
		code    string
		want    apiDecision
	}{
		{"the top, table 1", arbiter12, "L1", 1, exact, "", apiDecision{top.Score, "none", []string{}}},
		{"§5.5 a wrong score, table 2", arbiter12, "L2", 1, faux, "", apiDecision{top.Score, "warning", []string{"SCORE_WRONG"}}},
		{"§5.7 a blank bulletin", arbiter12, "L1", 1, map[string]any{"blank": true}, "", apiDecision{0, "zero", []string{"BLANK"}}},
		{"the director, any table", director, "L3", 1, exact, "", apiDecision{top.Score, "none", []string{}}},
		{"table 3 is not the token's", arbiter12, "L3", 1, exact, "FORBIDDEN", apiDecision{}},
		{"another tournament's arbiter", arbiterT2, "L1", 1, exact, "FORBIDDEN", apiDecision{}},
		{"the commission", commission, "L1", 1, exact, "FORBIDDEN", apiDecision{}},
		{"anonymous", "", "L1", 1, exact, "UNAUTHENTICATED", apiDecision{}},
		{"a coup without a top", arbiter12, "L1", 2, exact, "INVALID_BULLETIN", apiDecision{}},
		{"a player not in the game", director, "L9", 1, exact, "UNKNOWN_PLAYER", apiDecision{}},
	}
	for _, c := range cases {
		t.Run(c.nom, func(t *testing.T) {
			res := s.gql(c.jeton, apercu, map[string]any{"l": c.licence, "c": c.coup, "b": c.b})
			if c.code != "" {
				assert.Equal(t, c.code, res.code(), "%+v", res.Errors)
				return
			}
			var d apiDecision
			res.into(t, "apercuBulletin", &d)
			assert.Equal(t, c.want, d)
		})
	}
	assert.Equal(t, avant, version(), "a preview writes nothing")

	// The preview is the decision the correction then records.
	var preview apiDecision
	s.gql(arbiter12, apercu, map[string]any{"l": "L2", "c": 1, "b": faux}).into(t, "apercuBulletin", &preview)
	require.Empty(t, s.gql(arbiter12, `mutation($b: BulletinInput!) { deposerBulletin(partie:"T1-1", coup:1, licence:"L2", bulletin:$b) { licence } }`,
		map[string]any{"b": faux}).Errors)
	var b struct{ Decision apiDecision }
	s.gql(arbiter12, `mutation { corrigerBulletin(partie:"T1-1", coup:1, licence:"L2") { decision { `+decisionFields+` } } }`, nil).into(t, "corrigerBulletin", &b)
	assert.Equal(t, preview, b.Decision)
}

// guide §5 double arbitrage: the first arbiter's decision (an override with
// its reason) and the second arbiter's amendment are both kept and shown;
// the amendment is the decision in force.
func TestE2ESaisie_DoubleArbitrageGardeLesDeuxDecisions(t *testing.T) {
	data := t.TempDir()
	director := apiToken(t, data, "--role", "director")
	premier := apiToken(t, data, "--role", "arbiter", "--tables", "1-2", "--tournoi", "T1")
	second := apiToken(t, data, "--role", "arbiter", "--tables", "1-3", "--tournoi", "T1")
	s := startAPIServer(t, data)
	defer s.stop()
	top := saisieT1(t, s, director)

	faux := map[string]any{"solutions": []any{map[string]any{"word": top.Mot, "ref": top.Reference, "score": top.Score + 3}}}
	require.Empty(t, s.gql(premier, `mutation($b: BulletinInput!) { deposerBulletin(partie:"T1-1", coup:1, licence:"L1", bulletin:$b) { licence } }`,
		map[string]any{"b": faux}).Errors)
	require.Empty(t, s.gql(premier, `mutation($d: DecisionInput!) { corrigerBulletin(partie:"T1-1", coup:1, licence:"L1", decision:$d, motif:"score mal lu") { licence } }`,
		map[string]any{"d": map[string]any{"paye": top.Score, "sanction": "none"}}).Errors)
	require.Empty(t, s.gql(second, `mutation($d: DecisionInput!) { contreArbitrer(partie:"T1-1", coup:1, licence:"L1", confirme:false, decision:$d, motif:"le score est bien faux") { licence } }`,
		map[string]any{"d": map[string]any{"paye": top.Score, "sanction": "warning", "raisons": []string{"SCORE_WRONG"}}}).Errors)

	var bs []struct {
		Licence         string
		CorrigePar      string
		Motif           string
		DecisionMoteur  apiDecision
		DecisionArbitre apiDecision
		Decision        apiDecision
		ContreArbitrage *struct {
			Arbitre  string
			Confirme bool
			Decision *apiDecision
			Motif    string
		}
	}
	s.gql(second, `{ bulletins(partie:"T1-1", coup:1) { licence corrigePar motif decisionMoteur { `+decisionFields+` }
		decisionArbitre { `+decisionFields+` } decision { `+decisionFields+` }
		contreArbitrage { arbitre confirme motif decision { `+decisionFields+` } } } }`, nil).into(t, "bulletins", &bs)
	require.Len(t, bs, 1)
	b := bs[0]
	assert.Equal(t, apiDecision{top.Score, "warning", []string{"SCORE_WRONG"}}, b.DecisionMoteur)
	assert.Equal(t, apiDecision{top.Score, "none", []string{}}, b.DecisionArbitre, "the first arbiter's override is kept")
	assert.Equal(t, "score mal lu", b.Motif)
	require.NotNil(t, b.ContreArbitrage, "the second arbitration is shown")
	assert.False(t, b.ContreArbitrage.Confirme)
	assert.Equal(t, "le score est bien faux", b.ContreArbitrage.Motif)
	assert.NotEqual(t, b.CorrigePar, b.ContreArbitrage.Arbitre, "two arbiters")
	require.NotNil(t, b.ContreArbitrage.Decision)
	assert.Equal(t, apiDecision{top.Score, "warning", []string{"SCORE_WRONG"}}, *b.ContreArbitrage.Decision)
	assert.Equal(t, *b.ContreArbitrage.Decision, b.Decision, "the amendment is in force")
}

// The offline queue sends a bulletin again with the clientMutationId fixed
// when it was typed: the retry is answered as done and recorded once; a
// second deposit under another id is refused.
func TestE2ESaisie_DeposerBulletinRejoueUneFois(t *testing.T) {
	data := t.TempDir()
	director := apiToken(t, data, "--role", "director")
	arbiter := apiToken(t, data, "--role", "arbiter", "--tables", "1-3", "--tournoi", "T1")
	s := startAPIServer(t, data)
	defer s.stop()
	saisieT1(t, s, director)

	var avant apiPartie
	s.gql(director, `{ partie(id:"T1-1") { version } }`, nil).into(t, "partie", &avant)
	deposer := `mutation($id: String!) { deposerBulletin(partie:"T1-1", coup:1, licence:"L1", bulletin:{blank:true}, clientMutationId:$id) { licence ecrit } }`
	for range 2 {
		res := s.gql(arbiter, deposer, map[string]any{"id": "saisie-1"})
		require.Empty(t, res.Errors, "a retry is answered as done")
	}
	assert.Equal(t, "INVALID_BULLETIN", s.gql(arbiter, deposer, map[string]any{"id": "saisie-2"}).code(), "entered once")
	var apres apiPartie
	s.gql(director, `{ partie(id:"T1-1") { version } }`, nil).into(t, "partie", &apres)
	assert.Equal(t, avant.Version+1, apres.Version, "one event")
}
