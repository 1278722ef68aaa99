package main

import (
	"fmt"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Issue 17, « saisie des bulletins sans conflits »: twelve arbiters of
// different tables enter their bulletins at the same moment, over HTTP,
// without sending a version. None gets CONFLICT (before, every bulletin of
// a game went through the game's one stream and the server's retries ran
// out), and every bulletin is listed once.
func TestE2ESaisie_ArbitresDeTablesDifferentesSansConflit(t *testing.T) {
	const arbitres, parArbitre = 12, 2
	data := t.TempDir()
	director := apiToken(t, data, "--role", "director")
	jetons := make([]string, arbitres)
	for k := range jetons {
		tables := fmt.Sprintf("%d-%d", k*parArbitre+1, (k+1)*parArbitre)
		jetons[k] = apiToken(t, data, "--role", "arbiter", "--tables", tables, "--tournoi", "T1")
	}
	s := startAPIServer(t, data)
	defer s.stop()
	inscrireJoueursT1(t, s, director, arbitres*parArbitre)
	require.Empty(t, s.gql(director, `mutation { creerPartie(tournoi:"T1", partie:"T1-1", config:{source: logiciel, graine: 7}) { version } }`, nil).Errors)
	require.Empty(t, s.gql(director, `mutation { tirer(partie:"T1-1") { version } }`, nil).Errors)

	deposer := `mutation($l: ID!, $id: String!) { deposerBulletin(partie:"T1-1", coup:1, licence:$l, bulletin:{blank:true}, clientMutationId:$id) { licence } }`
	var mu sync.Mutex
	codes := map[string][]string{}
	var depart, fin sync.WaitGroup
	depart.Add(1)
	for k, jeton := range jetons {
		fin.Go(func() {
			depart.Wait()
			for i := 1; i <= parArbitre; i++ {
				licence := fmt.Sprintf("L%d", k*parArbitre+i)
				res := s.gql(jeton, deposer, map[string]any{"l": licence, "id": "saisie-" + licence})
				if code := res.code(); code != "" {
					mu.Lock()
					codes[code] = append(codes[code], licence)
					mu.Unlock()
				}
			}
		})
	}
	depart.Done()
	fin.Wait()
	assert.Empty(t, codes, "no answer but success, CONFLICT least of all")

	var listes struct{ Bulletins []struct{ Licence string } }
	s.gql(director, `query { bulletins(partie:"T1-1", coup:1) { licence } }`, nil).into(t, "bulletins", &listes.Bulletins)
	vus := map[string]int{}
	for _, b := range listes.Bulletins {
		vus[b.Licence]++
	}
	for i := 1; i <= arbitres*parArbitre; i++ {
		assert.Equal(t, 1, vus[fmt.Sprintf("L%d", i)], "L%d listed once", i)
	}
}
