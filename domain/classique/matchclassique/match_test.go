package matchclassique_test

import (
	"strings"
	"testing"

	"github.com/google/uuid"

	"arbitre/domain/classique/matchclassique"
	"arbitre/domain/erreur"
	"arbitre/domain/eventstore"
	"arbitre/engine/lexicon"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// testWords is a tiny lexicon of common words: validity is exactly this list.
const testWords = "MAISON\nMAISONS\nTE\nSON\nSONT\nAS\nES\nET\nNA\nMA\nTA\nSA\nNE\nEN\nON\n"

func regles(t testing.TB) *matchclassique.Regles {
	t.Helper()
	lex, err := lexicon.Compile(strings.NewReader(testWords), "test")
	require.NoError(t, err)
	r, err := matchclassique.NewRegles(lex)
	require.NoError(t, err)
	return r
}

// nouvelle opens a match ana v bob, ana starting, with the given first racks.
func nouvelle(t *testing.T, ana, bob string) *matchclassique.Match {
	t.Helper()
	p := matchclassique.Nouveau(regles(t))
	err := p.Creer(matchclassique.Creation{Match: "m1", Tournoi: "t1", Ronde: 1, Table: 1, Joueurs: [2]string{"ana", "bob"}, Premier: "ana"})
	require.NoError(t, err)
	require.NoError(t, p.Tirer("ana", ana))
	require.NoError(t, p.Tirer("bob", bob))
	return p
}

// replayed encodes the match's events through the registry, decodes them
// and replays them: the state must equal the live one.
func assertReplay(t *testing.T, p *matchclassique.Match) {
	t.Helper()
	reg := eventstore.NewRegistry()
	require.NoError(t, matchclassique.RegisterEvents(reg))
	var decoded []any
	for _, e := range p.Pending() {
		data, err := reg.NewEventData(uuid.New(), e, eventstore.Metadata{})
		require.NoError(t, err)
		v, err := reg.Decode(eventstore.Event{Type: data.Type, Version: data.Version, Data: data.Data})
		require.NoError(t, err)
		decoded = append(decoded, v)
	}
	r, err := matchclassique.Rejouer(regles(t), decoded)
	require.NoError(t, err)
	assert.Equal(t, snapshot(p), snapshot(r), "replay equals live")
}

type etat struct {
	Phase      matchclassique.Phase
	Scores     [2]int
	Racks      [2]string
	Sac        string
	Grille     []string
	Trait      int
	Passes     int
	Journal    []matchclassique.Coup
	Version    int
	FinEnAtt   bool
	Contestant int
}

func snapshot(p *matchclassique.Match) etat {
	g := p.Grille()
	r0, r1, sac := p.Chevalet(0), p.Chevalet(1), p.Sac()
	j, _, _ := p.Contestable()
	return etat{Phase: p.Phase(), Scores: p.Scores(), Racks: [2]string{r0.String(), r1.String()}, Sac: sac.String(),
		Grille: g.Rows(), Trait: p.Trait(), Passes: p.Passes(), Journal: p.Journal(), Version: p.Version(),
		FinEnAtt: p.FinEnAttente(), Contestant: j}
}

// refused runs a command that must be refused with code and change nothing.
func refused(t *testing.T, p *matchclassique.Match, code matchclassique.Code, cmd func() error) {
	t.Helper()
	before, n := snapshot(p), len(p.Pending())
	err := cmd()
	require.Error(t, err)
	assert.Equal(t, code, erreur.CodeOf(err), "%v", err)
	assert.Equal(t, before, snapshot(p), "a refused command changes nothing")
	assert.Len(t, p.Pending(), n)
}

func total(p *matchclassique.Match) int {
	sac, r0, r1, g := p.Sac(), p.Chevalet(0), p.Chevalet(1), p.Grille()
	return sac.Size() + r0.Size() + r1.Size() + g.TileCount()
}

func TestFirstDrawsFollowTheStartingPlayer(t *testing.T) {
	// §3.2.2: the starting player draws his seven letters, then his opponent.
	p := matchclassique.Nouveau(regles(t))
	err := p.Creer(matchclassique.Creation{Match: "m1", Joueurs: [2]string{"ana", "bob"}, Premier: "bob"})
	require.NoError(t, err)
	refused(t, p, matchclassique.CodeInvalidDraw, func() error { return p.Tirer("ana", "AAAAAAA") })
	refused(t, p, matchclassique.CodeInvalidDraw, func() error { return p.Tirer("bob", "AAAAAA") })
	refused(t, p, matchclassique.CodeInvalidDraw, func() error { return p.Tirer("bob", "KKAAAAA") })
	refused(t, p, matchclassique.CodeUnknownPlayer, func() error { return p.Tirer("eve", "AAAAAAA") })
	require.NoError(t, p.Tirer("bob", "AEIOUST"))
	require.NoError(t, p.Tirer("ana", "??BCDFG"))
	assert.Equal(t, matchclassique.PhaseEnCours, p.Phase())
	assert.Equal(t, 1, p.Trait(), "§3.1: bob starts")
	assert.Equal(t, 102, total(p))
	refused(t, p, matchclassique.CodeNotYourTurn, func() error { return p.Passer("ana") })
	assertReplay(t, p)
}

func TestWhoStarts(t *testing.T) {
	// §3.1
	tests := []struct {
		name    string
		tirages [2]string
		want    int
		code    matchclassique.Code
	}{
		{"closest to A starts", [2]string{"K", "E"}, 1, ""},
		{"A beats B", [2]string{"A", "B"}, 0, ""},
		{"joker drawn again", [2]string{"?Z", "Y"}, 1, ""},
		{"same letter, both draw again", [2]string{"EB", "EC"}, 0, ""},
		{"undecided", [2]string{"E", "E"}, -1, matchclassique.CodeInvalidDesignator},
		{"letters after the decision", [2]string{"AB", "CD"}, -1, matchclassique.CodeInvalidDesignator},
		{"not a letter", [2]string{"1", "A"}, -1, matchclassique.CodeInvalidDesignator},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := matchclassique.PremierParTirage(tt.tirages)
			assert.Equal(t, tt.code, erreur.CodeOf(err))
			assert.Equal(t, tt.want, got)
		})
	}
}

