package main

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"net"
	"net/http"
	"testing"
	"time"

	"github.com/gorilla/websocket"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Issue 11, items 5, 7, 8 and 16: tokens over HTTP and the websocket.

// jetonID is the id of a token, as the API tells its holder.
func (s *apiServer) jetonID(token string) string {
	s.t.Helper()
	var moi struct{ Jeton string }
	s.gql(token, `{ moi { jeton } }`, nil).into(s.t, "moi", &moi)
	require.NotEmpty(s.t, moi.Jeton)
	return moi.Jeton
}

// closedBy reads the connection until the server closes it, answering
// pings, and fails if a data message arrives first or if it is still open
// at deadline. An operation read in the instant the token ends, before the
// close, may be answered by its refusal ("jeton expiré", data null, in a
// run of the package on 29 Nov): that mints nothing and streams nothing.
func closedBy(t *testing.T, conn *websocket.Conn, deadline time.Time) {
	t.Helper()
	require.NoError(t, conn.SetReadDeadline(deadline))
	for {
		var msg struct {
			Type    string          `json:"type"`
			Payload json.RawMessage `json:"payload"`
		}
		err := conn.ReadJSON(&msg)
		if err != nil {
			var closeErr *websocket.CloseError
			var netErr net.Error
			require.False(t, errors.As(err, &netErr) && netErr.Timeout(), "the connection is still open at %s", deadline.Format(time.RFC3339Nano))
			require.True(t, errors.As(err, &closeErr), "the server closes the connection: %v", err)
			return
		}
		switch msg.Type {
		case "ping":
			require.NoError(t, conn.WriteJSON(map[string]any{"type": "pong"}))
		case "pong", "complete", "ka": // ka: graphql-ws's keep-alive
		case "next", "data": // graphql-transport-ws's result, graphql-ws's
			if !refus(msg.Payload) {
				t.Fatalf("received %s after the token stopped working: %s", msg.Type, msg.Payload)
			}
		default:
			t.Fatalf("received %s after the token stopped working: %s", msg.Type, msg.Payload)
		}
	}
}

// refus tells whether a result is a refusal of the token only: no data,
// and every error UNAUTHENTICATED.
func refus(payload json.RawMessage) bool {
	var r apiResult
	if json.Unmarshal(payload, &r) != nil || len(r.Errors) == 0 || r.Data != nil {
		return false
	}
	for _, e := range r.Errors {
		if e.Extensions["code"] != "UNAUTHENTICATED" {
			return false
		}
	}
	return true
}

// A revoked token's subscriptions stop at once and their connection
// closes: the arbiter's public view and the commission's unpublished
// solutions alike; the next change of the game reaches neither.
func TestSecurite_JetonRevoqueFermeLesAbonnements(t *testing.T) {
	data := t.TempDir()
	director := apiToken(t, data, "--role", "director")
	arbiter := apiToken(t, data, "--role", "arbiter", "--tournoi", "T1", "--tables", "1-2")
	commission := apiToken(t, data, "--role", "commission", "--tournoi", "T1")
	s := startAPIServer(t, data)
	defer s.stop()
	require.Empty(t, s.gql(director, `mutation { creerTournoi(id:"T1", nom:"Open", homologue: false) { id } }`, nil).Errors)
	require.Empty(t, s.gql(director, `mutation { inscrireJoueur(tournoi:"T1", joueur:{licence:"L1", nom:"Joueur 1", club:"Vichy", table:1}) { version } }`, nil).Errors)
	require.Empty(t, s.gql(director, `mutation { creerPartie(tournoi:"T1", partie:"T1-1", config:{source: logiciel, graine: 7}) { version } }`, nil).Errors)
	require.Empty(t, s.gql(director, `mutation { tirer(partie:"T1-1") { version } }`, nil).Errors)

	subs := []struct {
		token, query string
	}{
		{arbiter, `subscription { coupAnnonce(partie:"T1-1") { version tirage } }`},
		{commission, `subscription { coupAnnonce(partie:"T1-1") { version tirage solutions { mot } } }`},
	}
	var open []*apiSubscription
	for _, sub := range subs {
		id := s.jetonID(sub.token)
		live := s.subscribe(sub.token, sub.query, nil)
		var p apiPartie
		live.next(t, "coupAnnonce", &p)
		var revoked bool
		s.gql(director, `mutation($id: ID!) { revoquerJeton(id: $id) }`, map[string]any{"id": id}).into(t, "revoquerJeton", &revoked)
		require.True(t, revoked)
		open = append(open, live)
	}
	require.Empty(t, s.gql(director, `mutation { interrompre(partie:"T1-1") { version } }`, nil).Errors, "a change the revoked tokens must not see")
	for _, live := range open {
		closedBy(t, live.conn, time.Now().Add(time.Second))
	}
}

