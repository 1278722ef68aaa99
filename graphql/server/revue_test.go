package server

import (
	"bytes"
	"encoding/json"
	"testing"

	gql "github.com/99designs/gqlgen/graphql"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Review of session 10: the body check keeps only the kind of the LAST
// value of a repeated field, where decoding (before, and gqlgen after it)
// fails on any of them. A body whose first "query" (or "variables"…) has
// the wrong kind then passes the check, and gqlgen refuses it with its own
// message, no code, and the whole body echoed ("json request body could
// not be decoded: … body:…"), which the check promises never to do.
func TestRevue_ChampRepeteDeMauvaisGenrePasseLaVerification(t *testing.T) {
	for _, corps := range []string{
		`{"query": 5, "query": "{ x }"}`,
		`{"query": "{ x }", "variables": [1], "variables": {}}`,
		`{"query": "{ x }", "Extensions": true, "extensions": null}`,
	} {
		var params gql.RawParams
		dec := json.NewDecoder(bytes.NewReader([]byte(corps))) // as gqlgen's POST transport
		dec.UseNumber()
		require.Error(t, dec.Decode(&params), "gqlgen cannot decode %s", corps)
		assert.NotEmpty(t, checkRequest([]byte(corps)), "refused by the check, before gqlgen: %s", corps)
	}
}
