package server_test

import (
	"bytes"
	"encoding/json"
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Review of session 10, end to end: the body the edge check now lets
// through (a repeated field whose first value has the wrong kind) fails
// gqlgen's decoding, whose uncoded error (the body in it) comes out as
// INTERNAL « Erreur interne du serveur », where the edge answered 400
// BAD_REQUEST « le champ « query » doit être une chaîne »; docs/securite.md
// promises that no request gets an INTERNAL code.
func TestRevue_ChampRepeteRefuseEnBadRequestPasEnInterne(t *testing.T) {
	h := newHarness(t)
	corps := `{"query": 5, "query": "{ __typename }", "operationName": "marqueur-du-corps-0123456789"}`
	req, err := http.NewRequest(http.MethodPost, h.url+"/graphql", bytes.NewReader([]byte(corps)))
	require.NoError(t, err)
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	var out gqlResponse
	require.NoError(t, json.NewDecoder(resp.Body).Decode(&out))
	assert.Equal(t, http.StatusBadRequest, resp.StatusCode)
	require.Len(t, out.Errors, 1)
	assert.Equal(t, "BAD_REQUEST", out.Errors[0].Extensions["code"])
	assert.NotContains(t, out.Errors[0].Message, "marqueur-du-corps", "the refusal does not echo the body")
}
