package duplicate

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbitre/domain/erreur"
	"arbitre/domain/eventstore"
	"arbitre/engine/board"
	"arbitre/engine/correction"
	"arbitre/engine/movegen"
	"arbitre/engine/play"
	"arbitre/engine/tile"
)

// moteurFixe is an engine whose answers the test decides: the tops, and a
// score for each playable "REF MOT".
type moteurFixe struct {
	tops     []movegen.Move
	scores   map[string]int32
	decision correction.Decision
}

func (m *moteurFixe) Corriger(correction.Context, *correction.Bulletin) (correction.Decision, error) {
	return m.decision, nil
}

func (m *moteurFixe) Tops(*board.Board, tile.Rack) []movegen.Move {
	return append([]movegen.Move(nil), m.tops...)
}

func (m *moteurFixe) Verifier(_ *board.Board, ref board.Ref, word []tile.Tile, _ *tile.Rack) play.Result {
	res := play.Result{NWords: 1, NPlaced: len(word)}
	s, ok := m.scores[ref.String()+" "+tile.WordText(word)]
	res.Words[0].Valid = ok
	res.Score = s
	for _, t := range word {
		res.UsesJoker = res.UsesJoker || t.IsJoker()
	}
	return res
}

// coup builds an engine move on an empty grid: every letter put down.
func coup(t testing.TB, ref, mot string, score int32) movegen.Move {
	t.Helper()
	r, err := board.ParseRef(ref)
	require.NoError(t, err)
	w, err := play.ParseWord(mot)
	require.NoError(t, err)
	m := movegen.Move{Row: uint8(r.Row), Col: uint8(r.Col), Vertical: r.Vertical, Len: uint8(len(w)), Score: score}
	for i, x := range w {
		m.Word[i] = x
		m.Placed |= 1 << i
		m.UsesJoker = m.UsesJoker || x.IsJoker()
	}
	m.NPlaced = m.Len
	return m
}

func fixe(t testing.TB, coups ...movegen.Move) *moteurFixe {
	m := &moteurFixe{tops: coups, scores: map[string]int32{}}
	for i := range coups {
		m.scores[coups[i].Ref().String()+" "+coups[i].WordString()] = coups[i].Score
	}
	return m
}

// aMain is a hand correction of a bulletin by arbiter A1.
func aMain(coup int, licence string, d correction.Decision) Correction {
	return Correction{Coup: coup, Licence: licence, Arbitre: "A1", Arbitrage: &d, Motif: "saisie à la main"}
}

func paye(score int) correction.Decision {
	return correction.Decision{Paid: score, Sanction: correction.None}
}

// penalite is the 5-point penalty of §5.6 on a claimed score.
func penalite(score int) correction.Decision {
	return correction.Decision{Paid: score - 5, Sanction: correction.Penalty}
}

var configDirecteur = Config{TempsParCoup: 3 * time.Minute, Source: SourceDirecteur}

func nouvellePartie(t *testing.T, cfg Config, m Moteur, joueurs ...string) *Partie {
	t.Helper()
	if len(joueurs) == 0 {
		joueurs = []string{"L1", "L2", "L3"}
	}
	p := Nouvelle(m)
	require.NoError(t, p.Creer("p1", "t1", 1, cfg, joueurs))
	vider(p)
	return p
}

func rack(t *testing.T, s string) tile.Rack {
	t.Helper()
	r, err := tile.ParseRack(s)
	require.NoError(t, err)
	return r
}

// etat puts the game in the middle of coup n with this rack and bag.
func etat(t *testing.T, p *Partie, coup int, tirage, sac string) {
	t.Helper()
	p.lettres.rack, p.lettres.sac = rack(t, tirage), rack(t, sac)
	p.prochainCoup, p.statut = coup, StatutTirage
}

// refuse checks a refused command by its code and that it changed nothing.
func refuse(t *testing.T, p *Partie, code Code, f func() error) {
	t.Helper()
	vider(p)
	version, sac, rk, g := p.Version(), p.lettres.sac, p.lettres.rack, p.grille
	err := f()
	require.Error(t, err)
	assert.Equal(t, code, erreur.CodeOf(err), err.Error())
	assert.Equal(t, version, p.Version())
	assert.Equal(t, sac, p.lettres.sac)
	assert.Equal(t, rk, p.lettres.rack)
	assert.Equal(t, g, p.grille)
	assert.Empty(t, vider(p))
}

func TestCreer_Paragraphe5_9_AvertissementsGratuits(t *testing.T) {
	tests := []struct {
		name  string
		cfg   Config
		want  int
		refus bool
	}{
		{"§5.9 trois avertissements en partie normale", Config{TempsParCoup: 3 * time.Minute}, 3, false},
		{"§5.9 cinq en blitz", Config{TempsParCoup: time.Minute}, 5, false},
		{"§5.9 cinq en partie joker (§3.8.1)", Config{TempsParCoup: 2 * time.Minute, Formule: FormuleJoker}, 5, false},
		{"§5.9 cinq en 7 sur 8 (§3.8.2)", Config{TempsParCoup: 2 * time.Minute, Variante: VarianteSeptSurHuit}, 5, false},
		{"§1.3 temps nul refusé", Config{}, 0, true},
		{"§3.8.2 variante inconnue", Config{TempsParCoup: time.Minute, Variante: "10"}, 0, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := Nouvelle(fixe(t))
			err := p.Creer("p1", "", 1, tt.cfg, []string{"L1"})
			if tt.refus {
				assert.ErrorIs(t, err, ErrInvalidConfig)
				assert.Zero(t, p.Version())
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.want, p.Config().Gratuits())
			assert.Equal(t, DefaultSeuilSolo, p.Config().SeuilSolo, "§3.5")
		})
	}
}