// An expired token's connection closes when the token expires.
func TestSecurite_JetonExpireFermeLesAbonnements(t *testing.T) {
	data := t.TempDir()
	director := apiToken(t, data, "--role", "director")
	s := startAPIServer(t, data)
	defer s.stop()
	require.Empty(t, s.gql(director, `mutation { creerTournoi(id:"T1", nom:"Open", homologue: false) { id } }`, nil).Errors)
	require.Empty(t, s.gql(director, `mutation { creerPartie(tournoi:"T1", partie:"T1-1", config:{source: logiciel, graine: 7}) { version } }`, nil).Errors)
	shortLived := apiToken(t, data, "--role", "commission", "--tournoi", "T1", "--ttl", "3s")
	var moi struct{ Expire time.Time }
	require.Eventually(t, func() bool {
		res := s.gql(shortLived, `{ moi { expire } }`, nil)
		return len(res.Errors) == 0 && json.Unmarshal(res.Data["moi"], &moi) == nil
	}, 2*time.Second, 20*time.Millisecond, "the server knows the token, at once or at its next poll of the store")
	live := s.subscribe(shortLived, `subscription { coupAnnonce(partie:"T1-1") { version solutions { mot } } }`, nil)
	var p apiPartie
	live.next(t, "coupAnnonce", &p)
	closedBy(t, live.conn, moi.Expire.Add(time.Second))
	assert.Equal(t, "UNAUTHENTICATED", s.gql(shortLived, `{ moi { jeton } }`, nil).code())
}

// A connection_init with a token the server refuses gets no
// connection_ack: the connection is closed, never downgraded to anonymous.
func TestSecurite_ConnectionInitJetonRefuse(t *testing.T) {
	data := t.TempDir()
	director := apiToken(t, data, "--role", "director")
	revoked := apiToken(t, data, "--role", "arbiter")
	s := startAPIServer(t, data)
	defer s.stop()
	require.Empty(t, s.gql(director, `mutation($id: ID!) { revoquerJeton(id: $id) }`, map[string]any{"id": s.jetonID(revoked)}).Errors)
	for name, authorization := range map[string]string{
		"forged":       "Bearer arb_forged",
		"revoked":      "Bearer " + revoked,
		"other scheme": "Basic " + director,
		"short secret": "Bearer x",
	} {
		t.Run(name, func(t *testing.T) {
			closedBy(t, s.connect(authorization), time.Now().Add(5*time.Second))
		})
	}
}

// connection_ack does not echo the init payload, which holds the secret.
func TestSecurite_ConnectionAckSansSecret(t *testing.T) {
	data := t.TempDir()
	director := apiToken(t, data, "--role", "director")
	s := startAPIServer(t, data)
	defer s.stop()
	conn := s.connect("Bearer " + director)
	require.NoError(t, conn.SetReadDeadline(time.Now().Add(5*time.Second)))
	_, raw, err := conn.ReadMessage()
	require.NoError(t, err)
	var ack struct {
		Type    string         `json:"type"`
		Payload map[string]any `json:"payload"`
	}
	require.NoError(t, json.Unmarshal(raw, &ack))
	assert.Equal(t, "connection_ack", ack.Type)
	assert.Empty(t, ack.Payload)
	assert.NotContains(t, string(raw), director)
}

// The Bearer scheme is case-insensitive (RFC 7235), over HTTP and in
// connection_init.
func TestSecurite_SchemaBearerInsensibleALaCasse(t *testing.T) {
	data := t.TempDir()
	director := apiToken(t, data, "--role", "director")
	s := startAPIServer(t, data)
	defer s.stop()
	for _, authorization := range []string{"Bearer " + director, "bearer " + director, "BEARER " + director, "bEaReR  " + director, director} {
		var moi struct{ Role string }
		postGraphQLAuth(t, s.url, authorization, `{ moi { role } }`, nil).into(t, "moi", &moi)
		assert.Equal(t, "DIRECTOR", moi.Role, authorization[:8])

		conn := s.connect(authorization)
		require.NoError(t, conn.SetReadDeadline(time.Now().Add(5*time.Second)))
		var ack map[string]any
		require.NoError(t, conn.ReadJSON(&ack))
		require.Equal(t, "connection_ack", ack["type"])
		require.NoError(t, conn.WriteJSON(map[string]any{"id": "1", "type": "subscribe", "payload": map[string]any{"query": `{ moi { role } }`}}))
		sub := &apiSubscription{conn: conn}
		sub.next(t, "moi", &moi)
		assert.Equal(t, "DIRECTOR", moi.Role, "websocket, %s", authorization[:8])
	}
}

