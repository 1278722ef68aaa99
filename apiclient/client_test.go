package apiclient

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestClient(t *testing.T) {
	cases := []struct {
		name     string
		answer   string
		status   int
		max      int64
		wantData string
		wantCode string
		tooLarge bool
	}{
		{name: "data", answer: `{"data":{"moi":{"role":"directeur"}}}`, status: 200, wantData: "directeur"},
		{name: "a refusal is an answer whatever the status", answer: `{"errors":[{"message":"jeton inconnu","extensions":{"code":"UNAUTHENTICATED"}}],"data":null}`, status: 401, wantCode: "UNAUTHENTICATED"},
		{name: "the first error", answer: `{"errors":[{"message":"a","extensions":{"code":"CONFLICT"}},{"message":"b","extensions":{"code":"INTERNAL"}}]}`, status: 200, wantCode: "CONFLICT"},
		{name: "an answer past the bound is dropped", answer: `{"data":{"moi":{"role":"` + strings.Repeat("x", 200) + `"}}}`, status: 200, max: 100, tooLarge: true},
		{name: "an answer at the bound is read", answer: `{"data":{"moi":{"role":"directeur"}}}`, status: 200, max: int64(len(`{"data":{"moi":{"role":"directeur"}}}`)), wantData: "directeur"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var auth string
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				auth = r.Header.Get("Authorization")
				b, _ := io.ReadAll(r.Body)
				assert.Contains(t, string(b), `"query":"{ moi { role } }"`)
				w.WriteHeader(c.status)
				_, _ = io.WriteString(w, c.answer)
			}))
			defer srv.Close()
			cl := New(srv.URL+"/", nil)
			cl.MaxAnswer = c.max
			var out struct{ Moi struct{ Role string } }
			err := cl.Do(context.Background(), "S3CRET", `{ moi { role } }`, nil, &out)
			assert.Equal(t, "Bearer S3CRET", auth)
			var tooLarge *TooLargeError
			var gqlErr *Error
			switch {
			case c.tooLarge:
				require.ErrorAs(t, err, &tooLarge)
			case c.wantCode != "":
				require.ErrorAs(t, err, &gqlErr)
				assert.Equal(t, c.wantCode, gqlErr.Code())
			default:
				require.NoError(t, err)
				assert.Equal(t, c.wantData, out.Moi.Role)
				assert.False(t, errors.As(err, &gqlErr))
			}
		})
	}
}

// TestIssue34_CorpsEncodeUneFois: a request encoded once by Body and sent
// by Post reaches the server as the same bytes, with the same headers, as
// Read sends it; Decode reads its answer as Do does.
func TestIssue34_CorpsEncodeUneFois(t *testing.T) {
	var corps []string
	var auth []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		corps = append(corps, string(b))
		auth = append(auth, r.Header.Get("Content-Type")+" "+r.Header.Get("Authorization"))
		_, _ = io.WriteString(w, `{"errors":[{"message":"a","extensions":{"code":"CONFLICT"}}],"data":null}`)
	}))
	defer srv.Close()
	cl := New(srv.URL, nil)
	const query = `mutation($b: BulletinInput!) { deposerBulletin(bulletin:$b) { licence } }`
	vars := map[string]any{"b": map[string]any{"solutions": []any{map[string]any{"word": "ZOÉ", "ref": "H8", "score": 42}}}, "l": "<L&1>"}
	var lues [2][]byte
	require.NoError(t, cl.Read(context.Background(), "S3CRET", query, vars, func(r io.Reader) (err error) {
		lues[0], err = io.ReadAll(r)
		return err
	}))
	body, err := Body(query, vars)
	require.NoError(t, err)
	require.NoError(t, cl.Post(context.Background(), "S3CRET", body, func(r io.Reader) (err error) {
		lues[1], err = io.ReadAll(r)
		return err
	}))
	require.Len(t, corps, 2)
	assert.Equal(t, corps[0], corps[1])
	assert.Equal(t, auth[0], auth[1])
	assert.Equal(t, lues[0], lues[1])
	var gqlErr *Error
	require.ErrorAs(t, Decode(lues[1], nil), &gqlErr)
	assert.Equal(t, "CONFLICT", gqlErr.Code())
	assert.Equal(t, cl.Do(context.Background(), "S3CRET", query, vars, nil).Error(), Decode(lues[1], nil).Error())
}
