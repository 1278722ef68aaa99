package federation

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var t0 = time.Date(2026, 7, 14, 14, 0, 0, 0, time.UTC)

func jumelage(t *testing.T, f Formule) *Jumelage {
	t.Helper()
	j := NouveauJumelage()
	require.NoError(t, j.Creer("VICHY", f, "Vichy", "V", []string{"Lyon", "Nice"}))
	j.Sauves()
	return j
}

func types(evts []any) []string {
	var out []string
	for _, e := range evts {
		switch e.(type) {
		case LiaisonCoupee:
			out = append(out, "coupee")
		case LiaisonRetablie:
			out = append(out, "retablie")
		case PartieAnnuleeAuSite:
			out = append(out, "annulee")
		case SiteDetache:
			out = append(out, "detache")
		}
	}
	return out
}

// TestJumelage_Guide2_18_1_B_Coupure: formula 1, a satellite cut for
// at most 15 minutes resumes (in slight delay); beyond, its game is
// annulled for that centre, decided at the deadline without waiting for
// the link or when it comes back; the principal never stops.
func TestJumelage_Guide2_18_1_B_Coupure(t *testing.T) {
	tests := []struct {
		name     string
		retablir time.Duration
		echeance time.Duration
		want     []string
		annulee  bool
	}{
		{"15 minutes tout juste", 15 * time.Minute, 0, []string{"coupee", "retablie"}, false},
		{"16 minutes, au rétablissement", 16 * time.Minute, 0, []string{"coupee", "annulee", "retablie"}, true},
		{"à l'échéance, la liaison encore coupée", 0, 15*time.Minute + time.Second, []string{"coupee", "annulee"}, true},
		{"échéance avant 15 minutes", 0, 10 * time.Minute, []string{"coupee"}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			j := jumelage(t, FormuleSatellites)
			require.NoError(t, j.Couper("Lyon", "P1", t0))
			assert.False(t, j.Arrete(), "§2.18.1.B: le tournoi principal continue")
			if tt.echeance > 0 {
				require.NoError(t, j.Echeance(t0.Add(tt.echeance)))
				require.NoError(t, j.Echeance(t0.Add(tt.echeance+time.Minute)))
			}
			if tt.retablir > 0 {
				require.NoError(t, j.Retablir("Lyon", t0.Add(tt.retablir)))
			}
			if tt.annulee {
				require.NoError(t, j.Echeance(t0.Add(time.Hour)))
			}
			assert.Equal(t, tt.want, types(j.Nouveaux()))
			assert.Equal(t, tt.annulee, j.Annulee("Lyon", "P1"))
		})
	}
}

// TestJumelage_Guide2_18_2_B_Coupure: formula 2, every site stops
// while a link is cut; the interruptions of one game add up, and beyond 15
// minutes the cut site leaves the twinning; with two sites left only, the
// twinning ends.
func TestJumelage_Guide2_18_2_B_Coupure(t *testing.T) {
	j := jumelage(t, FormuleEgaux)
	require.NoError(t, j.Couper("Nice", "P1", t0))
	assert.True(t, j.Arrete(), "§2.18.2.B: tous les sites arrêtent de jouer")
	require.NoError(t, j.Retablir("Nice", t0.Add(10*time.Minute)))
	assert.False(t, j.Arrete())
	require.NoError(t, j.Couper("Nice", "P1", t0.Add(20*time.Minute)))
	require.NoError(t, j.Retablir("Nice", t0.Add(26*time.Minute)))
	assert.True(t, j.Detache("Nice"), "10 + 6 minutes dans la même partie")
	d := j.Nouveaux()[len(j.Nouveaux())-2].(SiteDetache)
	assert.False(t, d.Fin, "Vichy et Lyon restent jumelés")
	require.NoError(t, j.Couper("Lyon", "P2", t0.Add(time.Hour)))
	require.NoError(t, j.Echeance(t0.Add(time.Hour+16*time.Minute)))
	fin := j.Nouveaux()[len(j.Nouveaux())-1].(SiteDetache)
	assert.True(t, fin.Fin, "le jumelage est annulé, chacun poursuit isolément")
	assert.False(t, j.Arrete(), "un site détaché n'arrête plus les autres")
}

// TestJumelage_Refus: commands that do not fit change nothing.
func TestJumelage_Refus(t *testing.T) {
	assert.Equal(t, CodeJumelageInvalide, CodeOf(NouveauJumelage().Creer("J", 3, "A", "", []string{"B"})))
	assert.Equal(t, CodeJumelageInvalide, CodeOf(NouveauJumelage().Creer("J", 1, "A", "", []string{"A"})))
	assert.Equal(t, CodeNotFound, CodeOf(NouveauJumelage().Couper("B", "P", t0)))
	j := jumelage(t, FormuleSatellites)
	temoin := *j
	assert.Equal(t, CodeJumelageInvalide, CodeOf(j.Couper("Paris", "P1", t0)))
	assert.Equal(t, temoin, *j)
}

func scores() []ScorePartie {
	return []ScorePartie{
		{Site: "Vichy", Partie: "P1", Licence: "V1", Serie: "1", Score: 500}, {Site: "Vichy", Partie: "P2", Licence: "V1", Serie: "1", Score: 500},
		{Site: "Vichy", Partie: "P1", Licence: "V2", Serie: "3A", Score: 400}, {Site: "Vichy", Partie: "P2", Licence: "V2", Serie: "3A", Score: 300},
		{Site: "Lyon", Partie: "P1", Licence: "L1", Serie: "1", Score: 450}, {Site: "Lyon", Partie: "P2", Licence: "L1", Serie: "1", Score: 500},
		{Site: "Nice", Partie: "P1", Licence: "N1", Serie: "2", Score: 600}, {Site: "Nice", Partie: "P2", Licence: "N1", Serie: "2", Score: 100},
	}
}

