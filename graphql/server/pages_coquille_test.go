package server

import (
	"io"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/labstack/echo/v4"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbitre/graphql/server/web"
)

// TestPages_UneCoquilleEtDesModules (issue 33 item 7): the hall pages are
// served from one shell, which alone holds the head (its meta, the
// stylesheets' links and the script), each page giving its title, its body
// and one ES module; the JavaScript shares code by import and export only,
// never through a global namespace with a load order kept by hand.
func TestPages_UneCoquilleEtDesModules(t *testing.T) {
	e := echo.New()
	pages(e)
	servir := func(adresse string) *http.Response {
		rec := httptest.NewRecorder()
		e.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, adresse, nil))
		return rec.Result()
	}

	t.Run("one head, in the shell", func(t *testing.T) {
		noms, err := fs.Glob(web.Files, "*.html")
		require.NoError(t, err)
		var tetes []string
		for _, nom := range noms {
			b, err := web.Files.ReadFile(nom)
			require.NoError(t, err)
			for _, balise := range []string{"<!doctype", "<html", "<head>", "<meta", "<title", "<link", "<script", "<body"} {
				if strings.Contains(strings.ToLower(string(b)), balise) {
					tetes = append(tetes, nom+" "+balise)
				}
			}
		}
		sort.Strings(tetes)
		assert.Equal(t, []string{"shell.html <!doctype", "shell.html <body", "shell.html <head>", "shell.html <html",
			"shell.html <link", "shell.html <meta", "shell.html <script", "shell.html <title"}, tetes,
			"only the shell writes the document, its head and the script; a page's file is its body")
	})

	modules := map[string]bool{}
	t.Run("every page from the shell, with its module", func(t *testing.T) {
		var adresses []string
		for _, p := range pagesSalle {
			for _, r := range p.routes {
				adresses = append(adresses, strings.ReplaceAll(r, "*", "X"))
			}
		}
		require.NotEmpty(t, adresses)
		var entete string
		reScript := regexp.MustCompile(`<script\b[^>]*>`)
		reModule := regexp.MustCompile(`^<script type="module" src="/static/([\w-]+\.js)">$`)
		for _, adresse := range adresses {
			resp := servir(adresse)
			require.Equal(t, http.StatusOK, resp.StatusCode, adresse)
			assert.Equal(t, "text/html; charset=UTF-8", resp.Header.Get("Content-Type"), adresse)
			b, err := io.ReadAll(resp.Body)
			require.NoError(t, err)
			html := string(b)
			scripts := reScript.FindAllString(html, -1)
			if assert.Len(t, scripts, 1, "%s: one script, the page's module", adresse) {
				m := reModule.FindStringSubmatch(scripts[0])
				if assert.NotNil(t, m, "%s: %s is not a module", adresse, scripts[0]) {
					modules[m[1]] = true
				}
			}
			// The head, its title and stylesheets aside, is the shell's.
			tete, _, _ := strings.Cut(html, "<body")
			tete = regexp.MustCompile(`<title>[^<]*</title>|<link rel="stylesheet"[^>]*>\n?`).ReplaceAllString(tete, "")
			if entete == "" {
				entete = tete
			}
			assert.Equal(t, entete, tete, "%s: the head is the shell's", adresse)
		}
	})

	t.Run("modules, no global namespace", func(t *testing.T) {
		noms, err := fs.Glob(web.Files, "*.js")
		require.NoError(t, err)
		exports := map[string]map[string]bool{}
		imports := map[string][]importJS{}
		for _, nom := range noms {
			b, err := web.Files.ReadFile(nom)
			require.NoError(t, err)
			src := string(b)
			// The one global left is what the bulletin entry publishes of its
			// own timings for the tests (saisie.js); no code is shared by it.
			assert.NotRegexp(t, `\bArbitre\s*\.|window\.Arbitre`, strings.ReplaceAll(src, "window.Arbitre = { mesures };", ""),
				"%s reads or extends the global Arbitre: import what it uses", nom)
			exports[nom] = exportsDe(src)
			imports[nom] = importsDe(src)
			resp := servir("/static/" + nom)
			assert.Regexp(t, `^text/javascript\b`, resp.Header.Get("Content-Type"), "%s: a module needs a JavaScript MIME type", nom)
		}
		atteints := map[string]bool{}
		var atteindre func(string)
		atteindre = func(nom string) {
			if atteints[nom] {
				return
			}
			atteints[nom] = true
			for _, i := range imports[nom] {
				if !assert.Contains(t, exports, i.fichier, "%s imports %s, which is not a page file", nom, i.fichier) {
					continue
				}
				assert.True(t, exports[i.fichier][i.exporte], "%s imports %s from %s, which does not export it", nom, i.exporte, i.fichier)
				atteindre(i.fichier)
			}
		}
		require.NotEmpty(t, modules)
		for m := range modules {
			atteindre(m)
		}
		for _, nom := range noms {
			assert.True(t, atteints[nom], "%s is loaded by no page's module", nom)
		}
	})
}

var (
	// reImport is `import { a, b as c } from "./f.js";`.
	reImport = regexp.MustCompile(`(?m)^import\s+\{([^}]*)\}\s+from\s+"\./([\w-]+\.js)";`)
	// reExport is `export function|class|const NAME` or `export { a, b }`.
	reExport      = regexp.MustCompile(`(?m)^\s*export\s+(?:async\s+)?(?:function|class|const|let)\s+(\w+)`)
	reExportListe = regexp.MustCompile(`(?m)^\s*export\s*\{([^}]*)\}`)
)

// importJS is one name a module imports: from which file, under which
// name there and here.
type importJS struct{ fichier, exporte, local string }

// importsDe are a module's imports.
func importsDe(src string) []importJS {
	var out []importJS
	for _, m := range reImport.FindAllStringSubmatch(src, -1) {
		for _, n := range strings.Split(m[1], ",") {
			if n = strings.TrimSpace(n); n != "" {
				exporte, local, ok := strings.Cut(n, " as ")
				if !ok {
					local = exporte
				}
				out = append(out, importJS{fichier: m[2], exporte: strings.TrimSpace(exporte), local: strings.TrimSpace(local)})
			}
		}
	}
	return out
}

// exportsDe are the names a module exports.
func exportsDe(src string) map[string]bool {
	out := map[string]bool{}
	for _, m := range reExport.FindAllStringSubmatch(src, -1) {
		out[m[1]] = true
	}
	for _, m := range reExportListe.FindAllStringSubmatch(src, -1) {
		for _, n := range strings.Split(m[1], ",") {
			if n = strings.TrimSpace(n); n != "" {
				_, nom, ok := strings.Cut(n, " as ")
				if !ok {
					nom = n
				}
				out[strings.TrimSpace(nom)] = true
			}
		}
	}
	return out
}
