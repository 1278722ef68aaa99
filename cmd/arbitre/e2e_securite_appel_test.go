package main

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbitre/cmd/arbitre/internal/storeflags"
	appeldom "arbitre/domain/appel"
	appadapters "arbitre/domain/appel/adapters"
	"arbitre/domain/catalogue"
	"arbitre/domain/eventstore"
)

// Appeals over HTTP against `arbitre serve` (issue 11, items 1, 2 and 10):
// the scope of an appeal is derived from the stored facts, the commission's
// decision is signed by its token and is written whole or not at all.

// appelPartie is a duplicate game whose coup 1 is topped and corrected:
// L1 found the top, L2 handed in a blank bulletin (a zéro, §5.7), L20 sits
// at table 20.
type appelPartie struct {
	tournoi, partie string
	top             int
}

func nouvelleAppelPartie(t *testing.T, s *apiServer, director, tournoi string) appelPartie {
	t.Helper()
	p := appelPartie{tournoi: tournoi, partie: tournoi + "-1"}
	require.Empty(t, s.gql(director, `mutation($t: ID!) { creerTournoi(id:$t, nom:"Open", homologue: false) { id } }`, map[string]any{"t": tournoi}).Errors)
	for licence, table := range map[string]int{"L1": 1, "L2": 2, "L20": 20} {
		res := s.gql(director, `mutation($t: ID!, $j: JoueurInput!) { inscrireJoueur(tournoi:$t, joueur:$j) { version } }`,
			map[string]any{"t": tournoi, "j": map[string]any{"licence": licence, "nom": "Joueur " + licence, "table": table}})
		require.Empty(t, res.Errors)
	}
	vars := map[string]any{"t": tournoi, "p": p.partie}
	require.Empty(t, s.gql(director, `mutation($t: ID!, $p: ID!) { creerPartie(tournoi:$t, partie:$p, config:{source: logiciel, graine: 7}) { version } }`, vars).Errors)
	require.Empty(t, s.gql(director, `mutation($p: ID!) { tirer(partie:$p) { version } }`, vars).Errors)
	var withSolutions apiPartie
	s.gql(director, `query($p: ID!) { partie(id:$p) { solutions { mot reference score admissible } } }`, vars).into(t, "partie", &withSolutions)
	require.NotEmpty(t, withSolutions.Solutions)
	top := withSolutions.Solutions[0]
	p.top = top.Score
	exact := map[string]any{"solutions": []any{map[string]any{"word": top.Mot, "ref": top.Reference, "score": top.Score}}}
	for licence, b := range map[string]any{"L1": exact, "L2": map[string]any{"blank": true}, "L20": exact} {
		res := s.gql(director, `mutation($p: ID!, $l: ID!, $b: BulletinInput!) { deposerBulletin(partie:$p, coup:1, licence:$l, bulletin:$b) { licence } }`,
			map[string]any{"p": p.partie, "l": licence, "b": b})
		require.Empty(t, res.Errors)
	}
	require.Empty(t, s.gql(director, `mutation($p: ID!, $r: String!, $m: String!) { retenirTop(partie:$p, reference:$r, mot:$m) { version } }`,
		map[string]any{"p": p.partie, "r": top.Reference, "m": top.Mot}).Errors)
	for _, licence := range []string{"L1", "L2", "L20"} {
		res := s.gql(director, `mutation($p: ID!, $l: ID!) { corrigerBulletin(partie:$p, coup:1, licence:$l) { licence } }`,
			map[string]any{"p": p.partie, "l": licence})
		require.Empty(t, res.Errors)
	}
	return p
}

// etat is what an appeal could change in a game: the standings and who did
// what in coup 1 (the game's stream, replayed).
type etat struct {
	Classement []apiLigne
	Journal    []apiActe
}

type apiActe struct{ Type, Acteur, Role string }

func (p appelPartie) etat(t *testing.T, s *apiServer, director string) etat {
	t.Helper()
	var e etat
	s.gql(director, `query($p: ID!) { classement(partie:$p) { licence score rang } }`, map[string]any{"p": p.partie}).into(t, "classement", &e.Classement)
	var r struct{ Journal []apiActe }
	s.gql(director, `query($p: ID!) { replay(partie:$p, coup:1) { journal { type acteur role } } }`, map[string]any{"p": p.partie}).into(t, "replay", &r)
	e.Journal = r.Journal
	return e
}

