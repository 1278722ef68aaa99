package main

import (
	"io"
	"log/slog"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbitre/domain/classique/matchclassique"
	"arbitre/domain/eventstore/eventstoretest"
	"arbitre/graphql/server"
)

// startAPIServerHorloge is startAPIServer with the game's clock set by the
// test: the chrono reads exactly what the test says.
func startAPIServerHorloge(t *testing.T, data string, h *eventstoretest.ManualClock) *apiServer {
	t.Helper()
	return startAPIServerWith(t, data, slog.New(slog.NewTextHandler(io.Discard, nil)), func(c *server.Config) {
		c.Limits = server.DefaultLimits
		c.Limits.Rate = 0 // on a zero Limits alone, the server would take DefaultLimits, rate included
		c.Resolver.Hasard = matchclassique.HasardFixe(e2eGraine)
		c.Resolver.Clock = h
	})
}

// attendreJetons waits until the server knows the tokens issued before it
// started (it reads them from the store as it starts).
func attendreJetons(t *testing.T, s *apiServer, jetons ...string) {
	t.Helper()
	for _, j := range jetons {
		e2eAPI{url: s.url, jeton: j}.attendreJetonReconnu(t)
	}
}

// apiChrono is Partie.chrono.
type apiChrono struct {
	Coup                 int    `json:"coup"`
	Etat                 string `json:"etat"`
	TempsAccordeSecondes int    `json:"tempsAccordeSecondes"`
	EcouleMs             int    `json:"ecouleMs"`
	RestantMs            int    `json:"restantMs"`
	AlerteSecondes       int    `json:"alerteSecondes"`
	HeureServeur         string `json:"heureServeur"`
}

const chronoFields = `chrono { coup etat tempsAccordeSecondes ecouleMs restantMs alerteSecondes heureServeur }`

