package server

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"

	gql "github.com/99designs/gqlgen/graphql"
	"github.com/gorilla/websocket"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/vektah/gqlparser/v2/gqlerror"
)

// idsPrepares are the operation ids whose message is prepared from the
// shared answer whose data is data; ok is false when no shared answer has
// that data.
func idsPrepares(data string) (ids []string, ok bool) {
	reponsesPartagees.Range(func(_, v any) bool {
		p := v.(*diffusee)
		if !bytes.Equal(p.r.Data, []byte(data)) {
			return true
		}
		ok = true
		p.mu.Lock()
		for id := range p.parId {
			ids = append(ids, id)
		}
		p.mu.Unlock()
		return false
	})
	slices.Sort(ids)
	return ids, ok
}

// Issue 34 item 3: every display following a shared answer (the standings
// of a hall) receives, in order, the bytes gqlgen's transport sends around
// its data, with its own operation id; the message is framed once per id
// and the same frame written to every display of that id. An answer with
// errors is each caller's own, and is sent the same; an answer replaced
// or ended is forgotten.
func TestIssue34_ClassementEncadreUneFoisParIdentifiant(t *testing.T) {
	src := nouvelleSourceWS()
	url, _ := serveurWS(t, src, nil)
	ids := []string{"1", "1", "1", "2", "2", "s"}
	clients := make([]*clientWS, len(ids))
	for i, id := range ids {
		clients[i] = ouvrir(t, url, "")
		clients[i].souscrire(id, docClassementWS)
	}
	lignes := make([]string, 500)
	for i := range lignes {
		lignes[i] = fmt.Sprintf(`{"rang":%d,"nom":"Joueur \"%04d\" é"}`, i+1, i)
	}
	etats := []reponseSource{
		{data: `{"classementChange":[` + strings.Join(lignes, ",") + `]}`},
		{data: `{"classementChange":[` + strings.Join(lignes[:3], ",") + `]}`},
		{data: `null`, erreur: &gqlerror.Error{Message: "classement illisible", Extensions: map[string]any{"code": "INTERNAL"}}},
		{data: `{"classementChange":[]}`},
	}
	for k, e := range etats {
		src.pousser(t, e)
		var premier string
		for i, c := range clients {
			m := c.recevoir()
			if e.erreur == nil {
				assert.Equal(t, `{"payload":{"data":`+e.data+`},"id":"`+ids[i]+`","type":"next"}`+"\n", m.brut, "state %d, display %d", k, i)
			} else if i == 0 {
				premier = strings.Replace(m.brut, `"id":"1"`, `"id":"%s"`, 1)
				assert.Contains(t, m.brut, "classement illisible")
			} else {
				assert.Equal(t, fmt.Sprintf(premier, ids[i]), m.brut, "state %d, display %d", k, i)
			}
		}
		prepares, ok := idsPrepares(e.data)
		if e.erreur == nil {
			require.True(t, ok, "state %d is shared", k)
			assert.Equal(t, []string{"1", "2", "s"}, prepares, "state %d: one message per id", k)
		} else {
			assert.Empty(t, prepares, "an answer with errors is each caller's own")
		}
		if k > 0 {
			_, ok := idsPrepares(etats[k-1].data)
			assert.False(t, ok, "state %d is forgotten once replaced", k-1)
		}
	}
	close(src.reponses)
	for i, c := range clients {
		assert.Equal(t, `{"id":"`+ids[i]+`","type":"complete"}`+"\n", c.recevoir().brut)
	}
	_, ok := idsPrepares(etats[len(etats)-1].data)
	assert.False(t, ok, "the last state is forgotten when the diffusion ends")
}

// BenchmarkIssue34_EnvoiDUnClassementPartage sends a 2,000-line standings
// answer (109 KB) to a display on the loopback, which discards it: as each
// of a hall's displays is sent it, shared (one frame prepared for all) or
// copied into the connection's buffer first (any other answer).
func BenchmarkIssue34_EnvoiDUnClassementPartage(b *testing.B) {
	lignes := make([]string, 2000)
	for i := range lignes {
		lignes[i] = fmt.Sprintf(`{"rang":%d,"nom":"Joueur %04d","score":%d,"top":42}`, i+1, i, 900-i/3)
	}
	data := []byte(`{"classementChange":[` + strings.Join(lignes, ",") + `]}`)
	serveur := make(chan *websocket.Conn, 1)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ws, err := (&websocket.Upgrader{}).Upgrade(w, r, nil)
		if err != nil {
			b.Error(err)
			return
		}
		serveur <- ws
	}))
	defer srv.Close()
	client, _, err := websocket.DefaultDialer.Dial("ws"+strings.TrimPrefix(srv.URL, "http"), nil)
	require.NoError(b, err)
	defer client.Close()
	go func() {
		for {
			_, r, err := client.NextReader()
			if err != nil {
				return
			}
			_, _ = io.Copy(io.Discard, r)
		}
	}()
	c := &connexionWS{ws: <-serveur, ctx: context.Background()}
	defer c.ws.Close()
	for _, partage := range []bool{false, true} {
		b.Run(map[bool]string{false: "copie", true: "partage"}[partage], func(b *testing.B) {
			r := &gql.Response{Data: bytes.Clone(data)}
			if partage {
				partager(r)
				defer oublier(r)
			}
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			for range b.N {
				c.envoyerReponse(nil, "s", &gql.Response{Data: r.Data})
			}
		})
	}
}
