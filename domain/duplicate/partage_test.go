package duplicate

import (
	"fmt"
	"testing"
)

// salle2000 is a hall's game of 2,000 players (issue 34): coup 1 topped,
// every bulletin entered and corrected; coup 2 drawn, the first thousand
// bulletins entered. It returns the game and the bulletins of the others.
func salle2000(b *testing.B) (*Partie, []BulletinDepose) {
	b.Helper()
	joueurs := make([]string, 2000)
	for i := range joueurs {
		joueurs[i] = fmt.Sprintf("L%04d", i)
	}
	p := Nouvelle(fixe(b, coup(b, "H8", "BAC", 14)))
	exiger := func(err error) {
		if err != nil {
			b.Fatal(err)
		}
	}
	exiger(p.Creer("p1", "t1", 1, configDirecteur, joueurs))
	exiger(p.Tirer("ABCDEF?"))
	exiger(p.RetenirTop("H8", "BAC"))
	for _, l := range joueurs {
		exiger(p.DeposerBulletin(BulletinDepose{Coup: 1, Licence: l, Bulletin: BulletinEcrit("H8", "BAC", new(14), false, false)}))
		exiger(p.CorrigerBulletin(Correction{Coup: 1, Licence: l, Arbitre: "A1"}))
	}
	exiger(p.Tirer("GHI"))
	var reste []BulletinDepose
	for i, l := range joueurs {
		bu := BulletinDepose{Coup: 2, Licence: l, Bulletin: BulletinEcrit("I8", "DE", new(14), false, false)}
		if i%2 == 0 {
			exiger(p.DeposerBulletin(bu))
		} else {
			reste = append(reste, bu)
		}
	}
	return p, reste
}

// BenchmarkIssue34_BulletinDUneSalleDe2000: what the repository and a
// bulletin's command cost the game of a 2,000-player hall: a copy of the
// kept game, the bulletin recorded on it.
func BenchmarkIssue34_BulletinDUneSalleDe2000(b *testing.B) {
	garde, reste := salle2000(b)
	garde.MarkSaved()
	b.ReportAllocs()
	b.ResetTimer()
	for i := range b.N {
		c := garde.Copie()
		if err := c.DeposerBulletin(reste[i%len(reste)]); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkIssue34_RejeuDUneSalleDe2000: the same game replayed from its
// events (a repository's first read, a rebuild): the lots must not make it
// slower.
func BenchmarkIssue34_RejeuDUneSalleDe2000(b *testing.B) {
	p, _ := salle2000(b)
	evts := p.Pending()
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		q := Nouvelle(nil)
		for _, e := range evts {
			if err := q.Apply(e); err != nil {
				b.Fatal(err)
			}
		}
	}
}
