package main

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// apiMatchCouverture is a match as the arbiter of its table sees it.
type apiMatchCouverture struct {
	Version      int
	Phase        string
	Joueurs      []string
	Trait        int
	TirageDu     *int
	Sac          int
	Chevalets    []string
	Passes       int
	FinEnAttente bool
	TempsEpuise  []bool
	Scores       []int
	Contestable  *struct {
		Joueur int
		Mots   []string
	}
	Fin *struct {
		Fin    string
		Joueur int
		Scores []int
	}
	Feuille *struct {
		Fin    string
		Scores []int
	}
	Journal []struct{ Genre string }
}

const matchCouvertureFields = `version phase joueurs trait tirageDu sac chevalets passes finEnAttente tempsEpuise scores
	contestable { joueur mots } fin { fin joueur scores } feuille { fin scores } journal { genre }`

// coupsJusquAuSacVide plays the rack of the player to play, seven letters
// on a fresh row each time (the words need not be in the lexicon: they
// stand unless contested, §5.4), and draws again, until the bag is empty.
// It returns the match, the opponent of the last drawer to play with seven
// letters, and the next free row.
func coupsJusquAuSacVide(t *testing.T, s *apiServer, jeton, match string, m apiMatchCouverture) (apiMatchCouverture, string) {
	t.Helper()
	rangees := "HIJKLMNOGFEDCBA"
	for i := 0; m.Sac > 0; i++ {
		require.Less(t, i, len(rangees)-1, "the bag empties within %d coups", len(rangees)-1)
		j := m.Trait
		require.Len(t, m.Chevalets[j], 7)
		s.gql(jeton, `mutation($m: ID!, $j: ID!, $r: String!, $w: String!) { placerMot(match:$m, joueur:$j, reference:$r, mot:$w) { `+matchCouvertureFields+` } }`,
			map[string]any{"m": match, "j": m.Joueurs[j], "r": rangees[i:i+1] + "2", "w": strings.ReplaceAll(m.Chevalets[j], "?", "e")}).
			into(t, "placerMot", &m)
		s.gql(jeton, `mutation($m: ID!, $j: ID!) { tirerLettres(match:$m, joueur:$j) { `+matchCouvertureFields+` } }`,
			map[string]any{"m": match, "j": m.Joueurs[j]}).into(t, "tirerLettres", &m)
		if m.Sac == 0 {
			return m, rangees[i+1 : i+2]
		}
	}
	return m, ""
}