func TestSecondGameOfABestOfThreeStartsWithTheOtherPlayer(t *testing.T) {
	// §3.1: "le joueur qui n'a pas commencé la première partie entamera la deuxième".
	base := matchclassique.Creation{Match: "m2", Manche: 2, Joueurs: [2]string{"ana", "bob"}, PremierManche1: "ana"}
	c := base
	c.Premier = "ana"
	err := matchclassique.Nouveau(regles(t)).Creer(c)
	assert.Equal(t, matchclassique.CodeInvalidDesignator, erreur.CodeOf(err))
	c.Premier = "bob"
	p := matchclassique.Nouveau(regles(t))
	err = p.Creer(c)
	require.NoError(t, err)
	assert.Equal(t, 1, p.Creation().Premier)
	c = base
	c.Premier, c.PremierManche1 = "bob", ""
	err = matchclassique.Nouveau(regles(t)).Creer(c)
	assert.Equal(t, matchclassique.CodeInvalidDesignator, erreur.CodeOf(err))
	c.Manche, c.TirageAuSort = 3, [2]string{"B", "A"}
	p = matchclassique.Nouveau(regles(t))
	err = p.Creer(matchclassique.Creation{Match: "m3", Manche: 3, Joueurs: [2]string{"ana", "bob"}, TirageAuSort: [2]string{"B", "A"}})
	require.NoError(t, err)
	assert.Equal(t, matchclassique.ParTirageAuSort, p.Creation().Designation, "§3.1: a third game is drawn again")
	assert.Equal(t, 1, p.Creation().Premier)
}

