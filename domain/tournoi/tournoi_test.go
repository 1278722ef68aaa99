package tournoi

import (
	"arbitre/domain/duplicate"
	"arbitre/domain/erreur"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestTournoi(t *testing.T) {
	tr := Nouveau()
	require.NoError(t, tr.Creer("t1", "Festival", true))
	require.NoError(t, tr.Inscrire(Joueur{Licence: "1", Nom: "Dupont", Serie: "1"}))
	require.NoError(t, tr.AjouterPartie("t1-1"))
	tests := []struct {
		name string
		f    func() error
		code erreur.Code
	}{
		{"licence en double", func() error { return tr.Inscrire(Joueur{Licence: "1", Nom: "X"}) }, "INVALID_PLAYER"},
		{"joueur sans nom", func() error { return tr.Inscrire(Joueur{Licence: "2"}) }, "INVALID_PLAYER"},
		{"partie en double", func() error { return tr.AjouterPartie("t1-1") }, erreur.CodeAlreadyExists},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v := tr.Version()
			err := tt.f()
			var e *erreur.Erreur
			require.ErrorAs(t, err, &e)
			assert.Equal(t, tt.code, e.Code)
			assert.Equal(t, v, tr.Version())
		})
	}
	replay := Nouveau()
	for _, e := range tr.Pending() {
		require.NoError(t, replay.Apply(e))
	}
	assert.Equal(t, tr.Joueurs(), replay.Joueurs())
	assert.Equal(t, []string{"t1-1"}, replay.Parties())
}

// TestArt6_1_ExclusionChoixDuDirecteur: the exclusion records the director's
// choice to annul the player's earlier games (2020 §6.1); an event recorded
// before the choice existed reads as not annulling them.
func TestArt6_1_ExclusionChoixDuDirecteur(t *testing.T) {
	for _, annuler := range []bool{false, true} {
		tr := Nouveau()
		require.NoError(t, tr.Creer("t1", "Festival", true))
		require.NoError(t, tr.Inscrire(Joueur{Licence: "A", Nom: "A"}))
		require.NoError(t, tr.Exclure("A", "t1-2", "fraude avérée", annuler))
		nouveaux := tr.Pending()
		assert.Equal(t, JoueurExclu{Licence: "A", Partie: "t1-2", Motif: "fraude avérée", AnnulerParties: annuler},
			nouveaux[len(nouveaux)-1])
	}
	var ancien JoueurExclu
	require.NoError(t, json.Unmarshal([]byte(`{"licence":"A","partie":"t1-2","motif":"fraude avérée"}`), &ancien))
	assert.False(t, ancien.AnnulerParties)
	b, err := json.Marshal(ancien)
	require.NoError(t, err)
	assert.JSONEq(t, `{"licence":"A","partie":"t1-2","motif":"fraude avérée"}`, string(b), "omitted when false")
}

