package charge

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// reponseClassement is a standings answer of the standings phase's query
// as the server writes it, of joueurs lines; score shifts every score.
func reponseClassement(joueurs, score int) []byte {
	lignes := make([]string, joueurs)
	for i := range lignes {
		lignes[i] = fmt.Sprintf(`{"rang":%d,"licence":"L%05d","nom":"Joueur %05d","club":"Club %d","serie":null,"score":%d,"top":1500,"negatif":%d,"pourcentage":%.2f,"solos":0,"avertissements":0,"penalites":0,"enAttente":0}`,
			i+1, i, i, i%97, score+1400-i/3, i/3-100, float64(1400-i/3)/15)
	}
	return []byte(`{"data":{"classement":[` + strings.Join(lignes, ",") + `]}}`)
}

// serveurClassement serves the standings phase's query: the game's and
// the cumul's answers of joueurs lines; the answer to the request numbered
// faux (from 1) has one figure changed, still joueurs lines.
func serveurClassement(t testing.TB, joueurs int, faux int64) (*chargeClient, *atomic.Int64) {
	partie, cumul := reponseClassement(joueurs, 0), reponseClassement(joueurs, 300)
	var n atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var req struct{ Variables map[string]string }
		if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		rep := partie
		if req.Variables["t"] == chargeTournoi {
			rep = cumul
		}
		if n.Add(1) == faux {
			rep = []byte(strings.Replace(string(rep), `"solos":0`, `"solos":1`, 1))
		}
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write(rep)
	}))
	t.Cleanup(srv.Close)
	return nouveauChargeClient(srv.Listener.Addr().String()), &n
}

// TestIssue34_ClassementParRequeteJusteOctetParOctet: the log does not
// change during the standings phase, so a right answer is the complete
// one byte for byte; an answer with the right number of lines but one
// figure changed counts as an error.
func TestIssue34_ClassementParRequeteJusteOctetParOctet(t *testing.T) {
	c := Config{Players: 50, QPS: 200, Duration: 100 * time.Millisecond}
	envoyees := int64(UnloadedQueries + 20) // at the least
	for _, tt := range []struct {
		nom    string
		faux   int64
		erreur int
	}{
		{nom: "toutes justes", faux: 0},
		{nom: "un solo de plus", faux: envoyees, erreur: 1},
	} {
		t.Run(tt.nom, func(t *testing.T) {
			cl, n := serveurClassement(t, c.Players, tt.faux)
			var r standingsReport
			require.NoError(t, standingsPhase(context.Background(), cl, c, &r))
			require.GreaterOrEqual(t, n.Load(), envoyees)
			assert.Equal(t, tt.erreur, r.Errors, r.FirstError)
		})
	}
}

// BenchmarkIssue34_ClassementParRequete: what the standings phase's
// client spends on one query of a 2,000-player hall (the answer is
// 2,000 lines of 13 fields), on the same cores as the server it measures.
func BenchmarkIssue34_ClassementParRequete(b *testing.B) {
	const joueurs = 2000
	cl, _ := serveurClassement(b, joueurs, 0)
	query, err := classementParRequete(context.Background(), cl, Config{Players: joueurs})
	require.NoError(b, err)
	b.SetBytes(int64(len(reponseClassement(joueurs, 0))))
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		if err := query(i); err != nil {
			b.Fatal(err)
		}
		i++
	}
}
