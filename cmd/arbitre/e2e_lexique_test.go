package main

import (
	"database/sql"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbitre/domain/eventstore/sqlitestore"
	"arbitre/engine/lexicon"
	"arbitre/graphql/server"
)

// compiledLexicon compiles a small word list into dir/name.gaddag, as
// `arbitre lexicon compile` does, and returns its path and identity.
func compiledLexicon(t *testing.T, dir, name string, words ...string) (string, lexicon.Identite) {
	t.Helper()
	lex, err := lexicon.Compile(strings.NewReader(strings.Join(words, "\n")), name)
	require.NoError(t, err)
	path := filepath.Join(dir, name+".gaddag")
	f, err := os.Create(path)
	require.NoError(t, err)
	_, err = lex.WriteTo(f)
	require.NoError(t, err)
	require.NoError(t, f.Close())
	return path, lex.Identite()
}

// streamEvents counts the events of a stream in the SQLite store.
func streamEvents(t *testing.T, data, stream string) int {
	t.Helper()
	db, err := sql.Open("sqlite", filepath.Join(data, sqlitestore.FileName))
	require.NoError(t, err)
	defer db.Close()
	var n int
	require.NoError(t, db.QueryRow(`SELECT COUNT(*) FROM events WHERE stream = ?`, stream).Scan(&n))
	return n
}

// TestLexique_PartieJugeeAvecSonLexique: a game created under lexicon A is
// refused with LEXICON_NOT_LOADED (nothing written) by a server restarted
// without A, judged with A by a server holding B (its default) and A, and
// replayed with A by the commission and by `arbitre replay`, which say so.
func TestLexique_PartieJugeeAvecSonLexique(t *testing.T) {
	data, lexDir := t.TempDir(), t.TempDir()
	// FGBACDE is a word of A only: neither B nor the shipped list has it.
	pathA, idA := compiledLexicon(t, lexDir, "lexique-A", "FGBACDE", "CADE")
	pathB, _ := compiledLexicon(t, lexDir, "lexique-B", "ABCDEFG", "CADE")
	director := apiToken(t, data, "--role", "director")
	commission := apiToken(t, data, "--role", "commission")
	start := func(lexicons ...string) *apiServer {
		return startAPIServerLexicons(t, data, lexicons, slog.New(slog.NewTextHandler(io.Discard, nil)),
			func(c *server.Config) { c.Limits.Rate = 0 })
	}
	vars := map[string]any{"p": "T-1"}
	retenir := `mutation($r: String!) { retenirTop(partie:"T-1", reference:$r, mot:"FGBACDE") { version } }`

	s := start(pathA)
	require.Empty(t, s.gql(director, `mutation { creerTournoi(id:"T", nom:"Open") { id } }`, nil).Errors)
	require.Empty(t, s.gql(director, `mutation($j: JoueurInput!) { inscrireJoueur(tournoi:"T", joueur:$j) { version } }`,
		map[string]any{"j": map[string]any{"licence": "L1", "nom": "Joueur 1", "table": 1}}).Errors)
	require.Empty(t, s.gql(director, `mutation { creerPartie(tournoi:"T", partie:"T-1", config:{source: directeur}) { version } }`, nil).Errors)
	require.Empty(t, s.gql(director, `mutation($p: ID!) { tirer(partie:$p, lettres:"ABCDEFG") { version } }`, vars).Errors)
	s.stop()

	// Restarted with the shipped list only: refused, named, nothing written.
	avant := streamEvents(t, data, "partie-T-1")
	s = start()
	refus := s.gql(director, retenir, map[string]any{"r": "H8"})
	require.Equal(t, "LEXICON_NOT_LOADED", refus.code(), "%+v", refus.Errors)
	assert.Equal(t, "lexique-A", refus.Errors[0].Extensions["lexique"])
	assert.Contains(t, refus.Errors[0].Message, idA.String())
	assert.Equal(t, "LEXICON_NOT_LOADED", s.gql(director, `mutation { rejeter(partie:"T-1") { version } }`, nil).code())
	bulletin := map[string]any{"p": "T-1", "b": map[string]any{"solutions": []any{map[string]any{"word": "FGBACDE", "ref": "H8", "score": 0}}}}
	deposer := `mutation($p: ID!, $b: BulletinInput!) { deposerBulletin(partie:$p, coup:1, licence:"L1", bulletin:$b) { licence } }`
	assert.Equal(t, "LEXICON_NOT_LOADED", s.gql(director, deposer, bulletin).code())
	assert.Equal(t, "LEXICON_NOT_LOADED", s.gql(commission, `{ replay(partie:"T-1", coup:1) { coup } }`, nil).code())
	s.stop()
	assert.Equal(t, avant, streamEvents(t, data, "partie-T-1"), "a refused command writes nothing")

	// Restarted with B (the default) and A: the game is judged with A.
	s = start(pathB, pathA)
	var p apiPartie
	s.gql(director, `query($p: ID!) { partie(id:$p) { solutions { mot reference score admissible } } }`, vars).into(t, "partie", &p)
	require.NotEmpty(t, p.Solutions)
	top := p.Solutions[0]
	assert.Equal(t, "FGBACDE", top.Mot, "the tops are A's")
	bulletin["b"] = map[string]any{"solutions": []any{map[string]any{"word": "FGBACDE", "ref": top.Reference, "score": top.Score}}}
	require.Empty(t, s.gql(director, deposer, bulletin).Errors)
	require.Empty(t, s.gql(director, retenir, map[string]any{"r": top.Reference}).Errors, "a word of A only is the top")
	var corrige struct{ Decision struct{ Paye int } }
	s.gql(director, `mutation { corrigerBulletin(partie:"T-1", coup:1, licence:"L1") { decision { paye } } }`, nil).into(t, "corrigerBulletin", &corrige)
	assert.Equal(t, top.Score, corrige.Decision.Paye, "the bulletin is corrected with A")
	var replay struct {
		Lexique string
		Top     struct{ Mot string }
	}
	s.gql(commission, `{ replay(partie:"T-1", coup:1) { lexique top { mot } } }`, nil).into(t, "replay", &replay)
	assert.Equal(t, idA.String(), replay.Lexique)
	assert.Equal(t, "FGBACDE", replay.Top.Mot)
	s.stop()

	out, err := runArbitre(t, "replay", "T-1", "1", "--data", data, "--lexicon", pathB, "--lexicon", pathA)
	require.NoError(t, err, out)
	assert.Contains(t, out, "lexique : "+idA.String())
	_, err = runArbitre(t, "replay", "T-1", "1", "--data", data, "--lexicon", pathB)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "LEXICON_NOT_LOADED")
	assert.Contains(t, err.Error(), idA.String())
}