// Token lifetimes are positive and 30 days at most, without overflow, by
// the API and by the CLI; a refusal is INVALID_INPUT in French.
func TestSecurite_DureeDeJetonBornee(t *testing.T) {
	data := t.TempDir()
	director := apiToken(t, data, "--role", "director", "--ttl", "720h") // a token never outlives its issuer
	s := startAPIServer(t, data)
	defer s.stop()
	emettre := `mutation($h: Int!) { emettreJeton(demande:{role: ARBITER, tournoi:"T1", heures:$h}) { expire } }`
	for _, heures := range []int{0, -1, 721, 2562048, 6000000, 2147483647} {
		res := s.gql(director, emettre, map[string]any{"h": heures})
		require.Equal(t, "INVALID_INPUT", res.code(), "%d heures", heures)
		assert.Contains(t, res.Errors[0].Message, "30 jours", "%d heures", heures)
	}
	var issued struct{ Expire time.Time }
	s.gql(director, emettre, map[string]any{"h": 720}).into(t, "emettreJeton", &issued)
	assert.WithinDuration(t, time.Now().Add(30*24*time.Hour), issued.Expire, time.Hour)

	for _, ttl := range []string{"721h", "0s", "-1h", "2562047h"} {
		_, err := runTokenCreate(t, data, "--role", "arbiter", "--ttl="+ttl)
		require.Error(t, err, ttl)
		assert.Contains(t, err.Error(), "30 jours", ttl)
	}
	_, err := runTokenCreate(t, data, "--role", "arbiter", "--ttl", "720h")
	assert.NoError(t, err)
}

// A token written by `arbitre token create` while the server runs (another
// store handle, as another process would be) works at once; a token the
// server does not know is said unknown, a revoked one revoked.
func TestSecurite_JetonCLIUtilisableAussitot(t *testing.T) {
	data := t.TempDir()
	s := startAPIServer(t, data)
	defer s.stop()
	forged := s.gql("arb_forged", `{ moi { role } }`, nil)
	require.Equal(t, "UNAUTHENTICATED", forged.code())
	assert.Equal(t, "jeton inconnu", forged.Errors[0].Message)

	director := apiToken(t, data, "--role", "director")
	var moi struct{ Role string }
	s.gql(director, `{ moi { role } }`, nil).into(t, "moi", &moi)
	assert.Equal(t, "DIRECTOR", moi.Role)

	arbiter := apiToken(t, data, "--role", "arbiter", "--tournoi", "T1")
	require.Empty(t, s.gql(director, `mutation($id: ID!) { revoquerJeton(id: $id) }`, map[string]any{"id": s.jetonID(arbiter)}).Errors)
	revoked := s.gql(arbiter, `{ moi { role } }`, nil)
	require.Equal(t, "UNAUTHENTICATED", revoked.code())
	assert.Equal(t, "jeton révoqué", revoked.Errors[0].Message)
}