// depot is an appeal on a player's bulletin of coup 1 asking for the top.
func (p appelPartie) depot(id, licence string) map[string]any {
	return map[string]any{"id": id, "tournoi": p.tournoi, "partie": p.partie, "coup": 1, "licence": licence,
		"requerant": "Joueur " + licence, "qualite": "joueur", "motif": "mot valide",
		"demandee": map[string]any{"paye": p.top, "sanction": "none"}}
}

const (
	deposerAppelMutation = `mutation($a: DepotAppelInput!) { deposerAppel(appel:$a) { id statut } }`
	appelQuery           = `query($t: ID!, $id: ID!) { appel(tournoi:$t, id:$id) { id statut } }`
)

func avec(m map[string]any, kv ...any) map[string]any {
	out := map[string]any{}
	for k, v := range m {
		out[k] = v
	}
	for i := 0; i < len(kv); i += 2 {
		if kv[i+1] == nil {
			delete(out, kv[i].(string))
			continue
		}
		out[kv[i].(string)] = kv[i+1]
	}
	return out
}

// examiner composes the commission of appeal id of tournoi and has every
// member vote.
func examiner(t *testing.T, s *apiServer, token, tournoi, id, issue string) {
	t.Helper()
	require.Empty(t, s.gql(token, `mutation($t: ID!, $a: ID!) { composerCommission(tournoi:$t, appel:$a, president:"M1", membres:["M1","M2","M3"]) { statut } }`,
		map[string]any{"t": tournoi, "a": id}).Errors)
	for _, m := range []string{"M1", "M2", "M3"} {
		require.Empty(t, s.gql(token, `mutation($t: ID!, $a: ID!, $m: String!, $i: IssueAppel!) { voter(tournoi:$t, appel:$a, membre:$m, issue:$i) { statut } }`,
			map[string]any{"t": tournoi, "a": id, "m": m, "i": issue}).Errors)
	}
}

// A commission token scoped to tournament A cannot file an appeal on a game
// of tournament B by naming A, nor decide in B: FORBIDDEN, and B's game and
// standings are unchanged.
func TestSecurite_DeposerAppelHorsTournoi(t *testing.T) {
	data := t.TempDir()
	director := apiToken(t, data, "--role", "director")
	commissionA := apiToken(t, data, "--role", "commission", "--tournoi", "A")
	commissionB := apiToken(t, data, "--role", "commission", "--tournoi", "B")
	s := startAPIServer(t, data)
	defer s.stop()
	nouvelleAppelPartie(t, s, director, "A")
	b := nouvelleAppelPartie(t, s, director, "B")
	avant := b.etat(t, s, director)

	// Filing on B's game while naming A, then deciding it as A's commission.
	forge := avec(b.depot("X1", "L2"), "tournoi", "A")
	assert.Equal(t, "FORBIDDEN", s.gql(commissionA, deposerAppelMutation, map[string]any{"a": forge}).code())
	assert.Equal(t, "FORBIDDEN", s.gql(commissionA, deposerAppelMutation, map[string]any{"a": b.depot("X2", "L2")}).code())
	for _, id := range []string{"X1", "X2"} {
		for _, tournoi := range []string{"A", "B"} {
			vars := map[string]any{"t": tournoi, "id": id}
			assert.Equal(t, "null", string(s.gql(director, appelQuery, vars).Data["appel"]), "appeal %s not stored in %s", id, tournoi)
			assert.NotEmpty(t, s.gql(commissionA, `mutation($t: ID!, $id: ID!) { composerCommission(tournoi:$t, appel:$id, president:"M1", membres:["M1","M2","M3"]) { statut } }`,
				vars).Errors)
			assert.NotEmpty(t, s.gql(commissionA, `mutation($t: ID!, $id: ID!) { deciderAppel(tournoi:$t, appel:$id, issue:accueilli, motivation:"x") { statut } }`,
				vars).Errors)
		}
	}

	// B's own appeal, examined by B's commission: A's commission cannot decide it.
	require.Empty(t, s.gql(commissionB, deposerAppelMutation, map[string]any{"a": b.depot("X3", "L2")}).Errors)
	examiner(t, s, commissionB, "B", "X3", "accueilli")
	decide := `mutation($a: ID!) { deciderAppel(tournoi:"B", appel:$a, issue:accueilli, motivation:"mot valide") { statut } }`
	assert.Equal(t, "APPEAL_NOT_FOUND", s.gql(commissionA, decide, map[string]any{"a": "X3"}).code(), "B's appeal is unknown to A (issue 28 item 10)")
	var x3 struct{ Statut string }
	s.gql(director, appelQuery, map[string]any{"t": "B", "id": "X3"}).into(t, "appel", &x3)
	assert.Equal(t, "en_examen", x3.Statut)

	assert.Equal(t, avant, b.etat(t, s, director), "B's game and standings are unchanged")
}

