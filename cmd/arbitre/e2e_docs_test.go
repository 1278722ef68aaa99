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