func TestCreationRefusesBadInput(t *testing.T) {
	tests := []struct {
		name string
		c    matchclassique.Creation
		code matchclassique.Code
	}{
		{"bad id", matchclassique.Creation{Match: "a b", Joueurs: [2]string{"a", "b"}, Premier: "a"}, matchclassique.CodeInvalidMatch},
		{"one player", matchclassique.Creation{Match: "m", Joueurs: [2]string{"a", ""}, Premier: "a"}, matchclassique.CodeInvalidMatch},
		{"self", matchclassique.Creation{Match: "m", Joueurs: [2]string{"a", "a"}, Premier: "a"}, matchclassique.CodeInvalidMatch},
		{"no designation", matchclassique.Creation{Match: "m", Joueurs: [2]string{"a", "b"}}, matchclassique.CodeInvalidDesignator},
		{"stranger starts", matchclassique.Creation{Match: "m", Joueurs: [2]string{"a", "b"}, Premier: "c"}, matchclassique.CodeInvalidDesignator},
		{"both designations", matchclassique.Creation{Match: "m", Joueurs: [2]string{"a", "b"}, Premier: "a", TirageAuSort: [2]string{"A", "B"}}, matchclassique.CodeInvalidDesignator},
		{"game 4", matchclassique.Creation{Match: "m", Manche: 4, Joueurs: [2]string{"a", "b"}, Premier: "a"}, matchclassique.CodeInvalidMatch},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := matchclassique.Nouveau(regles(t)).Creer(tt.c)
			assert.Equal(t, tt.code, erreur.CodeOf(err))
		})
	}
}

func TestPlacingAWordScoresWithTheEngineAndDrawsToSeven(t *testing.T) {
	// §4.1, §4.1.4
	p := nouvelle(t, "AIMNOSE", "TEKWYZJ")
	refused(t, p, matchclassique.CodeInvalidPlacement, func() error { return p.PlacerMot("ana", "A1", "MAISON") })  // §4.1.1 centre
	refused(t, p, matchclassique.CodeInvalidPlacement, func() error { return p.PlacerMot("ana", "H8", "MAISONS") }) // not in rack
	refused(t, p, matchclassique.CodeInvalidPlacement, func() error { return p.PlacerMot("ana", "Z9", "MAISON") })  // bad reference
	refused(t, p, matchclassique.CodeNotYourTurn, func() error { return p.PlacerMot("bob", "H8", "TE") })
	require.NoError(t, p.PlacerMot("ana", "H8", "MAISON"))
	// M A I S O N from H8: H8 is the star (double word), H12 a double letter (O).
	assert.Equal(t, [2]int{2 * (2 + 1 + 1 + 1 + 1*2 + 1), 0}, p.Scores())
	who, n := p.TirageDu()
	assert.Equal(t, 0, who)
	assert.Equal(t, 6, n)
	refused(t, p, matchclassique.CodeDrawPending, func() error { return p.Passer("bob") })
	require.NoError(t, p.Tirer("ana", "ABCDEF"))
	assert.Equal(t, 102, total(p))
	assertReplay(t, p)
}

func TestJokerIsDeclaredInLowerCase(t *testing.T) {
	// §4.1.3: the letter a joker stands for is declared; it scores 0.
	p := nouvelle(t, "AISON??", "TEKWYZJ")
	require.NoError(t, p.PlacerMot("ana", "8H", "mAISOn"))
	assert.Equal(t, 2*(1+1+1+1+1), p.Scores()[0], "vertical first word allowed in classique, jokers worth 0")
	g := p.Grille()
	assert.True(t, g.At(7, 7).IsJoker())
	r := p.Chevalet(0)
	assert.Equal(t, "N", r.String())
	assertReplay(t, p)
}

// TestNotation_JokerCercleOuMinuscule: placerMot reads a joker circled as
// on a bulletin, (M)AISO(N), like mAISOn, and records the one notation.
func TestNotation_JokerCercleOuMinuscule(t *testing.T) {
	for _, mot := range []string{"mAISOn", "(M)AISO(N)", "(m)AÏSO(N)"} {
		t.Run(mot, func(t *testing.T) {
			p := nouvelle(t, "AISON??", "TEKWYZJ")
			require.NoError(t, p.PlacerMot("ana", "8H", mot))
			assert.Equal(t, 2*(1+1+1+1+1), p.Scores()[0])
			_, mots, ok := p.Contestable()
			require.True(t, ok)
			assert.Equal(t, []string{"mAISOn"}, mots, "the words formed, jokers in lower case")
			assertReplay(t, p)
		})
	}
}