// An appeal on a game, tournament, player or table that does not exist is
// refused with NOT_FOUND; a tournament that is not the game's with
// INVALID_APPEAL. Nothing is stored.
func TestSecurite_AppelSurPartieOuTournoiInconnu(t *testing.T) {
	data := t.TempDir()
	director := apiToken(t, data, "--role", "director")
	s := startAPIServer(t, data)
	defer s.stop()
	a := nouvelleAppelPartie(t, s, director, "A")
	nouvelleAppelPartie(t, s, director, "B")
	base := a.depot("", "L2")
	tests := []struct {
		name  string
		appel map[string]any
		code  string
	}{
		{"partie inconnue", avec(base, "partie", "A-9"), "NOT_FOUND"},
		{"identifiant de partie invalide", avec(base, "partie", "A 1/../"), "NOT_FOUND"},
		{"tournoi inconnu", map[string]any{"tournoi": "Z", "requerant": "JA", "qualite": "arbitre", "motif": "salle trop bruyante"}, "NOT_FOUND"},
		{"joueur absent de la partie", avec(base, "licence", "L99"), "NOT_FOUND"},
		{"table sans joueur", map[string]any{"tournoi": "A", "partie": "A-1", "table": 7, "requerant": "JA", "qualite": "arbitre", "motif": "bruit"}, "NOT_FOUND"},
		{"partie d'un autre tournoi", avec(base, "tournoi", "B"), "INVALID_APPEAL"},
	}
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			id := fmt.Sprintf("N%d", i)
			assert.Equal(t, tt.code, s.gql(director, deposerAppelMutation, map[string]any{"a": avec(tt.appel, "id", id)}).code())
			assert.Equal(t, "null", string(s.gql(director, appelQuery, map[string]any{"t": "A", "id": id}).Data["appel"]))
		})
	}
}

// The table an arbiter declares is checked against the player's
// registration: an arbiter of tables 1-2 cannot file for the player of
// table 20 by declaring table 1 (FORBIDDEN), nor declare another table
// than his own player's (INVALID_APPEAL).
func TestSecurite_ArbitreMentSurLaTable(t *testing.T) {
	data := t.TempDir()
	director := apiToken(t, data, "--role", "director")
	arbiter := apiToken(t, data, "--role", "arbiter", "--tables", "1-2", "--tournoi", "A")
	s := startAPIServer(t, data)
	defer s.stop()
	a := nouvelleAppelPartie(t, s, director, "A")
	tests := []struct {
		name  string
		appel map[string]any
		code  string
	}{
		{"joueur de la table 20 déclaré à la table 1", avec(a.depot("T1", "L20"), "table", 1), "FORBIDDEN"},
		{"joueur de la table 20 sans table déclarée", a.depot("T2", "L20"), "FORBIDDEN"},
		{"table 20 seule", map[string]any{"id": "T3", "tournoi": "A", "partie": "A-1", "table": 20, "requerant": "JA", "qualite": "arbitre", "motif": "bruit"}, "FORBIDDEN"},
		{"joueur de la table 2 déclaré à la table 1", avec(a.depot("T4", "L2"), "table", 1), "INVALID_APPEAL"},
		{"joueur de la table 2 à sa table", avec(a.depot("T5", "L2"), "table", 2), ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.code, s.gql(arbiter, deposerAppelMutation, map[string]any{"a": tt.appel}).code())
			stored := string(s.gql(director, appelQuery, map[string]any{"t": "A", "id": tt.appel["id"]}).Data["appel"])
			assert.Equal(t, tt.code == "", stored != "null", "stored: %s", stored)
		})
	}
	var stored struct{ Table int }
	s.gql(director, `{ appel(tournoi:"A", id:"T5") { table } }`, nil).into(t, "appel", &stored)
	assert.Equal(t, 2, stored.Table)
}