// The classique commands no other test runs (contester, echanger with the
// letters chosen, penaliser, declarerTempsEpuise, trancherDesaccord,
// constaterAbandon, declarerDefaite, constaterBlocage, cloturerMatch,
// retirerJoueurClassique) and the live match (matchChange), each with its
// refusals over HTTP and the websocket: anonymous → UNAUTHENTICATED, wrong
// role → FORBIDDEN, another tournament's token → FORBIDDEN, an arbiter of
// other tables → FORBIDDEN, bad input → its code; a refused command changes
// nothing.
func TestE2ECouvertureClassique(t *testing.T) {
	data := t.TempDir()
	director := apiToken(t, data, "--role", "director")
	directorC2 := apiToken(t, data, "--role", "director", "--tournoi", "C2")
	arbiter1 := apiToken(t, data, "--role", "arbiter", "--tables", "1-1", "--tournoi", "C1")
	arbiterAutres := apiToken(t, data, "--role", "arbiter", "--tables", "2-5", "--tournoi", "C1")
	arbiterC2 := apiToken(t, data, "--role", "arbiter", "--tables", "1-5", "--tournoi", "C2")
	commission := apiToken(t, data, "--role", "commission", "--tournoi", "C1")
	s := startAPIServer(t, data)
	defer s.stop()

	var tr apiTournoiClassique
	s.gql(director, `mutation { ouvrirTournoiClassique(id:"C1", nom:"Open classique", rondes:1) { version } }`, nil).into(t, "ouvrirTournoiClassique", &tr)
	for i := 1; i <= 10; i++ {
		s.gql(director, `mutation($j: ID!, $n: String!, $c: Int) { inscrireClassique(tournoi:"C1", joueur:$j, nom:$n, cote:$c) { version } }`,
			map[string]any{"j": fmt.Sprintf("P%d", i), "n": fmt.Sprintf("Joueur %d", i), "c": 2000 - 100*i}).into(t, "inscrireClassique", &tr)
	}
	s.gql(director, `mutation { etablirTetesDeSerie(tournoi:"C1") { version } }`, nil).into(t, "etablirTetesDeSerie", &tr)
	s.gql(director, `mutation { proposerRonde(tournoi:"C1", methode:initial_by_cote) { version } }`, nil).into(t, "proposerRonde", &tr)
	s.gql(director, `mutation { publierRonde(tournoi:"C1") { `+tournoiClassiqueFields+` } }`, nil).into(t, "publierRonde", &tr)
	require.Len(t, tr.Publiees, 1)
	tables := tr.Publiees[0].Tables
	require.Len(t, tables, 5)
	matchs := make([]apiMatchCouverture, len(tables))
	for i, tb := range tables {
		require.Equal(t, i+1, tb.Numero)
		require.NotNil(t, tb.Match)
		s.gql(director, `mutation($m: ID!) { creerMatch(tournoi:"C1", match:$m) { `+matchCouvertureFields+` } }`,
			map[string]any{"m": *tb.Match}).into(t, "creerMatch", &matchs[i])
	}
	version := func(match string) func() int {
		return func() int {
			var v apiMatchCouverture
			s.gql(director, `query($m: ID!) { matchClassique(id:$m) { version } }`, map[string]any{"m": match}).into(t, "matchClassique", &v)
			return v.Version
		}
	}
	// arbitres lists who may not act on the match of a table: autreTable
	// is an arbiter of C1 whose tables do not include it.
	arbitres := func(autreTable string) []refusAttendu {
		return []refusAttendu{
			{"anonyme", "", "UNAUTHENTICATED"},
			{"commission", commission, "FORBIDDEN"},
			{"arbitre d'autres tables", autreTable, "FORBIDDEN"},
			{"arbitre d'un autre tournoi", arbiterC2, "FORBIDDEN"},
			{"directeur d'un autre tournoi", directorC2, "FORBIDDEN"},
		}
	}
	refuse := func(jeton, qui, code string) []refusAttendu { return []refusAttendu{{qui, jeton, code}} }
	sur := func(jeton, champ, query string, vars map[string]any) apiMatchCouverture {
		t.Helper()
		var m apiMatchCouverture
		s.gql(jeton, query, vars).into(t, champ, &m)
		return m
	}

	// Table 1, played with the letters the arbiter types, followed live.
	m1, id1 := matchs[0], *tables[0].Match
	live := s.subscribe("", `subscription($m: ID!) { matchChange(match:$m) { version phase scores } }`, map[string]any{"m": id1})
	var shown apiMatchCouverture
	live.next(t, "matchChange", &shown)
	assert.Equal(t, "tirage_initial", shown.Phase)
	assert.Equal(t, "NOT_FOUND", s.subscribe("", `subscription { matchChange(match:"inconnu") { version } }`, nil).refus(t))

	premier, second := m1.Joueurs[0], m1.Joueurs[1]
	tirer := `mutation($m: ID!, $j: ID!, $l: String) { tirerLettres(match:$m, joueur:$j, lettres:$l) { ` + matchCouvertureFields + ` } }`
	sur(arbiter1, "tirerLettres", tirer, map[string]any{"m": id1, "j": premier, "l": "BCDEEIL"})
	m1 = sur(arbiter1, "tirerLettres", tirer, map[string]any{"m": id1, "j": second, "l": "AEINRST"})
	require.Equal(t, "en_cours", m1.Phase)
	// DCB is no word: placed, it stands until contested (§5.4).
	m1 = sur(arbiter1, "placerMot", `mutation($m: ID!, $j: ID!) { placerMot(match:$m, joueur:$j, reference:"H8", mot:"DCB") { `+matchCouvertureFields+` } }`,
		map[string]any{"m": id1, "j": premier})
	require.NotNil(t, m1.Contestable)
	assert.Equal(t, []string{"DCB"}, m1.Contestable.Mots)
	require.Positive(t, m1.Scores[0])

	// §5 contester: the word is refused, the play withdrawn.
	contester := `mutation($m: ID!, $j: ID!, $w: [String!]!) { contester(match:$m, joueur:$j, mots:$w) { ` + matchCouvertureFields + ` } }`
	contest := map[string]any{"m": id1, "j": second, "w": []string{"DCB"}}
	s.exigerRefus(t, contester, contest, version(id1), arbitres(arbiterAutres))
	for _, tt := range []struct {
		name string
		vars map[string]any
		code string
	}{
		{"§5.2 sa propre pose", map[string]any{"m": id1, "j": premier, "w": []string{"DCB"}}, "NOTHING_TO_CONTEST"},
		{"§5.2 aucun mot", map[string]any{"m": id1, "j": second, "w": []string{}}, "INVALID_CONTEST"},
		{"§5.2 un mot non formé", map[string]any{"m": id1, "j": second, "w": []string{"ZOO"}}, "INVALID_CONTEST"},
		{"joueur inconnu", map[string]any{"m": id1, "j": "P99", "w": []string{"DCB"}}, "UNKNOWN_PLAYER"},
	} {
		s.exigerRefus(t, contester, tt.vars, version(id1), refuse(arbiter1, tt.name, tt.code))
	}
	m1 = sur(arbiter1, "contester", contester, contest)
	assert.Nil(t, m1.Contestable)
	assert.Equal(t, []int{0, 0}, m1.Scores, "§5.3 the play is withdrawn")
	assert.Equal(t, "BCDEEIL", m1.Chevalets[0], "the letters go back to the rack")
	assert.Equal(t, "retrait", m1.Journal[len(m1.Journal)-1].Genre)
	assert.Equal(t, 1, m1.Trait, "the turn is lost")

	// §4.3 echanger: the letters drawn are typed, so the exchange is exact.
	echanger := `mutation($m: ID!, $j: ID!, $r: String!, $t: String) { echanger(match:$m, joueur:$j, rejetees:$r, tirees:$t) { ` + matchCouvertureFields + ` } }`
	exchange := map[string]any{"m": id1, "j": second, "r": "AE", "t": "OU"}
	s.exigerRefus(t, echanger, exchange, version(id1), arbitres(arbiterAutres))
	for _, tt := range []struct {
		name string
		vars map[string]any
		code string
	}{
		{"pas son tour", map[string]any{"m": id1, "j": premier, "r": "B", "t": "O"}, "NOT_YOUR_TURN"},
		{"§4.3 lettres absentes du chevalet", map[string]any{"m": id1, "j": second, "r": "ZZ", "t": "OU"}, "EXCHANGE_REFUSED"},
		{"§4.3 n pour n", map[string]any{"m": id1, "j": second, "r": "AE", "t": "O"}, "EXCHANGE_REFUSED"},
		{"§4.3 au moins une lettre", map[string]any{"m": id1, "j": second, "r": "", "t": ""}, "EXCHANGE_REFUSED"},
	} {
		s.exigerRefus(t, echanger, tt.vars, version(id1), refuse(arbiter1, tt.name, tt.code))
	}
	m1 = sur(arbiter1, "echanger", echanger, exchange)
	assert.Equal(t, "INORSTU", m1.Chevalets[1])
	assert.Equal(t, "echange", m1.Journal[len(m1.Journal)-1].Genre)
	assert.Equal(t, 0, m1.Trait)

	// §8 penaliser: 5 points.
	penaliser := `mutation($m: ID!, $j: ID!, $motif: MotifPenalite!, $l: Int) { penaliser(match:$m, joueur:$j, motif:$motif, lettres:$l) { ` + matchCouvertureFields + ` } }`
	penalty := map[string]any{"m": id1, "j": premier, "motif": "arbitre"}
	s.exigerRefus(t, penaliser, penalty, version(id1), arbitres(arbiterAutres))
	for _, tt := range []struct {
		name string
		vars map[string]any
	}{
		{"lettres en trop sans lettres", map[string]any{"m": id1, "j": premier, "motif": "lettres_en_trop", "l": 0}},
		{"pénalité fixe comptée par lettre", map[string]any{"m": id1, "j": premier, "motif": "arbitre", "l": 2}},
	} {
		s.exigerRefus(t, penaliser, tt.vars, version(id1), refuse(arbiter1, tt.name, "INVALID_PENALTY"))
	}
	s.exigerRefus(t, penaliser, map[string]any{"m": id1, "j": premier, "motif": "humeur"}, version(id1), refuse(arbiter1, "motif inconnu", codeHorsEnum))
	m1 = sur(arbiter1, "penaliser", penaliser, penalty)
	assert.Equal(t, []int{-5, 0}, m1.Scores)

	// §6 §7 declarerTempsEpuise: both clocks out end the game.
	temps := `mutation($m: ID!, $j: ID!) { declarerTempsEpuise(match:$m, joueur:$j) { ` + matchCouvertureFields + ` } }`
	s.exigerRefus(t, temps, map[string]any{"m": id1, "j": premier}, version(id1), arbitres(arbiterAutres))
	m1 = sur(arbiter1, "declarerTempsEpuise", temps, map[string]any{"m": id1, "j": premier})
	assert.Equal(t, []bool{true, false}, m1.TempsEpuise)
	s.exigerRefus(t, temps, map[string]any{"m": id1, "j": premier}, version(id1), refuse(arbiter1, "déjà épuisé", "TIME_EXHAUSTED"))
	m1 = sur(arbiter1, "declarerTempsEpuise", temps, map[string]any{"m": id1, "j": second})
	assert.Equal(t, "terminee", m1.Phase)
	require.NotNil(t, m1.Fin)
	assert.Equal(t, "temps_epuise", m1.Fin.Fin)

	// §9 trancherDesaccord: the arbiter decides disputed totals.
	trancher := `mutation($m: ID!, $s: [Int!]!) { trancherDesaccord(match:$m, scores:$s) { ` + matchCouvertureFields + ` } }`
	decided := map[string]any{"m": id1, "s": m1.Fin.Scores}
	s.exigerRefus(t, trancher, decided, version(id1), refuse(arbiter1, "aucun désaccord", "INVALID_SHEET"))
	signer := `mutation($m: ID!, $j: ID!, $s: [Int!]!) { signerFeuille(match:$m, joueur:$j, scores:$s) { ` + matchCouvertureFields + ` } }`
	sur(arbiter1, "signerFeuille", signer, map[string]any{"m": id1, "j": premier, "s": []int{m1.Fin.Scores[0] + 10, m1.Fin.Scores[1]}})
	s.exigerRefus(t, trancher, decided, version(id1), arbitres(arbiterAutres))
	s.exigerRefus(t, trancher, map[string]any{"m": "inconnu", "s": m1.Fin.Scores}, version(id1), refuse(arbiter1, "match inconnu", "NOT_FOUND"))
	m1 = sur(arbiter1, "trancherDesaccord", trancher, decided)
	assert.Equal(t, "terminee", m1.Phase, "both players sign again")
	sur(arbiter1, "signerFeuille", signer, map[string]any{"m": id1, "j": premier, "s": m1.Fin.Scores})
	m1 = sur(arbiter1, "signerFeuille", signer, map[string]any{"m": id1, "j": second, "s": m1.Fin.Scores})
	assert.Equal(t, "validee", m1.Phase)
	require.NotNil(t, m1.Feuille)
	assert.Equal(t, m1.Fin.Scores, m1.Feuille.Scores)
	for shown.Phase != "validee" {
		live.next(t, "matchChange", &shown)
	}
	assert.Equal(t, m1.Version, shown.Version, "the live match follows every event")

	// Tables 2 and 3: the arbiter ends the game (§9) once it has started.
	tirerAuHasard := func(id string, m apiMatchCouverture) apiMatchCouverture {
		sur(arbiterAutres, "tirerLettres", tirer, map[string]any{"m": id, "j": m.Joueurs[0]})
		return sur(arbiterAutres, "tirerLettres", tirer, map[string]any{"m": id, "j": m.Joueurs[1]})
	}
	abandon := `mutation($m: ID!, $j: ID!) { constaterAbandon(match:$m, joueur:$j) { ` + matchCouvertureFields + ` } }`
	id2 := *tables[1].Match
	s.exigerRefus(t, abandon, map[string]any{"m": id2, "j": matchs[1].Joueurs[1]}, version(id2), refuse(arbiterAutres, "§9 avant le début", "WRONG_PHASE"))
	m2 := tirerAuHasard(id2, matchs[1])
	s.exigerRefus(t, abandon, map[string]any{"m": id2, "j": m2.Joueurs[1]}, version(id2), arbitres(arbiter1))
	s.exigerRefus(t, abandon, map[string]any{"m": id2, "j": "P99"}, version(id2), refuse(arbiterAutres, "joueur inconnu", "UNKNOWN_PLAYER"))
	m2 = sur(arbiterAutres, "constaterAbandon", abandon, map[string]any{"m": id2, "j": m2.Joueurs[1]})
	assert.Equal(t, "validee", m2.Phase, "the arbiter's entry is the sheet")
	assert.Equal(t, "abandon_unilateral", m2.Fin.Fin)

	defaite := `mutation($m: ID!, $j: ID!, $h: Boolean) { declarerDefaite(match:$m, joueur:$j, huitLettres:$h) { ` + matchCouvertureFields + ` } }`
	id3 := *tables[2].Match
	s.exigerRefus(t, defaite, map[string]any{"m": id3, "j": matchs[2].Joueurs[0], "h": true}, version(id3), refuse(arbiterAutres, "§9 avant le début", "WRONG_PHASE"))
	m3 := tirerAuHasard(id3, matchs[2])
	s.exigerRefus(t, defaite, map[string]any{"m": id3, "j": m3.Joueurs[0], "h": true}, version(id3), arbitres(arbiter1))
	m3 = sur(arbiterAutres, "declarerDefaite", defaite, map[string]any{"m": id3, "j": m3.Joueurs[0], "h": true})
	assert.Equal(t, "validee", m3.Phase)
	assert.Equal(t, "defaite_huit_lettres", m3.Fin.Fin)
	assert.Equal(t, 0, m3.Fin.Joueur)

	// Table 4: §7 blocage once the bag is empty and both players passed.
	blocage := `mutation($m: ID!) { constaterBlocage(match:$m) { ` + matchCouvertureFields + ` } }`
	id4 := *tables[3].Match
	m4 := tirerAuHasard(id4, matchs[3])
	s.exigerRefus(t, blocage, map[string]any{"m": id4}, version(id4), refuse(arbiterAutres, "§7 le sac permet d'échanger", "BLOCKAGE_REFUSED"))
	m4, _ = coupsJusquAuSacVide(t, s, arbiterAutres, id4, m4)
	passer := `mutation($m: ID!, $j: ID!) { passer(match:$m, joueur:$j) { ` + matchCouvertureFields + ` } }`
	m4 = sur(arbiterAutres, "passer", passer, map[string]any{"m": id4, "j": m4.Joueurs[m4.Trait]})
	s.exigerRefus(t, blocage, map[string]any{"m": id4}, version(id4), refuse(arbiterAutres, "§7 un seul joueur a passé", "BLOCKAGE_REFUSED"))
	m4 = sur(arbiterAutres, "passer", passer, map[string]any{"m": id4, "j": m4.Joueurs[m4.Trait]})
	s.exigerRefus(t, blocage, map[string]any{"m": id4}, version(id4), arbitres(arbiter1))
	m4 = sur(arbiterAutres, "constaterBlocage", blocage, map[string]any{"m": id4})
	assert.Equal(t, "terminee", m4.Phase)
	assert.Equal(t, "blocage", m4.Fin.Fin)

	// Table 5: §7 the last play empties the rack and the bag; the opponent
	// closes the game.
	cloturer := `mutation($m: ID!, $j: ID!) { cloturerMatch(match:$m, joueur:$j) { ` + matchCouvertureFields + ` } }`
	id5 := *tables[4].Match
	m5 := tirerAuHasard(id5, matchs[4])
	s.exigerRefus(t, cloturer, map[string]any{"m": id5, "j": m5.Joueurs[1]}, version(id5), refuse(arbiterAutres, "§7 rien à clore", "WRONG_PHASE"))
	m5, rangee := coupsJusquAuSacVide(t, s, arbiterAutres, id5, m5)
	finisseur := m5.Trait
	m5 = sur(arbiterAutres, "placerMot", `mutation($m: ID!, $j: ID!, $r: String!, $w: String!) { placerMot(match:$m, joueur:$j, reference:$r, mot:$w) { `+matchCouvertureFields+` } }`,
		map[string]any{"m": id5, "j": m5.Joueurs[finisseur], "r": rangee + "2", "w": strings.ReplaceAll(m5.Chevalets[finisseur], "?", "e")})
	require.True(t, m5.FinEnAttente)
	s.exigerRefus(t, cloturer, map[string]any{"m": id5, "j": m5.Joueurs[finisseur]}, version(id5), refuse(arbiterAutres, "§7 le finisseur ne clôt pas", "WRONG_PHASE"))
	closing := map[string]any{"m": id5, "j": m5.Joueurs[1-finisseur]}
	s.exigerRefus(t, cloturer, closing, version(id5), arbitres(arbiter1))
	m5 = sur(arbiterAutres, "cloturerMatch", cloturer, closing)
	assert.Equal(t, "terminee", m5.Phase)
	assert.Equal(t, "reliquat_epuise", m5.Fin.Fin)

	// §9 retirerJoueurClassique: a player leaves the tournament.
	tversion := func() int {
		var v apiTournoiClassique
		s.gql(director, `{ tournoiClassique(id:"C1") { version } }`, nil).into(t, "tournoiClassique", &v)
		return v.Version
	}
	retirer := `mutation($j: ID!) { retirerJoueurClassique(tournoi:"C1", joueur:$j, motif:"malade") { version inscrits { joueur retire } } }`
	s.exigerRefus(t, retirer, map[string]any{"j": "P10"}, tversion, []refusAttendu{
		{"anonyme", "", "UNAUTHENTICATED"},
		{"arbitre", arbiter1, "FORBIDDEN"},
		{"commission", commission, "FORBIDDEN"},
		{"directeur d'un autre tournoi", directorC2, "FORBIDDEN"},
	})
	s.exigerRefus(t, retirer, map[string]any{"j": "P99"}, tversion, refuse(director, "joueur inconnu", "UNKNOWN_PLAYER"))
	var retire struct {
		Inscrits []struct {
			Joueur string
			Retire bool
		}
	}
	s.gql(director, retirer, map[string]any{"j": "P10"}).into(t, "retirerJoueurClassique", &retire)
	for _, i := range retire.Inscrits {
		assert.Equal(t, i.Joueur == "P10", i.Retire, i.Joueur)
	}
	s.exigerRefus(t, retirer, map[string]any{"j": "P10"}, tversion, refuse(director, "déjà retiré", "ALREADY_WITHDRAWN"))
}