// apresMaison: ana played MAISON at H8 and drew; bob holds TEKWYZJ.
func apresMaison(t *testing.T) *matchclassique.Match {
	t.Helper()
	p := nouvelle(t, "AIMNOSE", "TEKWYZJ")
	require.NoError(t, p.PlacerMot("ana", "H8", "MAISON"))
	require.NoError(t, p.Tirer("ana", "AAAAAA"))
	return p
}

func TestContestation(t *testing.T) {
	// bob plays TE at I8 under MAISON: words TE (valid), MT and AE (not in the list).
	tests := []struct {
		name       string
		contested  []string
		retire     bool
		penalite   int
		scoreAfter int
	}{
		{"§5.3 all words refused: play withdrawn, turn lost", []string{"MT", "AE"}, true, 0, 0},
		{"§5.3 all words admitted: 5 points per word off the contester", []string{"TE"}, false, 5, -1},
		{"§5.3 mixed: withdrawn and 5 points per word contested wrongly", []string{"te", "MT"}, true, 5, 0},
		{"accents folded as in the lexicon", []string{"TÉ"}, false, 5, -1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := apresMaison(t)
			require.NoError(t, p.Passer("bob"))
			require.NoError(t, p.Passer("ana"))
			require.NoError(t, p.PlacerMot("bob", "I8", "TE"))
			bobScore := p.Scores()[1]
			_, mots, ok := p.Contestable()
			require.True(t, ok)
			assert.Equal(t, []string{"TE", "MT", "AE"}, mots)
			require.NoError(t, p.Tirer("bob", "BB"))
			anaBefore := p.Scores()[0]
			refused(t, p, matchclassique.CodeNothingToContest, func() error { return p.Contester("bob", []string{"TE"}) })
			refused(t, p, matchclassique.CodeInvalidContest, func() error { return p.Contester("ana", []string{"MAISON"}) })
			refused(t, p, matchclassique.CodeInvalidContest, func() error { return p.Contester("ana", nil) })
			refused(t, p, matchclassique.CodeInvalidContest, func() error { return p.Contester("ana", []string{"TE", "te"}) })
			require.NoError(t, p.Contester("ana", tt.contested))
			assert.Equal(t, anaBefore-tt.penalite, p.Scores()[0])
			if tt.retire {
				assert.Equal(t, 0, p.Scores()[1])
				r := p.Chevalet(1)
				assert.Equal(t, "EJKTWYZ", r.String(), "bob takes his letters back, the drawn ones go back to the bag")
				g := p.Grille()
				assert.Equal(t, 6, g.TileCount())
				assert.Equal(t, 3, p.Passes(), "§5.3: a withdrawn play counts as a pass (TestArt4_2_Art5_3_CoupRetireCompteCommePasse)")
			} else {
				assert.Equal(t, bobScore, p.Scores()[1])
			}
			assert.Equal(t, 0, p.Trait(), "§5.3: it is the contester's turn")
			assert.Equal(t, 102, total(p))
			refused(t, p, matchclassique.CodeNothingToContest, func() error { return p.Contester("ana", []string{"TE"}) })
			assertReplay(t, p)
		})
	}
}

func TestContestationWindowClosesWhenTheOpponentPlays(t *testing.T) {
	// §5.2: contest before acting.
	p := apresMaison(t)
	require.NoError(t, p.Passer("bob"))
	refused(t, p, matchclassique.CodeNothingToContest, func() error { return p.Contester("bob", []string{"MAISON"}) })
}