func TestTirer_Paragraphe3_2_Rejet(t *testing.T) {
	t.Run("§3.2 une voyelle avant le 16e coup : rejet, reliquat compris", func(t *testing.T) {
		p := nouvellePartie(t, configDirecteur, fixe(t))
		etat(t, p, 4, "BCD", "FGHANRSTEIO")
		p.statut = StatutAttenteTirage
		require.NoError(t, p.Tirer("FGHA"))
		evts := vider(p)
		require.Len(t, evts, 1)
		assert.Equal(t, TirageRejete{Coup: 4, Reliquat: "BCD", Tirees: "FGHA", Motif: RejetVoyellesConsonnes}, evts[0])
		assert.Equal(t, StatutAttenteTirage, p.Statut())
		assert.Equal(t, rack(t, "BCDFGHANRSTEIO"), p.Sac(), "toutes les lettres remises dans le sac")
		assert.Zero(t, p.lettres.rack.Size())
	})
	t.Run("§3.2 tirage valide", func(t *testing.T) {
		p := nouvellePartie(t, configDirecteur, fixe(t))
		require.NoError(t, p.Tirer("EBACDFG"))
		assert.Equal(t, []any{TirageEffectue{Coup: 1, Tirees: "EBACDFG", Source: SourceDirecteur}}, vider(p))
		assert.Equal(t, "ABCDEFG", p.lettres.rack.String())
	})
	t.Run("§3.2 logiciel : rejets puis tirage valide, tous enregistrés", func(t *testing.T) {
		p := nouvellePartie(t, Config{TempsParCoup: 3 * time.Minute, Source: SourceLogiciel, GraineTest: new(uint64(7))}, fixe(t))
		etat(t, p, 2, "", "BCDFGHJKLMNPQRSTVWXZBCDFGHAEI")
		p.statut = StatutAttenteTirage
		require.NoError(t, p.Tirer(""))
		evts := vider(p)
		require.NotEmpty(t, evts)
		for _, e := range evts[:len(evts)-1] {
			assert.IsType(t, TirageRejete{}, e)
		}
		assert.IsType(t, TirageEffectue{}, evts[len(evts)-1])
		n := natureDe(&p.lettres.rack)
		assert.GreaterOrEqual(t, n.voyelles, 2)
		assert.GreaterOrEqual(t, n.consonnes, 2)
	})
}

// TestRejets_Paragraphe3_2_AnnoncesJusquAuTop: the rejets of a coup stay
// known (the hall announces them, §3.1, §3.2) until its top or its
// annulment, the director's own rejet after the automatic ones.
func TestRejets_Paragraphe3_2_AnnoncesJusquAuTop(t *testing.T) {
	p := nouvellePartie(t, configDirecteur, fixe(t, coup(t, "H8", "BAC", 14)))
	etat(t, p, 4, "BCD", "FGHANRSTEIOYUA")
	p.statut = StatutAttenteTirage
	require.NoError(t, p.Tirer("FGHA"))
	voyelles := TirageRejete{Coup: 4, Reliquat: "BCD", Tirees: "FGHA", Motif: RejetVoyellesConsonnes}
	assert.Equal(t, []TirageRejete{voyelles}, p.Rejets())
	require.NoError(t, p.Tirer("AEIOUTY"))
	assert.Equal(t, []TirageRejete{voyelles}, p.Rejets(), "§3.2 the rejet before the tirage on the stand")
	require.NoError(t, p.Rejeter())
	choix := TirageRejete{Coup: 4, Tirees: "AEIOUTY", Motif: RejetChoixDirecteur}
	assert.Equal(t, []TirageRejete{voyelles, choix}, p.Rejets())
	require.NoError(t, p.Tirer("BCAEDFG"))
	assert.Equal(t, []TirageRejete{voyelles, choix}, p.Rejets())
	reliquat, tirees := p.TirageEnCours()
	assert.Equal(t, []string{"", "BCAEDFG"}, []string{reliquat, tirees})
	require.NoError(t, p.RetenirTop("H8", "BAC"))
	assert.Empty(t, p.Rejets(), "the top clears them")

	p = nouvellePartie(t, configDirecteur, fixe(t))
	require.NoError(t, p.Tirer("AEIOUAE"))
	require.NoError(t, p.Tirer("BCAEDFG"))
	require.Len(t, p.Rejets(), 1)
	require.NoError(t, p.AnnulerCoup(AnnulationErreur))
	assert.Empty(t, p.Rejets(), "§3.6 the annulment clears them")
}

// TestTirer_LettresAccentuees: typed letters fold as the lexicon folds
// them, and a refusal shows the character typed, not its first byte.
func TestTirer_LettresAccentuees(t *testing.T) {
	p := nouvellePartie(t, configDirecteur, fixe(t))
	require.NoError(t, p.Tirer("ÉBAÇDFG"))
	assert.Equal(t, []any{TirageEffectue{Coup: 1, Tirees: "EBACDFG", Source: SourceDirecteur}}, p.Pending())

	p = nouvellePartie(t, configDirecteur, fixe(t))
	var err error
	refuse(t, p, CodeInvalidTirage, func() error { err = p.Tirer("EBA€DFG"); return err })
	assert.Contains(t, err.Error(), "« € » en position 4")
	assert.NotContains(t, err.Error(), `'\xe2'`)
}

