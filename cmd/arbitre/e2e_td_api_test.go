package main

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The API the classique TD console stands on (issue 14): a list registered
// all or nothing, the pairing's reasons, the director's entry and
// correction of the paper feuilles de match. Director only: anonymous →
// UNAUTHENTICATED, an arbiter or another tournament's director →
// FORBIDDEN; a refused command changes nothing.

// apiTournoiTD is the tournament as the console reads it.
type apiTournoiTD struct {
	Version  int
	Clos     bool
	Inscrits []struct{ Joueur, Nom string }
	Publiees []struct {
		Ronde   int
		Exempt  *string
		Amendee bool
		Tables  []struct {
			Numero                 int
			Premier, Second, Match string
			Resultat               *struct {
				Fin           string
				Scores        []int
				PointsDeMatch []int
				Correction    *string
			}
		}
	}
	Proposition *struct {
		Tables []struct {
			Numero          int
			Premier, Second string
		}
		Raisons    apiRaisonsTD
		Amendement *struct {
			Raisons apiRaisonsTD
		}
	}
	Classement []struct {
		Rang          int
		Joueur, Nom   string
		PointsDeMatch int
	}
}

type apiRaisonsTD struct {
	Revanches   int
	Exempt      *string
	TexteExempt *string
	Tables      []struct {
		Numero     int
		Revanche   *int
		Debut      string
		TexteDebut string
	}
}

const tournoiTDFields = `version clos inscrits { joueur nom }
	publiees { ronde exempt amendee tables { numero premier second match resultat { fin scores pointsDeMatch correction } } }
	proposition { tables { numero premier second } raisons { revanches exempt texteExempt tables { numero revanche debut texteDebut } }
		amendement { raisons { revanches exempt texteExempt tables { numero revanche debut texteDebut } } } }
	classement { rang joueur nom pointsDeMatch }`

const (
	lotTD      = `mutation($t: ID!, $j: [InscriptionClassiqueInput!]!) { inscrireClassiqueLot(tournoi:$t, joueurs:$j) { ` + tournoiTDFields + ` } }`
	saisirTD   = `mutation($t: ID!, $m: ID!, $f: FinClassique, $s: [Int!], $j: ID) { saisirResultatClassique(tournoi:$t, match:$m, fin:$f, scores:$s, joueur:$j) { ` + tournoiTDFields + ` } }`
	corrigerTD = `mutation($t: ID!, $m: ID!, $s: [Int!], $motif: String!) { corrigerResultatClassique(tournoi:$t, match:$m, scores:$s, motif:$motif) { ` + tournoiTDFields + ` } }`
	tournoiTDQ = `query($t: ID!) { tournoiClassique(id:$t) { ` + tournoiTDFields + ` } }`
)

// serveurTD starts a server with the tokens of the TD tests and opens
// tournament TD (2 rounds): the director's, another tournament's director's
// and an arbiter's tokens.
func serveurTD(t *testing.T) (s *apiServer, director, autre, arbiter string) {
	t.Helper()
	data := t.TempDir()
	director = apiToken(t, data, "--role", "director")
	autre = apiToken(t, data, "--role", "director", "--tournoi", "AUTRE")
	arbiter = apiToken(t, data, "--role", "arbiter", "--tables", "1-10")
	s = startAPIServer(t, data)
	t.Cleanup(s.stop)
	s.gql(director, `mutation { ouvrirTournoiClassique(id:"TD", nom:"Open TD", rondes:2) { id } }`, nil).into(t, "ouvrirTournoiClassique", &struct{}{})
	return s, director, autre, arbiter
}