// revoquerJeton reads the revoked token's scope from its emission: a
// director of T1 revokes T1's tokens only, never a server-wide one nor
// another tournament's, whatever tournoi it names; an unknown token is
// NOT_FOUND.
func TestSecurite_RevocationSelonLaPorteeDuJeton(t *testing.T) {
	data := t.TempDir()
	tokens := map[string]string{
		"director":    apiToken(t, data, "--role", "director"),
		"director T1": apiToken(t, data, "--role", "director", "--tournoi", "T1"),
		"arbiter T1":  apiToken(t, data, "--role", "arbiter", "--tournoi", "T1"),
		"arbiter T2":  apiToken(t, data, "--role", "arbiter", "--tournoi", "T2"),
		"commission":  apiToken(t, data, "--role", "commission"),
	}
	s := startAPIServer(t, data)
	defer s.stop()
	ids := map[string]string{}
	for name, token := range tokens {
		ids[name] = s.jetonID(token)
	}
	ids["unknown"] = "00000000-0000-4000-8000-000000000000"
	cases := []struct {
		name, by, target, tournoi, code string
	}{
		{"a tournament director revokes the server-wide director naming its tournament", "director T1", "director", "T1", "FORBIDDEN"},
		{"a tournament director revokes the server-wide director", "director T1", "director", "", "FORBIDDEN"},
		{"a tournament director revokes a server-wide commission", "director T1", "commission", "T1", "FORBIDDEN"},
		{"a tournament director revokes another tournament's arbiter naming its own", "director T1", "arbiter T2", "T1", "FORBIDDEN"},
		{"a tournament director revokes another tournament's arbiter naming it", "director T1", "arbiter T2", "T2", "FORBIDDEN"},
		{"an arbiter revokes", "arbiter T2", "arbiter T1", "T1", "FORBIDDEN"},
		{"a tournament director revokes an unknown token", "director T1", "unknown", "T1", "NOT_FOUND"},
		{"the server-wide director names the wrong tournament", "director", "arbiter T1", "T2", "INVALID_INPUT"},
		{"a tournament director revokes its tournament's arbiter", "director T1", "arbiter T1", "", ""},
		{"a revoked token cannot be revoked again", "director T1", "arbiter T1", "", "NOT_FOUND"},
		{"the server-wide director revokes another tournament's arbiter", "director", "arbiter T2", "T2", ""},
		{"the server-wide director revokes a tournament director", "director", "director T1", "", ""},
	}
	revoked := map[string]bool{}
	for _, c := range cases {
		vars := map[string]any{"id": ids[c.target]}
		if c.tournoi != "" {
			vars["t"] = c.tournoi
		}
		res := s.gql(tokens[c.by], `mutation($id: ID!, $t: String) { revoquerJeton(id: $id, tournoi: $t) }`, vars)
		assert.Equal(t, c.code, res.code(), c.name)
		if c.code == "" {
			revoked[c.target] = true
		}
		for name, token := range tokens {
			got := s.gql(token, `{ moi { role } }`, nil).code()
			if revoked[name] {
				assert.Equal(t, "UNAUTHENTICATED", got, "%s: %s is revoked", c.name, name)
			} else {
				assert.Empty(t, got, "%s: %s still works", c.name, name)
			}
		}
	}
}

// Issue 28, item 1: a websocket authenticated by the upgrade's
// Authorization header, with an empty connection_init, on both
// subprotocols. Once its token is revoked or expired, the socket mints no
// token and streams no solution: it is closed within a second.
func TestSecurite_JetonDeLEnteteWebsocketRevoqueOuExpire(t *testing.T) {
	data := t.TempDir()
	director := apiToken(t, data, "--role", "director")
	s := startAPIServer(t, data)
	defer s.stop()
	require.Empty(t, s.gql(director, `mutation { creerTournoi(id:"T1", nom:"Open", homologue: false) { id } }`, nil).Errors)
	require.Empty(t, s.gql(director, `mutation { creerPartie(tournoi:"T1", partie:"T1-1", config:{source: logiciel, graine: 7}) { version } }`, nil).Errors)
	require.Empty(t, s.gql(director, `mutation { tirer(partie:"T1-1") { version } }`, nil).Errors)
	const solutions = `subscription { coupAnnonce(partie:"T1-1") { version solutions { mot } } }`
	const emettre = `mutation { emettreJeton(demande:{role: DIRECTOR, heures: 720}) { secret } }`

	for _, p := range sousProtocoles {
		for _, fin := range []string{"revoked", "expired"} {
			t.Run(p.nom+" "+fin, func(t *testing.T) {
				var victime string
				if fin == "revoked" {
					victime = apiToken(t, data, "--role", "director")
				} else {
					victime = apiToken(t, data, "--role", "director", "--ttl", "3s")
				}
				var moi struct {
					Jeton  string
					Expire time.Time
				}
				s.gql(victime, `{ moi { jeton expire } }`, nil).into(t, "moi", &moi)

				conn, _, err := ouvrirWS(t, s, p.nom, http.Header{"Authorization": {"Bearer " + victime}})
				require.NoError(t, err)
				initialiserWS(t, conn, p.ack)
				require.NoError(t, conn.WriteJSON(map[string]any{"id": "1", "type": p.debut, "payload": map[string]any{"query": solutions}}))
				recu := prochainMessage(t, conn, p.donnees)
				require.Contains(t, string(recu), "solutions", "the header's token is the connection's")

				var limite time.Time
				if fin == "revoked" {
					require.Empty(t, s.gql(director, `mutation($id: ID!) { revoquerJeton(id: $id) }`, map[string]any{"id": moi.Jeton}).Errors)
					limite = time.Now().Add(time.Second)
				} else {
					limite = moi.Expire.Add(time.Second)
					time.Sleep(time.Until(moi.Expire))
				}
				// The client goes on as if nothing happened; the write may
				// meet a connection already closed.
				_ = conn.WriteJSON(map[string]any{"id": "2", "type": p.debut, "payload": map[string]any{"query": emettre}})
				for _, change := range []string{`mutation { interrompre(partie:"T1-1") { version } }`, `mutation { reprendre(partie:"T1-1") { version } }`} {
					require.Empty(t, s.gql(director, change, nil).Errors, "a change the token must not see")
				}
				closedBy(t, conn, limite)
			})
		}
	}
}