// TestE2EChrono_Paragraphe1_3_EvenementsDuDirecteur: the director starts,
// pauses and resumes the chrono of a coup (§1.3, §3.3) over HTTP; every
// reader, the public's display subscription included, gets the same chrono
// computed from the events and the server's time; it survives a restart;
// only the game's director may touch it.
func TestE2EChrono_Paragraphe1_3_EvenementsDuDirecteur(t *testing.T) {
	data := t.TempDir()
	director := apiToken(t, data, "--role", "director")
	autre := apiToken(t, data, "--role", "director", "--tournoi", "T2")
	arbiter := apiToken(t, data, "--role", "arbiter", "--tournoi", "T1", "--tables", "1-2")
	debut := time.Now().UTC().Truncate(time.Second)
	h := eventstoretest.NewManualClock(debut)
	s := startAPIServerHorloge(t, data, h)
	attendreJetons(t, s, director, autre, arbiter)
	inscrireJoueursT1(t, s, director, 2)
	require.Empty(t, s.gql(director, `mutation { creerPartie(tournoi:"T1", partie:"T1-1", config:{source: logiciel, graine: 7, tempsParCoupSecondes: 120}) { version } }`, nil).Errors)
	require.Empty(t, s.gql(director, `mutation { tirer(partie:"T1-1") { version } }`, nil).Errors)

	lire := func(token string) apiChrono {
		var p struct{ Chrono apiChrono }
		s.gql(token, `{ partie(id:"T1-1") { `+chronoFields+` } }`, nil).into(t, "partie", &p)
		return p.Chrono
	}
	assert.Equal(t, apiChrono{Coup: 1, Etat: "arrete", TempsAccordeSecondes: 120, RestantMs: 120000, AlerteSecondes: 30,
		HeureServeur: debut.Format(time.RFC3339)}, lire(""), "§3.3: stopped until the director starts it")

	for _, m := range []string{"demarrerChrono", "suspendreChrono", "reprendreChrono"} {
		q := `mutation { ` + m + `(partie:"T1-1") { version } }`
		assert.Equal(t, "UNAUTHENTICATED", s.gql("", q, nil).code(), m)
		assert.Equal(t, "FORBIDDEN", s.gql(arbiter, q, nil).code(), m)
		assert.Equal(t, "FORBIDDEN", s.gql(autre, q, nil).code(), "%s: a director of another tournament", m)
	}
	assert.Equal(t, "WRONG_STATE", s.gql(director, `mutation { suspendreChrono(partie:"T1-1") { version } }`, nil).code())

	display := s.subscribe("", `subscription { coupAnnonce(partie:"T1-1") { coup `+chronoFields+` } }`, nil)
	var vu struct{ Chrono apiChrono }
	display.next(t, "coupAnnonce", &vu)
	assert.Equal(t, "arrete", vu.Chrono.Etat)

	var p struct{ Chrono apiChrono }
	s.gql(director, `mutation { demarrerChrono(partie:"T1-1", clientMutationId:"chrono-1") { `+chronoFields+` } }`, nil).into(t, "demarrerChrono", &p)
	assert.Equal(t, "en_cours", p.Chrono.Etat)
	require.Empty(t, s.gql(director, `mutation { demarrerChrono(partie:"T1-1", clientMutationId:"chrono-1") { version } }`, nil).Errors, "a retry is applied once")
	assert.Equal(t, "WRONG_STATE", s.gql(director, `mutation { demarrerChrono(partie:"T1-1") { version } }`, nil).code(), "§3.3: once per coup")
	display.next(t, "coupAnnonce", &vu)
	assert.Equal(t, "en_cours", vu.Chrono.Etat, "the display follows")

	h.Advance(20 * time.Second)
	require.Empty(t, s.gql(director, `mutation { suspendreChrono(partie:"T1-1") { version } }`, nil).Errors)
	h.Advance(5 * time.Minute)
	c := lire("")
	assert.Equal(t, "en_pause", c.Etat)
	assert.Equal(t, 20000, c.EcouleMs, "a paused chrono does not run")
	require.Empty(t, s.gql(director, `mutation { reprendreChrono(partie:"T1-1") { version } }`, nil).Errors)
	display.next(t, "coupAnnonce", &vu)
	assert.Equal(t, "en_pause", vu.Chrono.Etat)
	display.next(t, "coupAnnonce", &vu)
	assert.Equal(t, "en_cours", vu.Chrono.Etat)
	assert.Equal(t, h.Now().Format(time.RFC3339), vu.Chrono.HeureServeur, "the display gets the server's time to compute its offset")
	assert.Equal(t, 100000, vu.Chrono.RestantMs)
	h.Advance(10 * time.Second)

	// A restart: the chrono is rebuilt from the events.
	s.stop()
	s = startAPIServerHorloge(t, data, h)
	defer s.stop()
	attendreJetons(t, s, director)
	c = lire("")
	assert.Equal(t, "en_cours", c.Etat)
	assert.Equal(t, 30000, c.EcouleMs)
	h.Advance(2 * time.Minute)
	c = lire("")
	assert.Equal(t, "ecoule", c.Etat, "§3.3 « terminé »")
	assert.Equal(t, 0, c.RestantMs)

	require.Empty(t, s.gql(director, `mutation { ramasser(partie:"T1-1") { version } }`, nil).Errors)
	assert.Equal(t, "termine", lire("").Etat, "the ramassage closes the chrono")
}

