package duplicate

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbitre/engine/correction"
)

// deuxCoups is a game of L1, L2, L3 with coups 1 (H8 BAC) and 2 (I8 DE)
// topped, both worth 14, and the events that made it.
func deuxCoups(t *testing.T, cfg Config) (*Partie, []any) {
	t.Helper()
	p := Nouvelle(fixe(t, coup(t, "H8", "BAC", 14), coup(t, "I8", "DE", 14)))
	require.NoError(t, p.Creer("p1", "t1", 1, cfg, []string{"L1", "L2", "L3"}))
	require.NoError(t, p.Tirer("ABCDEF?"))
	require.NoError(t, p.RetenirTop("H8", "BAC"))
	require.NoError(t, p.Tirer("GHI"))
	require.NoError(t, p.RetenirTop("I8", "DE"))
	return p, vider(p)
}

func sanction(coup int, licence string, nature NatureSanction) SanctionDisciplinaire {
	return SanctionDisciplinaire{Coup: coup, Licence: licence, Nature: nature, Motif: "bavardage", Par: "jeton:ja"}
}

func avertissement(score int) correction.Decision {
	return correction.Decision{Paid: score, Sanction: correction.Warning, Reasons: []correction.Reason{correction.ScoreWrong}}
}

func nullite() correction.Decision {
	return correction.Decision{Sanction: correction.Zero, Reasons: []correction.Reason{correction.WordNotAdmitted}}
}

// rejouer replays a game's events into a new aggregate: the sanctions must
// give the same figures as the live game.
func rejouer(t *testing.T, evts ...[]any) *Partie {
	t.Helper()
	q := Nouvelle(nil)
	for _, es := range evts {
		for _, e := range es {
			require.NoError(t, q.Apply(e))
		}
	}
	return q
}

func TestSanctionner_Paragraphe5_5_5_8_AvertissementDisciplinaire(t *testing.T) {
	tests := []struct {
		name      string
		bulletin  *correction.Decision
		n         int
		paye      int
		sanction  correction.Sanction
		warnings  int
		corrigeOK bool
	}{
		{"§5.5 motif disciplinaire sur un bulletin sans faute : au moins un avertissement", new(paye(14)), 1, 14, correction.Warning, 1, true},
		{"§5.8 cumule avec l'avertissement du coup", new(avertissement(12)), 1, 12, correction.Warning, 2, true},
		{"§5.8 cumule avec la pénalité (§5.6)", new(penalite(14)), 1, 9, correction.Penalty, 1, true},
		{"§5.8 cumule avec le zéro (§5.7)", new(nullite()), 1, 0, correction.Zero, 1, true},
		{"guide §2.2 un avertissement disciplinaire, voire deux", new(paye(14)), 2, 14, correction.Warning, 2, true},
		{"§5.5 avant la correction : compté, score en attente", nil, 1, 0, "", 1, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, hist := deuxCoups(t, configDirecteur)
			if tt.bulletin != nil {
				require.NoError(t, p.CorrigerAMain(aMain(1, "L1", *tt.bulletin)))
			}
			for range tt.n {
				require.NoError(t, p.Sanctionner(sanction(1, "L1", SanctionAvertissement)))
			}
			d, ok := p.DecisionSanctionnee(1, "L1")
			assert.Equal(t, tt.corrigeOK, ok)
			assert.Equal(t, tt.paye, d.Paid)
			assert.Equal(t, tt.sanction, d.Sanction)
			assert.Equal(t, tt.warnings, d.Warnings(), "§5.8")
			assert.Contains(t, d.Reasons, correction.Discipline, "guide §5.1 case (11)")
			brut, _, _ := Points(d)
			assert.Equal(t, tt.paye+map[bool]int{true: 5}[tt.sanction == correction.Penalty], brut, "the score of the coup is unchanged")
			if tt.bulletin != nil {
				b, _ := p.Decision(1, "L1")
				assert.Equal(t, *tt.bulletin, b, "the bulletin's decision is never edited")
			}
			q := rejouer(t, hist, vider(p))
			rd, rok := q.DecisionSanctionnee(1, "L1")
			assert.Equal(t, d, rd)
			assert.Equal(t, ok, rok)
		})
	}
}