// TestJumelage_Guide2_18_1_C_Classement: formula 1, the principal's
// ranking and characteristics hold its own players; each satellite player
// is placed against it, on the games his centre played normally.
func TestJumelage_Guide2_18_1_C_Classement(t *testing.T) {
	j := jumelage(t, FormuleSatellites)
	require.NoError(t, j.Couper("Nice", "P2", t0))
	require.NoError(t, j.Echeance(t0.Add(20*time.Minute)))
	c := j.Classement(scores())
	assert.Equal(t, Caracteristiques{Joueurs: 2, ParSerie: map[string]int{"1": 1, "3A": 1}}, c.Caracteristiques)
	assert.Equal(t, []LigneJumelee{
		{Site: "Vichy", Licence: "V1", Serie: "1", Score: 1000, Rang: 1},
		{Site: "Nice", Licence: "N1", Serie: "2", Score: 600, Rang: 1, Injecte: true}, // P1 only: 600 > 500, 400
		{Site: "Vichy", Licence: "V2", Serie: "3A", Score: 700, Rang: 2},
		{Site: "Lyon", Licence: "L1", Serie: "1", Score: 950, Rang: 2, Injecte: true},
	}, c.Classement)
}

// TestJumelage_Guide2_18_2_C_Classement: formula 2, one ranking of
// every site, characteristics over all of them; a detached site ranked on
// its own.
func TestJumelage_Guide2_18_2_C_Classement(t *testing.T) {
	j := jumelage(t, FormuleEgaux)
	c := j.Classement(scores())
	assert.Equal(t, Caracteristiques{Joueurs: 4, ParSerie: map[string]int{"1": 2, "2": 1, "3A": 1}}, c.Caracteristiques)
	assert.Equal(t, []string{"V1", "L1", "N1", "V2"}, licences(c.Classement))
	assert.Equal(t, c.Classement[2].Rang, c.Classement[3].Rang, "700 each: tied")
	require.NoError(t, j.Couper("Nice", "P2", t0))
	require.NoError(t, j.Echeance(t0.Add(20*time.Minute)))
	c = j.Classement(scores())
	assert.Equal(t, 3, c.Caracteristiques.Joueurs)
	assert.Equal(t, []string{"N1"}, licences(c.Isoles["Nice"]))
}

func licences(l []LigneJumelee) []string {
	var out []string
	for _, x := range l {
		out = append(out, x.Licence)
	}
	return out
}

// TestJumelage_Guide2_18_ResultatsEnLigne: a site's results of a game,
// sent online as the game goes, replace what it sent before for that game
// (§2.18.1.C); the same bundle or the same results again record nothing;
// a site outside the twinning is refused. Only the twinning's sites follow
// the principal's tournament (§2.18.1.A).
func TestJumelage_Guide2_18_ResultatsEnLigne(t *testing.T) {
	j := jumelage(t, FormuleSatellites)
	assert.True(t, j.Suit("Lyon", "V"))
	assert.False(t, j.Suit("Lyon", "W"), "another tournament's games")
	assert.False(t, j.Suit("Brest", "V"), "not a site of the twinning")
	assert.False(t, j.Suit("Vichy", "V"), "the principal follows nobody")

	coup := func(score int) ResultatsCentre {
		return ResultatsCentre{Centre: "Lyon", Partie: "P1", Joueurs: []JoueurCentre{{Licence: "L1", Nom: "Un", Serie: "3A", Score: score}}}
	}
	require.NoError(t, j.RecevoirResultats(coup(40), "e1"))
	require.NoError(t, j.RecevoirResultats(coup(40), "e1"))
	require.NoError(t, j.RecevoirResultats(coup(95), "e2"))
	require.NoError(t, j.RecevoirResultats(coup(95), "e3"))
	assert.Len(t, j.Nouveaux(), 2, "the same bundle, or the same results, twice: once")
	assert.Equal(t, []ScorePartie{{Site: "Lyon", Partie: "P1", Licence: "L1", Nom: "Un", Serie: "3A", Score: 95}}, j.Scores())
	assert.Equal(t, CodeJumelageInvalide, CodeOf(j.RecevoirResultats(ResultatsCentre{Centre: "Brest", Partie: "P1"}, "e3")))

	relu := NouveauJumelage()
	require.NoError(t, relu.Creer("VICHY", FormuleSatellites, "Vichy", "V", []string{"Lyon", "Nice"}))
	for _, e := range j.Nouveaux() {
		require.NoError(t, relu.Appliquer(e))
	}
	assert.Equal(t, j.Scores(), relu.Scores(), "replayed from its events")
}

// TestJumelage_Guide2_18_2_B_TirageSuspendu: in formula 2 the next tirage
// is refused while a site's link is cut (every site stops, §2.18.2.B), and
// allowed again once it is back; in formula 1 the principal goes on
// (§2.18.1.B).
func TestJumelage_Guide2_18_2_B_TirageSuspendu(t *testing.T) {
	for _, tt := range []struct {
		formule Formule
		arret   bool
	}{{FormuleSatellites, false}, {FormuleEgaux, true}} {
		j := jumelage(t, tt.formule)
		require.NoError(t, j.ExigerLiaisons())
		require.NoError(t, j.Couper("Nice", "P1", t0))
		if tt.arret {
			err := j.ExigerLiaisons()
			assert.Equal(t, CodeLiaisonCoupee, CodeOf(err))
			assert.Contains(t, err.Error(), "Nice")
		} else {
			assert.NoError(t, j.ExigerLiaisons())
		}
		require.NoError(t, j.Retablir("Nice", t0.Add(time.Minute)))
		assert.NoError(t, j.ExigerLiaisons())
	}
}
