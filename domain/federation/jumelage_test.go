package federation

import (
	"arbitre/domain/erreur"
	"arbitre/domain/eventstore"
	"arbitre/domain/eventstore/eventstoretest"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var t0 = time.Date(2026, 7, 14, 14, 0, 0, 0, time.UTC)

// mural is a reading of the wall clock alone: lengths are read on it.
func mural(t time.Time) eventstore.Instant { return eventstore.Instant{Wall: t} }

func jumelage(t *testing.T, f Formule) *Jumelage {
	t.Helper()
	j := NouveauJumelage()
	require.NoError(t, j.Creer("VICHY", f, "Vichy", "V", []string{"Lyon", "Nice"}))
	j.MarkSaved()
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
			require.NoError(t, j.Couper("Lyon", "P1", mural(t0)))
			assert.False(t, j.Arrete(), "§2.18.1.B: le tournoi principal continue")
			if tt.echeance > 0 {
				require.NoError(t, j.Echeance(mural(t0.Add(tt.echeance))))
				require.NoError(t, j.Echeance(mural(t0.Add(tt.echeance+time.Minute))))
			}
			if tt.retablir > 0 {
				require.NoError(t, j.Retablir("Lyon", mural(t0.Add(tt.retablir))))
			}
			if tt.annulee {
				require.NoError(t, j.Echeance(mural(t0.Add(time.Hour))))
			}
			assert.Equal(t, tt.want, types(j.Pending()))
			assert.Equal(t, tt.annulee, j.Annulee("Lyon", "P1"))
		})
	}
}

// TestJumelage_Guide2_18_CoupureHorlogeQuiSaute: « si la coupure n'excède
// pas 15 minutes » (guide §2.18.1.B, §2.18.2.B) is a real length of time,
// measured on the server's monotonic reading the cut records: the clock set
// forward during a short cut does not annul the centre's game, set back
// during a long one it does not spare it. After a restart (a new clock) no
// reading compares: the wall clock measures.
func TestJumelage_Guide2_18_CoupureHorlogeQuiSaute(t *testing.T) {
	tests := []struct {
		name        string
		pendant     func(h *eventstoretest.ManualClock)
		redemarrage bool
		echeance    bool // Echeance instead of the link's return
		want        []string
		duree       time.Duration // the cut's length recorded on its return
	}{
		{"5 minutes, l'horloge avance d'une heure : le site reprend", func(h *eventstoretest.ManualClock) {
			h.Advance(5 * time.Minute)
			h.Jump(time.Hour)
		}, false, false, []string{"coupee", "retablie"}, 5 * time.Minute},
		{"16 minutes, l'horloge recule d'une heure : la partie est annulée au site", func(h *eventstoretest.ManualClock) {
			h.Advance(16 * time.Minute)
			h.Jump(-time.Hour)
		}, false, false, []string{"coupee", "annulee", "retablie"}, 16 * time.Minute},
		{"échéance, 10 minutes et l'horloge avance d'une heure : rien n'est décidé", func(h *eventstoretest.ManualClock) {
			h.Advance(10 * time.Minute)
			h.Jump(time.Hour)
		}, false, true, []string{"coupee"}, 0},
		{"échéance, 16 minutes et l'horloge recule d'une heure : la partie est annulée au site", func(h *eventstoretest.ManualClock) {
			h.Advance(16 * time.Minute)
			h.Jump(-time.Hour)
		}, false, true, []string{"coupee", "annulee"}, 0},
		{"redémarrage, 16 minutes à l'horloge murale : la partie est annulée au site", func(h *eventstoretest.ManualClock) {
			h.Advance(16 * time.Minute)
		}, true, false, []string{"coupee", "annulee", "retablie"}, 16 * time.Minute},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := eventstoretest.NewManualClock(t0)
			j := jumelage(t, FormuleSatellites)
			require.NoError(t, j.Couper("Lyon", "P1", eventstore.ReadClock(h)))
			tt.pendant(h)
			if tt.redemarrage {
				h = eventstoretest.NewManualClock(h.Now())
			}
			if tt.echeance {
				require.NoError(t, j.Echeance(eventstore.ReadClock(h)))
			} else {
				require.NoError(t, j.Retablir("Lyon", eventstore.ReadClock(h)))
				r := j.Pending()[len(j.Pending())-1].(LiaisonRetablie)
				assert.Equal(t, tt.duree, r.Interruption, "the length recorded")
			}
			assert.Equal(t, tt.want, types(j.Pending()))
		})
	}
}