func TestSanctionner_Paragraphe5_7_ZeroDisciplinaire(t *testing.T) {
	tests := []struct {
		name     string
		bulletin *correction.Decision
		avert    bool
		warnings int
	}{
		{"§5.7 motif disciplinaire grave : le top ne paie rien", new(paye(14)), false, 0},
		{"§5.8 l'avertissement du coup ne se cumule pas avec le zéro", new(avertissement(12)), false, 0},
		{"§5.8 la pénalité ne se cumule pas avec le zéro", new(penalite(14)), false, 0},
		{"§5.8 l'avertissement disciplinaire du bulletin se cumule avec le zéro",
			new(correction.Decision{Paid: 14, Sanction: correction.None, DisciplineWarnings: 1}), false, 1},
		{"§5.8 un avertissement disciplinaire s'ajoute au zéro disciplinaire", new(paye(14)), true, 1},
		{"§5.7 zéro avant toute correction : le coup est décidé", nil, false, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, hist := deuxCoups(t, configDirecteur)
			if tt.bulletin != nil {
				require.NoError(t, p.CorrigerAMain(aMain(2, "L2", *tt.bulletin)))
			}
			require.NoError(t, p.Sanctionner(sanction(2, "L2", SanctionZero)))
			if tt.avert {
				require.NoError(t, p.Sanctionner(sanction(2, "L2", SanctionAvertissement)))
			}
			d, ok := p.DecisionSanctionnee(2, "L2")
			require.True(t, ok)
			brut, penalite, moyenne := Points(d)
			assert.Equal(t, [3]any{0, 0, false}, [3]any{brut, penalite, moyenne})
			assert.Equal(t, correction.Zero, d.Sanction)
			assert.Equal(t, tt.warnings, d.Warnings())
			other, _ := p.DecisionSanctionnee(1, "L2")
			assert.Zero(t, other.Warnings(), "the zéro is the coup's only")
			rd, _ := rejouer(t, hist, vider(p)).DecisionSanctionnee(2, "L2")
			assert.Equal(t, d, rd)
		})
	}
}

func TestAvertissements_Paragraphe5_9_Decompte(t *testing.T) {
	blitz := Config{TempsParCoup: time.Minute, Source: SourceDirecteur}
	tests := []struct {
		name    string
		cfg     Config
		coup1   int // disciplinary warnings on coup 1, besides the bulletin's warning
		coup2   int // disciplinary warnings on coup 2
		total   int
		penalty []int
		nth     []int
	}{
		{"§5.9 trois avertissements gratuits", configDirecteur, 1, 1, 0, []int{0, 0}, []int{2, 3}},
		{"§5.9 le quatrième coûte cinq points, disciplinaire compris", configDirecteur, 1, 2, 5, []int{0, 5}, []int{2, 4}},
		{"§5.9 et chaque avertissement qui suit", configDirecteur, 3, 2, 15, []int{5, 10}, []int{4, 6}},
		{"§5.9 cinq gratuits en blitz", blitz, 2, 2, 0, []int{0, 0}, []int{3, 5}},
		{"§5.9 le sixième en blitz", blitz, 2, 3, 5, []int{0, 5}, []int{3, 6}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, hist := deuxCoups(t, tt.cfg)
			require.NoError(t, p.CorrigerAMain(aMain(1, "L3", avertissement(12))))
			for range tt.coup1 {
				require.NoError(t, p.Sanctionner(sanction(1, "L3", SanctionAvertissement)))
			}
			for range tt.coup2 {
				require.NoError(t, p.Sanctionner(sanction(2, "L3", SanctionAvertissement)))
			}
			got := p.Avertissements("L3")
			assert.Equal(t, 1+tt.coup1+tt.coup2, got.Warnings)
			assert.Equal(t, tt.total, got.Total)
			assert.Equal(t, tt.penalty, got.Penalty)
			assert.Equal(t, tt.nth, got.Nth)
			assert.Equal(t, got, rejouer(t, hist, vider(p)).Avertissements("L3"))
		})
	}
}

