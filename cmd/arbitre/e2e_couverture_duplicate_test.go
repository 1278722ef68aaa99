package main

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// refusAttendu is one caller a command must refuse, with the code he gets.
// codeHorsEnum is the code of a value outside one of the schema's enums
// (issue 26 item 8): refused before any command runs, the field and the
// values allowed named.
const codeHorsEnum = "INVALID_INPUT"

type refusAttendu struct {
	qui, jeton, code string
}

// exigerRefus sends query as each caller and requires his code; version
// reads the aggregate's version, which a refused command must not move.
func (s *apiServer) exigerRefus(t *testing.T, query string, vars map[string]any, version func() int, cas []refusAttendu) {
	t.Helper()
	avant := version()
	for _, c := range cas {
		res := s.gql(c.jeton, query, vars)
		assert.Equal(t, c.code, res.code(), "%s: %+v", c.qui, res.Errors)
		if raw := res.Data[rootField(t, query)]; raw != nil {
			assert.JSONEq(t, "null", string(raw), "%s: no data for a refused command", c.qui)
		}
	}
	assert.Equal(t, avant, version(), "refused commands changed nothing")
}

// refus waits for the error that ends a refused subscription: an "error"
// message (a list of GraphQL errors) or a "next" carrying errors.
func (sub *apiSubscription) refus(t *testing.T) string {
	t.Helper()
	require.NoError(t, sub.conn.SetReadDeadline(time.Now().Add(5*time.Second)))
	var msg struct {
		Type    string          `json:"type"`
		Payload json.RawMessage `json:"payload"`
	}
	require.NoError(t, sub.conn.ReadJSON(&msg))
	var res apiResult
	switch msg.Type {
	case "error":
		require.NoError(t, json.Unmarshal(msg.Payload, &res.Errors))
	case "next":
		require.NoError(t, json.Unmarshal(msg.Payload, &res))
	default:
		t.Fatalf("unexpected message %s: %s", msg.Type, msg.Payload)
	}
	require.NotEmpty(t, res.Errors, "a refusal: %s", msg.Payload)
	return res.code()
}

type apiBulletinCouverture struct {
	Licence    string
	Decision   *struct{ Paye int }
	CorrigePar *string
	Motif      *string
}

