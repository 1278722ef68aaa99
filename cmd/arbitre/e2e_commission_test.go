package main

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The commission's workflow (issue 14): the list of a game's or a
// tournament's appeals (§6.3–§6.4), scoped like the appeal itself
// (docs/securite.md), and the /commission/<partie> page that files,
// composes, votes and decides through the existing mutations.

const appelsQuery = `query($p: ID, $t: ID) { appels(partie:$p, tournoi:$t) { id tournoi partie coup licence statut } }`

type apiAppelResume struct {
	ID, Tournoi, Partie, Licence, Statut string
	Coup                                 int
}

func idsAppels(as []apiAppelResume) []string {
	ids := []string{}
	for _, a := range as {
		ids = append(ids, a.ID)
	}
	return ids
}

// The list of appeals never shows another tournament's: a commission or an
// arbiter of tournament A reads A's appeals, by tournament or by game, and is
// refused B's (the game's stored tournament decides, not the name the client
// gives); without a token, an unknown game or an ambiguous request nothing is
// listed.
func TestSecurite_AppelsSansFuiteEntreTournois(t *testing.T) {
	data := t.TempDir()
	director := apiToken(t, data, "--role", "director")
	commissionA := apiToken(t, data, "--role", "commission", "--tournoi", "A")
	arbitreA := apiToken(t, data, "--role", "arbiter", "--tournoi", "A")
	commissionB := apiToken(t, data, "--role", "commission", "--tournoi", "B")
	s := startAPIServer(t, data)
	defer s.stop()
	a := nouvelleAppelPartie(t, s, director, "A")
	b := nouvelleAppelPartie(t, s, director, "B")
	require.Empty(t, s.gql(commissionA, deposerAppelMutation, map[string]any{"a": a.depot("A1", "L2")}).Errors)
	require.Empty(t, s.gql(commissionB, deposerAppelMutation, map[string]any{"a": b.depot("B1", "L2")}).Errors)
	require.Empty(t, s.gql(commissionA, deposerAppelMutation, map[string]any{"a": a.depot("A2", "L20")}).Errors)

	lister := func(token string, vars map[string]any) ([]apiAppelResume, string) {
		res := s.gql(token, appelsQuery, vars)
		if len(res.Errors) > 0 {
			return nil, res.code()
		}
		var out []apiAppelResume
		res.into(t, "appels", &out)
		return out, ""
	}
	cas := []struct {
		nom   string
		jeton string
		vars  map[string]any
		ids   []string
		code  string
	}{
		{"commission A, tournoi A", commissionA, map[string]any{"t": "A"}, []string{"A1", "A2"}, ""},
		{"commission A, partie de A", commissionA, map[string]any{"p": a.partie}, []string{"A1", "A2"}, ""},
		{"arbitre A, partie de A", arbitreA, map[string]any{"p": a.partie}, []string{"A1", "A2"}, ""},
		{"directeur, tournoi B", director, map[string]any{"t": "B"}, []string{"B1"}, ""},
		{"commission A, tournoi B", commissionA, map[string]any{"t": "B"}, nil, "FORBIDDEN"},
		{"commission A, partie de B", commissionA, map[string]any{"p": b.partie}, nil, "FORBIDDEN"},
		{"commission A, partie de B nommée sous A", commissionA, map[string]any{"p": b.partie, "t": "A"}, nil, "INVALID_INPUT"},
		{"arbitre A, tournoi B", arbitreA, map[string]any{"t": "B"}, nil, "FORBIDDEN"},
		{"sans jeton", "", map[string]any{"t": "A"}, nil, "UNAUTHENTICATED"},
		{"partie inconnue", director, map[string]any{"p": "inconnue"}, nil, "NOT_FOUND"},
		{"tournoi inconnu", director, map[string]any{"t": "inconnu"}, nil, "NOT_FOUND"},
		{"ni partie ni tournoi", director, map[string]any{}, nil, "INVALID_INPUT"},
	}
	for _, c := range cas {
		t.Run(c.nom, func(t *testing.T) {
			got, code := lister(c.jeton, c.vars)
			assert.Equal(t, c.code, code)
			if c.code == "" {
				assert.Equal(t, c.ids, idsAppels(got))
				for _, ap := range got {
					assert.Equal(t, ap.ID[:1], ap.Tournoi, "the stored tournament of %s", ap.ID)
				}
			}
		})
	}
}