func TestTirer_MauvaiseSaisieNeChangeRien(t *testing.T) {
	tests := []struct {
		name   string
		cfg    Config
		saisie string
	}{
		{"lettre absente du sac", configDirecteur, "KKAEBCD"},
		{"trop peu de lettres", configDirecteur, "AEBCD"},
		{"caractère inconnu", configDirecteur, "AEB*CDF"},
		{"§3.1 lettres saisies alors que le logiciel tire", Config{TempsParCoup: 3 * time.Minute, Source: SourceLogiciel}, "AEBCDFG"},
		{"aucune lettre saisie", configDirecteur, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := nouvellePartie(t, tt.cfg, fixe(t))
			refuse(t, p, CodeInvalidTirage, func() error { return p.Tirer(tt.saisie) })
		})
	}
}

func TestRejeter_Paragraphe3_2_ChoixDuJugeArbitre(t *testing.T) {
	tests := []struct {
		name   string
		coup   int
		saisie string
		sac    string
		ok     bool
	}{
		{"§3.2 joker compté consonne : rejet permis (guide §4.2.1)", 3, "ABCDFG?", "", true},
		{"§3.2 Y compté consonne : rejet permis (guide §4.2.4)", 3, "AEIOUTY", "", true},
		{"§3.2 tirage valide quelle que soit la nature du joker", 3, "AEBCDF?", "", false},
		{"§3.2 fin de partie : consonnes et Y, plus de liberté", 20, "BCDRY", "BCDRY", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := nouvellePartie(t, configDirecteur, fixe(t))
			p.prochainCoup = tt.coup
			if tt.sac != "" {
				p.lettres.sac = rack(t, tt.sac)
			}
			require.NoError(t, p.Tirer(tt.saisie))
			vider(p)
			if !tt.ok {
				refuse(t, p, CodeRejetRefused, p.Rejeter)
				return
			}
			require.NoError(t, p.Rejeter())
			assert.Equal(t, []any{TirageRejete{Coup: tt.coup, Tirees: tt.saisie, Motif: RejetChoixDirecteur}}, vider(p))
			assert.Equal(t, sacComplet(), p.Sac())
		})
	}
}

func TestRetenirTop_Paragraphe3_4(t *testing.T) {
	bac := coup(t, "H8", "BAC", 14)
	bacJoker := coup(t, "H8", "BaC", 14)
	tests := []struct {
		name      string
		tops      []movegen.Move
		ref, mot  string
		code      Code
		extraMots map[string]int32
	}{
		{"§3.4 le top retenu", []movegen.Move{bac, bacJoker}, "H8", "BAC", "", nil},
		{"§3.4 score inférieur au maximum", []movegen.Move{bac}, "H8", "CAB", CodeNotMaxScore, map[string]int32{"H8 CAB": 12}},
		{"§3.4 joker refusé quand un top le conserve", []movegen.Move{bac, bacJoker}, "H8", "BaC", CodeJokerTopRefused, nil},
		{"§3.4 joker accepté quand tous les tops l'utilisent", []movegen.Move{bacJoker}, "H8", "BaC", "", nil},
		{"§3.4 mot non admis", []movegen.Move{bac}, "H8", "BCA", CodeInvalidWord, nil},
		{"§3.4 référence illisible", []movegen.Move{bac}, "Z99", "BAC", CodeInvalidTop, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := fixe(t, tt.tops...)
			for k, v := range tt.extraMots {
				m.scores[k] = v
			}
			p := nouvellePartie(t, configDirecteur, m)
			require.NoError(t, p.Tirer("ABCDEF?"))
			vider(p)
			if tt.code != "" {
				refuse(t, p, tt.code, func() error { return p.RetenirTop(tt.ref, tt.mot) })
				return
			}
			require.NoError(t, p.RetenirTop(tt.ref, tt.mot))
			top, ok := p.Top(1)
			require.True(t, ok)
			assert.Equal(t, 14, top.Score)
			assert.Equal(t, StatutTop, p.Statut())
			g := p.Grille()
			assert.Equal(t, tile.Tile(2), g.At(7, 7), "B en H8")
			assert.Equal(t, 4, p.lettres.rack.Size(), "reliquat")
		})
	}
}

// §3.4 and §3.7: among tops of equal score, the one that ends the game
// must be retained, unless it spends the joker a top keeps.
func TestRetenirTop_Paragraphe3_4_FinDePartieObligatoire(t *testing.T) {
	tests := []struct {
		name, tirage string
		tops         []movegen.Move
		mot          string
		code         Code
		fin          MotifFin
	}{
		{"§3.7 un top finit la partie : il est obligatoire", "ABES",
			[]movegen.Move{coup(t, "H8", "BAS", 10), coup(t, "H8", "BA", 10)}, "BA", CodeMustEndGame, ""},
		{"§3.7 le top qui finit la partie", "ABES",
			[]movegen.Move{coup(t, "H8", "BAS", 10), coup(t, "H8", "BA", 10)}, "BAS", "", FinUneSeuleLettre},
		{"§3.4 sauf s'il gaspille le joker", "AB?E",
			[]movegen.Move{coup(t, "H8", "BAs", 10), coup(t, "H8", "BA", 10)}, "BA", "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := nouvellePartie(t, configDirecteur, fixe(t, tt.tops...))
			etat(t, p, 22, tt.tirage, "")
			if tt.code != "" {
				refuse(t, p, tt.code, func() error { return p.RetenirTop("H8", tt.mot) })
				return
			}
			require.NoError(t, p.RetenirTop("H8", tt.mot))
			if tt.fin == "" {
				assert.Nil(t, p.Fin())
				return
			}
			require.NotNil(t, p.Fin())
			assert.Equal(t, PartieTerminee{Motif: tt.fin, DernierCoup: 22}, *p.Fin())
		})
	}
}