// The director's game commands no other test runs (annulerCoup, ramasser,
// arriveeEnRetard, interrompre, reprendre, eliminer), the second
// arbitration and the referral to the commission (contreArbitrer,
// renvoyerCommission), token revocation (revoquerJeton) and the live game
// (coupAnnonce), each with its refusals over HTTP: anonymous →
// UNAUTHENTICATED, wrong role → FORBIDDEN, another tournament's token →
// FORBIDDEN, an arbiter outside his tables → FORBIDDEN, bad input → its
// code; a refused command changes nothing.
func TestE2ECouvertureDuplicate(t *testing.T) {
	data := t.TempDir()
	director := apiToken(t, data, "--role", "director")
	directorT2 := apiToken(t, data, "--role", "director", "--tournoi", "T2")
	arbiterA := apiToken(t, data, "--role", "arbiter", "--tables", "1-2", "--tournoi", "T1")
	arbiterB := apiToken(t, data, "--role", "arbiter", "--tables", "3-4", "--tournoi", "T1")
	arbiterC := apiToken(t, data, "--role", "arbiter", "--tables", "1-4", "--tournoi", "T1")
	arbiterT2 := apiToken(t, data, "--role", "arbiter", "--tables", "1-4", "--tournoi", "T2")
	commission := apiToken(t, data, "--role", "commission", "--tournoi", "T1")
	s := startAPIServer(t, data)
	defer s.stop()

	inscrireJoueursT1(t, s, director, 4)
	var p apiPartie
	s.gql(director, `mutation { creerPartie(tournoi:"T1", partie:"T1-1", config:{source: logiciel, graine: 7}) { `+partieFields+` } }`, nil).into(t, "creerPartie", &p)
	version := func(partie string) func() int {
		return func() int {
			var v apiPartie
			s.gql(director, `query($p: ID!) { partie(id:$p) { version } }`, map[string]any{"p": partie}).into(t, "partie", &v)
			return v.Version
		}
	}
	directeurSeul := []refusAttendu{
		{"anonyme", "", "UNAUTHENTICATED"},
		{"arbitre", arbiterA, "FORBIDDEN"},
		{"commission", commission, "FORBIDDEN"},
		{"directeur d'un autre tournoi", directorT2, "FORBIDDEN"},
	}

	// The display follows the game live; an invalid id is refused.
	display := s.subscribe("", `subscription { coupAnnonce(partie:"T1-1") { statut version } }`, nil)
	var shown apiPartie
	display.next(t, "coupAnnonce", &shown)
	assert.Equal(t, "attente_tirage", shown.Statut)
	assert.Equal(t, "INVALID_INPUT", s.subscribe("", `subscription { coupAnnonce(partie:"") { statut } }`, nil).refus(t))

	s.gql(director, `mutation { tirer(partie:"T1-1") { `+partieFields+` } }`, nil).into(t, "tirer", &p)
	require.Equal(t, "tirage", p.Statut)
	for shown.Version < p.Version { // the display sees the tirage
		display.next(t, "coupAnnonce", &shown)
	}
	assert.Equal(t, "tirage", shown.Statut)

	// §3.7 ramasser: the bulletins of the coup are collected once.
	ramasser := `mutation { ramasser(partie:"T1-1") { version statut } }`
	s.exigerRefus(t, ramasser, nil, version("T1-1"), directeurSeul)
	var apres apiPartie
	s.gql(director, ramasser, nil).into(t, "ramasser", &apres)
	assert.Equal(t, p.Version+1, apres.Version)
	s.exigerRefus(t, ramasser, nil, version("T1-1"), []refusAttendu{{"déjà ramassés", director, "WRONG_STATE"}})

	// §3.7 interrompre, reprendre within 15 minutes: the coup goes on.
	interrompre := `mutation($p: ID!) { interrompre(partie:$p) { version statut } }`
	reprendre := `mutation($p: ID!) { reprendre(partie:$p) { version statut } }`
	t1 := map[string]any{"p": "T1-1"}
	s.exigerRefus(t, reprendre, t1, version("T1-1"), []refusAttendu{{"pas interrompue", director, "WRONG_STATE"}})
	s.exigerRefus(t, interrompre, t1, version("T1-1"), directeurSeul)
	s.exigerRefus(t, interrompre, map[string]any{"p": "inconnue"}, version("T1-1"), []refusAttendu{{"partie inconnue", director, "NOT_FOUND"}})
	s.gql(director, interrompre, t1).into(t, "interrompre", &apres)
	assert.Equal(t, "interrompue", apres.Statut)
	s.exigerRefus(t, reprendre, t1, version("T1-1"), directeurSeul)
	s.gql(director, reprendre, t1).into(t, "reprendre", &apres)
	assert.Equal(t, "tirage", apres.Statut, "the coup resumes")

	// §3.6 annulerCoup: motif erreur voids the coup; the tirage is drawn again.
	annuler := `mutation($m: MotifAnnulation!) { annulerCoup(partie:"T1-1", motif:$m) { version statut coup } }`
	s.exigerRefus(t, annuler, map[string]any{"m": "erreur"}, version("T1-1"), directeurSeul)
	s.exigerRefus(t, annuler, map[string]any{"m": "caprice"}, version("T1-1"), []refusAttendu{{"motif inconnu", director, codeHorsEnum}})
	s.exigerRefus(t, annuler, map[string]any{"m": "aucune_solution"}, version("T1-1"), []refusAttendu{{"le tirage a des solutions", director, "CANCELLATION_REFUSED"}})
	s.gql(director, annuler, map[string]any{"m": "erreur"}).into(t, "annulerCoup", &apres)
	assert.Equal(t, "attente_tirage", apres.Statut)
	assert.Equal(t, 1, apres.Coup, "the annulled coup is played again")
	s.gql(director, `mutation { tirer(partie:"T1-1") { `+partieFields+` } }`, nil).into(t, "tirer", &p)

	// §6.2 arriveeEnRetard: a late player, registered once the game has
	// started, joins from the next coup.
	retard := `mutation($l: ID!) { arriveeEnRetard(partie:"T1-1", licence:$l) { version joueurs } }`
	s.exigerRefus(t, retard, map[string]any{"l": "L5"}, version("T1-1"), []refusAttendu{{"pas inscrit au tournoi", director, "UNKNOWN_PLAYER"}})
	require.Empty(t, s.gql(director, `mutation { inscrireJoueur(tournoi:"T1", joueur:{licence:"L5", nom:"Joueur 5", table:5}) { version } }`, nil).Errors)
	s.exigerRefus(t, retard, map[string]any{"l": "L5"}, version("T1-1"), directeurSeul)
	s.exigerRefus(t, retard, map[string]any{"l": "L1"}, version("T1-1"), []refusAttendu{{"déjà dans la partie", director, "INVALID_CONFIG"}})
	var joueurs struct{ Joueurs []string }
	s.gql(director, retard, map[string]any{"l": "L5"}).into(t, "arriveeEnRetard", &joueurs)
	assert.Contains(t, joueurs.Joueurs, "L5")

	// The top of coup 1, two bulletins corrected by the arbiter of tables 1-2.
	var withSolutions apiPartie
	s.gql(director, `{ partie(id:"T1-1") { solutions { mot reference score admissible } } }`, nil).into(t, "partie", &withSolutions)
	require.NotEmpty(t, withSolutions.Solutions)
	top := withSolutions.Solutions[0]
	exact := map[string]any{"solutions": []any{map[string]any{"word": top.Mot, "ref": top.Reference, "score": top.Score}}}
	for _, l := range []string{"L1", "L2"} {
		require.Empty(t, s.gql(arbiterA, `mutation($l: ID!, $b: BulletinInput!) { deposerBulletin(partie:"T1-1", coup:1, licence:$l, bulletin:$b) { licence } }`,
			map[string]any{"l": l, "b": exact}).Errors)
	}
	s.gql(director, `mutation($r: String!, $m: String!) { retenirTop(partie:"T1-1", reference:$r, mot:$m) { `+partieFields+` } }`,
		map[string]any{"r": top.Reference, "m": top.Mot}).into(t, "retenirTop", &p)
	for _, l := range []string{"L1", "L2"} {
		require.Empty(t, s.gql(arbiterA, `mutation($l: ID!) { corrigerBulletin(partie:"T1-1", coup:1, licence:$l) { licence } }`,
			map[string]any{"l": l}).Errors)
	}

	arbitres := func(autreTable string) []refusAttendu {
		return []refusAttendu{
			{"anonyme", "", "UNAUTHENTICATED"},
			{"commission", commission, "FORBIDDEN"},
			{"arbitre d'autres tables", autreTable, "FORBIDDEN"},
			{"arbitre d'un autre tournoi", arbiterT2, "FORBIDDEN"},
			{"directeur d'un autre tournoi", directorT2, "FORBIDDEN"},
		}
	}

	// Guide §5 contreArbitrer: a second arbiter confirms or amends.
	contre := `mutation($l: ID!, $c: Boolean!, $d: DecisionInput, $m: String) {
		contreArbitrer(partie:"T1-1", coup:1, licence:$l, confirme:$c, decision:$d, motif:$m) { licence decision { paye } corrigePar motif } }`
	confirme := map[string]any{"l": "L1", "c": true}
	s.exigerRefus(t, contre, confirme, version("T1-1"), arbitres(arbiterB))
	for _, tt := range []struct {
		name  string
		jeton string
		vars  map[string]any
	}{
		{"le correcteur ne se contre-arbitre pas", arbiterA, confirme},
		{"une confirmation sans décision", arbiterC, map[string]any{"l": "L1", "c": true, "d": map[string]any{"paye": 0, "sanction": "none"}}},
		{"un amendement motivé", arbiterC, map[string]any{"l": "L1", "c": false, "d": map[string]any{"paye": 0, "sanction": "none"}}},
		{"un bulletin non corrigé", arbiterC, map[string]any{"l": "L3", "c": true}},
	} {
		s.exigerRefus(t, contre, tt.vars, version("T1-1"), []refusAttendu{{tt.name, tt.jeton, "INVALID_BULLETIN"}})
	}
	var b apiBulletinCouverture
	s.gql(arbiterC, contre, confirme).into(t, "contreArbitrer", &b)
	require.NotNil(t, b.Decision)
	assert.Equal(t, top.Score, b.Decision.Paye, "confirmed")
	s.gql(arbiterC, contre, map[string]any{"l": "L2", "c": false, "d": map[string]any{"paye": 0, "sanction": "zero"}, "m": "mot mal placé"}).
		into(t, "contreArbitrer", &b)
	require.NotNil(t, b.Decision)
	assert.Equal(t, 0, b.Decision.Paye, "amended by the second arbiter")

	// §5.3.3 renvoyerCommission: a handed-in bulletin goes to the commission.
	renvoi := `mutation($l: ID!, $m: String!) { renvoyerCommission(partie:"T1-1", coup:1, licence:$l, motif:$m) { licence } }`
	s.exigerRefus(t, renvoi, map[string]any{"l": "L2", "m": "écriture douteuse"}, version("T1-1"), arbitres(arbiterB))
	s.exigerRefus(t, renvoi, map[string]any{"l": "L2", "m": ""}, version("T1-1"), []refusAttendu{{"sans motif", arbiterA, "INVALID_BULLETIN"}})
	s.exigerRefus(t, renvoi, map[string]any{"l": "L3", "m": "écriture douteuse"}, version("T1-1"), []refusAttendu{{"sans bulletin", arbiterC, "INVALID_BULLETIN"}})
	avant := version("T1-1")()
	s.gql(arbiterA, renvoi, map[string]any{"l": "L2", "m": "écriture douteuse"}).into(t, "renvoyerCommission", &b)
	assert.Equal(t, avant+1, version("T1-1")(), "the referral is recorded")

	// §3.8.3 eliminer: only in the elimination modes, after the top.
	eliminer := `mutation($p: ID!) { eliminer(partie:$p) { version statut joueurs fin { motif vainqueur } } }`
	s.exigerRefus(t, eliminer, t1, version("T1-1"), directeurSeul)
	s.exigerRefus(t, eliminer, t1, version("T1-1"), []refusAttendu{{"partie normale", director, "WRONG_STATE"}})
	var subite apiPartie
	s.gql(director, `mutation { creerPartie(tournoi:"T1", partie:"T1-2", config:{source: logiciel, graine: 8, mode: mort_subite}) { `+partieFields+` } }`, nil).
		into(t, "creerPartie", &subite)
	t2 := map[string]any{"p": "T1-2"}
	s.exigerRefus(t, eliminer, t2, version("T1-2"), []refusAttendu{{"avant le top", director, "WRONG_STATE"}})
	s.gql(director, `mutation { tirer(partie:"T1-2") { statut } }`, nil).into(t, "tirer", &subite)
	s.gql(director, `{ partie(id:"T1-2") { solutions { mot reference score admissible } } }`, nil).into(t, "partie", &withSolutions)
	require.NotEmpty(t, withSolutions.Solutions)
	top = withSolutions.Solutions[0]
	require.Empty(t, s.gql(arbiterA, `mutation($b: BulletinInput!) { deposerBulletin(partie:"T1-2", coup:1, licence:"L1", bulletin:$b) { licence } }`,
		map[string]any{"b": map[string]any{"solutions": []any{map[string]any{"word": top.Mot, "ref": top.Reference, "score": top.Score}}}}).Errors)
	s.gql(director, `mutation($r: String!, $m: String!) { retenirTop(partie:"T1-2", reference:$r, mot:$m) { statut } }`,
		map[string]any{"r": top.Reference, "m": top.Mot}).into(t, "retenirTop", &subite)
	require.Empty(t, s.gql(arbiterA, `mutation { corrigerBulletin(partie:"T1-2", coup:1, licence:"L1") { licence } }`, nil).Errors)
	// §3.8.3: on judged bulletins only; the others handed in none (§5.7).
	s.exigerRefus(t, eliminer, t2, version("T1-2"), []refusAttendu{{"bulletins non jugés", director, "BULLETINS_PENDING"}})
	for l, jeton := range map[string]string{"L2": arbiterC, "L3": arbiterC, "L4": arbiterC, "L5": director} { // L5 sits at table 5
		require.Empty(t, s.gql(jeton, `mutation($l: ID!) { deposerBulletin(partie:"T1-2", coup:1, licence:$l, bulletin:{missing: true}) { licence } }`,
			map[string]any{"l": l}).Errors)
		require.Empty(t, s.gql(jeton, `mutation($l: ID!) { corrigerBulletin(partie:"T1-2", coup:1, licence:$l) { licence } }`, map[string]any{"l": l}).Errors)
	}
	var fin struct {
		Statut  string
		Joueurs []string
		Fin     *struct {
			Motif     string
			Vainqueur *string
		}
	}
	s.gql(director, eliminer, t2).into(t, "eliminer", &fin)
	assert.Equal(t, []string{"L1"}, fin.Joueurs, "every player below the top is eliminated")
	require.NotNil(t, fin.Fin)
	require.NotNil(t, fin.Fin.Vainqueur)
	assert.Equal(t, "L1", *fin.Fin.Vainqueur, "the last player left wins")
	s.exigerRefus(t, eliminer, t2, version("T1-2"), []refusAttendu{{"partie terminée", director, "GAME_OVER"}})
	// cloreResultats: the director's alone, once the game is over.
	clore := `mutation($p: ID!) { cloreResultats(partie:$p) { version fin { resultatsClos } } }`
	s.exigerRefus(t, clore, t2, version("T1-2"), directeurSeul)
	s.exigerRefus(t, clore, t1, version("T1-1"), []refusAttendu{{"partie en cours", director, "WRONG_STATE"}})

	// §3.8.3 annulerEliminations: the director undoes an elimination decided
	// in error, with his reason; the end it caused goes with it.
	annulerElim := `mutation($p: ID!, $m: String!) { annulerEliminations(partie:$p, motif:$m) { version statut joueurs fin { motif } } }`
	t2m := map[string]any{"p": "T1-2", "m": "bulletin de L2 mal saisi"}
	s.exigerRefus(t, annulerElim, t2m, version("T1-2"), directeurSeul)
	s.exigerRefus(t, annulerElim, map[string]any{"p": "T1-2", "m": ""}, version("T1-2"), []refusAttendu{{"sans motif", director, "CANCELLATION_REFUSED"}})
	s.exigerRefus(t, annulerElim, map[string]any{"p": "T1-1", "m": "erreur"}, version("T1-1"), []refusAttendu{{"partie normale", director, "WRONG_STATE"}})
	s.gql(director, annulerElim, t2m).into(t, "annulerEliminations", &fin)
	assert.Equal(t, "top", fin.Statut)
	assert.Equal(t, []string{"L1", "L2", "L3", "L4", "L5"}, fin.Joueurs, "the players eliminated on the coup are in again")
	assert.Nil(t, fin.Fin, "the end the elimination caused is undone")
	s.exigerRefus(t, annulerElim, t2m, version("T1-2"), []refusAttendu{{"déjà annulées", director, "WRONG_STATE"}})

	// §3.2 rejeter: a tirage valid only by what Y counts for (one vowel,
	// Y, five consonants at coup 1) is rejected at the director's choice;
	// a valid one is not.
	rejeter := `mutation($p: ID!) { rejeter(partie:$p) { version statut tirage } }`
	var choix apiPartie
	s.gql(director, `mutation { creerPartie(tournoi:"T1", partie:"T1-3", config:{source: directeur}) { statut } }`, nil).into(t, "creerPartie", &choix)
	s.gql(director, `mutation { tirer(partie:"T1-3", lettres:"ABCDFGY") { statut } }`, nil).into(t, "tirer", &choix)
	t3 := map[string]any{"p": "T1-3"}
	s.exigerRefus(t, rejeter, t3, version("T1-3"), directeurSeul)
	s.gql(director, rejeter, t3).into(t, "rejeter", &choix)
	assert.Equal(t, "attente_tirage", choix.Statut, "the letters go back to the bag")
	s.exigerRefus(t, rejeter, t3, version("T1-3"), []refusAttendu{{"aucun tirage en cours", director, "WRONG_STATE"}})
	s.gql(director, `mutation { tirer(partie:"T1-3", lettres:"ABCDEFG") { statut } }`, nil).into(t, "tirer", &choix)
	s.exigerRefus(t, rejeter, t3, version("T1-3"), []refusAttendu{{"§3.2 tirage valide", director, "REJECTION_REFUSED"}})

	// revoquerJeton: the director revokes a token; it is refused at once
	// after, and refusals leave it valid.
	var emis struct{ ID, Secret string }
	s.gql(director, `mutation { emettreJeton(demande:{role: ARBITER, tournoi:"T1", tables:"1-4", heures: 4}) { id secret } }`, nil).
		into(t, "emettreJeton", &emis)
	moi := func() apiResult { return s.gql(emis.Secret, `{ moi { jeton } }`, nil) }
	require.Eventually(t, func() bool { return moi().code() == "" }, 5*time.Second, 10*time.Millisecond, "the issued token is known")
	revoquer := `mutation($id: ID!, $t: String) { revoquerJeton(id:$id, tournoi:$t) }`
	for _, c := range []refusAttendu{
		{"anonyme", "", "UNAUTHENTICATED"},
		{"arbitre", arbiterA, "FORBIDDEN"},
		{"commission", commission, "FORBIDDEN"},
		{"directeur d'un autre tournoi", directorT2, "FORBIDDEN"},
	} {
		res := s.gql(c.jeton, revoquer, map[string]any{"id": emis.ID, "t": "T1"})
		assert.Equal(t, c.code, res.code(), c.qui)
	}
	assert.Empty(t, moi().Errors, "refused revocations leave the token valid")
	var revoque bool
	s.gql(director, revoquer, map[string]any{"id": emis.ID, "t": "T1"}).into(t, "revoquerJeton", &revoque)
	assert.True(t, revoque)
	require.Eventually(t, func() bool { return moi().code() == "UNAUTHENTICATED" }, 5*time.Second, 10*time.Millisecond, "the revoked token is refused")
}

