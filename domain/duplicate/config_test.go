package duplicate

import (
	"arbitre/domain/erreur"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestArt1_3_Guide2_5_Configuration: §1.3 — the thinking time of a normal
// game is 3 min, 2 min 30, 2 min or 1 min; sudden death and tie-breaks keep
// their own schedule (§3.8.3, guide §2.14). Guide §2.5 and §6.1.1 — the
// number of free warnings is a parameter of the competition; when it is not
// given, §5.9's 3 (5 in blitz and original formulas) applies.
func TestArt1_3_Guide2_5_Configuration(t *testing.T) {
	tests := []struct {
		name     string
		cfg      Config
		gratuits int
		refuse   bool
	}{
		{"§1.3 trois minutes", Config{TempsParCoup: 3 * time.Minute}, 3, false},
		{"§1.3 deux minutes trente", Config{TempsParCoup: 150 * time.Second}, 3, false},
		{"§1.3 semi-rapide", Config{TempsParCoup: 2 * time.Minute}, 3, false},
		{"§1.3 blitz", Config{TempsParCoup: time.Minute}, 5, false},
		{"§1.3 quatre-vingt-dix secondes refusées", Config{TempsParCoup: 90 * time.Second}, 0, true},
		{"§1.3 cinq minutes refusées", Config{TempsParCoup: 5 * time.Minute}, 0, true},
		{"§1.3 trente secondes refusées", Config{TempsParCoup: 30 * time.Second}, 0, true},
		{"§3.8.3 la mort subite suit son propre barème", Config{TempsParCoup: 80 * time.Second, Mode: ModeMortSubite}, 5, false},
		{"guide §2.14 le barrage suit son propre barème", Config{TempsParCoup: 100 * time.Second, Mode: ModeBarrage}, 5, false},
		{"guide §2.5 quatre avertissements gratuits en partie normale", Config{TempsParCoup: 3 * time.Minute, AvertissementsGratuits: entier(4)}, 4, false},
		{"guide §2.5 trois en blitz si la compétition le décide", Config{TempsParCoup: time.Minute, AvertissementsGratuits: entier(3)}, 3, false},
		{"guide §2.5 dix en partie joker", Config{TempsParCoup: 2 * time.Minute, Formule: FormuleJoker, AvertissementsGratuits: entier(10)}, 10, false},
		{"guide §2.5 aucun avertissement gratuit", Config{TempsParCoup: 3 * time.Minute, AvertissementsGratuits: entier(0)}, 0, false},
		{"guide §2.5 un nombre négatif est refusé", Config{TempsParCoup: 3 * time.Minute, AvertissementsGratuits: entier(-1)}, 0, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := Nouvelle(fixe(t))
			err := p.Creer("p1", "", 1, tt.cfg, []string{"L1", "L2"})
			if tt.refuse {
				assert.Equal(t, CodeInvalidConfig, erreur.CodeOf(err))
				assert.Zero(t, p.Version())
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.gratuits, p.Config().Gratuits())
		})
	}
}

func entier(n int) *int { return &n }