// TestLexique_MatchClassiqueJugeAvecSonLexique: a classique match created
// under lexicon A is refused with LEXICON_NOT_LOADED (nothing written) without
// A, and its contestation is judged with A beside B: a word of A only stands.
func TestLexique_MatchClassiqueJugeAvecSonLexique(t *testing.T) {
	data, lexDir := t.TempDir(), t.TempDir()
	pathA, idA := compiledLexicon(t, lexDir, "lexique-A", "FGBACDE", "CADE")
	pathB, _ := compiledLexicon(t, lexDir, "lexique-B", "ABCDEFG", "CADE")
	director := apiToken(t, data, "--role", "director")
	arbiter := apiToken(t, data, "--role", "arbiter", "--tables", "1-5", "--tournoi", "C1")
	start := func(lexicons ...string) *apiServer {
		return startAPIServerLexicons(t, data, lexicons, slog.New(slog.NewTextHandler(io.Discard, nil)),
			func(c *server.Config) { c.Limits.Rate = 0 })
	}

	s := start(pathA)
	match, m := premierMatchClassique(t, s, director)
	s.stop()

	tirer := `mutation($m: ID!, $j: ID!, $l: String) { tirerLettres(match:$m, joueur:$j, lettres:$l) { ` + matchCouvertureFields + ` } }`
	premier := map[string]any{"m": match, "j": m.Joueurs[0], "l": "ABCDEFG"}
	avant := streamEvents(t, data, "match-"+match)
	s = start()
	refus := s.gql(arbiter, tirer, premier)
	require.Equal(t, "LEXICON_NOT_LOADED", refus.code(), "%+v", refus.Errors)
	assert.Contains(t, refus.Errors[0].Message, idA.String())
	s.stop()
	assert.Equal(t, avant, streamEvents(t, data, "match-"+match), "a refused command writes nothing")

	s = start(pathB, pathA)
	defer s.stop()
	s.gql(arbiter, tirer, premier).into(t, "tirerLettres", &m)
	s.gql(arbiter, tirer, map[string]any{"m": match, "j": m.Joueurs[1], "l": "AEINRST"}).into(t, "tirerLettres", &m)
	require.Equal(t, "en_cours", m.Phase)
	s.gql(arbiter, `mutation($m: ID!, $j: ID!) { placerMot(match:$m, joueur:$j, reference:"H8", mot:"FGBACDE") { `+matchCouvertureFields+` } }`,
		map[string]any{"m": match, "j": m.Joueurs[0]}).into(t, "placerMot", &m)
	joue := m.Scores[0]
	require.Positive(t, joue)
	s.gql(arbiter, `mutation($m: ID!, $j: ID!) { contester(match:$m, joueur:$j, mots:["FGBACDE"]) { `+matchCouvertureFields+` } }`,
		map[string]any{"m": match, "j": m.Joueurs[1]}).into(t, "contester", &m)
	assert.Equal(t, joue, m.Scores[0], "§5: the word is in A, the play stands")
	assert.NotEqual(t, "retrait", m.Journal[len(m.Journal)-1].Genre)
}
