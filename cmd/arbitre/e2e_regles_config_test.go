package main

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestE2EArt1_3_Guide2_5_ConfigurationPartie: over HTTP, the director sets
// the free warnings of a game (guide §2.5, §6.1.1; zero included, §5.9's
// default when absent) and the option of guide §2.3 (the top must have been
// played), the number of players from which a solo earns 10 points (§3.5,
// guide §2.12), and a thinking time §1.3 does not list is refused with
// INVALID_CONFIG, nothing created.
func TestE2EArt1_3_Guide2_5_ConfigurationPartie(t *testing.T) {
	data := t.TempDir()
	director := apiToken(t, data, "--role", "director")
	s := startAPIServer(t, data)
	defer s.stop()
	require.Empty(t, s.gql(director, `mutation { creerTournoi(id:"T1", nom:"Open de Vichy", homologue: false) { id } }`, nil).Errors)
	require.Empty(t, s.gql(director, `mutation($j: JoueurInput!) { inscrireJoueur(tournoi:"T1", joueur:$j) { version } }`,
		map[string]any{"j": map[string]any{"licence": "L1", "nom": "Joueur 1", "table": 1}}).Errors)

	type config struct {
		TempsParCoupSecondes   int  `json:"tempsParCoupSecondes"`
		AvertissementsGratuits int  `json:"avertissementsGratuits"`
		TopJoue                bool `json:"topJoue"`
		SeuilSolo              int  `json:"seuilSolo"`
	}
	tests := []struct {
		name, partie, config string
		code                 string
		want                 config
	}{
		{"guide §2.5 quatre avertissements gratuits", "P1", `{avertissementsGratuits: 4}`, "", config{180, 4, false, 16}},
		{"§5.9 blitz sans paramètre : cinq", "P2", `{tempsParCoupSecondes: 60}`, "", config{60, 5, false, 16}},
		{"§1.3 deux minutes trente", "P3", `{tempsParCoupSecondes: 150, avertissementsGratuits: 2}`, "", config{150, 2, false, 16}},
		{"§1.3 quatre-vingt-dix secondes refusées", "P4", `{tempsParCoupSecondes: 90}`, "INVALID_CONFIG", config{}},
		{"guide §2.5 aucun avertissement gratuit", "P6", `{avertissementsGratuits: 0}`, "", config{180, 0, false, 16}},
		{"guide §2.3 le top doit avoir été joué", "P7", `{topJoue: true}`, "", config{180, 3, true, 16}},
		{"guide §2.5 un nombre négatif refusé", "P5", `{avertissementsGratuits: -1}`, "INVALID_INPUT", config{}},
		{"guide §2.12 solos bonifiés dès 8 joueurs", "P8", `{seuilSolo: 8}`, "", config{180, 3, false, 8}},
		{"§3.5 un seuil des solos nul refusé", "P9", `{seuilSolo: 0}`, "INVALID_INPUT", config{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := s.gql(director, fmt.Sprintf(`mutation { creerPartie(tournoi:"T1", partie:%q, config:%s) { config { tempsParCoupSecondes avertissementsGratuits topJoue seuilSolo } } }`, tt.partie, tt.config), nil)
			if tt.code != "" {
				assert.Equal(t, tt.code, res.code())
				var absente *struct{ Statut string }
				s.gql(director, fmt.Sprintf(`{ partie(id:%q) { statut } }`, tt.partie), nil).into(t, "partie", &absente)
				assert.Nil(t, absente, "nothing created")
				return
			}
			var got struct {
				Config config `json:"config"`
			}
			res.into(t, "creerPartie", &got)
			assert.Equal(t, tt.want, got.Config)
		})
	}
}