// TestJumelage_Guide2_18_2_B_Coupure: formula 2, every site stops
// while a link is cut; the interruptions of one game add up, and beyond 15
// minutes the cut site leaves the twinning; with two sites left only, the
// twinning ends.
func TestJumelage_Guide2_18_2_B_Coupure(t *testing.T) {
	j := jumelage(t, FormuleEgaux)
	require.NoError(t, j.Couper("Nice", "P1", mural(t0)))
	assert.True(t, j.Arrete(), "§2.18.2.B: tous les sites arrêtent de jouer")
	require.NoError(t, j.Retablir("Nice", mural(t0.Add(10*time.Minute))))
	assert.False(t, j.Arrete())
	require.NoError(t, j.Couper("Nice", "P1", mural(t0.Add(20*time.Minute))))
	require.NoError(t, j.Retablir("Nice", mural(t0.Add(26*time.Minute))))
	assert.True(t, j.Detache("Nice"), "10 + 6 minutes dans la même partie")
	d := j.Pending()[len(j.Pending())-2].(SiteDetache)
	assert.False(t, d.Fin, "Vichy et Lyon restent jumelés")
	require.NoError(t, j.Couper("Lyon", "P2", mural(t0.Add(time.Hour))))
	require.NoError(t, j.Echeance(mural(t0.Add(time.Hour+16*time.Minute))))
	fin := j.Pending()[len(j.Pending())-1].(SiteDetache)
	assert.True(t, fin.Fin, "le jumelage est annulé, chacun poursuit isolément")
	assert.False(t, j.Arrete(), "un site détaché n'arrête plus les autres")
}

// TestJumelage_Refus: commands that do not fit change nothing.
func TestJumelage_Refus(t *testing.T) {
	assert.Equal(t, CodeJumelageInvalide, erreur.CodeOf(NouveauJumelage().Creer("J", 3, "A", "", []string{"B"})))
	assert.Equal(t, CodeJumelageInvalide, erreur.CodeOf(NouveauJumelage().Creer("J", 1, "A", "", []string{"A"})))
	assert.Equal(t, CodeNotFound, erreur.CodeOf(NouveauJumelage().Couper("B", "P", mural(t0))))
	j := jumelage(t, FormuleSatellites)
	temoin := *j
	assert.Equal(t, CodeJumelageInvalide, erreur.CodeOf(j.Couper("Paris", "P1", mural(t0))))
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
	require.NoError(t, j.Couper("Nice", "P2", mural(t0)))
	require.NoError(t, j.Echeance(mural(t0.Add(20*time.Minute))))
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
	require.NoError(t, j.Couper("Nice", "P2", mural(t0)))
	require.NoError(t, j.Echeance(mural(t0.Add(20*time.Minute))))
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

	coup := func(points ...int) ResultatsCentre {
		score := 0
		for _, p := range points {
			score += p
		}
		return ResultatsCentre{Centre: "Lyon", Partie: "P1", Joueurs: []JoueurCentre{{Licence: "L1", Nom: "Un", Serie: "3A", Score: score, Points: points}}}
	}
	c := Controle{Principal: feuilleP1, Site: feuilleP1}
	require.NoError(t, j.RecevoirResultats(coup(40), "e1", c))
	require.NoError(t, j.RecevoirResultats(coup(40), "e1", c))
	require.NoError(t, j.RecevoirResultats(coup(50, 45), "e2", c))
	require.NoError(t, j.RecevoirResultats(coup(50, 45), "e3", c))
	assert.Len(t, j.Pending(), 2, "the same bundle, or the same results, twice: once")
	assert.Equal(t, []ScorePartie{{Site: "Lyon", Partie: "P1", Licence: "L1", Nom: "Un", Serie: "3A", Score: 95}}, j.Scores())
	assert.Equal(t, CodeJumelageInvalide, erreur.CodeOf(j.RecevoirResultats(ResultatsCentre{Centre: "Brest", Partie: "P1"}, "e3", c)))

	relu := NouveauJumelage()
	require.NoError(t, relu.Creer("VICHY", FormuleSatellites, "Vichy", "V", []string{"Lyon", "Nice"}))
	for _, e := range j.Pending() {
		require.NoError(t, relu.Apply(e))
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
		require.NoError(t, j.Couper("Nice", "P1", mural(t0)))
		if tt.arret {
			err := j.ExigerLiaisons()
			assert.Equal(t, CodeLiaisonCoupee, erreur.CodeOf(err))
			assert.Contains(t, err.Error(), "Nice")
		} else {
			assert.NoError(t, j.ExigerLiaisons())
		}
		require.NoError(t, j.Retablir("Nice", mural(t0.Add(time.Minute))))
		assert.NoError(t, j.ExigerLiaisons())
	}
}

// feuilleP1 is the principal's game P1 after two coups, as a site that
// played it honestly plays it too.
var feuilleP1 = Feuille{SeuilSolo: 16, Coups: []CoupFeuille{
	{Coup: 1, Tirage: "AEINRST", Retenu: true, Ref: "H4", Mot: "TANIERES", Top: 60},
	{Coup: 2, Tirage: "BEILOSU", Retenu: true, Ref: "5E", Mot: "OUBLIES", Top: 50},
}}

