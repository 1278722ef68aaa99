package standings

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbitre/domain/duplicate"
)

func sanction(licence string, nature duplicate.NatureSanction) duplicate.SanctionDisciplinaire {
	return duplicate.SanctionDisciplinaire{Coup: 1, Licence: licence, Nature: nature, Motif: "bavardage"}
}

func TestStandings_SanctionsDisciplinaires(t *testing.T) {
	tests := []struct {
		name        string
		n           int
		corrections []duplicate.BulletinCorrige
		sanctions   []duplicate.SanctionDisciplinaire
		licence     string
		score       int
		avert       int
		penalites   int
		solos       int
	}{
		{"§5.5 avertissement disciplinaire gratuit", 2, []duplicate.BulletinCorrige{paye("J00", 20)},
			[]duplicate.SanctionDisciplinaire{sanction("J00", duplicate.SanctionAvertissement)}, "J00", 20, 1, 0, 1},
		{"§5.8 §5.9 cumulé avec trois avertissements : le quatrième coûte 5 points", 2, []duplicate.BulletinCorrige{avert("J00", 20, 3)},
			[]duplicate.SanctionDisciplinaire{sanction("J00", duplicate.SanctionAvertissement)}, "J00", 15, 4, 5, 1},
		{"§5.8 cumulé avec la pénalité de 5 points (§5.6)", 2, []duplicate.BulletinCorrige{pen("J00", 20)},
			[]duplicate.SanctionDisciplinaire{sanction("J00", duplicate.SanctionAvertissement)}, "J00", 15, 1, 5, 1},
		{"§5.7 zéro disciplinaire : le coup ne paie rien", 2, []duplicate.BulletinCorrige{paye("J00", 20), paye("J01", 12)},
			[]duplicate.SanctionDisciplinaire{sanction("J00", duplicate.SanctionZero)}, "J00", 0, 0, 0, 0},
		{"§3.5 le zéro disciplinaire donne le solo à l'autre joueur", 2, []duplicate.BulletinCorrige{paye("J00", 20), paye("J01", 12)},
			[]duplicate.SanctionDisciplinaire{sanction("J00", duplicate.SanctionZero)}, "J01", 12, 0, 0, 1},
		{"§5.7 §5.8 le zéro efface la pénalité du bulletin, pas l'avertissement disciplinaire", 2, []duplicate.BulletinCorrige{pen("J00", 20)},
			[]duplicate.SanctionDisciplinaire{sanction("J00", duplicate.SanctionZero), sanction("J00", duplicate.SanctionAvertissement)}, "J00", 0, 1, 0, 0},
		{"§6.1 exclusion : scores annulés, ni avertissement ni pénalité", 2, []duplicate.BulletinCorrige{avert("J00", 20, 5)},
			[]duplicate.SanctionDisciplinaire{sanction("J00", duplicate.SanctionExclusion)}, "J00", 0, 0, 0, 0},
		{"guide §2.10 la moyenne compte le zéro disciplinaire", 3, []duplicate.BulletinCorrige{moy("J00", 30), paye("J01", 20), paye("J02", 10)},
			[]duplicate.SanctionDisciplinaire{sanction("J01", duplicate.SanctionZero)}, "J00", 5, 0, 0, 0},
		{"guide §2.10 §6.1 la moyenne ignore les scores annulés", 3, []duplicate.BulletinCorrige{moy("J00", 30), paye("J01", 20), paye("J02", 10)},
			[]duplicate.SanctionDisciplinaire{sanction("J01", duplicate.SanctionExclusion)}, "J00", 10, 0, 0, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := unePartie(t, tt.n, normale, tt.corrections, false)
			for _, s := range tt.sanctions {
				require.NoError(t, c.Appliquer(flux, s))
			}
			require.NoError(t, c.Appliquer(flux, duplicate.PartieTerminee{Motif: duplicate.FinToutesLettresPlacees, DernierCoup: 1}))
			l := ligne(t, c, tt.licence)
			assert.Equal(t, tt.score, l.Score)
			assert.Equal(t, tt.avert, l.Avertissements)
			assert.Equal(t, tt.penalites, l.Penalites)
			assert.Equal(t, tt.solos, l.Solos)
			assert.Zero(t, l.EnAttente)
		})
	}
}

func TestStandings_Paragraphe5_7_ZeroSansBulletinCorrige(t *testing.T) {
	c := unePartie(t, 2, normale, []duplicate.BulletinCorrige{paye("J00", 20)}, false)
	require.NoError(t, c.Appliquer(flux, sanction("J01", duplicate.SanctionAvertissement)))
	assert.Equal(t, 1, ligne(t, c, "J01").EnAttente, "§5.5 an avertissement does not decide the score")
	assert.Equal(t, 1, ligne(t, c, "J01").Avertissements, "§5.9 but it counts")
	require.NoError(t, c.Appliquer(flux, sanction("J01", duplicate.SanctionZero)))
	assert.Zero(t, ligne(t, c, "J01").EnAttente, "§5.7 the zéro decides the coup whatever the bulletin")
}

func TestStandings_Paragraphe3_6_CoupAnnuleEmporteSesSanctions(t *testing.T) {
	c := unePartie(t, 2, normale, []duplicate.BulletinCorrige{paye("J00", 20), paye("J01", 20)}, false)
	for _, s := range []duplicate.SanctionDisciplinaire{sanction("J00", duplicate.SanctionZero),
		sanction("J00", duplicate.SanctionAvertissement), sanction("J01", duplicate.SanctionExclusion)} {
		require.NoError(t, c.Appliquer(flux, s))
	}
	require.NoError(t, c.Appliquer(flux, duplicate.CoupAnnule{Coup: 1, Motif: duplicate.AnnulationErreur}))
	require.NoError(t, c.Appliquer(flux, duplicate.TopRetenu{Coup: 1, Score: 20}))
	require.NoError(t, c.Appliquer(flux, paye("J00", 18)))
	require.NoError(t, c.Appliquer(flux, paye("J01", 18)))
	assert.Equal(t, 18, ligne(t, c, "J00").Score, "§3.6 the zéro went with the annulled coup")
	assert.Zero(t, ligne(t, c, "J00").Avertissements)
	assert.Zero(t, ligne(t, c, "J01").Score, "§6.1 the exclusion stays")
}
