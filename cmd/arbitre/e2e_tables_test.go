package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbitre/domain/classique/matchclassique"
	dupadapters "arbitre/domain/duplicate/adapters"
	"arbitre/domain/eventstore"
	"arbitre/domain/eventstore/sqlitestore"
	tadapters "arbitre/domain/tournoi/adapters"
	"arbitre/graphql/server"
)

// Issue 17, « saisie des bulletins sans conflits »: twelve arbiters of
// different tables enter their bulletins at the same moment, over HTTP,
// without sending a version. None gets CONFLICT (before, every bulletin of
// a game went through the game's one stream and the server's retries ran
// out), and every bulletin is listed once.
func TestE2ESaisie_ArbitresDeTablesDifferentesSansConflit(t *testing.T) {
	const arbitres, parArbitre = 12, 2
	data := t.TempDir()
	director := apiToken(t, data, "--role", "director")
	jetons := make([]string, arbitres)
	for k := range jetons {
		tables := fmt.Sprintf("%d-%d", k*parArbitre+1, (k+1)*parArbitre)
		jetons[k] = apiToken(t, data, "--role", "arbiter", "--tables", tables, "--tournoi", "T1")
	}
	s := startAPIServer(t, data)
	defer s.stop()
	inscrireJoueursT1(t, s, director, arbitres*parArbitre)
	require.Empty(t, s.gql(director, `mutation { creerPartie(tournoi:"T1", partie:"T1-1", config:{source: logiciel, graine: 7}) { version } }`, nil).Errors)
	require.Empty(t, s.gql(director, `mutation { tirer(partie:"T1-1") { version } }`, nil).Errors)

	deposer := `mutation($l: ID!, $id: String!) { deposerBulletin(partie:"T1-1", coup:1, licence:$l, bulletin:{blank:true}, clientMutationId:$id) { licence } }`
	var mu sync.Mutex
	codes := map[string][]string{}
	var depart, fin sync.WaitGroup
	depart.Add(1)
	for k, jeton := range jetons {
		fin.Go(func() {
			depart.Wait()
			for i := 1; i <= parArbitre; i++ {
				licence := fmt.Sprintf("L%d", k*parArbitre+i)
				res := s.gql(jeton, deposer, map[string]any{"l": licence, "id": "saisie-" + licence})
				if code := res.code(); code != "" {
					mu.Lock()
					codes[code] = append(codes[code], licence)
					mu.Unlock()
				}
			}
		})
	}
	depart.Done()
	fin.Wait()
	assert.Empty(t, codes, "no answer but success, CONFLICT least of all")

	var listes struct{ Bulletins []struct{ Licence string } }
	s.gql(director, `query { bulletins(partie:"T1-1", coup:1) { licence } }`, nil).into(t, "bulletins", &listes.Bulletins)
	vus := map[string]int{}
	for _, b := range listes.Bulletins {
		vus[b.Licence]++
	}
	for i := 1; i <= arbitres*parArbitre; i++ {
		assert.Equal(t, 1, vus[fmt.Sprintf("L%d", i)], "L%d listed once", i)
	}
}

// Issue 34 item 3: a bulletin's scope follows the tournament. A player
// registered between two bulletins (after his tournament's tables were
// kept for the first) and added late to the game (§6.2) is entered by the
// arbiter of his table at once, and not by another's.
func TestIssue34_JoueurInscritEntreDeuxBulletinsSaisiParSaTable(t *testing.T) {
	data := t.TempDir()
	director := apiToken(t, data, "--role", "director")
	table1 := apiToken(t, data, "--role", "arbiter", "--tables", "1", "--tournoi", "T1")
	table5 := apiToken(t, data, "--role", "arbiter", "--tables", "5", "--tournoi", "T1")
	s := startAPIServer(t, data)
	defer s.stop()
	inscrireJoueursT1(t, s, director, 4)
	require.Empty(t, s.gql(director, `mutation { creerPartie(tournoi:"T1", partie:"T1-1", config:{source: logiciel, graine: 7}) { version } }`, nil).Errors)
	require.Empty(t, s.gql(director, `mutation { tirer(partie:"T1-1") { version } }`, nil).Errors)
	deposer := `mutation($l: ID!) { deposerBulletin(partie:"T1-1", coup:1, licence:$l, bulletin:{blank:true}) { licence } }`
	require.Empty(t, s.gql(table1, deposer, map[string]any{"l": "L1"}).Errors)

	require.Empty(t, s.gql(director, `mutation { inscrireJoueur(tournoi:"T1", joueur:{licence:"L5", nom:"Retardataire", table:5}) { version } }`, nil).Errors)
	require.Empty(t, s.gql(director, `mutation { arriveeEnRetard(partie:"T1-1", licence:"L5") { version } }`, nil).Errors)
	var partie apiPartie
	s.gql(director, `query { partie(id:"T1-1") { solutions { mot reference score admissible } } }`, nil).into(t, "partie", &partie)
	require.NotEmpty(t, partie.Solutions)
	require.Empty(t, s.gql(director, `mutation($r: String!, $m: String!) { retenirTop(partie:"T1-1", reference:$r, mot:$m) { version } }`,
		map[string]any{"r": partie.Solutions[0].Reference, "m": partie.Solutions[0].Mot}).Errors)
	require.Empty(t, s.gql(director, `mutation { tirer(partie:"T1-1") { version } }`, nil).Errors)

	deposer2 := `mutation($l: ID!) { deposerBulletin(partie:"T1-1", coup:2, licence:$l, bulletin:{blank:true}) { licence } }`
	assert.Equal(t, "FORBIDDEN", s.gql(table1, deposer2, map[string]any{"l": "L5"}).code(), "L5 is not of table 1")
	require.Empty(t, s.gql(table5, deposer2, map[string]any{"l": "L5"}).Errors, "the arbiter of L5's table enters his bulletin")
	require.Empty(t, s.gql(table1, deposer2, map[string]any{"l": "L1"}).Errors)
}