// The commission's decision reaches the game signed by the commission's
// token (item 2); a decision the game refuses is not recorded anywhere
// (item 10): the appeal stays under examination and the game unchanged.
func TestSecurite_DeciderAppelSigneEtEntier(t *testing.T) {
	data := t.TempDir()
	director := apiToken(t, data, "--role", "director")
	commission := apiToken(t, data, "--role", "commission", "--tournoi", "A")
	s := startAPIServer(t, data)
	defer s.stop()
	a := nouvelleAppelPartie(t, s, director, "A")
	var moi struct{ Jeton string }
	s.gql(commission, `{ moi { jeton } }`, nil).into(t, "moi", &moi)

	// A score above the top: the game refuses it, nothing is written.
	require.Empty(t, s.gql(commission, deposerAppelMutation, map[string]any{"a": a.depot("D1", "L1")}).Errors)
	examiner(t, s, commission, "A", "D1", "amende")
	avant := a.etat(t, s, director)
	res := s.gql(commission, `mutation($p: Int!) { deciderAppel(tournoi:"A", appel:"D1", issue:amende, decision:{paye:$p, sanction:none}, motivation:"bonus") { statut } }`,
		map[string]any{"p": a.top + 50})
	assert.Equal(t, "INVALID_BULLETIN", res.code())
	var d1 struct {
		Statut     string
		Historique []struct{ Type string }
	}
	s.gql(director, `{ appel(tournoi:"A", id:"D1") { statut historique { type } } }`, nil).into(t, "appel", &d1)
	assert.Equal(t, "en_examen", d1.Statut, "the refused decision is not recorded")
	assert.NotContains(t, d1.Historique, struct{ Type string }{"appel.decision_rendue"})
	assert.Equal(t, avant, a.etat(t, s, director))

	// Upheld: one new event in the game, by the commission's token.
	require.Empty(t, s.gql(commission, deposerAppelMutation, map[string]any{"a": a.depot("D2", "L2")}).Errors)
	examiner(t, s, commission, "A", "D2", "accueilli")
	require.Empty(t, s.gql(commission, `mutation { deciderAppel(tournoi:"A", appel:"D2", issue:accueilli, motivation:"mot valide") { statut } }`, nil).Errors)
	apres := a.etat(t, s, director)
	require.Len(t, apres.Journal, len(avant.Journal)+1)
	assert.Equal(t, apiActe{Type: "partie.decision_commission", Acteur: "jeton:" + moi.Jeton, Role: "commission"}, apres.Journal[len(avant.Journal)])
	assert.Equal(t, a.top, scoreOf(apres.Classement, "L2"))
}

// Audit of the same pattern in creerPartie: the game named belongs to
// tournament B, so A's director cannot list it in tournament A; the
// refused command writes nothing into A.
func TestSecurite_CreerPartieDUnAutreTournoi(t *testing.T) {
	data := t.TempDir()
	director := apiToken(t, data, "--role", "director")
	directorA := apiToken(t, data, "--role", "director", "--tournoi", "A")
	s := startAPIServer(t, data)
	defer s.stop()
	nouvelleAppelPartie(t, s, director, "B")
	require.Empty(t, s.gql(directorA, `mutation { creerTournoi(id:"A", nom:"Open A", homologue: false) { id } }`, nil).Errors)
	res := s.gql(directorA, `mutation { creerPartie(tournoi:"A", partie:"B-1", config:{source: logiciel, graine: 7}) { id } }`, nil)
	assert.Equal(t, "ALREADY_EXISTS", res.code())
	var a struct {
		Parties []string
		Version int
	}
	s.gql(directorA, `{ tournoi(id:"A") { parties version } }`, nil).into(t, "tournoi", &a)
	assert.Empty(t, a.Parties)
	assert.Equal(t, 1, a.Version, "nothing written into A")
}