func TestSixConsecutivePassesEndTheGame(t *testing.T) {
	// §4.2 and §7 refus de jeu: six passes, each deducts his own rack, even
	// when no word was placed.
	p := nouvelle(t, "AIMNOSE", "TEKWYZJ")
	for i := 0; i < 5; i++ {
		require.NoError(t, p.Passer([]string{"ana", "bob"}[i%2]))
	}
	assert.Equal(t, matchclassique.PhaseEnCours, p.Phase())
	require.NoError(t, p.Passer("bob"))
	fin, ok := p.Fin()
	require.True(t, ok)
	assert.Equal(t, matchclassique.FinSixPasses, fin.Fin)
	assert.Equal(t, [2]int{-(1 + 1 + 2 + 1 + 1 + 1 + 1), -(1 + 1 + 10 + 10 + 10 + 10 + 8)}, fin.Scores)
	assert.Equal(t, 1, fin.Perdant)
	assert.Equal(t, [2]int{3, 1}, fin.PointsDeMatch)
	assert.Equal(t, matchclassique.PhaseTerminee, p.Phase())
	assertReplay(t, p)
}

func TestAWordOrAnExchangeResetsThePasses(t *testing.T) {
	p := nouvelle(t, "AIMNOSE", "TEKWYZJ")
	require.NoError(t, p.Passer("ana"))
	require.NoError(t, p.Passer("bob"))
	require.NoError(t, p.Echanger("ana", "E", "A"))
	assert.Equal(t, 0, p.Passes())
	for i := 0; i < 5; i++ {
		require.NoError(t, p.Passer([]string{"bob", "ana"}[i%2]))
	}
	assert.Equal(t, matchclassique.PhaseEnCours, p.Phase())
}

func TestExchange(t *testing.T) {
	// §4.3
	p := nouvelle(t, "AIMNOSE", "TEKWYZJ")
	refused(t, p, matchclassique.CodeExchangeRefused, func() error { return p.Echanger("ana", "", "") })
	refused(t, p, matchclassique.CodeExchangeRefused, func() error { return p.Echanger("ana", "AI", "B") })
	refused(t, p, matchclassique.CodeExchangeRefused, func() error { return p.Echanger("ana", "KK", "BB") })
	refused(t, p, matchclassique.CodeExchangeRefused, func() error { return p.Echanger("ana", "A", "J") }) // bob holds the only J
	require.NoError(t, p.Echanger("ana", "AIM", "BLU"))
	r := p.Chevalet(0)
	assert.Equal(t, "BELNOSU", r.String())
	assert.Equal(t, 102, total(p))
	assertReplay(t, p)
}

func TestTimeExhausted(t *testing.T) {
	// §7 temps épuisé: the player may only pass (and contest), his opponent
	// may no longer exchange; both out → each deducts his rack.
	p := nouvelle(t, "AIMNOSE", "TEKWYZJ")
	require.NoError(t, p.DeclarerTempsEpuise("ana"))
	refused(t, p, matchclassique.CodeTimeExhausted, func() error { return p.DeclarerTempsEpuise("ana") })
	refused(t, p, matchclassique.CodeTimeExhausted, func() error { return p.PlacerMot("ana", "H8", "MAISON") })
	refused(t, p, matchclassique.CodeTimeExhausted, func() error { return p.Echanger("ana", "A", "B") })
	require.NoError(t, p.Passer("ana"))
	refused(t, p, matchclassique.CodeExchangeRefused, func() error { return p.Echanger("bob", "K", "B") })
	require.NoError(t, p.DeclarerTempsEpuise("bob"))
	fin, ok := p.Fin()
	require.True(t, ok)
	assert.Equal(t, matchclassique.FinTempsEpuise, fin.Fin)
	assert.Equal(t, [2]int{-8, -50}, fin.Scores)
	assertReplay(t, p)
}

func TestPenalties(t *testing.T) {
	// §4.1.3, §8, §9: 5 points, per letter where the regulation says so.
	tests := []struct {
		motif   matchclassique.Motif
		lettres int
		points  int
		code    matchclassique.Code
	}{
		{matchclassique.MotifLettresEnTrop, 2, 10, ""},
		{matchclassique.MotifTirageAnticipe, 1, 5, ""},
		{matchclassique.MotifJokerErrone, 0, 5, ""},
		{matchclassique.MotifArbitre, 0, 5, ""},
		{matchclassique.MotifLettresEnTrop, 0, 0, matchclassique.CodeInvalidPenalty},
		{matchclassique.MotifArbitre, 3, 0, matchclassique.CodeInvalidPenalty},
		{"retard", 0, 0, matchclassique.CodeInvalidPenalty},
	}
	for _, tt := range tests {
		t.Run(string(tt.motif), func(t *testing.T) {
			p := nouvelle(t, "AIMNOSE", "TEKWYZJ")
			if tt.code != "" {
				refused(t, p, tt.code, func() error { return p.Penaliser("bob", tt.motif, tt.lettres) })
				return
			}
			require.NoError(t, p.Penaliser("bob", tt.motif, tt.lettres))
			assert.Equal(t, -tt.points, p.Scores()[1])
			assertReplay(t, p)
		})
	}
}