// prochainMessage reads conn until a message of type typ arrives, skipping
// keep-alives, and returns its payload.
func prochainMessage(t *testing.T, conn *websocket.Conn, typ string) json.RawMessage {
	t.Helper()
	require.NoError(t, conn.SetReadDeadline(time.Now().Add(5*time.Second)))
	for {
		var msg struct {
			Type    string          `json:"type"`
			Payload json.RawMessage `json:"payload"`
		}
		require.NoError(t, conn.ReadJSON(&msg))
		switch msg.Type {
		case typ:
			return msg.Payload
		case "ping":
			require.NoError(t, conn.WriteJSON(map[string]any{"type": "pong"}))
		case "pong", "ka":
		default:
			t.Fatalf("unexpected message %s: %s", msg.Type, msg.Payload)
		}
	}
}

// Issue 28, item 8: a token issued over the API never outlives the token
// that issued it, and revoking a token revokes the tokens it issued, and
// theirs: over HTTP as over their open websockets. A token the command line
// issued is nobody's child and survives.
func TestSecurite_JetonEnfantNeSurvitPasASonParent(t *testing.T) {
	data := t.TempDir()
	director := apiToken(t, data, "--role", "director")
	parent := apiToken(t, data, "--role", "director", "--ttl", "1h")
	autre := apiToken(t, data, "--role", "arbiter", "--tournoi", "T1")
	s := startAPIServer(t, data)
	defer s.stop()
	var moi struct {
		Jeton  string
		Expire time.Time
	}
	s.gql(parent, `{ moi { jeton expire } }`, nil).into(t, "moi", &moi)

	emettre := `mutation($r: Role!, $t: String) { emettreJeton(demande:{role: $r, tournoi: $t, heures: 720}) { secret expire } }`
	var enfant, petitEnfant struct {
		Secret string
		Expire time.Time
	}
	s.gql(parent, emettre, map[string]any{"r": "DIRECTOR", "t": "T1"}).into(t, "emettreJeton", &enfant)
	assert.False(t, enfant.Expire.After(moi.Expire), "the child expires at %s, after its parent (%s)", enfant.Expire, moi.Expire)
	s.gql(enfant.Secret, emettre, map[string]any{"r": "ARBITER", "t": "T1"}).into(t, "emettreJeton", &petitEnfant)
	assert.False(t, petitEnfant.Expire.After(moi.Expire), "the grandchild expires at %s, after its grandparent (%s)", petitEnfant.Expire, moi.Expire)
	var expire struct{ Expire time.Time }
	s.gql(enfant.Secret, `{ moi { expire } }`, nil).into(t, "moi", &expire)
	assert.Equal(t, enfant.Expire, expire.Expire, "the registry holds the expiry the API announced")

	live := s.connect("Bearer " + petitEnfant.Secret)
	var ack map[string]any
	require.NoError(t, live.ReadJSON(&ack))
	require.Equal(t, "connection_ack", ack["type"])

	require.Empty(t, s.gql(director, `mutation($id: ID!) { revoquerJeton(id: $id) }`, map[string]any{"id": moi.Jeton}).Errors)
	closedBy(t, live, time.Now().Add(time.Second))
	for nom, secret := range map[string]string{"parent": parent, "child": enfant.Secret, "grandchild": petitEnfant.Secret} {
		res := s.gql(secret, `{ moi { role } }`, nil)
		require.Equal(t, "UNAUTHENTICATED", res.code(), nom)
		assert.Equal(t, "jeton révoqué", res.Errors[0].Message, nom)
	}
	assert.Empty(t, s.gql(autre, `{ moi { role } }`, nil).Errors, "a token of the command line is nobody's child")
	assert.Empty(t, s.gql(director, `{ moi { role } }`, nil).Errors)
}