func TestSanctionner_Paragraphe6_1_Exclusion(t *testing.T) {
	p, hist := deuxCoups(t, configDirecteur)
	require.NoError(t, p.CorrigerAMain(aMain(1, "L1", paye(14))))
	require.NoError(t, p.CorrigerAMain(aMain(2, "L1", avertissement(10))))
	require.NoError(t, p.Sanctionner(sanction(2, "L1", SanctionAvertissement)))
	require.NoError(t, p.Tirer("JK"))
	e := sanction(3, "L1", SanctionExclusion)
	e.Motif = "consultation d'un téléphone"
	require.NoError(t, p.Sanctionner(e))
	evts := vider(p)
	assert.Contains(t, evts, e)

	for coup := 1; coup <= 3; coup++ {
		d, ok := p.DecisionSanctionnee(coup, "L1")
		assert.True(t, ok, "§6.1 coup %d decided", coup)
		assert.Equal(t, 0, d.Paid, "§6.1 coup %d annulled", coup)
		assert.Equal(t, correction.Zero, d.Sanction)
	}
	assert.Zero(t, p.Avertissements("L1").Warnings, "§6.1 annulled scores carry no avertissement")
	assert.True(t, p.Exclu("L1"))
	assert.Equal(t, []string{"L2", "L3"}, p.Joueurs(), "§6.1 excluded from the game")

	refuse(t, p, CodeExcluded, func() error {
		return p.DeposerBulletin(BulletinDepose{Coup: 3, Licence: "L1", Bulletin: correction.Bulletin{Missing: true}})
	})
	refuse(t, p, CodeExcluded, func() error { return p.Sanctionner(sanction(3, "L1", SanctionExclusion)) })
	refuse(t, p, CodeExcluded, func() error { return p.Sanctionner(sanction(1, "L1", SanctionAvertissement)) })
	refuse(t, p, CodeExcluded, func() error { return p.CorrigerAMain(aMain(1, "L1", paye(14))) })
	require.NoError(t, p.DeposerBulletin(BulletinDepose{Coup: 3, Licence: "L2", Bulletin: correction.Bulletin{Missing: true}}))

	replay := rejouer(t, hist, evts, vider(p))
	assert.True(t, replay.Exclu("L1"))
	assert.Equal(t, p.Joueurs(), replay.Joueurs())
}

func TestSanctionner_Refus(t *testing.T) {
	tests := []struct {
		name  string
		code  Code
		avant func(p *Partie)
		e     SanctionDisciplinaire
	}{
		{"joueur inconnu", CodeUnknownPlayer, nil, sanction(1, "X", SanctionZero)},
		{"§5.5 §5.7 §6.1 nature inconnue", CodeInvalidSanction, nil, sanction(1, "L1", "blame")},
		{"§5.9 sanction non motivée", CodeInvalidSanction, nil, SanctionDisciplinaire{Coup: 1, Licence: "L1", Nature: SanctionZero}},
		{"coup pas encore joué", CodeInvalidSanction, nil, sanction(3, "L1", SanctionAvertissement)},
		{"coup zéro", CodeInvalidSanction, nil, sanction(0, "L1", SanctionAvertissement)},
		{"§6.2 coup antérieur à l'arrivée", CodeLatePlayer, func(p *Partie) {
			require.NoError(t, p.ArriveeEnRetard("L9"))
		}, sanction(2, "L9", SanctionZero)},
		{"partie terminée : un coup dont les résultats ne comptent pas", CodeInvalidSanction, func(p *Partie) {
			require.NoError(t, p.Apply(PartieTerminee{Motif: FinInterruption, DernierCoup: 1}))
		}, sanction(2, "L1", SanctionAvertissement)},
		{"résultats clos", CodeResultsClosed, func(p *Partie) {
			require.NoError(t, p.Apply(PartieTerminee{Motif: FinToutesLettresPlacees, DernierCoup: 2}))
			require.NoError(t, p.Apply(ResultatsClos{}))
		}, sanction(2, "L1", SanctionAvertissement)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, _ := deuxCoups(t, configDirecteur)
			if tt.avant != nil {
				tt.avant(p)
			}
			refuse(t, p, tt.code, func() error { return p.Sanctionner(tt.e) })
		})
	}
	t.Run("partie inexistante", func(t *testing.T) {
		p := Nouvelle(fixe(t))
		refuse(t, p, CodeNotFound, func() error { return p.Sanctionner(sanction(1, "L1", SanctionZero)) })
	})
	t.Run("sanction d'un joueur inconnu dans l'historique", func(t *testing.T) {
		p, _ := deuxCoups(t, configDirecteur)
		assert.ErrorIs(t, p.Apply(sanction(1, "X", SanctionZero)), ErrCorruptHistory)
	})
}