// The refusals of the classique commands other tests run only as allowed
// (or without every refusal): each caller without the right role or scope
// is refused with its code, bad input gets its own code, and nothing
// changes.
func TestE2ECouvertureRefusClassique(t *testing.T) {
	data := t.TempDir()
	director := apiToken(t, data, "--role", "director")
	directorC2 := apiToken(t, data, "--role", "director", "--tournoi", "C2")
	arbiter1 := apiToken(t, data, "--role", "arbiter", "--tables", "1-1", "--tournoi", "C1")
	arbiter2 := apiToken(t, data, "--role", "arbiter", "--tables", "2-2", "--tournoi", "C1")
	arbiterC2 := apiToken(t, data, "--role", "arbiter", "--tables", "1-2", "--tournoi", "C2")
	commission := apiToken(t, data, "--role", "commission", "--tournoi", "C1")
	s := startAPIServer(t, data)
	defer s.stop()

	tversion := func() int {
		var v apiTournoiClassique
		res := s.gql(director, `{ tournoiClassique(id:"C1") { version } }`, nil)
		if string(res.Data["tournoiClassique"]) == "null" {
			return 0
		}
		res.into(t, "tournoiClassique", &v)
		return v.Version
	}
	directeurSeul := func(bad ...refusAttendu) []refusAttendu {
		return append([]refusAttendu{
			{"anonyme", "", "UNAUTHENTICATED"},
			{"arbitre", arbiter1, "FORBIDDEN"},
			{"commission", commission, "FORBIDDEN"},
			{"directeur d'un autre tournoi", directorC2, "FORBIDDEN"},
		}, bad...)
	}
	type cas struct {
		name    string
		query   string
		vars    map[string]any
		version func() int
		refus   []refusAttendu
	}
	run := func(table []cas) {
		t.Helper()
		for _, tt := range table {
			t.Run(tt.name, func(t *testing.T) { s.exigerRefus(t, tt.query, tt.vars, tt.version, tt.refus) })
		}
	}
	ouvrir := `mutation($r: Int!) { ouvrirTournoiClassique(id:"C1", nom:"Open classique", rondes:$r) { version } }`
	inscrire := `mutation($j: ID!) { inscrireClassique(tournoi:"C1", joueur:$j, nom:"Joueur", cote:1500) { version } }`
	seeding := `mutation { etablirTetesDeSerie(tournoi:"C1") { version } }`
	proposer := `mutation($m: MethodeAppariement!) { proposerRonde(tournoi:"C1", methode:$m) { version } }`
	publier := `mutation { publierRonde(tournoi:"C1") { ` + tournoiClassiqueFields + ` } }`
	clore := `mutation { cloreTournoiClassique(tournoi:"C1") { version } }`
	run([]cas{
		{"ouvrirTournoiClassique", ouvrir, map[string]any{"r": 1}, tversion, directeurSeul()},
		{"ouvrirTournoiClassique sans ronde", ouvrir, map[string]any{"r": -1}, tversion, []refusAttendu{{"directeur", director, "INVALID_INPUT"}}},
	})
	var tr apiTournoiClassique
	s.gql(director, ouvrir, map[string]any{"r": 1}).into(t, "ouvrirTournoiClassique", &tr)
	run([]cas{
		{"inscrireClassique", inscrire, map[string]any{"j": "P1"}, tversion, directeurSeul()},
		{"inscrireClassique sans joueur", inscrire, map[string]any{"j": ""}, tversion, []refusAttendu{{"directeur", director, "INVALID_PLAYER"}}},
	})
	for i := 1; i <= 4; i++ {
		s.gql(director, inscrire, map[string]any{"j": fmt.Sprintf("P%d", i)}).into(t, "inscrireClassique", &tr)
	}
	run([]cas{
		{"proposerRonde avant les têtes de série", proposer, map[string]any{"m": "initial_by_cote"}, tversion,
			[]refusAttendu{{"directeur", director, "WRONG_STATE"}}},
		{"etablirTetesDeSerie", seeding, nil, tversion, directeurSeul()},
		{"cloreTournoiClassique", clore, nil, tversion, directeurSeul(refusAttendu{"rondes non jouées", director, "ROUND_INCOMPLETE"})},
	})
	s.gql(director, seeding, nil).into(t, "etablirTetesDeSerie", &tr)
	run([]cas{
		{"publierRonde sans proposition", publier, nil, tversion, []refusAttendu{{"directeur", director, "WRONG_STATE"}}},
		{"proposerRonde", proposer, map[string]any{"m": "initial_by_cote"}, tversion, directeurSeul()},
		{"proposerRonde méthode inconnue", proposer, map[string]any{"m": "au_hasard"}, tversion, []refusAttendu{{"directeur", director, codeHorsEnum}}},
	})
	s.gql(director, proposer, map[string]any{"m": "initial_by_cote"}).into(t, "proposerRonde", &tr)
	amender := `mutation($t: [TableAmendeeInput!]!) { amenderRonde(tournoi:"C1", tables:$t, motif:"club") { version } }`
	run([]cas{
		{"amenderRonde", amender, map[string]any{"t": []map[string]any{{"premier": "P1", "second": "P2"}, {"premier": "P3", "second": "P4"}}}, tversion, directeurSeul()},
		{"amenderRonde joueur oublié", amender, map[string]any{"t": []map[string]any{{"premier": "P1", "second": "P2"}}}, tversion,
			[]refusAttendu{{"directeur", director, "INVALID_PAIRING"}}},
		{"publierRonde", publier, nil, tversion, directeurSeul()},
	})
	s.gql(director, publier, nil).into(t, "publierRonde", &tr)
	require.Len(t, tr.Publiees, 1)
	tables := tr.Publiees[0].Tables
	require.Len(t, tables, 2)
	id1 := *tables[0].Match
	creer := `mutation($m: ID!) { creerMatch(tournoi:"C1", match:$m) { version } }`
	run([]cas{
		{"creerMatch", creer, map[string]any{"m": id1}, tversion, directeurSeul()},
		{"creerMatch inconnu", creer, map[string]any{"m": "C1-inconnu"}, tversion, []refusAttendu{{"directeur", director, "NOT_FOUND"}}},
	})
	var m1 apiMatchCouverture
	s.gql(director, `mutation($m: ID!) { creerMatch(tournoi:"C1", match:$m) { `+matchCouvertureFields+` } }`, map[string]any{"m": id1}).into(t, "creerMatch", &m1)
	mversion := func() int {
		var v apiMatchCouverture
		s.gql(director, `query($m: ID!) { matchClassique(id:$m) { version } }`, map[string]any{"m": id1}).into(t, "matchClassique", &v)
		return v.Version
	}
	arbitreDeLaTable := func(bad ...refusAttendu) []refusAttendu {
		return append([]refusAttendu{
			{"anonyme", "", "UNAUTHENTICATED"},
			{"commission", commission, "FORBIDDEN"},
			{"arbitre d'une autre table", arbiter2, "FORBIDDEN"},
			{"arbitre d'un autre tournoi", arbiterC2, "FORBIDDEN"},
			{"directeur d'un autre tournoi", directorC2, "FORBIDDEN"},
		}, bad...)
	}
	premier, second := m1.Joueurs[0], m1.Joueurs[1]
	tirer := `mutation($m: ID!, $j: ID!, $l: String) { tirerLettres(match:$m, joueur:$j, lettres:$l) { ` + matchCouvertureFields + ` } }`
	run([]cas{
		{"tirerLettres", tirer, map[string]any{"m": id1, "j": premier}, mversion, arbitreDeLaTable()},
		{"tirerLettres deux lettres pour sept", tirer, map[string]any{"m": id1, "j": premier, "l": "AB"}, mversion,
			[]refusAttendu{{"arbitre de la table", arbiter1, "INVALID_DRAW"}}},
		{"tirerLettres le second avant le premier", tirer, map[string]any{"m": id1, "j": second}, mversion,
			[]refusAttendu{{"§3.2.2 arbitre de la table", arbiter1, "INVALID_DRAW"}}},
	})
	s.gql(arbiter1, tirer, map[string]any{"m": id1, "j": premier}).into(t, "tirerLettres", &m1)
	s.gql(arbiter1, tirer, map[string]any{"m": id1, "j": second}).into(t, "tirerLettres", &m1)
	require.Equal(t, "en_cours", m1.Phase)
	placer := `mutation($m: ID!, $j: ID!, $r: String!, $w: String!) { placerMot(match:$m, joueur:$j, reference:$r, mot:$w) { version } }`
	passer := `mutation($m: ID!, $j: ID!) { passer(match:$m, joueur:$j) { version } }`
	demander := `mutation($m: ID!, $j: ID!) { demanderAbandon(match:$m, joueur:$j) { version } }`
	repondre := `mutation($m: ID!, $j: ID!) { repondreAbandon(match:$m, joueur:$j, accepte:false) { version } }`
	forfait := `mutation($m: ID!, $j: ID!) { declarerForfait(match:$m, joueur:$j) { version } }`
	signer := `mutation($m: ID!, $j: ID!) { signerFeuille(match:$m, joueur:$j, scores:[0, 0]) { version } }`
	enregistrer := `mutation($m: ID!) { enregistrerResultat(tournoi:"C1", match:$m) { version } }`
	both := func(j string) map[string]any { return map[string]any{"m": id1, "j": j} }
	run([]cas{
		{"placerMot", placer, map[string]any{"m": id1, "j": premier, "r": "H8", "w": m1.Chevalets[0][:2]}, mversion, arbitreDeLaTable()},
		{"placerMot pas son tour", placer, map[string]any{"m": id1, "j": second, "r": "H8", "w": m1.Chevalets[1][:2]}, mversion,
			[]refusAttendu{{"arbitre de la table", arbiter1, "NOT_YOUR_TURN"}}},
		{"placerMot référence illisible", placer, map[string]any{"m": id1, "j": premier, "r": "Z99", "w": m1.Chevalets[0][:2]}, mversion,
			[]refusAttendu{{"arbitre de la table", arbiter1, "INVALID_PLACEMENT"}}},
		{"passer", passer, both(premier), mversion, arbitreDeLaTable()},
		{"passer pas son tour", passer, both(second), mversion, []refusAttendu{{"arbitre de la table", arbiter1, "NOT_YOUR_TURN"}}},
		{"demanderAbandon", demander, both(premier), mversion, arbitreDeLaTable()},
		{"demanderAbandon joueur inconnu", demander, both("P9"), mversion, []refusAttendu{{"arbitre de la table", arbiter1, "UNKNOWN_PLAYER"}}},
		{"repondreAbandon", repondre, both(second), mversion, arbitreDeLaTable(refusAttendu{"§9 aucun abandon demandé", arbiter1, "ABANDON_REFUSED"})},
		{"declarerForfait", forfait, both(second), mversion, arbitreDeLaTable(refusAttendu{"§9 la partie a commencé", arbiter1, "WRONG_PHASE"})},
		{"signerFeuille", signer, both(premier), mversion, arbitreDeLaTable(refusAttendu{"§7 la partie se joue", arbiter1, "INVALID_SHEET"})},
		{"enregistrerResultat", enregistrer, map[string]any{"m": id1}, tversion, directeurSeul(refusAttendu{"partie en cours", director, "INVALID_INPUT"})},
	})
}