// A server stopped between the two writes of a decision (the appeal's
// decision recorded, the game's fact missing) completes it when `arbitre
// serve` starts again: the game's fact then exists once, signed by who
// decided, and the standings follow.
func TestSecurite_DeciderAppelRepriseAuDemarrage(t *testing.T) {
	data := t.TempDir()
	director := apiToken(t, data, "--role", "director")
	commission := apiToken(t, data, "--role", "commission", "--tournoi", "A")
	s := startAPIServer(t, data)
	a := nouvelleAppelPartie(t, s, director, "A")
	require.Empty(t, s.gql(commission, deposerAppelMutation, map[string]any{"a": a.depot("R1", "L2")}).Errors)
	examiner(t, s, commission, "A", "R1", "accueilli")
	avant := a.etat(t, s, director)
	s.stop()

	// The crash: only the first write of the decision happened.
	ctx := context.Background()
	store, _, err := (&storeflags.Flags{DataDir: data, Backend: storeflags.SQLite, Init: true}).Open(ctx)
	require.NoError(t, err)
	reg, err := catalogue.Registre()
	require.NoError(t, err)
	depot := appadapters.NewDepot(store, reg)
	r1, err := depot.Charger(ctx, "A", "R1")
	require.NoError(t, err)
	require.NoError(t, r1.Decider(appeldom.Deliberation{Issue: appeldom.IssueAccueilli, Motivation: "mot valide"}, time.Now()))
	decideur := eventstore.Metadata{Actor: "jeton:decideur", Role: "commission"}
	require.NoError(t, depot.Enregistrer(ctx, r1, decideur))
	require.NoError(t, store.Close())

	s = startAPIServer(t, data)
	defer s.stop()
	var r struct {
		Statut     string
		Historique []struct{ Type string }
	}
	s.gql(director, `{ appel(tournoi:"A", id:"R1") { statut historique { type } } }`, nil).into(t, "appel", &r)
	assert.Equal(t, "decide", r.Statut)
	assert.Equal(t, struct{ Type string }{appeldom.TypeDecisionAppliquee}, r.Historique[len(r.Historique)-1], "marked applied")
	var apres etat
	require.Eventually(t, func() bool {
		apres = a.etat(t, s, director)
		return scoreOf(apres.Classement, "L2") == a.top
	}, 10*time.Second, 20*time.Millisecond, "the standings follow the completed decision")
	require.Len(t, apres.Journal, len(avant.Journal)+1, "the game's fact exists once")
	assert.Equal(t, apiActe{Type: "partie.decision_commission", Acteur: decideur.Actor, Role: decideur.Role}, apres.Journal[len(avant.Journal)])
}

// Issue 11, item 1: an arbiter limited to some tables may not act for a
// player the stored facts seat at no table; an arbiter of every table may.
func TestSecurite_ArbitreDeTablesPourUnJoueurSansTable(t *testing.T) {
	data := t.TempDir()
	director := apiToken(t, data, "--role", "director")
	limite := apiToken(t, data, "--role", "arbiter", "--tables", "1-2", "--tournoi", "A")
	partout := apiToken(t, data, "--role", "arbiter", "--tournoi", "A")
	s := startAPIServer(t, data)
	defer s.stop()
	require.Empty(t, s.gql(director, `mutation { creerTournoi(id:"A", nom:"Open", homologue: false) { id } }`, nil).Errors)
	for _, j := range []map[string]any{{"licence": "L1", "nom": "Assis", "table": 1}, {"licence": "L0", "nom": "Sans table"}} {
		require.Empty(t, s.gql(director, `mutation($j: JoueurInput!) { inscrireJoueur(tournoi:"A", joueur:$j) { version } }`,
			map[string]any{"j": j}).Errors)
	}
	require.Empty(t, s.gql(director, `mutation { creerPartie(tournoi:"A", partie:"A-1", config:{source: logiciel, graine: 7}) { version } }`, nil).Errors)
	require.Empty(t, s.gql(director, `mutation { tirer(partie:"A-1") { version } }`, nil).Errors)
	const deposer = `mutation($l: ID!) { deposerBulletin(partie:"A-1", coup:1, licence:$l, bulletin:{blank: true}) { licence } }`
	tests := []struct {
		name, token, licence, code string
	}{
		{"arbitre des tables 1-2, joueur sans table", limite, "L0", "FORBIDDEN"},
		{"arbitre des tables 1-2, joueur de la table 1", limite, "L1", ""},
		{"arbitre de toutes les tables, joueur sans table", partout, "L0", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.code, s.gql(tt.token, deposer, map[string]any{"l": tt.licence}).code())
		})
	}
}

