package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/vektah/gqlparser/v2"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/parser"
)

// Coverage of the schema's writes: every Mutation field must run in some
// end-to-end test over HTTP, done once and refused both to a caller without
// a token (UNAUTHENTICATED) and to one without the role or the scope
// (FORBIDDEN); every Subscription field must deliver over the websocket.
//
// The one GraphQL client of these tests (postGraphQL, apiServer.subscribe,
// apiSubscription.next) records, per root field of the mutations and
// subscriptions it sends (parsed with gqlparser), what came back: data, or
// the code of an error on that field. After the whole package ran, TestMain
// compares that with the fields of schema/*.graphqls. Recording what the
// server really answered cannot pass by accident, as a scan of the sources
// could (a field name in a comment or a Go identifier would count). A
// filtered run (-run, -skip, -list) sends only part of the documents, so
// the check runs only when every test of the package ran.
func TestMain(m *testing.M) {
	code := m.Run()
	if code == 0 && toutLePaquet() {
		if manquants, err := champsNonCouverts(); err != nil {
			fmt.Fprintln(os.Stderr, "couverture du schéma :", err)
			code = 1
		} else if len(manquants) > 0 {
			fmt.Fprintf(os.Stderr, "couverture du schéma : aucun test de bout en bout ne couvre\n  %s\n", strings.Join(manquants, "\n  "))
			code = 1
		}
	}
	os.Exit(code)
}

// toutLePaquet reports that no flag restricted the tests run.
func toutLePaquet() bool {
	for _, name := range []string{"test.run", "test.skip", "test.list"} {
		if f := flag.Lookup(name); f != nil && f.Value.String() != "" {
			return false
		}
	}
	return true
}

// What a root field got back: data, or the code of its error.
const issueDonnees = "données"

// issues holds, per "Mutation.x" and "Subscription.y", the outcomes the
// tests saw.
var issues = struct {
	sync.Mutex
	vues map[string]map[string]bool
}{vues: map[string]map[string]bool{}}

func noterIssue(champ, issue string) {
	issues.Lock()
	defer issues.Unlock()
	if issues.vues[champ] == nil {
		issues.vues[champ] = map[string]bool{}
	}
	issues.vues[champ][issue] = true
}

// noterReponse records, for each root field of the mutations of a document
// sent over HTTP, its data or its errors' codes.
func noterReponse(query string, res apiResult) {
	for _, c := range champsEcrits(query) {
		if raw := res.Data[c.alias]; len(raw) > 0 && string(raw) != "null" {
			noterIssue(c.nom, issueDonnees)
		}
		for _, e := range res.Errors {
			if code, _ := e.Extensions["code"].(string); len(e.Path) > 0 && e.Path[0] == c.alias && code != "" {
				noterIssue(c.nom, code)
			}
		}
	}
}

// champEcrit is a root field of a mutation or subscription: "Mutation.x"
// and the key of its answer.
type champEcrit struct{ nom, alias string }

// champsEcrits lists the root fields of the mutations and subscriptions of
// a document; a document that does not parse has none (the server refuses
// it too).
func champsEcrits(query string) []champEcrit {
	doc, err := parser.ParseQuery(&ast.Source{Input: query})
	if err != nil {
		return nil
	}
	var out []champEcrit
	for _, op := range doc.Operations {
		racine := map[ast.Operation]string{ast.Mutation: "Mutation", ast.Subscription: "Subscription"}[op.Operation]
		if racine == "" {
			continue
		}
		for _, sel := range op.SelectionSet {
			if f, ok := sel.(*ast.Field); ok {
				out = append(out, champEcrit{nom: racine + "." + f.Name, alias: f.Alias})
			}
		}
	}
	return out
}

// champsNonCouverts lists the schema's Mutation fields not done, refused
// UNAUTHENTICATED and refused FORBIDDEN, and its Subscription fields that
// delivered nothing, each with what it lacks.
func champsNonCouverts() ([]string, error) {
	schema, err := schemaArbitre()
	if err != nil {
		return nil, err
	}
	attendues := map[*ast.Definition][]string{
		schema.Mutation:     {issueDonnees, "UNAUTHENTICATED", "FORBIDDEN"},
		schema.Subscription: {issueDonnees},
	}
	issues.Lock()
	defer issues.Unlock()
	var manquants []string
	for racine, issuesAttendues := range attendues {
		for _, f := range racine.Fields {
			vues := issues.vues[racine.Name+"."+f.Name]
			var manque []string
			for _, i := range issuesAttendues {
				if !vues[i] {
					manque = append(manque, i)
				}
			}
			if len(manque) > 0 {
				manquants = append(manquants, fmt.Sprintf("%s.%s (%s)", racine.Name, f.Name, strings.Join(manque, ", ")))
			}
		}
	}
	slices.Sort(manquants)
	return manquants, nil
}

func schemaArbitre() (*ast.Schema, error) {
	files, err := filepath.Glob("../../schema/*.graphqls")
	if err != nil || len(files) == 0 {
		return nil, fmt.Errorf("schema/*.graphqls introuvable (%v)", err)
	}
	var sources []*ast.Source
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			return nil, err
		}
		sources = append(sources, &ast.Source{Name: f, Input: string(b)})
	}
	schema, gqlErr := gqlparser.LoadSchema(sources...)
	if gqlErr != nil {
		return nil, gqlErr
	}
	return schema, nil
}

// rootField is the answer's key of a document's first root field.
func rootField(t *testing.T, query string) string {
	t.Helper()
	doc, err := parser.ParseQuery(&ast.Source{Input: query})
	require.NoError(t, err)
	require.NotEmpty(t, doc.Operations)
	f, ok := doc.Operations[0].SelectionSet[0].(*ast.Field)
	require.True(t, ok)
	return f.Alias
}

// The check itself: the schema loads with the roots it compares with, and
// a document's root fields are named under their operation's root (by
// name, answered under their alias; queries do not count).
func TestE2ECouvertureSchemaLisible(t *testing.T) {
	schema, err := schemaArbitre()
	require.NoError(t, err)
	require.NotNil(t, schema.Mutation)
	require.NotNil(t, schema.Subscription)
	require.NotNil(t, schema.Mutation.Fields.ForName("revoquerJeton"))
	require.Equal(t, []champEcrit{{"Mutation.revoquerJeton", "x"}, {"Mutation.ramasser", "ramasser"}},
		champsEcrits(`mutation { x: revoquerJeton(id:"j") ramasser(partie:"p") { version } }`))
	require.Equal(t, []champEcrit{{"Subscription.matchChange", "matchChange"}},
		champsEcrits(`subscription($m: ID!) { matchChange(match:$m) { version } }`))
	require.Empty(t, champsEcrits(`{ partie(id:"p") { version } }`))
	require.Empty(t, champsEcrits(`mutation { ramasser(`))
	require.Equal(t, "x", rootField(t, `mutation { x: revoquerJeton(id:"j") }`))
}