// §3.7 with tricky bags: what is left after the top decides the end.
func TestRetenirTop_Paragraphe3_7_SacsDifficiles(t *testing.T) {
	tests := []struct {
		name, tirage, sac string
		fin               MotifFin
	}{
		{"§3.7 joker et Y dans un reliquat de deux lettres : la partie continue", "BEY?", "", ""},
		{"§3.7 il ne reste qu'une lettre", "BEY", "", FinUneSeuleLettre},
		{"§3.7 il ne reste que des voyelles", "BEA", "IOU", FinReliquatVoyelles},
		{"§3.7 il ne reste que des consonnes", "BEC", "DRST", FinReliquatConsonnes},
		{"§3.7 toutes les lettres placées", "BE", "", FinToutesLettresPlacees},
		{"§3.7 consonnes et Y : la partie continue", "BEC", "DY", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := nouvellePartie(t, configDirecteur, fixe(t, coup(t, "H8", "BE", 8)))
			etat(t, p, 21, tt.tirage, tt.sac)
			require.NoError(t, p.RetenirTop("H8", "BE"))
			if tt.fin == "" {
				assert.Nil(t, p.Fin())
				assert.Equal(t, StatutTop, p.Statut())
				return
			}
			require.NotNil(t, p.Fin())
			assert.Equal(t, tt.fin, p.Fin().Motif)
			refuse(t, p, CodeGameOver, func() error { return p.Tirer("A") })
		})
	}
}

func TestFormuleJoker_Paragraphe3_8_1(t *testing.T) {
	cfg := Config{TempsParCoup: 2 * time.Minute, Source: SourceDirecteur, Formule: FormuleJoker}
	p := nouvellePartie(t, cfg, fixe(t, coup(t, "H8", "BAc", 12)))
	assert.Zero(t, p.Sac()[tile.NoLetter], "§3.8.1 les deux jokers sont extraits du sac")
	refuse(t, p, CodeInvalidTirage, func() error { return p.Tirer("ABDEFGH") })
	require.NoError(t, p.Tirer("ABDEFG"))
	assert.Equal(t, []any{TirageEffectue{Coup: 1, Tirees: "ABDEFG", JokerAjoute: true, Source: SourceDirecteur}}, vider(p))
	assert.Equal(t, "ABDEFG?", p.lettres.rack.String(), "§3.8.1 six lettres et un joker")
	require.NoError(t, p.RetenirTop("H8", "BAc"))
	top, _ := p.Top(1)
	assert.True(t, top.JokerRemplace, "§3.8.1 le C est encore dans le sac")
	g := p.Grille()
	assert.Equal(t, tile.Tile(3), g.At(7, 9), "le joker est remplacé par le C")
	assert.Equal(t, uint8(1), p.Sac()[3])
	assert.Equal(t, 2, p.lettres.reserve)
	require.NoError(t, p.Tirer("HI"))
	assert.Equal(t, uint8(1), p.lettres.rack[tile.NoLetter], "§3.8.1 le joker revient au tirage suivant")
}

func TestAnnulerCoup_Paragraphe3_6(t *testing.T) {
	t.Run("§3.6 erreur après le top : points annulés, lettres remises, tirage différent exigé", func(t *testing.T) {
		p := nouvellePartie(t, configDirecteur, fixe(t, coup(t, "H8", "BAC", 14)))
		require.NoError(t, p.Tirer("ABCDEF?"))
		require.NoError(t, p.RetenirTop("H8", "BAC"))
		require.NoError(t, p.Ramasser())
		vider(p)
		require.NoError(t, p.AnnulerCoup(AnnulationErreur))
		assert.Equal(t, []any{CoupAnnule{Coup: 1, Motif: AnnulationErreur}}, vider(p))
		assert.True(t, p.grille.IsEmpty())
		assert.Equal(t, sacComplet(), p.Sac())
		_, ok := p.Top(1)
		assert.False(t, ok)
		assert.Equal(t, 1, p.ProchainCoup())
		require.NoError(t, p.Tirer("?FEDCBA"))
		assert.Equal(t, []any{TirageRejete{Coup: 1, Tirees: "?FEDCBA", Motif: RejetTirageIdentique}}, vider(p))
		require.NoError(t, p.Tirer("ABCDEFG"))
		assert.Equal(t, StatutTirage, p.Statut())
	})
	t.Run("§3.6 aucune solution : refusée quand le moteur en trouve", func(t *testing.T) {
		p := nouvellePartie(t, configDirecteur, fixe(t, coup(t, "H8", "BAC", 14)))
		require.NoError(t, p.Tirer("ABCDEF?"))
		vider(p)
		refuse(t, p, CodeAnnulationRefused, func() error { return p.AnnulerCoup(AnnulationAucuneSolution) })
	})
	t.Run("§3.6 §3.7 aucune solution et pas de tirage différent possible : fin", func(t *testing.T) {
		p := nouvellePartie(t, configDirecteur, fixe(t))
		etat(t, p, 23, "QWY", "KZ")
		require.NoError(t, p.AnnulerCoup(AnnulationAucuneSolution))
		assert.Equal(t, []any{CoupAnnule{Coup: 23, Motif: AnnulationAucuneSolution},
			PartieTerminee{Motif: FinPlusDePlacement, DernierCoup: 22}}, vider(p))
	})
	t.Run("§3.6 aucune solution : nouveau tirage", func(t *testing.T) {
		p := nouvellePartie(t, configDirecteur, fixe(t))
		etat(t, p, 12, "QWYKZXJ", "AEIOUBCDF")
		require.NoError(t, p.AnnulerCoup(AnnulationAucuneSolution))
		assert.Equal(t, StatutAttenteTirage, p.Statut())
		assert.Equal(t, 16, p.lettres.sac.Size())
	})
}