// TestSecurite_IdentifiantDAppelParTournoi (issue 28 item 10): an appeal's
// id belongs to its tournament. B's commission filing under the id A's
// commission already used gets B's own appeal, answered as under an id
// nobody used: it learns nothing of A's. Each commission reads, lists and
// decides only its own AP1, and B's decision reaches only B's game.
func TestSecurite_IdentifiantDAppelParTournoi(t *testing.T) {
	data := t.TempDir()
	director := apiToken(t, data, "--role", "director")
	commissionA := apiToken(t, data, "--role", "commission", "--tournoi", "A")
	commissionB := apiToken(t, data, "--role", "commission", "--tournoi", "B")
	s := startAPIServer(t, data)
	defer s.stop()
	a := nouvelleAppelPartie(t, s, director, "A")
	b := nouvelleAppelPartie(t, s, director, "B")
	require.Empty(t, s.gql(commissionA, deposerAppelMutation, map[string]any{"a": a.depot("AP1", "L1")}).Errors)
	avantA := a.etat(t, s, director)

	// The same answer under A's id as under a fresh one.
	const deposer = `mutation($a: DepotAppelInput!) { deposerAppel(appel:$a) { id tournoi licence statut revision } }`
	pris := s.gql(commissionB, deposer, map[string]any{"a": b.depot("AP1", "L2")})
	neuf := s.gql(commissionB, deposer, map[string]any{"a": b.depot("AP2", "L2")})
	require.Empty(t, pris.Errors, "B files under the id A used")
	require.Empty(t, neuf.Errors)
	assert.JSONEq(t, strings.Replace(string(neuf.Data["deposerAppel"]), "AP2", "AP1", 1), string(pris.Data["deposerAppel"]))

	// Each commission reads and lists its own AP1 only.
	type vue struct {
		ID, Tournoi, Licence, Statut string
	}
	const lire = `query($t: ID!, $id: ID!) { appel(tournoi:$t, id:$id) { id tournoi licence statut } }`
	for _, tt := range []struct {
		jeton, tournoi, licence string
		liste                   []string
	}{
		{commissionA, "A", "L1", []string{"AP1"}},
		{commissionB, "B", "L2", []string{"AP1", "AP2"}},
	} {
		var v vue
		s.gql(tt.jeton, lire, map[string]any{"t": tt.tournoi, "id": "AP1"}).into(t, "appel", &v)
		assert.Equal(t, vue{ID: "AP1", Tournoi: tt.tournoi, Licence: tt.licence, Statut: "depose"}, v)
		var l []vue
		s.gql(tt.jeton, `query($t: ID!) { appels(tournoi:$t) { id tournoi licence statut } }`, map[string]any{"t": tt.tournoi}).into(t, "appels", &l)
		ids := []string{}
		for _, x := range l {
			assert.Equal(t, tt.tournoi, x.Tournoi)
			ids = append(ids, x.ID)
		}
		assert.Equal(t, tt.liste, ids)
	}
	autre := s.gql(commissionB, lire, map[string]any{"t": "A", "id": "AP1"})
	assert.Empty(t, autre.Errors)
	assert.Equal(t, "null", string(autre.Data["appel"]), "A's AP1 is unknown to B's commission")
	compose := `mutation($t: ID!, $a: ID!) { composerCommission(tournoi:$t, appel:$a, president:"M1", membres:["M1","M2","M3"]) { statut } }`
	hors := s.gql(commissionB, compose, map[string]any{"t": "A", "a": "AP1"})
	inconnu := s.gql(commissionB, compose, map[string]any{"t": "A", "a": "AP9"})
	assert.Equal(t, "APPEAL_NOT_FOUND", hors.code())
	require.NotEmpty(t, hors.Errors)
	require.NotEmpty(t, inconnu.Errors)
	assert.Equal(t, strings.ReplaceAll(inconnu.Errors[0].Message, "AP9", "AP1"), hors.Errors[0].Message)

	// B's commission decides its AP1: B's game changes, A's appeal and game do not.
	examiner(t, s, commissionB, "B", "AP1", "accueilli")
	require.Empty(t, s.gql(commissionB, `mutation { deciderAppel(tournoi:"B", appel:"AP1", issue:accueilli, motivation:"mot valide") { statut } }`, nil).Errors)
	assert.Equal(t, b.top, scoreOf(b.etat(t, s, director).Classement, "L2"))
	var va vue
	s.gql(commissionA, lire, map[string]any{"t": "A", "id": "AP1"}).into(t, "appel", &va)
	assert.Equal(t, "depose", va.Statut)
	assert.Equal(t, avantA, a.etat(t, s, director))
}
