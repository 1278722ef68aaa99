package main

import (
	"bufio"
	"encoding/json"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// docBlock is one request of docs/api.md: its GraphQL, the token its first
// line names, and the answer's data shown after it (empty: not shown).
type docBlock struct {
	line         int
	jeton, query string
	attendu      string
}

var reJeton = regexp.MustCompile(`^# jeton : (directeur|arbitre|aucun)$`)

// docBlocks reads the ```graphql blocks of a Markdown file, each with the
// ```json block that follows it before the next request, if any.
func docBlocks(t *testing.T, path string) []docBlock {
	t.Helper()
	f, err := os.Open(path)
	require.NoError(t, err)
	defer f.Close()
	var blocks []docBlock
	var cur *strings.Builder
	lang, n := "", 0
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		n++
		l := sc.Text()
		switch {
		case cur == nil && (l == "```graphql" || l == "```json"):
			lang, cur = l[3:], &strings.Builder{}
			if lang == "graphql" {
				blocks = append(blocks, docBlock{line: n})
			}
		case cur != nil && l == "```":
			b := &blocks[len(blocks)-1]
			if lang == "graphql" {
				b.query = cur.String()
				m := reJeton.FindStringSubmatch(strings.SplitN(b.query, "\n", 2)[0])
				require.NotNil(t, m, "%s:%d: the block's first line names its token", path, b.line)
				b.jeton = m[1]
			} else {
				require.NotEmpty(t, blocks, "%s:%d: an answer before any request", path, n)
				b.attendu = cur.String()
			}
			cur = nil
		case cur != nil:
			cur.WriteString(l + "\n")
		}
	}
	require.NoError(t, sc.Err())
	require.Nil(t, cur, "%s: a block is not closed", path)
	return blocks
}

// TestDocs_APITour runs the requests of docs/api.md in order against a real
// server, each with the token it names, and compares each answer with the
// one the page shows: the tour cannot rot.
func TestDocs_APITour(t *testing.T) {
	data := t.TempDir()
	jetons := map[string]string{
		"directeur": apiToken(t, data, "--role", "director"),
		"arbitre":   apiToken(t, data, "--role", "arbiter", "--tables", "1-2"),
		"aucun":     "",
	}
	s := startAPIServer(t, data)
	defer s.stop()

	blocks := docBlocks(t, "../../docs/api.md")
	require.GreaterOrEqual(t, len(blocks), 10)
	for _, b := range blocks {
		res := s.gql(jetons[b.jeton], b.query, nil)
		require.Empty(t, res.Errors, "docs/api.md:%d", b.line)
		got, err := json.MarshalIndent(res.Data, "", "  ")
		require.NoError(t, err)
		require.NotEmpty(t, b.attendu, "docs/api.md:%d: no answer shown; the server answers\n%s", b.line, got)
		assert.JSONEq(t, b.attendu, string(got), "docs/api.md:%d", b.line)
	}
}

// motsShell splits a command line of the guide as a shell does for these
// simple lines: on spaces, a "double-quoted" word kept whole.
func motsShell(ligne string) []string {
	var mots []string
	var mot strings.Builder
	guillemets, dansMot := false, false
	for _, r := range ligne {
		switch {
		case r == '"':
			guillemets, dansMot = !guillemets, true
		case r == ' ' && !guillemets:
			if dansMot {
				mots = append(mots, mot.String())
				mot.Reset()
			}
			dansMot = false
		default:
			mot.WriteRune(r)
			dansMot = true
		}
	}
	if dansMot {
		mots = append(mots, mot.String())
	}
	return mots
}

// TestDocs_GuideDirecteur: every command docs/directeur.md gives exists
// with the options it writes, each `arbitre token create` of the guide runs
// and prints a token, and every screenshot it shows is in docs/screenshots.
func TestDocs_GuideDirecteur(t *testing.T) {
	const guide = "../../docs/directeur.md"
	texte, err := os.ReadFile(guide)
	require.NoError(t, err)
	data := t.TempDir()
	commandes, dansBloc := 0, false
	for n, l := range strings.Split(string(texte), "\n") {
		switch {
		case l == "```sh":
			dansBloc = true
			continue
		case l == "```":
			dansBloc = false
			continue
		}
		if !dansBloc || !strings.HasPrefix(l, "arbitre ") {
			continue
		}
		commandes++
		mots := motsShell(l)[1:]
		cmd, args, err := rootCmd.Find(mots)
		require.NoError(t, err, "%s:%d: %s", guide, n+1, l)
		require.NotEqual(t, rootCmd, cmd, "%s:%d: %s names no command", guide, n+1, l)
		var options []string // without --data: the guide's folder is the test's
		for i := 0; i < len(args); i++ {
			switch a := args[i]; {
			case strings.HasPrefix(a, "--"):
				nom, _, _ := strings.Cut(a[2:], "=")
				require.NotNil(t, cmd.Flags().Lookup(nom), "%s:%d: %s has no option --%s", guide, n+1, cmd.CommandPath(), nom)
				if nom == "data" {
					i++
					continue
				}
			case strings.HasPrefix(a, "-"):
				require.NotNil(t, cmd.Flags().ShorthandLookup(a[1:]), "%s:%d: %s has no option %s", guide, n+1, cmd.CommandPath(), a)
			}
			options = append(options, args[i])
		}
		if cmd.CommandPath() == "arbitre token create" {
			secret, err := runTokenCreate(t, data, options...)
			require.NoError(t, err, "%s:%d: %s", guide, n+1, l)
			assert.NotEmpty(t, secret, "%s:%d: a token is printed", guide, n+1)
		}
	}
	assert.GreaterOrEqual(t, commandes, 8, "the guide's commands were read")
	for _, m := range regexp.MustCompile(`\]\((screenshots/[^)]+\.png)\)`).FindAllStringSubmatch(string(texte), -1) {
		assert.FileExists(t, "../../docs/"+m[1])
	}
}