func TestSanctionner_Paragraphe3_6_CoupAnnule(t *testing.T) {
	p, hist := deuxCoups(t, configDirecteur)
	require.NoError(t, p.Tirer("JK"))
	require.NoError(t, p.Sanctionner(sanction(3, "L1", SanctionZero)), "the coup being played")
	require.NoError(t, p.Sanctionner(sanction(3, "L2", SanctionAvertissement)))
	require.NoError(t, p.AnnulerCoup(AnnulationErreur))
	require.NoError(t, p.Tirer("JKLMOAE"))
	_, ok := p.DecisionSanctionnee(3, "L1")
	assert.False(t, ok, "§3.6 the annulled coup's zéro goes with its points")
	d, _ := p.DecisionSanctionnee(3, "L2")
	assert.Zero(t, d.Warnings(), "§3.6 and its avertissements with its billets")
	require.NoError(t, p.Sanctionner(sanction(3, "L2", SanctionAvertissement)), "given again on the coup replayed")
	assert.Equal(t, 1, p.Avertissements("L2").Warnings)
	assert.Equal(t, p.Avertissements("L2"), rejouer(t, hist, vider(p)).Avertissements("L2"))
}

func TestEliminer_Paragraphe3_8_3_Discipline(t *testing.T) {
	cfg := Config{TempsParCoup: time.Minute, Source: SourceDirecteur, Mode: ModeMortSubite}
	t.Run("§5.7 le zéro disciplinaire élimine", func(t *testing.T) {
		p := nouvellePartie(t, cfg, fixe(t, coup(t, "H8", "BAC", 14)), "A", "B", "C")
		require.NoError(t, p.Tirer("ABCDEF?"))
		require.NoError(t, p.RetenirTop("H8", "BAC"))
		for _, l := range []string{"A", "B", "C"} {
			require.NoError(t, p.CorrigerAMain(aMain(1, l, paye(14))))
		}
		require.NoError(t, p.Sanctionner(sanction(1, "C", SanctionZero)))
		require.NoError(t, p.Eliminer())
		assert.Equal(t, []string{"A", "B"}, p.Joueurs())
	})
	t.Run("§5.9 en mort subite, la pénalité du sixième avertissement compte sur le coup", func(t *testing.T) {
		p := nouvellePartie(t, cfg, fixe(t, coup(t, "H8", "BAC", 14)), "A", "B", "C")
		require.NoError(t, p.Tirer("ABCDEF?"))
		require.NoError(t, p.RetenirTop("H8", "BAC"))
		for _, l := range []string{"A", "B", "C"} {
			require.NoError(t, p.CorrigerAMain(aMain(1, l, paye(14))))
		}
		for range 6 {
			require.NoError(t, p.Sanctionner(sanction(1, "B", SanctionAvertissement)))
		}
		require.NoError(t, p.Eliminer())
		assert.Equal(t, []string{"A", "C"}, p.Joueurs(), "five free avertissements in blitz, the sixth costs 5 on the coup")
	})
}
