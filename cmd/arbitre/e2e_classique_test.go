package main

import (
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

type apiTableClassique struct {
	Numero          int
	Premier, Second string
	Match           *string
	Resultat        *struct {
		Joueurs       []string
		Fin           string
		Scores        []int
		PointsDeMatch []int
	}
}

type apiTournoiClassique struct {
	Version  int
	Publiees []struct {
		Ronde   int
		Tables  []apiTableClassique
		Exempt  *string
		Amendee bool
	}
	Classement []struct {
		Rang          int
		Joueur        string
		PointsDeMatch int
		Exempts       int
	}
	Proposition *struct {
		Methode    string
		Tables     []apiTableClassique
		Exempt     *string
		Amendement *struct {
			Tables []apiTableClassique
			Exempt *string
			Motif  string
		}
	}
	Clos bool
}

type apiMatch struct {
	Version   int
	Phase     string
	Joueurs   []string
	Trait     int
	TirageDu  *int
	Scores    []int
	Grille    []string
	Chevalets []string
	Journal   []struct{ Genre string }
	Fin       *struct {
		Fin           string
		Scores        []int
		PointsDeMatch []int
	}
	Feuille *struct{ Scores []int }
}

const (
	tournoiClassiqueFields = `version clos
		publiees { ronde exempt amendee tables { numero premier second match resultat { joueurs fin scores pointsDeMatch } } }
		classement { rang joueur pointsDeMatch exempts }`
	propositionFields = `proposition { methode exempt tables { numero premier second } amendement { exempt motif tables { numero premier second } } }`
	matchFields       = `version phase joueurs trait tirageDu scores grille chevalets journal { genre } fin { fin scores pointsDeMatch } feuille { scores }`
)

func ligneClassique(t apiTournoiClassique, joueur string) (pm, exempts int) {
	for _, l := range t.Classement {
		if l.Joueur == joueur {
			return l.PointsDeMatch, l.Exempts
		}
	}
	return -1, -1
}

// A classique round driven only through the API by the director, the
// arbiters of two tables and the public: registration with cotes, seeding,
// the software's proposal amended by the director (both kept), publication,
// matches played and signed at their tables (real moves found with the
// engine, an agreed abandon, a forfeit), results, standings live on a
// display, closing and cotes. Forbidden actions are refused and change
// nothing, retries are applied once, stale writers get CONFLICT.
func TestE2EClassiqueRoundByRoles(t *testing.T) {
	data := t.TempDir()
	director := apiToken(t, data, "--role", "director")
	arbiterA := apiToken(t, data, "--role", "arbiter", "--tables", "1-1", "--tournoi", "C1")
	arbiterB := apiToken(t, data, "--role", "arbiter", "--tables", "2-3", "--tournoi", "C1")
	s := startAPIServer(t, data)
	defer s.stop()

	open := `mutation { ouvrirTournoiClassique(id:"C1", nom:"Open classique", rondes:1, clientMutationId:"ouvrir-C1") { version } }`
	assert.Equal(t, "UNAUTHENTICATED", s.gql("", open, nil).code())
	assert.Equal(t, "FORBIDDEN", s.gql(arbiterA, open, nil).code())
	var tr apiTournoiClassique
	s.gql(director, open, nil).into(t, "ouvrirTournoiClassique", &tr)
	s.gql(director, open, nil).into(t, "ouvrirTournoiClassique", &tr)
	assert.Equal(t, 1, tr.Version, "a retried opening is applied once")

	display := s.subscribe("", `subscription { rondeChangee(tournoi:"C1") { `+tournoiClassiqueFields+` } }`, nil)
	var shown apiTournoiClassique
	display.next(t, "rondeChangee", &shown)
	assert.Empty(t, shown.Publiees)

	inscrire := `mutation($j: ID!, $n: String!, $c: Int, $id: String) { inscrireClassique(tournoi:"C1", joueur:$j, nom:$n, cote:$c, clientMutationId:$id) { version } }`
	for i, c := range []int{1500, 1400, 1200, 900, 0} {
		vars := map[string]any{"j": fmt.Sprintf("P%d", i+1), "n": fmt.Sprintf("Joueur %d", i+1), "c": c, "id": fmt.Sprintf("inscrire-%d", i+1)}
		s.gql(director, inscrire, vars).into(t, "inscrireClassique", &tr)
		if i == 0 {
			s.gql(director, inscrire, vars).into(t, "inscrireClassique", &tr)
			assert.Equal(t, 2, tr.Version, "a retried registration is applied once")
		}
	}
	assert.Equal(t, 6, tr.Version)
	s.gql(director, `mutation { etablirTetesDeSerie(tournoi:"C1", version:6) { version } }`, nil).into(t, "etablirTetesDeSerie", &tr)

	// The arbiters and the public do not pair rounds.
	propose := `mutation { proposerRonde(tournoi:"C1", methode:initial_by_cote) { version } }`
	assert.Equal(t, "FORBIDDEN", s.gql(arbiterA, propose, nil).code())
	assert.Equal(t, "UNAUTHENTICATED", s.gql("", propose, nil).code())
	s.gql(director, `mutation { proposerRonde(tournoi:"C1", methode:initial_by_cote) { version `+propositionFields+` } }`, nil).
		into(t, "proposerRonde", &tr)
	require.NotNil(t, tr.Proposition)
	prop := tr.Proposition
	require.Len(t, prop.Tables, 2)
	require.NotNil(t, prop.Exempt)
	assert.Equal(t, "P5", *prop.Exempt, "the lowest cote gets the bye")
	assert.Equal(t, "UNAUTHENTICATED", s.gql("", `{ tournoiClassique(id:"C1") { `+propositionFields+` } }`, nil).code(),
		"the proposal is unpublished")

	// The director amends: he swaps the second players of the two tables.
	amended := []map[string]any{
		{"premier": prop.Tables[0].Premier, "second": prop.Tables[1].Second},
		{"premier": prop.Tables[1].Premier, "second": prop.Tables[0].Second},
	}
	amend := `mutation($t: [TableAmendeeInput!]!, $v: Int) { amenderRonde(tournoi:"C1", tables:$t, exempt:"P5", motif:"joueurs du même club", version:$v) { version ` + propositionFields + ` } }`
	stale := s.gql(director, amend, map[string]any{"t": amended, "v": 1})
	require.Equal(t, "CONFLICT", stale.code())
	assert.EqualValues(t, tr.Version, stale.Errors[0].Extensions["version"])
	s.gql(director, amend, map[string]any{"t": amended, "v": tr.Version}).into(t, "amenderRonde", &tr)
	require.NotNil(t, tr.Proposition.Amendement)
	assert.Equal(t, prop.Tables, tr.Proposition.Tables, "the proposal is kept beside the amendment")
	assert.Equal(t, amended[0]["second"], tr.Proposition.Amendement.Tables[0].Second)

	s.gql(director, `mutation { publierRonde(tournoi:"C1") { `+tournoiClassiqueFields+` } }`, nil).into(t, "publierRonde", &tr)
	require.Len(t, tr.Publiees, 1)
	ronde := tr.Publiees[0]
	assert.True(t, ronde.Amendee)
	require.Len(t, ronde.Tables, 2)
	t1, t2 := ronde.Tables[0], ronde.Tables[1]
	assert.Equal(t, amended[0]["second"], t1.Second)
	require.NotNil(t, t1.Match)
	require.NotNil(t, t2.Match)
	var affichage derniereErreur
	require.Eventually(t, func() bool {
		return affichage.ok(display.suivant("rondeChangee", &shown)) && len(shown.Publiees) == 1
	}, 5*time.Second, time.Millisecond, "the display shows the pairings (%s)", &affichage)

	// The director creates the matches; the arbiters play them.
	creer := `mutation($m: ID!) { creerMatch(tournoi:"C1", match:$m) { ` + matchFields + ` } }`
	assert.Equal(t, "FORBIDDEN", s.gql(arbiterA, creer, map[string]any{"m": *t1.Match}).code())
	var m1, m2 apiMatch
	s.gql(director, creer, map[string]any{"m": *t1.Match}).into(t, "creerMatch", &m1)
	s.gql(director, creer, map[string]any{"m": *t2.Match}).into(t, "creerMatch", &m2)
	assert.Equal(t, "tirage_initial", m1.Phase)
	assert.Equal(t, []string{t1.Premier, t1.Second}, m1.Joueurs)

	// Table 1: the electronic bag draws both racks, then the first player
	// plays the engine's top (or changes his letters when there is none).
	tirer := `mutation($m: ID!, $j: ID!, $id: String) { tirerLettres(match:$m, joueur:$j, clientMutationId:$id) { ` + matchFields + ` } }`
	s.gql(arbiterA, tirer, map[string]any{"m": *t1.Match, "j": t1.Premier, "id": "tirage-1"}).into(t, "tirerLettres", &m1)
	var retried apiMatch
	s.gql(arbiterA, tirer, map[string]any{"m": *t1.Match, "j": t1.Premier, "id": "tirage-1"}).into(t, "tirerLettres", &retried)
	assert.Equal(t, m1, retried, "a retried draw is applied once")
	s.gql(arbiterA, tirer, map[string]any{"m": *t1.Match, "j": t1.Second}).into(t, "tirerLettres", &m1)
	assert.Equal(t, "en_cours", m1.Phase)
	require.Len(t, m1.Chevalets, 2, "the arbiter of the table sees the racks")

	var public apiMatch
	s.gql("", `{ matchClassique(id:"`+*t1.Match+`") { `+matchFields+` } }`, nil).into(t, "matchClassique", &public)
	assert.Nil(t, public.Chevalets, "the racks are private while the game is played")
	assert.Equal(t, "UNAUTHENTICATED", s.gql("", `{ gcg(match:"`+*t1.Match+`") }`, nil).code())

	placer := `mutation($m: ID!, $j: ID!, $r: String!, $w: String!) { placerMot(match:$m, joueur:$j, reference:$r, mot:$w) { ` + matchFields + ` } }`
	assert.Equal(t, "FORBIDDEN", s.gql(arbiterB, placer, map[string]any{"m": *t1.Match, "j": t1.Premier, "r": "H8", "w": "LE"}).code(),
		"an arbiter acts on his own tables only")
	var sol struct {
		Tops []struct{ Mot, Reference string }
	}
	s.gql(director, `query($p: PositionInput!) { resoudre(position:$p) { tops { mot reference } } }`,
		map[string]any{"p": map[string]any{"grille": m1.Grille, "tirage": m1.Chevalets[0]}}).into(t, "resoudre", &sol)
	// The bag's draws are seeded (e2eGraine): the same path on every run,
	// a word placed, letters drawn, an exchange and a pass.
	require.NotEmpty(t, sol.Tops, "the seeded rack %s makes a word", m1.Chevalets[0])
	s.gql(arbiterA, placer, map[string]any{"m": *t1.Match, "j": t1.Premier, "r": sol.Tops[0].Reference, "w": sol.Tops[0].Mot}).into(t, "placerMot", &m1)
	assert.Positive(t, m1.Scores[0])
	require.NotNil(t, m1.TirageDu)
	s.gql(arbiterA, tirer, map[string]any{"m": *t1.Match, "j": t1.Premier}).into(t, "tirerLettres", &m1)
	rejetees := m1.Chevalets[1]
	s.gql(arbiterA, `mutation($m: ID!, $j: ID!, $r: String!) { echanger(match:$m, joueur:$j, rejetees:$r) { `+matchFields+` } }`,
		map[string]any{"m": *t1.Match, "j": t1.Second, "r": rejetees}).into(t, "echanger", &m1)
	assert.Equal(t, "echange", m1.Journal[len(m1.Journal)-1].Genre)
	assert.Equal(t, 0, m1.Trait)
	s.gql(arbiterA, `mutation($m: ID!, $j: ID!) { passer(match:$m, joueur:$j) { `+matchFields+` } }`,
		map[string]any{"m": *t1.Match, "j": t1.Premier}).into(t, "passer", &m1)
	assert.Equal(t, 1, m1.Trait)
	// The second player abandons, his opponent agrees (§9: 450–350 at most).
	s.gql(arbiterA, `mutation($m: ID!, $j: ID!) { demanderAbandon(match:$m, joueur:$j) { version } }`,
		map[string]any{"m": *t1.Match, "j": t1.Second}).into(t, "demanderAbandon", &m1)
	s.gql(arbiterA, `mutation($m: ID!, $j: ID!) { repondreAbandon(match:$m, joueur:$j, accepte:true) { `+matchFields+` } }`,
		map[string]any{"m": *t1.Match, "j": t1.Premier}).into(t, "repondreAbandon", &m1)
	assert.Equal(t, "terminee", m1.Phase)
	require.NotNil(t, m1.Fin)
	assert.Equal(t, "abandon", m1.Fin.Fin)
	assert.Equal(t, []int{3, 1}, m1.Fin.PointsDeMatch)

	// The result counts once both players signed the sheet.
	record := `mutation($m: ID!) { enregistrerResultat(tournoi:"C1", match:$m) { ` + tournoiClassiqueFields + ` } }`
	assert.Equal(t, "INVALID_INPUT", s.gql(director, record, map[string]any{"m": *t1.Match}).code(), "not signed yet")
	sign := `mutation($m: ID!, $j: ID!, $s: [Int!]!, $id: String) { signerFeuille(match:$m, joueur:$j, scores:$s, clientMutationId:$id) { ` + matchFields + ` } }`
	s.gql(arbiterA, sign, map[string]any{"m": *t1.Match, "j": t1.Premier, "s": m1.Fin.Scores, "id": "signe-1"}).into(t, "signerFeuille", &m1)
	s.gql(arbiterA, sign, map[string]any{"m": *t1.Match, "j": t1.Premier, "s": m1.Fin.Scores, "id": "signe-1"}).into(t, "signerFeuille", &retried)
	assert.Equal(t, m1.Version, retried.Version, "a retried signature is applied once")
	res := s.gql(arbiterA, sign, map[string]any{"m": *t1.Match, "j": t1.Premier, "s": m1.Fin.Scores})
	assert.Equal(t, "INVALID_SHEET", res.code(), "a second signature by the same player is refused")
	s.gql(arbiterA, sign, map[string]any{"m": *t1.Match, "j": t1.Second, "s": m1.Fin.Scores}).into(t, "signerFeuille", &m1)
	assert.Equal(t, "validee", m1.Phase)
	require.NotNil(t, m1.Feuille)

	s.gql("", `{ matchClassique(id:"`+*t1.Match+`") { `+matchFields+` } }`, nil).into(t, "matchClassique", &public)
	assert.Len(t, public.Chevalets, 2, "public once the game is over")
	var export string
	s.gql("", `{ gcg(match:"`+*t1.Match+`") }`, nil).into(t, "gcg", &export)
	assert.Contains(t, export, "#tile-distribution french")
	assert.Contains(t, export, "; fin abandon accepté, table d'abandon (§9)")

	// Table 2: the second player is absent; his arbiter declares the forfeit.
	forfait := `mutation($m: ID!, $j: ID!) { declarerForfait(match:$m, joueur:$j) { ` + matchFields + ` } }`
	assert.Equal(t, "FORBIDDEN", s.gql(arbiterA, forfait, map[string]any{"m": *t2.Match, "j": t2.Second}).code())
	assert.Equal(t, "UNAUTHENTICATED", s.gql("", forfait, map[string]any{"m": *t2.Match, "j": t2.Second}).code())
	s.gql("", `{ matchClassique(id:"`+*t2.Match+`") { `+matchFields+` } }`, nil).into(t, "matchClassique", &public)
	assert.Equal(t, m2.Version, public.Version, "refused actions changed nothing")
	s.gql(arbiterB, forfait, map[string]any{"m": *t2.Match, "j": t2.Second}).into(t, "declarerForfait", &m2)
	assert.Equal(t, "validee", m2.Phase, "the arbiter's entry is the sheet")

	// The director records both results; standings and the display follow.
	assert.Equal(t, "FORBIDDEN", s.gql(arbiterA, record, map[string]any{"m": *t1.Match}).code())
	s.gql(director, record, map[string]any{"m": *t1.Match}).into(t, "enregistrerResultat", &tr)
	s.gql(director, record, map[string]any{"m": *t2.Match}).into(t, "enregistrerResultat", &tr)
	assert.Equal(t, "INVALID_RESULT", s.gql(director, record, map[string]any{"m": *t2.Match}).code(), "a result is recorded once")
	for joueur, want := range map[string]int{t1.Premier: 3, t1.Second: 1, t2.Premier: 3, t2.Second: 0, "P5": 3} {
		pm, _ := ligneClassique(tr, joueur)
		assert.Equal(t, want, pm, "points de match of %s", joueur)
	}
	_, exempts := ligneClassique(tr, "P5")
	assert.Equal(t, 1, exempts)
	require.NotNil(t, tr.Publiees[0].Tables[0].Resultat)
	assert.Equal(t, "abandon", tr.Publiees[0].Tables[0].Resultat.Fin)
	assert.Equal(t, "forfait", tr.Publiees[0].Tables[1].Resultat.Fin)
	require.Eventually(t, func() bool {
		return affichage.ok(display.suivant("rondeChangee", &shown)) && len(shown.Publiees) == 1 && shown.Publiees[0].Tables[1].Resultat != nil
	}, 5*time.Second, time.Millisecond, "the display shows the results (%s)", &affichage)
	assert.Equal(t, tr.Classement, shown.Classement, "and the standings")

	// Closing rates the games played (not the forfeit) into the cotes.
	s.gql(director, `mutation { cloreTournoiClassique(tournoi:"C1") { `+tournoiClassiqueFields+` } }`, nil).into(t, "cloreTournoiClassique", &tr)
	assert.True(t, tr.Clos)
	var cotes []struct {
		Joueur    string
		Cote      int
		Serie     string
		Politique string
	}
	var vue derniereErreur
	require.Eventually(t, func() bool {
		return vue.ok(s.gql("", `{ cotes { joueur cote serie politique } }`, nil).lire("cotes", &cotes)) && len(cotes) == 2
	}, 5*time.Second, 10*time.Millisecond, "both players rated (%s)", &vue)
	rated := []string{cotes[0].Joueur, cotes[1].Joueur}
	assert.ElementsMatch(t, []string{t1.Premier, t1.Second}, rated)
	assert.NotEmpty(t, cotes[0].Serie)
	assert.NotEmpty(t, cotes[0].Politique)

	// The archive: the played game in both players' history, head-to-head
	// and the cote over time.
	var player struct {
		Cotes []struct {
			Tournoi      string
			Avant, Apres int
		}
		FaceAFace  struct{ Parties, Victoires, Nuls, Defaites int }
		Historique struct {
			Edges []struct {
				Node struct {
					Partie        string
					Adversaire    *string
					PointsDeMatch *int
				}
			}
		}
	}
	require.Eventually(t, func() bool {
		return vue.ok(s.gql("", `query($j: ID!, $a: ID!) { joueur(id: $j) { cotes { tournoi avant apres } faceAFace(adversaire: $a) { parties victoires nuls defaites }
			historique { edges { node { partie adversaire pointsDeMatch } } } } }`,
			map[string]any{"j": t1.Premier, "a": t1.Second}).lire("joueur", &player)) && len(player.Cotes) == 1
	}, 5*time.Second, 10*time.Millisecond, "the first player's cote in the archive (%s)", &vue)
	assert.Equal(t, "C1", player.Cotes[0].Tournoi)
	assert.Equal(t, cotes[slices.Index(rated, t1.Premier)].Cote, player.Cotes[0].Apres)
	assert.Equal(t, 1, player.FaceAFace.Parties)
	assert.Equal(t, 1, player.FaceAFace.Victoires+player.FaceAFace.Nuls+player.FaceAFace.Defaites)
	require.NotEmpty(t, player.Historique.Edges)
	assert.Equal(t, t1.Second, *player.Historique.Edges[0].Node.Adversaire)
}
