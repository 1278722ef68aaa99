package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/vektah/gqlparser/v2"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/parser"
)

// Coverage of the schema's writes: every Mutation and Subscription field
// must be sent by some end-to-end test over HTTP or the websocket.
//
// The one GraphQL client of these tests (postGraphQL, apiServer.subscribe)
// records the root fields of every mutation and subscription it sends,
// parsed with gqlparser; after the whole package ran, TestMain compares
// them with the fields of schema/*.graphqls. Recording what was really
// sent cannot pass by accident, as a scan of the sources could (a field
// name in a comment or a Go identifier would count). A filtered run (-run,
// -skip, -list) sends only part of the documents, so the check runs only
// when every test of the package ran.
func TestMain(m *testing.M) {
	code := m.Run()
	if code == 0 && toutLePaquet() {
		if manquants, err := champsNonEnvoyes(); err != nil {
			fmt.Fprintln(os.Stderr, "couverture du schéma :", err)
			code = 1
		} else if len(manquants) > 0 {
			fmt.Fprintf(os.Stderr, "couverture du schéma : aucun test de bout en bout n'envoie %v\n", manquants)
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

// envoyes holds the "Mutation.x" and "Subscription.y" root fields the
// tests sent.
var envoyes = struct {
	sync.Mutex
	champs map[string]bool
}{champs: map[string]bool{}}

// noterEnvoi records the root fields of the mutations and subscriptions of
// a document sent to the server.
func noterEnvoi(query string) {
	envoyes.Lock()
	defer envoyes.Unlock()
	for _, c := range champsEcrits(query) {
		envoyes.champs[c] = true
	}
}

// champsEcrits lists the root fields of the mutations and subscriptions of
// a document, as "Mutation.x" and "Subscription.y"; a document that does not
// parse has none (the server refuses it too).
func champsEcrits(query string) []string {
	doc, err := parser.ParseQuery(&ast.Source{Input: query})
	if err != nil {
		return nil
	}
	var out []string
	for _, op := range doc.Operations {
		racine := map[ast.Operation]string{ast.Mutation: "Mutation", ast.Subscription: "Subscription"}[op.Operation]
		if racine == "" {
			continue
		}
		for _, sel := range op.SelectionSet {
			if f, ok := sel.(*ast.Field); ok {
				out = append(out, racine+"."+f.Name)
			}
		}
	}
	return out
}

// champsNonEnvoyes lists the schema's Mutation and Subscription fields no
// test sent.
func champsNonEnvoyes() ([]string, error) {
	schema, err := schemaArbitre()
	if err != nil {
		return nil, err
	}
	envoyes.Lock()
	defer envoyes.Unlock()
	var manquants []string
	for _, racine := range []*ast.Definition{schema.Mutation, schema.Subscription} {
		for _, f := range racine.Fields {
			if !envoyes.champs[racine.Name+"."+f.Name] {
				manquants = append(manquants, racine.Name+"."+f.Name)
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

// rootField is the first root field of a document.
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
// name, not alias; queries do not count).
func TestE2ECouvertureSchemaLisible(t *testing.T) {
	schema, err := schemaArbitre()
	require.NoError(t, err)
	require.NotNil(t, schema.Mutation)
	require.NotNil(t, schema.Subscription)
	require.NotNil(t, schema.Mutation.Fields.ForName("revoquerJeton"))
	require.Equal(t, []string{"Mutation.revoquerJeton", "Mutation.ramasser"},
		champsEcrits(`mutation { x: revoquerJeton(id:"j") ramasser(partie:"p") { version } }`))
	require.Equal(t, []string{"Subscription.matchChanged"}, champsEcrits(`subscription($m: ID!) { matchChanged(match:$m) { version } }`))
	require.Empty(t, champsEcrits(`{ partie(id:"p") { version } }`))
	require.Empty(t, champsEcrits(`mutation { ramasser(`))
	require.Equal(t, "x", rootField(t, `mutation { x: revoquerJeton(id:"j") }`))
}