// The refusals of the duplicate, appeal and token commands other tests run
// only as allowed (or without every refusal): each caller without the right
// role or scope is refused with its code, bad input gets its own code, and
// nothing changes.
func TestE2ECouvertureRefusDuplicate(t *testing.T) {
	data := t.TempDir()
	director := apiToken(t, data, "--role", "director")
	directorT2 := apiToken(t, data, "--role", "director", "--tournoi", "T2")
	arbiterA := apiToken(t, data, "--role", "arbiter", "--tables", "1-2", "--tournoi", "T1")
	arbiterB := apiToken(t, data, "--role", "arbiter", "--tables", "3-4", "--tournoi", "T1")
	arbiterT2 := apiToken(t, data, "--role", "arbiter", "--tables", "1-4", "--tournoi", "T2")
	commission := apiToken(t, data, "--role", "commission", "--tournoi", "T1")
	commissionT2 := apiToken(t, data, "--role", "commission", "--tournoi", "T2")
	s := startAPIServer(t, data)
	defer s.stop()

	inscrireJoueursT1(t, s, director, 3)
	var p apiPartie
	s.gql(director, `mutation { creerPartie(tournoi:"T1", partie:"T1-1", config:{source: logiciel, graine: 7}) { `+partieFields+` } }`, nil).into(t, "creerPartie", &p)
	s.gql(director, `mutation { tirer(partie:"T1-1") { `+partieFields+` } }`, nil).into(t, "tirer", &p)
	var sols apiPartie
	s.gql(director, `{ partie(id:"T1-1") { solutions { mot reference score admissible } } }`, nil).into(t, "partie", &sols)
	require.NotEmpty(t, sols.Solutions)
	top := sols.Solutions[0]
	exact := map[string]any{"solutions": []any{map[string]any{"word": top.Mot, "ref": top.Reference, "score": top.Score}}}
	enter := `mutation($l: ID!, $c: Int!, $b: BulletinInput!) { deposerBulletin(partie:"T1-1", coup:$c, licence:$l, bulletin:$b) { licence } }`
	require.Empty(t, s.gql(arbiterA, enter, map[string]any{"l": "L1", "c": 1, "b": exact}).Errors)
	correct := `mutation($l: ID!) { corrigerBulletin(partie:"T1-1", coup:1, licence:$l) { licence } }`
	version := func() int {
		var v apiPartie
		s.gql(director, `{ partie(id:"T1-1") { version } }`, nil).into(t, "partie", &v)
		return v.Version
	}
	tversion := func() int {
		var v struct{ Version int }
		s.gql(director, `{ tournoi(id:"T1") { version } }`, nil).into(t, "tournoi", &v)
		return v.Version
	}
	directeurSeul := func(bad ...refusAttendu) []refusAttendu {
		return append([]refusAttendu{
			{"anonyme", "", "UNAUTHENTICATED"},
			{"arbitre", arbiterA, "FORBIDDEN"},
			{"commission", commission, "FORBIDDEN"},
			{"directeur d'un autre tournoi", directorT2, "FORBIDDEN"},
		}, bad...)
	}
	arbitreDeLaTable := func(bad ...refusAttendu) []refusAttendu {
		return append([]refusAttendu{
			{"anonyme", "", "UNAUTHENTICATED"},
			{"commission", commission, "FORBIDDEN"},
			{"arbitre d'autres tables", arbiterB, "FORBIDDEN"},
			{"arbitre d'un autre tournoi", arbiterT2, "FORBIDDEN"},
		}, bad...)
	}
	for _, tt := range []struct {
		name    string
		query   string
		vars    map[string]any
		version func() int
		cas     []refusAttendu
	}{
		{"creerTournoi", `mutation($id: ID!) { creerTournoi(id:$id, nom:"Open", homologue: false) { id } }`, map[string]any{"id": "T3"}, tversion,
			directeurSeul()},
		{"creerTournoi identifiant vide", `mutation($id: ID!) { creerTournoi(id:$id, nom:"Open", homologue: false) { id } }`, map[string]any{"id": ""}, tversion,
			[]refusAttendu{{"directeur", director, "INVALID_TOURNAMENT"}}},
		{"inscrireJoueur", `mutation($j: JoueurInput!) { inscrireJoueur(tournoi:"T1", joueur:$j) { version } }`,
			map[string]any{"j": map[string]any{"licence": "L9", "nom": "Neuf", "table": 9}}, tversion, directeurSeul()},
		{"inscrireJoueur sans licence", `mutation($j: JoueurInput!) { inscrireJoueur(tournoi:"T1", joueur:$j) { version } }`,
			map[string]any{"j": map[string]any{"licence": "", "nom": "Neuf", "table": 9}}, tversion,
			[]refusAttendu{{"directeur", director, "INVALID_PLAYER"}}},
		{"creerPartie", `mutation($g: Int) { creerPartie(tournoi:"T1", partie:"T1-9", config:{source: logiciel, graine: $g}) { version } }`,
			map[string]any{"g": 3}, tversion, directeurSeul()},
		{"creerPartie graine négative", `mutation($g: Int) { creerPartie(tournoi:"T1", partie:"T1-9", config:{source: logiciel, graine: $g}) { version } }`,
			map[string]any{"g": -1}, tversion, []refusAttendu{{"directeur", director, "INVALID_INPUT"}}},
		{"tirer", `mutation { tirer(partie:"T1-1") { version } }`, nil, version,
			directeurSeul(refusAttendu{"§3.1 un coup est en cours", director, "WRONG_STATE"})},
		{"rejeter", `mutation { rejeter(partie:"T1-1", version: 1) { version } }`, nil, version,
			directeurSeul(refusAttendu{"version périmée", director, "CONFLICT"})},
		{"retenirTop", `mutation($r: String!, $m: String!) { retenirTop(partie:"T1-1", reference:$r, mot:$m) { version } }`,
			map[string]any{"r": top.Reference, "m": top.Mot}, version, directeurSeul()},
		{"sanctionDisciplinaire", `mutation($l: ID!) { sanctionDisciplinaire(partie:"T1-1", coup:1, licence:$l, nature:avertissement, motif:"bavardage") { version } }`,
			map[string]any{"l": "L1"}, version, directeurSeul()},
		{"sanctionDisciplinaire joueur inconnu", `mutation($l: ID!) { sanctionDisciplinaire(partie:"T1-1", coup:1, licence:$l, nature:avertissement, motif:"bavardage") { version } }`,
			map[string]any{"l": "L9"}, version, []refusAttendu{{"directeur", director, "UNKNOWN_PLAYER"}}},
		{"deposerBulletin", enter, map[string]any{"l": "L2", "c": 1, "b": exact}, version, arbitreDeLaTable()},
		{"deposerBulletin coup pas encore tiré", enter, map[string]any{"l": "L2", "c": 2, "b": exact}, version,
			[]refusAttendu{{"arbitre de la table", arbiterA, "INVALID_BULLETIN"}}},
		{"corrigerBulletin", correct, map[string]any{"l": "L1"}, version,
			arbitreDeLaTable(refusAttendu{"§5 avant le top", arbiterA, "INVALID_BULLETIN"})},
		{"emettreJeton", `mutation($t: String) { emettreJeton(demande:{role: ARBITER, tournoi:$t, tables:"1-4"}) { id } }`,
			map[string]any{"t": "T1"}, tversion, directeurSeul()},
		{"emettreJeton tables illisibles", `mutation { emettreJeton(demande:{role: ARBITER, tournoi:"T1", tables:"une à quatre"}) { id } }`,
			nil, tversion, []refusAttendu{{"directeur", director, "INVALID_INPUT"}}},
	} {
		t.Run(tt.name, func(t *testing.T) { s.exigerRefus(t, tt.query, tt.vars, tt.version, tt.cas) })
	}

	// The appeal of a corrected bulletin, and the commission's commands on it.
	s.gql(director, `mutation($r: String!, $m: String!) { retenirTop(partie:"T1-1", reference:$r, mot:$m) { version } }`,
		map[string]any{"r": top.Reference, "m": top.Mot}).into(t, "retenirTop", &p)
	require.Empty(t, s.gql(arbiterA, correct, map[string]any{"l": "L1"}).Errors)
	appeal := func(id string) map[string]any {
		return map[string]any{"a": map[string]any{"id": id, "tournoi": "T1", "partie": "T1-1", "coup": 1, "licence": "L1", "table": 1,
			"requerant": "Joueur 1", "qualite": "joueur", "motif": "mot valable", "demandee": map[string]any{"paye": top.Score, "sanction": "none"}}}
	}
	deposer := `mutation($a: DepotAppelInput!) { deposerAppel(appel:$a) { id revision } }`
	require.Empty(t, s.gql(commission, deposer, appeal("A1")).Errors)
	revision := func() int {
		var a struct{ Revision int }
		s.gql(commission, `{ appel(tournoi:"T1", id:"A1") { revision } }`, nil).into(t, "appel", &a)
		return a.Revision
	}
	commissionSeule := func(bad ...refusAttendu) []refusAttendu {
		return append([]refusAttendu{
			{"anonyme", "", "UNAUTHENTICATED"},
			{"arbitre", arbiterA, "FORBIDDEN"},
			{"commission d'un autre tournoi : le recours lui est inconnu", commissionT2, "APPEAL_NOT_FOUND"},
		}, bad...)
	}
	for _, tt := range []struct {
		name  string
		query string
		vars  map[string]any
		cas   []refusAttendu
	}{
		{"deposerAppel", deposer, appeal("A2"), []refusAttendu{
			{"anonyme", "", "UNAUTHENTICATED"},
			{"commission d'un autre tournoi", commissionT2, "FORBIDDEN"},
			{"arbitre d'un autre tournoi", arbiterT2, "FORBIDDEN"},
		}},
		{"deposerAppel déjà déposé", deposer, appeal("A1"), []refusAttendu{{"commission", commission, "ALREADY_EXISTS"}}},
		{"deposerAppel identifiant vide", deposer, appeal(""), []refusAttendu{{"commission", commission, "INVALID_APPEAL"}}},
		{"composerCommission", `mutation($p: String!) { composerCommission(tournoi:"T1", appel:"A1", president:$p, membres:["M1","M2","M3"]) { statut } }`,
			map[string]any{"p": "M1"}, commissionSeule()},
		{"composerCommission président hors des membres", `mutation($p: String!) { composerCommission(tournoi:"T1", appel:"A1", president:$p, membres:["M1","M2","M3"]) { statut } }`,
			map[string]any{"p": "M9"}, []refusAttendu{{"commission", commission, "INVALID_COMMISSION"}}},
		{"voter", `mutation($i: IssueAppel!) { voter(tournoi:"T1", appel:"A1", membre:"M1", issue:$i) { statut } }`,
			map[string]any{"i": "accueilli"}, commissionSeule(refusAttendu{"§6.4.1 avant la composition", commission, "COMMISSION_NOT_COMPOSED"})},
		{"deciderAppel", `mutation($i: IssueAppel!) { deciderAppel(tournoi:"T1", appel:"A1", issue:$i, motivation:"vu") { statut } }`,
			map[string]any{"i": "accueilli"}, commissionSeule(refusAttendu{"§6.4.1 avant la composition", commission, "COMMISSION_NOT_COMPOSED"})},
		{"deciderAppel appel inconnu", `mutation { deciderAppel(tournoi:"T1", appel:"A9", issue:rejete, motivation:"vu") { statut } }`,
			nil, []refusAttendu{{"commission", commission, "APPEAL_NOT_FOUND"}}},
	} {
		t.Run(tt.name, func(t *testing.T) { s.exigerRefus(t, tt.query, tt.vars, revision, tt.cas) })
	}
	var a2 struct{ Appel *struct{ ID string } }
	require.NoError(t, json.Unmarshal(s.gql(commission, `{ appel(tournoi:"T1", id:"A2") { id } }`, nil).Data["appel"], &a2.Appel))
	assert.Nil(t, a2.Appel, "a refused appeal is not filed")
}