func TestE2ETD_InscriptionLotToutOuRien(t *testing.T) {
	s, director, autre, arbiter := serveurTD(t)

	bon := []map[string]any{{"joueur": "L1", "nom": "Ana", "cote": 1500}, {"joueur": "L2", "nom": "Bea", "cote": 1400},
		{"joueur": "L3", "nom": "Cyr"}, {"joueur": "L4", "nom": "Dan", "cote": 1200}}
	mauvais := append([]map[string]any{}, bon...)
	mauvais = append(mauvais, map[string]any{"joueur": "L2", "nom": "Bea bis"})
	vars := map[string]any{"t": "TD", "j": mauvais}

	res := s.gql(director, lotTD, vars)
	require.Equal(t, "INVALID_PLAYER", res.code())
	assert.Contains(t, res.Errors[0].Message, "n° 5 (L2) : déjà inscrit")
	assert.Equal(t, "UNAUTHENTICATED", s.gql("", lotTD, vars).code())
	assert.Equal(t, "FORBIDDEN", s.gql(arbiter, lotTD, vars).code())
	assert.Equal(t, "FORBIDDEN", s.gql(autre, lotTD, vars).code())
	var tr apiTournoiTD
	s.gql(director, tournoiTDQ, map[string]any{"t": "TD"}).into(t, "tournoiClassique", &tr)
	assert.Empty(t, tr.Inscrits, "a refused list writes nothing")
	assert.Equal(t, 1, tr.Version)

	s.gql(director, lotTD, map[string]any{"t": "TD", "j": bon}).into(t, "inscrireClassiqueLot", &tr)
	require.Len(t, tr.Inscrits, 4)
	assert.Equal(t, "Cyr", tr.Inscrits[2].Nom)
	assert.Equal(t, 5, tr.Version, "the opening and four registrations")
}