func TestArriveeEnRetard_Paragraphe6_2(t *testing.T) {
	p := nouvellePartie(t, configDirecteur, fixe(t, coup(t, "H8", "BAC", 14)))
	require.NoError(t, p.Tirer("ABCDEF?"))
	require.NoError(t, p.ArriveeEnRetard("L9"))
	assert.Contains(t, vider(p), JoueurArrive{Licence: "L9", PremierCoup: 2})
	require.NoError(t, p.RetenirTop("H8", "BAC"))
	refuse(t, p, CodeLatePlayer, func() error { return p.CorrigerAMain(aMain(1, "L9", paye(14))) })
	refuse(t, p, CodeUnknownPlayer, func() error { return p.CorrigerAMain(aMain(1, "X", paye(14))) })
	refuse(t, p, CodeInvalidBulletin, func() error { return p.CorrigerAMain(aMain(1, "L1", paye(15))) })
	require.NoError(t, p.CorrigerAMain(aMain(1, "L1", paye(14))))
}

func TestReprendre_Paragraphe3_7_Interruption(t *testing.T) {
	debut := time.Date(2026, 3, 1, 14, 0, 0, 0, time.UTC)
	tests := []struct {
		name     string
		cfg      Config
		ramasses int
		duree    time.Duration
		fin      *PartieTerminee
	}{
		{"§3.7 quinze minutes : la partie reprend", configDirecteur, 3, 15 * time.Minute, nil},
		{"§3.7 plus de quinze minutes et 14 coups ramassés : partie annulée", configDirecteur, 14, 16 * time.Minute,
			&PartieTerminee{Motif: FinInterruption, Annulee: true}},
		{"§3.7 plus de quinze minutes et 15 coups ramassés : résultats validés", configDirecteur, 15, 16 * time.Minute,
			&PartieTerminee{Motif: FinInterruption, DernierCoup: 15}},
		{"guide §2.13 partie originale : 10 coups suffisent", Config{TempsParCoup: time.Minute, Source: SourceDirecteur}.avecFormule(FormuleJoker), 10, 20 * time.Minute,
			&PartieTerminee{Motif: FinInterruption, DernierCoup: 10}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := nouvellePartie(t, tt.cfg, fixe(t))
			for c := 1; c <= tt.ramasses; c++ {
				p.ramasses[c] = true
				p.tops[c] = TopRetenu{Coup: c}
			}
			p.statut, p.prochainCoup = StatutAttenteTirage, tt.ramasses+1
			require.NoError(t, p.Interrompre(murale(debut)))
			refuse(t, p, CodeWrongState, func() error { return p.Tirer("ABCDEFG") })
			require.NoError(t, p.Reprendre(murale(debut.Add(tt.duree))))
			if tt.fin == nil {
				assert.Equal(t, StatutAttenteTirage, p.Statut())
				return
			}
			want := *tt.fin
			want.Interruption = &DureeInterruption{Duree: tt.duree, Murale: true}
			assert.Equal(t, &want, p.Fin(), "the length read on the wall clock: no monotonic reading")
		})
	}
}

// murale is an instant of a clock without a monotonic reading.
func murale(t time.Time) eventstore.Instant { return eventstore.Instant{Wall: t} }

func (c Config) avecFormule(f Formule) Config { c.Formule = f; return c }

func TestEliminer_Paragraphe3_8_3_MortSubite(t *testing.T) {
	cfg := Config{TempsParCoup: time.Minute, Source: SourceDirecteur, Mode: ModeMortSubite}
	p := nouvellePartie(t, cfg, fixe(t, coup(t, "H8", "BAC", 14)), "A", "B", "C", "D")
	assert.Equal(t, 80*time.Second, p.Config().TempsDuCoup(3), "§3.8.3 1 min + 20 s")
	assert.Equal(t, 60*time.Second, p.Config().TempsDuCoup(4), "§3.8.3 40 s + 20 s")
	assert.Equal(t, 40*time.Second, p.Config().TempsDuCoup(7), "§3.8.3 20 s + 20 s")
	require.NoError(t, p.Tirer("ABCDEF?"))
	require.NoError(t, p.RetenirTop("H8", "BAC"))
	require.NoError(t, p.CorrigerAMain(aMain(1, "A", paye(12))))
	require.NoError(t, p.CorrigerAMain(aMain(1, "B", paye(10))))
	require.NoError(t, p.CorrigerAMain(aMain(1, "C", penalite(12))))
	require.NoError(t, p.CorrigerAMain(aMain(1, "D", DecisionManquant())), "§5.7 D handed in no bulletin: typed missing")
	vider(p)
	require.NoError(t, p.Eliminer())
	assert.Equal(t, []any{
		EliminationsDecidees{Coup: 1, Reference: 12, Elimines: []string{"B", "C", "D"}},
		PartieTerminee{Motif: FinVainqueur, DernierCoup: 1, Vainqueur: "A"},
	}, vider(p), "guide §2.15 : le top n'est pas trouvé, le meilleur score fait référence ; §5.9 la pénalité compte sur le coup")
}