// TestSecurite_SatelliteMenteur: a site's results that the principal's
// own game does not allow are refused (INVALID_RESULTS), nothing
// recorded (issue 28 item 4): a coup the principal has not drawn, another
// tirage or top (another game), points above a coup's top, a score above
// the sum of the tops (a solo's bonus counted only from the game's
// threshold of players, §3.5), a licence of the principal's players or of
// another site's (received, or given along to a ranking).
func TestSecurite_SatelliteMenteur(t *testing.T) {
	j := jumelage(t, FormuleSatellites)
	require.NoError(t, j.RecevoirResultats(ResultatsCentre{Centre: "Nice", Partie: "P1", Joueurs: []JoueurCentre{{Licence: "N1", Score: 60, Points: []int{60}}}},
		"nice", Controle{Principal: feuilleP1, Site: feuilleP1}))
	j.MarkSaved()
	autre := func(modifier func(*CoupFeuille)) Feuille {
		f := Feuille{SeuilSolo: feuilleP1.SeuilSolo, Coups: slices.Clone(feuilleP1.Coups)}
		modifier(&f.Coups[1])
		return f
	}
	joueur := func(licence string, score int, points ...int) ResultatsCentre {
		return ResultatsCentre{Centre: "Lyon", Partie: "P1", Joueurs: []JoueurCentre{{Licence: licence, Score: score, Points: points}}}
	}
	seize := func(score int, points ...int) ResultatsCentre {
		r := ResultatsCentre{Centre: "Lyon", Partie: "P1"}
		for i := range 16 {
			r.Joueurs = append(r.Joueurs, JoueurCentre{Licence: fmt.Sprintf("L%d", i+1), Points: []int{0, 0}})
		}
		r.Joueurs[0].Score, r.Joueurs[0].Points = score, points
		return r
	}
	for _, tt := range []struct {
		nom     string
		r       ResultatsCentre
		site    Feuille
		message string
		accepte bool
	}{
		{"la partie jouée honnêtement", joueur("L1", 110, 60, 50), feuilleP1, "", true},
		{"un coup que le principal n'a pas tiré", joueur("L1", 0), Feuille{Coups: append(slices.Clone(feuilleP1.Coups), CoupFeuille{Coup: 3, Tirage: "AEEIRST"})},
			"n'a pas tiré", false},
		{"un autre tirage", joueur("L1", 0), autre(func(c *CoupFeuille) { c.Tirage = "HMSTUYZ" }), "tirage HMSTUYZ au site Lyon", false},
		{"un autre top", joueur("L1", 0), autre(func(c *CoupFeuille) { c.Mot, c.Top = "ZYTHUMS", 128 }), "top ZYTHUMS", false},
		{"des points au-dessus du top", joueur("L1", 110, 110, 0), feuilleP1, "coup 1 : 110 points, au-dessus du top (60)", false},
		{"un score au-dessus des tops", joueur("L1", 111, 60, 50), feuilleP1, "111 points, au-dessus du total des tops (110)", false},
		{"un solo dans une salle de 16", seize(130, 60, 50), feuilleP1, "", true},
		{"plus que deux solos dans une salle de 16", seize(131, 60, 50), feuilleP1, "au-dessus du total des tops (130)", false},
		{"la licence d'un joueur du principal", joueur("V2", 0), feuilleP1, "la licence V2 du site Lyon joue déjà dans le jumelage VICHY, au principal Vichy", false},
		{"la licence d'un joueur d'un autre site", joueur("N1", 0), feuilleP1, "au site Nice", false},
	} {
		t.Run(tt.nom, func(t *testing.T) {
			err := j.Copie().RecevoirResultats(tt.r, tt.nom, Controle{Principal: feuilleP1, Site: tt.site, Licences: []string{"V1", "V2"}})
			if tt.accepte {
				assert.NoError(t, err)
				return
			}
			assert.Equal(t, CodeResultatsInvalides, erreur.CodeOf(err), "%v", err)
			assert.ErrorContains(t, err, tt.message)
		})
	}
	avec := []ResultatsCentre{{Centre: "Nice", Partie: "P2", Joueurs: []JoueurCentre{{Licence: "N7"}}}}
	assert.ErrorContains(t, j.VerifierSite(joueur("N7", 0), Controle{Principal: feuilleP1, Site: feuilleP1, Autres: avec}), "au site Nice",
		"a licence of another site's bundle given along")
	err := j.RecevoirResultats(joueur("L1", 500, 500), "menteur", Controle{Principal: feuilleP1, Site: feuilleP1})
	assert.Equal(t, CodeResultatsInvalides, erreur.CodeOf(err))
	assert.Empty(t, j.Pending(), "nothing recorded")
	assert.Len(t, j.Scores(), 1, "Nice's player only")
}