func TestAbandonTable(t *testing.T) {
	// §9 abandon en cours de partie.
	tests := []struct {
		name                   string
		vainqueur, abandonnant int
		wantV, wantA           int
	}{
		{"gap below 100, winner above 450", 480, 420, 480, 350},
		{"gap below 100, winner at most 450", 300, 250, 450, 350},
		{"gap below 100, winner exactly 450", 450, 400, 450, 350},
		{"abandoning player leads", 200, 390, 450, 350},
		{"gap above 100, winner above 450", 520, 300, 520, 300},
		{"gap above 100, winner at most 450", 400, 150, 450, 150},
		{"gap of exactly 100 keeps the scores", 500, 400, 500, 400},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v, a := matchclassique.AbandonScores(tt.vainqueur, tt.abandonnant)
			assert.Equal(t, tt.wantV, v)
			assert.Equal(t, tt.wantA, a)
		})
	}
}

func TestAbandonAndDefeats(t *testing.T) {
	tests := []struct {
		name     string
		run      func(p *matchclassique.Match) error
		fin      matchclassique.Fin
		scores   [2]int
		pm       [2]int
		arbitre  bool
		validate bool
	}{
		{"§9 abandon agreed: loser scores 1 point de match", func(p *matchclassique.Match) error {
			if err := p.DemanderAbandon("bob"); err != nil {
				return err
			}
			return p.RepondreAbandon("ana", true)
		}, matchclassique.FinAbandon, [2]int{450, 350}, [2]int{3, 1}, false, false},
		{"§9 abandon without agreement: 0 point de match", func(p *matchclassique.Match) error { return p.ConstaterAbandon("bob") },
			matchclassique.FinAbandonUnilateral, [2]int{450, 350}, [2]int{3, 0}, true, true},
		{"§9 defeat by the arbiter's decision, same model", func(p *matchclassique.Match) error { return p.DeclarerDefaite("ana", false) },
			matchclassique.FinDefaiteArbitrale, [2]int{350, 450}, [2]int{0, 3}, true, true},
		{"§9 eight letters: defeat by 100 points", func(p *matchclassique.Match) error { return p.DeclarerDefaite("bob", true) },
			matchclassique.FinDefaiteHuitLettres, [2]int{450, 350}, [2]int{3, 0}, true, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := nouvelle(t, "AIMNOSE", "TEKWYZJ")
			require.NoError(t, tt.run(p))
			fin, ok := p.Fin()
			require.True(t, ok)
			assert.Equal(t, tt.fin, fin.Fin)
			assert.Equal(t, tt.scores, fin.Scores)
			assert.Equal(t, tt.pm, fin.PointsDeMatch)
			f, validated := p.Feuille()
			assert.Equal(t, tt.validate, validated)
			assert.Equal(t, tt.arbitre, f.ParArbitre)
			assertReplay(t, p)
		})
	}
}

func TestAbandonRefusedGoesOn(t *testing.T) {
	p := nouvelle(t, "AIMNOSE", "TEKWYZJ")
	refused(t, p, matchclassique.CodeAbandonRefused, func() error { return p.RepondreAbandon("ana", true) })
	require.NoError(t, p.DemanderAbandon("bob"))
	refused(t, p, matchclassique.CodeAbandonRefused, func() error { return p.DemanderAbandon("ana") })
	refused(t, p, matchclassique.CodeAbandonRefused, func() error { return p.RepondreAbandon("bob", true) })
	require.NoError(t, p.RepondreAbandon("ana", false))
	assert.Equal(t, matchclassique.PhaseEnCours, p.Phase())
	require.NoError(t, p.PlacerMot("ana", "H8", "MAISON"))
	assertReplay(t, p)
}