// lecturesDuMagasin is the store, counting the reads of each stream, by
// ReadStream or ReadSections (a game's family).
type lecturesDuMagasin struct {
	*sqlitestore.Store
	mu sync.Mutex
	n  map[string]int
}

func (s *lecturesDuMagasin) compter(stream string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.n[stream]++
}

// lectures is how many times stream was read since the last remettre.
func (s *lecturesDuMagasin) lectures(stream string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.n[stream]
}

func (s *lecturesDuMagasin) remettre() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.n = map[string]int{}
}

func (s *lecturesDuMagasin) ReadStream(ctx context.Context, stream string, from uint64, limit int) ([]eventstore.Event, error) {
	s.compter(stream)
	return s.Store.ReadStream(ctx, stream, from, limit)
}

func (s *lecturesDuMagasin) ReadSections(ctx context.Context, stream string, from uint64) ([]eventstore.Event, error) {
	s.compter(stream)
	return s.Store.ReadSections(ctx, stream, from)
}

// brancher makes the resolver's log and its tournaments' and games'
// repositories read through s (they were built on the store before the
// server's configuration ran).
func (s *lecturesDuMagasin) brancher(c *server.Config) {
	s.Store, s.n = c.Resolver.Journal.(*sqlitestore.Store), map[string]int{}
	c.Resolver.Journal = s
	c.Resolver.TournoiDepot = tadapters.NewDepot(s, c.Resolver.Registry)
	c.Resolver.Parties = dupadapters.NewDepot(s, c.Resolver.Registry, c.Resolver.Moteur)
}

// serveurCompte is a server whose reads of the store magasin counts.
func serveurCompte(t *testing.T, data string, magasin *lecturesDuMagasin) *apiServer {
	return startAPIServerWith(t, data, slog.New(slog.NewTextHandler(io.Discard, nil)), func(c *server.Config) {
		c.Limits = server.DefaultLimits
		c.Limits.Rate = 0
		c.Resolver.Hasard = matchclassique.HasardFixe(e2eGraine)
		magasin.brancher(c)
	})
}

// Issue 34 item 3 (« tournoi inchangé »): a registered player's table never
// changes (the tournament refuses a licence registered already), so once a
// tournament's tables are kept, a bulletin of a player they hold reads
// nothing of the tournament. Before, each bulletin read the tournament's
// stream once to learn whether it had moved.
func TestIssue34_BulletinSansLectureDuTournoi(t *testing.T) {
	const joueurs = 8
	data := t.TempDir()
	director := apiToken(t, data, "--role", "director")
	arbitre := apiToken(t, data, "--role", "arbiter", "--tables", fmt.Sprintf("1-%d", joueurs), "--tournoi", "T1")
	magasin := &lecturesDuMagasin{}
	s := serveurCompte(t, data, magasin)
	defer s.stop()
	inscrireJoueursT1(t, s, director, joueurs)
	require.Empty(t, s.gql(director, `mutation { creerPartie(tournoi:"T1", partie:"T1-1", config:{source: logiciel, graine: 7}) { version } }`, nil).Errors)
	require.Empty(t, s.gql(director, `mutation { tirer(partie:"T1-1") { version } }`, nil).Errors)
	deposer := `mutation($l: ID!) { deposerBulletin(partie:"T1-1", coup:1, licence:$l, bulletin:{blank:true}) { licence } }`
	require.Empty(t, s.gql(arbitre, deposer, map[string]any{"l": "L1"}).Errors)

	magasin.remettre()
	for i := 2; i <= joueurs; i++ {
		require.Empty(t, s.gql(arbitre, deposer, map[string]any{"l": fmt.Sprintf("L%d", i)}).Errors)
	}
	assert.Zero(t, magasin.lectures("tournoi-T1"), "reads of the tournament's stream for %d bulletins", joueurs-1)
}

// Session 11 review: the director's progress of a coup's bulletins per
// table read the game twice — once for the players the coup awaits, whose
// tables it looked up, once more to count their bulletins —, so a player
// added late (§6.2) between the two reads counted under table 0. The
// progress is now counted on the one game read.
func TestRevue_AvancementDesBulletinsSurUneSeuleLectureDeLaPartie(t *testing.T) {
	data := t.TempDir()
	director := apiToken(t, data, "--role", "director")
	magasin := &lecturesDuMagasin{}
	s := serveurCompte(t, data, magasin)
	defer s.stop()
	inscrireJoueursT1(t, s, director, 4)
	require.Empty(t, s.gql(director, `mutation { creerPartie(tournoi:"T1", partie:"T1-1", config:{source: logiciel, graine: 7}) { version } }`, nil).Errors)
	require.Empty(t, s.gql(director, `mutation { tirer(partie:"T1-1") { version } }`, nil).Errors)

	magasin.remettre()
	var avancement []struct{ Table, Joueurs, Manquants int }
	s.gql(director, `query { avancementBulletins(partie:"T1-1", coup:1) { table joueurs manquants } }`, nil).into(t, "avancementBulletins", &avancement)
	require.NotEmpty(t, avancement)
	assert.Equal(t, 1, magasin.lectures("partie-T1-1"), "reads of the game for one progress")
}