// TestE2EArt7_Art9_DepartageEtExemptDuTournoi: over HTTP, the director
// opens a classique tournament with its tie-breaks after points de match,
// ex aequo allowed, and what the bye counts (classique §7 counts points
// de match only, §9 gives the default bye); the standings follow them once the round is
// published. A bad configuration is refused with INVALID_INPUT and opens
// nothing; without one, the defaults.
func TestE2EArt7_Art9_DepartageEtExemptDuTournoi(t *testing.T) {
	data := t.TempDir()
	director := apiToken(t, data, "--role", "director")
	s := startAPIServer(t, data)
	defer s.stop()

	ouvrir := `mutation($id: ID!, $c: ConfigClassiqueInput) { ouvrirTournoiClassique(id:$id, nom:"Open", rondes:2, config:$c) {
		config { politique departage exAequo exemptPointsDeMatch exemptScore exemptScoreAdverse } } }`
	type config struct {
		Politique           string
		Departage           []string
		ExAequo             bool
		ExemptPointsDeMatch int
		ExemptScore         int
		ExemptScoreAdverse  int
	}
	var got struct{ Config config }
	s.gql(director, ouvrir, map[string]any{"id": "D1"}).into(t, "ouvrirTournoiClassique", &got)
	assert.Equal(t, config{"pm>confrontation>ecart_plafonne>cote", []string{"confrontation", "ecart_plafonne", "cote"}, false, 3, 450, 350}, got.Config)

	for _, bad := range []map[string]any{
		{"departage": []string{"cote", "cote"}},
		{"exemptPointsDeMatch": -1},
	} {
		assert.Equal(t, "INVALID_INPUT", s.gql(director, ouvrir, map[string]any{"id": "C9", "c": bad}).code(), "%v", bad)
	}
	var absent *struct{ ID string }
	s.gql(director, `{ tournoiClassique(id:"C9") { id } }`, nil).into(t, "tournoiClassique", &absent)
	assert.Nil(t, absent, "a refused configuration opens nothing")

	s.gql(director, ouvrir, map[string]any{"id": "C1", "c": map[string]any{"departage": []string{}, "exAequo": true,
		"exemptPointsDeMatch": 2, "exemptScore": 400, "exemptScoreAdverse": 400}}).into(t, "ouvrirTournoiClassique", &got)
	assert.Equal(t, config{"pm=ex-aequo", []string{}, true, 2, 400, 400}, got.Config)
	for i := 1; i <= 3; i++ {
		require.Empty(t, s.gql(director, fmt.Sprintf(`mutation { inscrireClassique(tournoi:"C1", joueur:"P%d", nom:"Joueur %d", cote:1000) { version } }`, i, i), nil).Errors)
	}
	for _, m := range []string{`etablirTetesDeSerie(tournoi:"C1")`, `proposerRonde(tournoi:"C1", methode:initial_by_cote)`, `publierRonde(tournoi:"C1")`} {
		require.Empty(t, s.gql(director, `mutation { `+m+` { version } }`, nil).Errors, m)
	}
	var tr struct {
		Classement []struct {
			Rang, PointsDeMatch, Exempts int
		}
	}
	s.gql(director, `{ tournoiClassique(id:"C1") { classement { rang pointsDeMatch exempts } } }`, nil).into(t, "tournoiClassique", &tr)
	require.Len(t, tr.Classement, 3)
	assert.Equal(t, struct{ Rang, PointsDeMatch, Exempts int }{1, 2, 1}, tr.Classement[0], "the bye counts the tournament's 2 points de match")
	assert.Equal(t, []int{2, 2}, []int{tr.Classement[1].Rang, tr.Classement[2].Rang}, "ex aequo share the rank")
}

// TestE2EArt3_8_4_Topping: over HTTP, a topping (§3.8.4) is a game mode;
// once the top is found and put down, the director records each player's
// time; a top not found in the minute allotted is given with 20 s of
// penalty, whatever the client sends; the game's standings rank by time.
// Bad times are refused with a stable code and change nothing; only the
// director times the tops.
func TestE2EArt3_8_4_Topping(t *testing.T) {
	s, director, arbiter := salleT1(t, 2)
	var partie struct{ Config struct{ Mode string } }
	s.gql(director, `mutation { creerPartie(tournoi:"T1", partie:"T1-T", config:{mode: topping, tempsParCoupSecondes: 60, source: logiciel, graine: 7}) { config { mode } } }`, nil).
		into(t, "creerPartie", &partie)
	assert.Equal(t, "topping", partie.Config.Mode)

	topper := `mutation($l: ID!, $t: Boolean!, $s: Int) { topper(partie:"T1-T", coup:1, licence:$l, trouve:$t, secondes:$s) { version } }`
	assert.Equal(t, "WRONG_STATE", s.gql(director, topper, map[string]any{"l": "L1", "t": true, "s": 10}).code(), "no top yet")
	require.Empty(t, s.gql(director, `mutation { tirer(partie:"T1-T") { version } }`, nil).Errors)
	var sols apiPartie
	s.gql(director, `{ partie(id:"T1-T") { solutions { mot reference score admissible } } }`, nil).into(t, "partie", &sols)
	require.NotEmpty(t, sols.Solutions)
	require.Empty(t, s.gql(director, `mutation($r: String!, $m: String!) { retenirTop(partie:"T1-T", reference:$r, mot:$m) { version } }`,
		map[string]any{"r": sols.Solutions[0].Reference, "m": sols.Solutions[0].Mot}).Errors)

	for _, bad := range []struct {
		vars map[string]any
		code string
	}{
		{map[string]any{"l": "L1", "t": true, "s": 61}, "INVALID_TOPPING"},
		{map[string]any{"l": "L1", "t": true}, "INVALID_INPUT"},
	} {
		assert.Equal(t, bad.code, s.gql(director, topper, bad.vars).code(), "%v", bad.vars)
	}
	assert.Equal(t, "UNAUTHENTICATED", s.gql("", topper, map[string]any{"l": "L1", "t": true, "s": 10}).code())
	assert.Equal(t, "FORBIDDEN", s.gql(arbiter, topper, map[string]any{"l": "L1", "t": true, "s": 10}).code(), "the director times the tops")
	require.Empty(t, s.gql(director, topper, map[string]any{"l": "L1", "t": false, "s": 3}).Errors)
	require.Empty(t, s.gql(director, topper, map[string]any{"l": "L2", "t": true, "s": 42}).Errors)
	assert.Equal(t, "INVALID_TOPPING", s.gql(director, topper, map[string]any{"l": "L2", "t": true, "s": 12}).code(), "once per coup")

	type ligne struct {
		Licence     string
		Rang, Temps int
	}
	var lignes []ligne
	s.gql("", `{ classement(partie:"T1-T") { licence rang temps } }`, nil).into(t, "classement", &lignes)
	assert.Equal(t, []ligne{{"L2", 1, 42}, {"L1", 2, 80}}, lignes, "§3.8.4 ranked by time; the top given costs 60 + 20 s")
}