// premierMatchClassique opens classique tournament C1 of one round for
// players P1 and P2, publishes the round and creates its one match, as the
// director does: the match's id and its state.
func premierMatchClassique(t *testing.T, s *apiServer, director string) (string, apiMatchCouverture) {
	t.Helper()
	require.Empty(t, s.gql(director, `mutation { ouvrirTournoiClassique(id:"C1", nom:"Open classique", rondes:1) { version } }`, nil).Errors)
	for _, j := range []string{"P1", "P2"} {
		require.Empty(t, s.gql(director, `mutation($j: ID!, $n: String!) { inscrireClassique(tournoi:"C1", joueur:$j, nom:$n) { version } }`, map[string]any{"j": j, "n": "Joueur " + j}).Errors)
	}
	require.Empty(t, s.gql(director, `mutation { etablirTetesDeSerie(tournoi:"C1") { version } }`, nil).Errors)
	require.Empty(t, s.gql(director, `mutation { proposerRonde(tournoi:"C1", methode: initial_by_cote) { version } }`, nil).Errors)
	var tr apiTournoiClassique
	s.gql(director, `mutation { publierRonde(tournoi:"C1") { `+tournoiClassiqueFields+` } }`, nil).into(t, "publierRonde", &tr)
	require.Len(t, tr.Publiees, 1)
	require.NotEmpty(t, tr.Publiees[0].Tables)
	match := *tr.Publiees[0].Tables[0].Match
	var m apiMatchCouverture
	s.gql(director, `mutation($m: ID!) { creerMatch(tournoi:"C1", match:$m) { `+matchCouvertureFields+` } }`, map[string]any{"m": match}).into(t, "creerMatch", &m)
	return match, m
}