func TestEliminer_Guide2_14_Barrage(t *testing.T) {
	cfg := Config{TempsParCoup: time.Minute, Source: SourceDirecteur, Mode: ModeBarrage}
	p := nouvellePartie(t, cfg, fixe(t, coup(t, "H8", "BAC", 14)), "A", "B", "C")
	require.NoError(t, p.Tirer("ABCDEF?"))
	require.NoError(t, p.RetenirTop("H8", "BAC"))
	for _, l := range []string{"A", "B"} {
		require.NoError(t, p.CorrigerAMain(aMain(1, l, paye(14))))
	}
	require.NoError(t, p.CorrigerAMain(aMain(1, "C", penalite(12))))
	require.NoError(t, p.Eliminer())
	assert.Equal(t, []string{"A", "B"}, p.Joueurs())
	assert.Nil(t, p.Fin())
	refuse(t, p, CodeWrongState, p.Eliminer)
}

func TestFormuleJoker_Paragraphe3_8_1_LettreAbsenteDuSac(t *testing.T) {
	cfg := Config{TempsParCoup: 2 * time.Minute, Source: SourceDirecteur, Formule: FormuleJoker}
	p := nouvellePartie(t, cfg, fixe(t, coup(t, "H8", "BAc", 12), coup(t, "J2", "DEc", 12)))
	require.NoError(t, p.Tirer("ABDEFG"))
	p.lettres.sac[3] = 0 // every C is out of the bag
	require.NoError(t, p.RetenirTop("H8", "BAc"))
	top, _ := p.Top(1)
	assert.False(t, top.JokerRemplace, "§3.8.1 the C is no longer in the bag")
	g := p.Grille()
	assert.True(t, g.At(7, 9).IsJoker(), "§3.8.1 the first joker stays on the grid")
	assert.Equal(t, 1, p.lettres.reserve, "§3.8.1 the game goes on with the second joker")

	vider(p)
	require.NoError(t, p.Tirer("HI"))
	assert.Equal(t, []any{TirageEffectue{Coup: 2, Reliquat: "DEFG", Tirees: "HI", JokerAjoute: true, Source: SourceDirecteur}}, vider(p))
	require.NoError(t, p.RetenirTop("J2", "DEc"))
	assert.Zero(t, p.lettres.reserve)

	refuse(t, p, CodeInvalidTirage, func() error { return p.Tirer("AJ") })
	require.NoError(t, p.Tirer("AJK"))
	assert.Equal(t, []any{TirageEffectue{Coup: 3, Reliquat: "FGHI", Tirees: "AJK", Source: SourceDirecteur}}, vider(p),
		"§3.8.1 both jokers used: the game ends in normal duplicate, seven letters and no joker added")
}

func TestVariantes_Paragraphe3_8_2(t *testing.T) {
	tests := []struct {
		name     string
		variante Variante
		formule  Formule
		court    string
		tirage   string
		rack     string
	}{
		{"§3.8.2 7 sur 8 : huit lettres", VarianteSeptSurHuit, FormuleNormale, "ABCDEFG", "ABCDEFGH", "ABCDEFGH"},
		{"§3.8.2 7 et 8 : huit lettres", VarianteSeptEtHuit, FormuleNormale, "ABCDEFG", "ABCDEFGH", "ABCDEFGH"},
		{"§3.8.2 7, 8 et 9 : neuf lettres", VarianteSeptHuitNeuf, FormuleNormale, "ABCDEFGH", "ABCDEFGHI", "ABCDEFGHI"},
		{"§3.8.2 7 sur 8 associé au joker (§3.8.1) : sept lettres et un joker", VarianteSeptSurHuit, FormuleJoker, "ABCDEF", "ABCDEFG", "ABCDEFG?"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg := Config{TempsParCoup: 2 * time.Minute, Source: SourceDirecteur, Variante: tt.variante, Formule: tt.formule}
			p := nouvellePartie(t, cfg, fixe(t, coup(t, "H8", "BAC", 14)))
			assert.Equal(t, 5, p.Config().Gratuits(), "§5.9 original formula")
			assert.Equal(t, 10, p.Config().CoupsMinimumInterruption(), "guide §2.13 original formula")
			refuse(t, p, CodeInvalidTirage, func() error { return p.Tirer(tt.court) })
			require.NoError(t, p.Tirer(tt.tirage))
			r := p.Rack()
			assert.Equal(t, tt.rack, r.String())
			require.NoError(t, p.RetenirTop("H8", "BAC"))
			ctx, ok := p.ContexteCorrection(1, "L1")
			require.True(t, ok)
			assert.Equal(t, string(tt.variante), ctx.Variant, "bulletins are corrected in the variant")
		})
	}
}

func TestPartiePretiree_Guide2_17(t *testing.T) {
	texte := "# simultané\n1 +ABCDEF? H8 BAC 14\n2 DEF?+GHI\n"
	f, err := LireFeuille([]byte(texte))
	require.NoError(t, err)
	j, err := LireFeuille([]byte(`{"coups":[{"coup":1,"reliquat":"","tirees":"ABCDEF?","ref":"H8","mot":"BAC","score":14},{"coup":2,"reliquat":"DEF?","tirees":"GHI"}]}`))
	require.NoError(t, err)
	assert.Equal(t, f, j, "text and JSON forms read the same sheet")
	for _, mauvais := range []string{"2 +ABCDEFG", "1 +ABCDEF? H8 BAC", "1 +AB1", `{"coups":[{"coup":1,"tirees":"AB","x":1}]}`} {
		_, err := LireFeuille([]byte(mauvais))
		assert.Equal(t, CodeInvalidTirage, erreur.CodeOf(err), mauvais)
	}

	p := nouvellePartie(t, configDirecteur, fixe(t, coup(t, "H8", "BAC", 14)))
	refuse(t, p, CodeInvalidTirage, func() error { return p.TirerPretire(f) })

	cfg := Config{TempsParCoup: 3 * time.Minute, Source: SourcePretiree}
	p = nouvellePartie(t, cfg, fixe(t, coup(t, "H8", "BAC", 14)))
	require.NoError(t, p.TirerPretire(f))
	assert.Equal(t, []any{TirageEffectue{Coup: 1, Tirees: "ABCDEF?", Source: SourcePretiree}}, vider(p), "guide §2.17.1 letters in the sheet's order")
	require.NoError(t, p.RetenirTop("H8", "BAC"))
	autre, err := LireFeuille([]byte("1 +ABCDEF?\n2 DE+FGHIJ\n"))
	require.NoError(t, err)
	refuse(t, p, CodeInvalidTirage, func() error { return p.TirerPretire(autre) })
	require.NoError(t, p.TirerPretire(f))
	r := p.Rack()
	assert.Equal(t, "DEFGHI?", r.String())
	refuse(t, p, CodeWrongState, func() error { return p.TirerPretire(f) })
}