func TestForfeit(t *testing.T) {
	// §9 absence d'un joueur.
	p := matchclassique.Nouveau(regles(t))
	err := p.Creer(matchclassique.Creation{Match: "m1", Joueurs: [2]string{"ana", "bob"}, Premier: "ana"})
	require.NoError(t, err)
	require.NoError(t, p.DeclarerForfait("bob"))
	f, ok := p.Feuille()
	require.True(t, ok)
	assert.Equal(t, matchclassique.FinForfait, f.Fin)
	assert.Equal(t, [2]int{3, 0}, f.PointsDeMatch)
	q := nouvelle(t, "AIMNOSE", "TEKWYZJ")
	refused(t, q, matchclassique.CodeWrongPhase, func() error { return q.DeclarerForfait("bob") })
}

func TestPointsDeMatch(t *testing.T) {
	// §7: at least one point more wins; equal scores are ex æquo.
	tests := []struct {
		scores  [2]int
		perdant int
		pm      [2]int
	}{
		{[2]int{401, 400}, 1, [2]int{3, 1}},
		{[2]int{399, 400}, 0, [2]int{1, 3}},
		{[2]int{400, 400}, -1, [2]int{2, 2}},
		{[2]int{-12, -30}, 1, [2]int{3, 1}},
	}
	for _, tt := range tests {
		perdant, pm := matchclassique.Vainqueur(tt.scores)
		assert.Equal(t, tt.perdant, perdant, "%v", tt.scores)
		assert.Equal(t, tt.pm, pm, "%v", tt.scores)
	}
}

func TestFeuilleDeMatch(t *testing.T) {
	// §2.1.5, §7: both sign; a disagreement goes to the arbiter (§9).
	p := nouvelle(t, "AIMNOSE", "TEKWYZJ")
	refused(t, p, matchclassique.CodeInvalidSheet, func() error { return p.SignerFeuille("ana", [2]int{0, 0}) })
	for i := 0; i < 6; i++ {
		require.NoError(t, p.Passer([]string{"ana", "bob"}[i%2]))
	}
	scores, _, _, ok := p.Resultat()
	require.True(t, ok)
	require.NoError(t, p.SignerFeuille("ana", scores))
	refused(t, p, matchclassique.CodeInvalidSheet, func() error { return p.SignerFeuille("ana", scores) })
	require.NoError(t, p.SignerFeuille("bob", [2]int{0, 0}))
	refused(t, p, matchclassique.CodeInvalidSheet, func() error { return p.SignerFeuille("bob", scores) })
	require.NoError(t, p.TrancherDesaccord([2]int{-8, -40}))
	_, validated := p.Feuille()
	assert.False(t, validated)
	require.NoError(t, p.SignerFeuille("bob", [2]int{-8, -40}))
	require.NoError(t, p.SignerFeuille("ana", [2]int{-8, -40}))
	f, validated := p.Feuille()
	require.True(t, validated)
	assert.Equal(t, [2]int{-8, -40}, f.Scores)
	assert.Equal(t, [2]int{3, 1}, f.PointsDeMatch)
	assert.Equal(t, "t1", f.Tournoi)
	assert.Equal(t, matchclassique.PhaseValidee, p.Phase())
	assertReplay(t, p)
}

// Issue 33 item 1 (one way to create): a match is created once; Creer on a
// created one is ALREADY_EXISTS and changes nothing.
func TestCreation_MatchCreeUneFois(t *testing.T) {
	p := matchclassique.Nouveau(regles(t))
	require.NoError(t, p.Creer(matchclassique.Creation{Match: "m1", Joueurs: [2]string{"ana", "bob"}, Premier: "ana"}))
	err := p.Creer(matchclassique.Creation{Match: "m1", Joueurs: [2]string{"ana", "bob"}, Premier: "bob"})
	assert.Equal(t, matchclassique.CodeAlreadyCreated, erreur.CodeOf(err))
	assert.Equal(t, 1, p.Version())
	assert.Equal(t, 0, p.Creation().Premier)
}