// TestE2EInscrireJoueurs_ListeToutOuRien: the director registers a pasted
// list in one write; a list with bad lines is refused with every line named
// and registers nobody; only the tournament's director may do it.
func TestE2EInscrireJoueurs_ListeToutOuRien(t *testing.T) {
	data := t.TempDir()
	director := apiToken(t, data, "--role", "director")
	autre := apiToken(t, data, "--role", "director", "--tournoi", "T2")
	s := startAPIServer(t, data)
	defer s.stop()
	attendreJetons(t, s, director, autre)
	require.Empty(t, s.gql(director, `mutation { creerTournoi(id:"T1", nom:"Open de Vichy", homologue: false) { id } }`, nil).Errors)

	q := `mutation($j: [JoueurInput!]!) { inscrireJoueurs(tournoi:"T1", joueurs:$j) { version joueurs { licence nom club serie table } } }`
	mauvaise := map[string]any{"j": []any{
		map[string]any{"licence": "L1", "nom": "Ana", "table": 1},
		map[string]any{"licence": "L2", "nom": "", "table": 1},
		map[string]any{"licence": "L1", "nom": "Bob", "table": 2},
	}}
	assert.Equal(t, "UNAUTHENTICATED", s.gql("", q, mauvaise).code())
	assert.Equal(t, "FORBIDDEN", s.gql(autre, q, mauvaise).code())
	res := s.gql(director, q, mauvaise)
	require.Equal(t, "INVALID_PLAYER", res.code())
	assert.Contains(t, res.Errors[0].Message, "ligne 2")
	assert.Contains(t, res.Errors[0].Message, "ligne 3 : la licence L1 est déjà en ligne 1")
	var tr struct {
		Version int
		Joueurs []struct {
			Licence, Nom string
			Club, Serie  *string
			Table        *int
		}
	}
	s.gql(director, `{ tournoi(id:"T1") { version joueurs { licence nom } } }`, nil).into(t, "tournoi", &tr)
	assert.Empty(t, tr.Joueurs, "nothing written")
	assert.Equal(t, 1, tr.Version)

	bonne := map[string]any{"j": []any{
		map[string]any{"licence": "L1", "nom": "Ana", "club": "Vichy", "serie": "A", "table": 1},
		map[string]any{"licence": "L2", "nom": "Bob", "table": 2},
	}}
	s.gql(director, q, bonne).into(t, "inscrireJoueurs", &tr)
	assert.Equal(t, 3, tr.Version)
	require.Len(t, tr.Joueurs, 2)
	assert.Equal(t, "Vichy", *tr.Joueurs[0].Club)
	assert.Equal(t, 2, *tr.Joueurs[1].Table)
}

// TestE2EAvancementBulletins_ParTable: the director (or the commission) sees
// a coup's bulletins per table, and the bulletins the results still await;
// the public and the arbiters do not.
func TestE2EAvancementBulletins_ParTable(t *testing.T) {
	data := t.TempDir()
	director := apiToken(t, data, "--role", "director")
	arbiter := apiToken(t, data, "--role", "arbiter", "--tournoi", "T1", "--tables", "1-2")
	autre := apiToken(t, data, "--role", "director", "--tournoi", "T2")
	s := startAPIServer(t, data)
	defer s.stop()
	attendreJetons(t, s, director, arbiter, autre)
	inscrireJoueursT1(t, s, director, 3)
	require.Empty(t, s.gql(director, `mutation { creerPartie(tournoi:"T1", partie:"T1-1", config:{source: logiciel, graine: 7}) { version } }`, nil).Errors)
	require.Empty(t, s.gql(director, `mutation { tirer(partie:"T1-1") { version } }`, nil).Errors)
	require.Empty(t, s.gql(arbiter, `mutation { deposerBulletin(partie:"T1-1", coup:1, licence:"L1", bulletin:{blank:true}) { licence } }`, nil).Errors)

	q := `{ avancementBulletins(partie:"T1-1", coup:1) { table joueurs saisis corriges manquants renvoyes } }`
	attente := `{ bulletinsEnAttente(partie:"T1-1") { coup licence nom table } }`
	for _, doc := range []string{q, attente} {
		assert.Equal(t, "UNAUTHENTICATED", s.gql("", doc, nil).code(), doc)
		assert.Equal(t, "FORBIDDEN", s.gql(arbiter, doc, nil).code(), doc)
		assert.Equal(t, "FORBIDDEN", s.gql(autre, doc, nil).code(), doc)
	}
	var enAttente []struct{ Coup int }
	s.gql(director, attente, nil).into(t, "bulletinsEnAttente", &enAttente)
	assert.Empty(t, enAttente, "nothing awaited before the top: the coup does not count yet")
	assert.Equal(t, "NOT_FOUND", s.gql(director, `{ bulletinsEnAttente(partie:"inconnue") { coup } }`, nil).code())
	var tables []struct{ Table, Joueurs, Saisis, Corriges, Manquants, Renvoyes int }
	s.gql(director, q, nil).into(t, "avancementBulletins", &tables)
	assert.Equal(t, []struct{ Table, Joueurs, Saisis, Corriges, Manquants, Renvoyes int }{
		{Table: 1, Joueurs: 1, Saisis: 1}, {Table: 2, Joueurs: 1, Manquants: 1}, {Table: 3, Joueurs: 1, Manquants: 1},
	}, tables)
	assert.Equal(t, "NOT_FOUND", s.gql(director, `{ avancementBulletins(partie:"inconnue", coup:1) { table } }`, nil).code())
}
