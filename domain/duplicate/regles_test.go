package duplicate

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbitre/engine/tile"
)

func natureTexte(t *testing.T, s string) nature {
	t.Helper()
	r, err := tile.ParseRack(s)
	require.NoError(t, err)
	return natureDe(&r)
}

// §3.2: two vowels and two consonants up to coup 15, one of each from coup
// 16 or earlier when the letters left force it; Y and jokers at the
// director's choice except at the end.
func TestEvaluerTirage_Paragraphe3_2(t *testing.T) {
	plein := sacComplet()
	tests := []struct {
		name      string
		coup      int
		tirage    string
		restantes string // "" means the full set
		want      Validite
	}{
		{"§3.2 deux voyelles deux consonnes", 1, "AEBCDFG", "", TirageValide},
		{"§3.2 une seule voyelle avant le 16e coup", 15, "ABCDFGH", "", TirageInvalide},
		{"§3.2 une voyelle suffit au 16e coup", 16, "ABCDFGH", "", TirageValide},
		{"§3.2 aucune voyelle au 16e coup", 16, "BCDFGHJ", "", TirageInvalide},
		{"§3.2 joker au choix du juge-arbitre", 3, "ABCDFG?", "", TirageAuChoix},
		{"§3.2 Y au choix du juge-arbitre", 3, "AEIOUBY", "", TirageAuChoix},
		{"§3.2 deux jokers et Y", 3, "ABCD??Y", "", TirageAuChoix},
		{"§3.2 Y et joker comptés comme deux voyelles", 3, "BCDFGY?", "", TirageAuChoix},
		{"§3.2 trois manques pour deux lettres libres", 3, "BCDFGHY", "", TirageInvalide},
		{"§3.2 plus tôt du fait du reliquat : une voyelle restante", 4, "ABCDFGH", "ABCDFGHLMNRST", TirageValide},
		{"§3.2 fin de partie : consonnes seules et Y, plus de choix", 20, "BCDY", "BCDY", TirageValide},
		{"§3.2 fin de partie : joker forcé voyelle", 10, "BCD?", "BCD?", TirageValide},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rest := natureDe(&plein)
			if tt.restantes != "" {
				rest = natureTexte(t, tt.restantes)
			}
			assert.Equal(t, tt.want, evaluerTirage(tt.coup, natureTexte(t, tt.tirage), rest))
		})
	}
}

// §3.7: the letter conditions that end a game.
func TestFinDePartie_Paragraphe3_7(t *testing.T) {
	tests := []struct {
		name      string
		restantes string
		motif     MotifFin
		fini      bool
	}{
		{"§3.7 toutes les lettres placées", "", FinToutesLettresPlacees, true},
		{"§3.7 une seule lettre, quelle qu'elle soit", "?", FinUneSeuleLettre, true},
		{"§3.7 seulement des voyelles", "AEIOU", FinReliquatVoyelles, true},
		{"§3.7 seulement des consonnes", "BCDRST", FinReliquatConsonnes, true},
		{"§3.7 joker et Y dans un reliquat de deux lettres", "Y?", "", false},
		{"§3.7 Y parmi des voyelles", "AEY", "", false},
		{"§3.7 joker parmi des consonnes", "BC?", "", false},
		{"§3.7 voyelles et consonnes", "AB", "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			motif, fini := finDePartie(natureTexte(t, tt.restantes))
			assert.Equal(t, tt.fini, fini)
			assert.Equal(t, tt.motif, motif)
		})
	}
}