func TestE2ETD_SaisieEtCorrectionDesResultats(t *testing.T) {
	s, director, autre, arbiter := serveurTD(t)
	var tr apiTournoiTD
	s.gql(director, lotTD, map[string]any{"t": "TD", "j": []map[string]any{{"joueur": "L1", "nom": "Ana", "cote": 1500},
		{"joueur": "L2", "nom": "Bea", "cote": 1400}, {"joueur": "L3", "nom": "Cyr", "cote": 1300}, {"joueur": "L4", "nom": "Dan", "cote": 1200},
		{"joueur": "L5", "nom": "Eve", "cote": 1100}}}).into(t, "inscrireClassiqueLot", &tr)
	s.gql(director, `mutation { etablirTetesDeSerie(tournoi:"TD") { id } }`, nil).into(t, "etablirTetesDeSerie", &struct{}{})

	// The proposal comes with its reasons (§3.1), the amendment with its own.
	s.gql(director, `mutation { proposerRonde(tournoi:"TD", methode:initial_by_cote) { `+tournoiTDFields+` } }`, nil).into(t, "proposerRonde", &tr)
	require.NotNil(t, tr.Proposition)
	require.Len(t, tr.Proposition.Raisons.Tables, 2)
	assert.Equal(t, 0, tr.Proposition.Raisons.Revanches)
	assert.Equal(t, "alternance", tr.Proposition.Raisons.Tables[0].Debut, "a first round: the tables alternate (§3.1)")
	assert.Contains(t, tr.Proposition.Raisons.Tables[0].TexteDebut, "§3.1")
	require.NotNil(t, tr.Proposition.Raisons.Exempt)
	assert.Equal(t, "dernier", *tr.Proposition.Raisons.Exempt)
	assert.Equal(t, "le moins bien classé des joueurs jamais exemptés", *tr.Proposition.Raisons.TexteExempt)
	s.gql(director, `mutation($t: [TableAmendeeInput!]!) { amenderRonde(tournoi:"TD", tables:$t, exempt:"L1", motif:"exempt déplacé") { `+tournoiTDFields+` } }`,
		map[string]any{"t": []map[string]any{{"premier": "L5", "second": "L2"}, {"premier": "L3", "second": "L4"}}}).
		into(t, "amenderRonde", &tr)
	require.NotNil(t, tr.Proposition.Amendement)
	assert.Equal(t, "choisi", *tr.Proposition.Amendement.Raisons.Exempt)
	assert.Contains(t, *tr.Proposition.Amendement.Raisons.TexteExempt, "choix du directeur")
	s.gql(director, `mutation { publierRonde(tournoi:"TD") { id } }`, nil).into(t, "publierRonde", &struct{}{})
	s.gql(director, tournoiTDQ, map[string]any{"t": "TD"}).into(t, "tournoiClassique", &tr)
	tables := tr.Publiees[0].Tables
	require.Len(t, tables, 2)

	// A game played out (§7) and a forfeit (§9), from the paper sheets.
	jeu := map[string]any{"t": "TD", "m": tables[0].Match, "s": []int{420, 380}}
	assert.Equal(t, "UNAUTHENTICATED", s.gql("", saisirTD, jeu).code())
	assert.Equal(t, "FORBIDDEN", s.gql(arbiter, saisirTD, jeu).code())
	assert.Equal(t, "FORBIDDEN", s.gql(autre, saisirTD, jeu).code())
	assert.Equal(t, "INVALID_INPUT", s.gql(director, saisirTD, map[string]any{"t": "TD", "m": tables[0].Match, "s": []int{420}}).code())
	res := s.gql(director, saisirTD, map[string]any{"t": "TD", "m": tables[0].Match, "f": "forfait", "s": []int{300, 0}, "j": tables[0].Second})
	assert.Equal(t, "INVALID_RESULT", res.code())
	assert.Contains(t, res.Errors[0].Message, "un forfait n'a pas de scores")
	s.gql(director, saisirTD, jeu).into(t, "saisirResultatClassique", &tr)
	s.gql(director, saisirTD, map[string]any{"t": "TD", "m": tables[1].Match, "f": "forfait", "j": tables[1].Second}).
		into(t, "saisirResultatClassique", &tr)
	r0, r1 := tr.Publiees[0].Tables[0].Resultat, tr.Publiees[0].Tables[1].Resultat
	require.NotNil(t, r0)
	require.NotNil(t, r1)
	assert.Equal(t, []int{3, 1}, r0.PointsDeMatch)
	assert.Equal(t, "forfait", r1.Fin)
	assert.Equal(t, []int{3, 0}, r1.PointsDeMatch)
	assert.Equal(t, "INVALID_RESULT", s.gql(director, saisirTD, jeu).code(), "entered once; a change is a correction")

	// The correction replaces the result, with its reason.
	corr := map[string]any{"t": "TD", "m": tables[0].Match, "s": []int{380, 420}, "motif": "scores inversés"}
	assert.Equal(t, "UNAUTHENTICATED", s.gql("", corrigerTD, corr).code())
	assert.Equal(t, "FORBIDDEN", s.gql(arbiter, corrigerTD, corr).code())
	assert.Equal(t, "FORBIDDEN", s.gql(autre, corrigerTD, corr).code())
	assert.Equal(t, "INVALID_RESULT", s.gql(director, corrigerTD, map[string]any{"t": "TD", "m": tables[0].Match, "s": []int{1, 2}, "motif": " "}).code())
	s.gql(director, corrigerTD, corr).into(t, "corrigerResultatClassique", &tr)
	r0 = tr.Publiees[0].Tables[0].Resultat
	assert.Equal(t, []int{380, 420}, r0.Scores)
	assert.Equal(t, []int{1, 3}, r0.PointsDeMatch)
	require.NotNil(t, r0.Correction)
	assert.Equal(t, "scores inversés", *r0.Correction)
	for _, l := range tr.Classement {
		if l.Joueur == tables[0].Second {
			assert.Equal(t, 3, l.PointsDeMatch, "the corrected winner")
		}
	}

	// Round 2: the proposal's reasons know round 1.
	s.gql(director, `mutation { proposerRonde(tournoi:"TD", methode:swiss) { `+tournoiTDFields+` } }`, nil).into(t, "proposerRonde", &tr)
	assert.Equal(t, 0, tr.Proposition.Raisons.Revanches, "the Swiss proposal avoids rematches")
	assert.Equal(t, "dernier", *tr.Proposition.Raisons.Exempt, "never the bye twice: L1 had it")
}