// TestArt3_7_TirageSacVide: §3.1 and §3.7 (guide §2.1, §2.17) — once the bag
// is empty and the game goes on, the next tirage is the reliquat alone, for
// every source: the director draws nothing, a pre-drawn sheet line has no
// new letters, the software draws nothing.
func TestArt3_7_TirageSacVide(t *testing.T) {
	feuille := Feuille{Coups: make([]CoupPretire, 22)}
	for i := range feuille.Coups {
		feuille.Coups[i] = CoupPretire{Coup: i + 1, Tirees: "A"}
	}
	feuille.Coups[21] = CoupPretire{Coup: 22, Reliquat: "CDY?"}
	tests := []struct {
		name   string
		source SourceTirage
		tirer  func(p *Partie) error
	}{
		{"directeur : aucune lettre à saisir", SourceDirecteur, func(p *Partie) error { return p.Tirer("") }},
		{"prétirée : ligne de la feuille sans nouvelles lettres", SourcePretiree, func(p *Partie) error { return p.TirerPretire(feuille) }},
		{"logiciel : rien à piocher", SourceLogiciel, func(p *Partie) error { return p.Tirer("") }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg := Config{TempsParCoup: 3 * time.Minute, Source: tt.source}
			p := nouvellePartie(t, cfg, fixe(t, coup(t, "H8", "BE", 8)))
			etat(t, p, 21, "BECDY?", "")
			require.NoError(t, p.RetenirTop("H8", "BE"))
			require.Nil(t, p.Fin(), "§3.7 joker et Y parmi quatre lettres : la partie continue")
			vider(p)
			if tt.source == SourceDirecteur {
				refuse(t, p, CodeInvalidTirage, func() error { return p.Tirer("A") })
			}
			require.NoError(t, tt.tirer(p))
			assert.Equal(t, []any{TirageEffectue{Coup: 22, Reliquat: "CDY?", Source: tt.source}}, vider(p))
			r := p.Rack()
			assert.Equal(t, "CDY?", r.String(), "le tirage est le reliquat seul")
			assert.Equal(t, StatutTirage, p.Statut())
		})
	}
}

// TestArt3_7_FeuillePretireeSansNouvellesLettres: guide §2.17 — a sheet line
// that only repeats the reliquat (the bag is empty) is read, in both forms.
func TestArt3_7_FeuillePretireeSansNouvellesLettres(t *testing.T) {
	f, err := LireFeuille([]byte("1 +ABCDEF?\n2 CDEF?+\n"))
	require.NoError(t, err)
	assert.Equal(t, CoupPretire{Coup: 2, Reliquat: "CDEF?"}, f.Coups[1])
	j, err := LireFeuille([]byte(`{"coups":[{"coup":1,"tirees":"ABCDEF?"},{"coup":2,"reliquat":"CDEF?"}]}`))
	require.NoError(t, err)
	assert.Equal(t, f, j)
	_, err = LireFeuille([]byte("1 +ABCDEF?\n2 +\n"))
	assert.Equal(t, CodeInvalidTirage, erreur.CodeOf(err), "une ligne sans aucune lettre reste refusée")
}

// TestArt3_8_1_TopConserveLeJoker: §3.8.1, last sentence — « le juge-arbitre
// doit retenir une solution préservant le joker ». Among tops of equal score
// that all use the joker, one whose letter is still in the bag (the joker is
// replaced and comes back) must be retained; §3.4's joker-free top still
// comes first, and §3.7's end of game only among the tops that keep it.
func TestArt3_8_1_TopConserveLeJoker(t *testing.T) {
	joker := Config{TempsParCoup: 2 * time.Minute, Source: SourceDirecteur, Formule: FormuleJoker}
	bac := coup(t, "H8", "BAc", 14) // C still in the bag: the joker comes back
	bak := coup(t, "H8", "BAk", 14) // no K left: the joker stays on the grid
	bad := coup(t, "H8", "BAD", 14) // no joker at all
	tests := []struct {
		name       string
		cfg        Config
		sac        string
		tops       []movegen.Move
		mot        string
		code       Code
		admissible []string
	}{
		{"§3.8.1 le joker qui ne revient pas est refusé", joker, "CEEIOU", []movegen.Move{bak, bac}, "BAk", CodeJokerNotKept, []string{"BAc"}},
		{"§3.8.1 le joker qui revient est retenu", joker, "CEEIOU", []movegen.Move{bak, bac}, "BAc", "", []string{"BAc"}},
		{"§3.8.1 aucun top ne le fait revenir : tous admis", joker, "EEIOU", []movegen.Move{bak, bac}, "BAk", "", []string{"BAk", "BAc"}},
		{"§3.4 un top sans joker passe avant le joker qui revient", joker, "CEEIOU", []movegen.Move{bac, bad}, "BAc", CodeJokerTopRefused, []string{"BAD"}},
		{"§3.8.1 en partie normale le joker n'est jamais remplacé : tous admis", configDirecteur, "CEEIOU", []movegen.Move{bak, bac}, "BAk", "", []string{"BAk", "BAc"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := fixe(t, tt.tops...)
			p := nouvellePartie(t, tt.cfg, m)
			etat(t, p, 5, "ABDEFG?", tt.sac)
			var admis []string
			for _, s := range p.Solutions() {
				if s.Admissible {
					admis = append(admis, s.Move.WordString())
				}
			}
			assert.Equal(t, tt.admissible, admis)
			if tt.code != "" {
				refuse(t, p, tt.code, func() error { return p.RetenirTop("H8", tt.mot) })
				return
			}
			require.NoError(t, p.RetenirTop("H8", tt.mot))
			top, ok := p.Top(5)
			require.True(t, ok)
			assert.Equal(t, tt.cfg.Formule == FormuleJoker && tt.mot == "BAc", top.JokerRemplace)
		})
	}
}