// TestInscrireTous_ListeToutOuRien: a pasted list is registered all or
// nothing; one refusal names every bad line (no name, a table out of range,
// a licence already registered or twice in the list) and registers nobody.
func TestInscrireTous_ListeToutOuRien(t *testing.T) {
	ouvert := func(t *testing.T) *Tournoi {
		tr := Nouveau()
		require.NoError(t, tr.Creer("t1", "Open", true))
		require.NoError(t, tr.Inscrire(Joueur{Licence: "1", Nom: "A", Table: 1}))
		tr.MarkSaved()
		return tr
	}
	tests := []struct {
		name   string
		liste  []Joueur
		lignes []string
	}{
		{"liste vide", nil, []string{"la liste des joueurs est vide"}},
		{"nom manquant et table hors limites", []Joueur{{Licence: "2", Nom: "B"}, {Licence: "3"}, {Licence: "4", Nom: "D", Table: 1001}},
			[]string{"ligne 2 : un joueur a une licence et un nom", "ligne 3 : la table 1001 n'est pas entre 1 et 1000"}},
		{"licence déjà inscrite ou en double", []Joueur{{Licence: "1", Nom: "A"}, {Licence: "5", Nom: "E"}, {Licence: "5", Nom: "F"}},
			[]string{"ligne 1 : la licence 1 est déjà inscrite", "ligne 3 : la licence 5 est déjà en ligne 2"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tr, temoin := ouvert(t), ouvert(t)
			err := tr.InscrireTous(tt.liste)
			var e *erreur.Erreur
			require.ErrorAs(t, err, &e)
			assert.Equal(t, CodeInvalidPlayer, e.Code)
			for _, l := range tt.lignes {
				assert.Contains(t, e.Message, l)
			}
			assert.Equal(t, temoin, tr, "nobody registered")
		})
	}
	tr := ouvert(t)
	require.NoError(t, tr.InscrireTous([]Joueur{{Licence: "2", Nom: "B", Table: 2}, {Licence: "3", Nom: "C", Club: "Vichy", Serie: "A", Table: 3}}))
	assert.Len(t, tr.Pending(), 2)
	assert.Equal(t, []string{"1", "2", "3"}, tr.Participants())
}

// TestSecurite_ExigerJoueur (issue 28 item 12): who may join one of the
// tournament's games, a late arrival included (§6.2): a registered player,
// not a licence of another tournament nor an excluded player (§6.1).
func TestSecurite_ExigerJoueur(t *testing.T) {
	tr := Nouveau()
	require.NoError(t, tr.Creer("t1", "Festival", true))
	for _, l := range []string{"A", "B"} {
		require.NoError(t, tr.Inscrire(Joueur{Licence: l, Nom: l}))
	}
	require.NoError(t, tr.Exclure("B", "t1-1", "fraude avérée", false))
	for licence, code := range map[string]erreur.Code{"A": "", "B": CodeExcluded, "Z": CodeUnknownPlayer, "": CodeUnknownPlayer} {
		assert.Equal(t, code, erreur.CodeOf(tr.ExigerJoueur(licence)), "licence %q", licence)
	}
}

// TestGuide2_1_GraineDeTestRefuseeEnTournoiHomologue (issue 28 item 2):
// whoever knows a test seed foresees every tirage, so a rated (homologué)
// tournament refuses it. A tournament is rated unless the director
// declares it friendly or test, and one created before the choice existed
// reads as rated.
func TestGuide2_1_GraineDeTestRefuseeEnTournoiHomologue(t *testing.T) {
	graine := uint64(7)
	logiciel := duplicate.Config{Source: duplicate.SourceLogiciel}
	deTest := duplicate.Config{Source: duplicate.SourceLogiciel, GraineTest: &graine}
	tests := []struct {
		name      string
		homologue bool
		cfg       duplicate.Config
		code      erreur.Code
	}{
		{"homologué, graine de test", true, deTest, CodeGraineTestRefusee},
		{"homologué, tirage par logiciel sans graine", true, logiciel, ""},
		{"homologué, tirage par le juge-arbitre", true, duplicate.Config{Source: duplicate.SourceDirecteur}, ""},
		{"amical, graine de test", false, deTest, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tr := Nouveau()
			require.NoError(t, tr.Creer("t1", "Open", tt.homologue))
			assert.Equal(t, tt.homologue, tr.Homologue())
			err := tr.ExigerTirage(tt.cfg)
			if tt.code == "" {
				assert.NoError(t, err)
				return
			}
			var e *erreur.Erreur
			require.ErrorAs(t, err, &e)
			assert.Equal(t, tt.code, e.Code)
			assert.Contains(t, e.Message, "homologué")
		})
	}
	var ancien TournoiCree
	require.NoError(t, json.Unmarshal([]byte(`{"tournoi":"t1","nom":"Open"}`), &ancien))
	tr := Nouveau()
	require.NoError(t, tr.Apply(ancien))
	assert.True(t, tr.Homologue(), "a tournament created before the choice is rated")
}