// Issue 28, item 8: a director lists the tokens that still work in his
// scope — fingerprint, role, scope, label, expiry, issuer, never a secret;
// a director of one tournament sees that tournament's only, and no one
// else lists them.
func TestSecurite_ListeDesJetons(t *testing.T) {
	data := t.TempDir()
	director := apiToken(t, data, "--role", "director", "--label", "Juge-arbitre")
	directorT1 := apiToken(t, data, "--role", "director", "--tournoi", "T1")
	arbitreT2 := apiToken(t, data, "--role", "arbiter", "--tournoi", "T2", "--tables", "1-4")
	revoque := apiToken(t, data, "--role", "commission", "--tournoi", "T1")
	s := startAPIServer(t, data)
	defer s.stop()
	require.Empty(t, s.gql(director, `mutation($id: ID!) { revoquerJeton(id: $id) }`, map[string]any{"id": s.jetonID(revoque)}).Errors)
	var issued struct{ ID, Secret string }
	s.gql(directorT1, `mutation { emettreJeton(demande:{role: ARBITER, tournoi: "T1", tables: "5-8", libelle: "Table 5"}) { id secret } }`, nil).into(t, "emettreJeton", &issued)

	type fiche struct {
		ID, Empreinte, Role string
		Tournoi, Tables     *string
		Libelle, Emetteur   *string
		Expire              time.Time
	}
	const lister = `query($t: String) { jetons(tournoi: $t) { id empreinte role tournoi tables libelle expire emetteur } }`
	liste := func(token string, tournoi any) (map[string]fiche, apiResult) {
		res := s.gql(token, lister, map[string]any{"t": tournoi})
		var fiches []fiche
		if len(res.Errors) == 0 {
			res.into(t, "jetons", &fiches)
		}
		parID := map[string]fiche{}
		for _, f := range fiches {
			parID[f.ID] = f
		}
		return parID, res
	}
	ids := map[string]string{"director": s.jetonID(director), "director T1": s.jetonID(directorT1),
		"arbiter T2": s.jetonID(arbitreT2), "issued": issued.ID}

	tous, res := liste(director, nil)
	require.Empty(t, res.Errors)
	assert.Len(t, tous, 4, "every token that works, the revoked one aside")
	for nom, id := range ids {
		assert.Contains(t, tous, id, nom)
	}
	f := tous[issued.ID]
	assert.Equal(t, "ARBITER", f.Role)
	assert.Equal(t, "T1", *f.Tournoi)
	assert.Equal(t, "5-8", *f.Tables)
	assert.Equal(t, "Table 5", *f.Libelle)
	assert.Equal(t, ids["director T1"], *f.Emetteur, "issued by the director of T1")
	assert.Nil(t, tous[ids["director"]].Emetteur, "issued by the command line")
	assert.Equal(t, "Juge-arbitre", *tous[ids["director"]].Libelle)
	assert.Equal(t, "1-4", *tous[ids["arbiter T2"]].Tables)
	sum := sha256.Sum256([]byte(issued.Secret))
	assert.Equal(t, hex.EncodeToString(sum[:]), f.Empreinte, "the holder of a secret recognises its token")
	brut := s.gql(director, lister, nil).Data["jetons"]
	for _, secret := range []string{director, directorT1, arbitreT2, revoque, issued.Secret} {
		assert.NotContains(t, string(brut), secret, "no secret is listed")
	}

	t2, res := liste(director, "T2")
	require.Empty(t, res.Errors)
	assert.Equal(t, []string{ids["arbiter T2"]}, keys(t2), "naming a tournament lists its tokens")

	local, res := liste(directorT1, nil)
	require.Empty(t, res.Errors)
	assert.ElementsMatch(t, []string{ids["director T1"], issued.ID}, keys(local), "a director of T1 sees T1's tokens only")
	_, res = liste(directorT1, "T2")
	assert.Equal(t, "FORBIDDEN", res.code(), "nor another tournament's")
	_, res = liste(arbitreT2, nil)
	assert.Equal(t, "FORBIDDEN", res.code(), "an arbiter lists nothing")
	_, res = liste("", nil)
	assert.Equal(t, "UNAUTHENTICATED", res.code())
}

func keys[V any](m map[string]V) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}
