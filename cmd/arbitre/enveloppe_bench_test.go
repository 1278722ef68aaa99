package main

import (
	"fmt"
	"strings"
	"testing"
)

// BenchmarkIssue34_EnveloppeDUnClassement: what a display of arbitre
// charge spends on one classementChange message of a 2,000-player hall
// (rang nom score top, 2,000 lines), on the same cores as the server.
func BenchmarkIssue34_EnveloppeDUnClassement(b *testing.B) {
	var lignes []string
	for i := range 2000 {
		lignes = append(lignes, fmt.Sprintf(`{"rang":%d,"nom":"Joueur %04d","score":%d,"top":42}`, i+1, i, 900-i/3))
	}
	raw := []byte(`{"payload":{"data":{"classementChange":[` + strings.Join(lignes, ",") + `]}},"id":"s","type":"next"}` + "\n")
	b.SetBytes(int64(len(raw)))
	b.ReportAllocs()
	for range b.N {
		m, err := lireEnveloppe(raw)
		if err != nil || m.ID != "s" || len(m.Payload) == 0 {
			b.Fatal(err, m.ID)
		}
	}
}