// TestGuide2_17_FeuilleChargeeUneFois (issue 29 item 8): a pre-drawn game
// loads its sheet once, checked whole, before its first tirage; from then
// on each tirage is the sheet's line, drawn without typing letters, the
// reliquat rules applied (a different top makes the sheet inapplicable).
func TestGuide2_17_FeuilleChargeeUneFois(t *testing.T) {
	f, err := LireFeuille([]byte("1 +ABCDEF? H8 BAC 14\n2 DEF?+GHI\n"))
	require.NoError(t, err)
	cfg := Config{TempsParCoup: 3 * time.Minute, Source: SourcePretiree}

	directeur := nouvellePartie(t, configDirecteur, fixe(t, coup(t, "H8", "BAC", 14)))
	refuse(t, directeur, CodeInvalidTirage, func() error { return directeur.ChargerFeuille(f) })

	p := nouvellePartie(t, cfg, fixe(t, coup(t, "H8", "BAC", 14)))
	refuse(t, p, CodeInvalidTirage, func() error { return p.ChargerFeuille(Feuille{}) })
	require.NoError(t, p.ChargerFeuille(f))
	assert.Equal(t, []any{FeuillePretireeChargee{Coups: f.Coups}}, vider(p))
	refuse(t, p, CodeWrongState, func() error { return p.ChargerFeuille(f) })
	refuse(t, p, CodeInvalidTirage, func() error { return p.Tirer("ABCDEF?") })

	require.NoError(t, p.Tirer(""))
	assert.Equal(t, []any{TirageEffectue{Coup: 1, Tirees: "ABCDEF?", Source: SourcePretiree}}, vider(p), "the sheet's line, in its order")
	require.NoError(t, p.RetenirTop("H8", "BAC"))
	require.NoError(t, p.Tirer(""))
	r := p.Rack()
	assert.Equal(t, "DEFGHI?", r.String(), "coup 2: the sheet's reliquat and new letters")

	q := nouvellePartie(t, cfg, fixe(t, coup(t, "H8", "BAC", 14)))
	require.NoError(t, q.Tirer("ABCDEF?"), "without a sheet, the letters are typed as before")
	vider(q)
	refuse(t, q, CodeWrongState, func() error { return q.ChargerFeuille(f) })
}

// TestRetirerJoueur_Paragraphe6_2_AjouteParErreur (issue 31 item 4): a
// player added late by mistake is withdrawn with the reason, as an event;
// replayed, the game no longer has him. Only a late arrival with nothing of
// his recorded, while the results are open.
func TestRetirerJoueur_Paragraphe6_2_AjouteParErreur(t *testing.T) {
	p := nouvellePartie(t, configDirecteur, fixe(t, coup(t, "H8", "BAC", 14), coup(t, "I8", "DE", 14)))
	require.NoError(t, p.Tirer("ABCDEF?"))
	require.NoError(t, p.ArriveeEnRetard("L9"))
	refuse(t, p, CodeInvalidConfig, func() error { return p.RetirerJoueur("L9", " ") })
	refuse(t, p, CodeWrongState, func() error { return p.RetirerJoueur("L1", "erreur") })
	refuse(t, p, CodeUnknownPlayer, func() error { return p.RetirerJoueur("L7", "erreur") })
	require.NoError(t, p.RetirerJoueur("L9", "licence mal tapée"))
	retrait := vider(p)
	assert.Equal(t, []any{JoueurRetire{Licence: "L9", Motif: "licence mal tapée"}}, retrait)
	assert.NotContains(t, p.Joueurs(), "L9")
	assert.Error(t, p.Copie().Apply(JoueurRetire{Licence: "L1", Motif: "erreur"}), "replayed, a player of the creation is never withdrawn")

	// Added again: once a bulletin of his is typed, he stays.
	require.NoError(t, p.ArriveeEnRetard("L9"))
	require.NoError(t, p.RetenirTop("H8", "BAC"))
	require.NoError(t, p.Tirer("GHI"))
	require.NoError(t, p.DeposerBulletin(BulletinDepose{Coup: 2, Licence: "L9", Bulletin: correction.Bulletin{Blank: true}}))
	refuse(t, p, CodeWrongState, func() error { return p.RetirerJoueur("L9", "erreur") })
}
