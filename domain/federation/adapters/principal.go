package adapters

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"

	"github.com/gorilla/websocket"

	"arbitre/apiclient"
	"arbitre/domain/erreur"
	"arbitre/domain/federation"
)

// Principal is the principal's server seen from a twinned site (guide
// §2.18): its GraphQL API over HTTP for queries and mutations, and
// graphql-transport-ws for the live subscription, with the site's CENTRE
// token in the Authorization header and in connection_init, never in an
// address.
type Principal struct {
	// URL is the principal's address, e.g. https://vichy.example:8080.
	URL   string
	Jeton string
	HTTP  *http.Client
}

// The bounds of what a site reads from its principal (docs/securite.md):
// a game's public facts are a few hundred kilobytes, a message of the live
// subscription a few bytes. Past them the site drops the answer, and the
// link, and tries again.
const (
	// ReponseMax bounds a GraphQL answer over HTTP.
	ReponseMax = 8 << 20
	// MessageMax bounds a message of the live subscription.
	MessageMax = 64 << 10
)

// requete sends one GraphQL request and decodes its data into out; the
// principal's first error comes back with its code.
func (p *Principal) requete(ctx context.Context, query string, vars map[string]any, out any) error {
	cl := apiclient.New(p.URL, p.HTTP)
	cl.MaxAnswer = ReponseMax
	err := cl.Do(ctx, p.Jeton, query, vars, out)
	var refus *apiclient.Error
	var tropGrand *apiclient.TooLargeError
	switch {
	case errors.As(err, &refus):
		return refusDuPrincipal(refus)
	case errors.As(err, &tropGrand):
		return fmt.Errorf("réponse du principal de plus de %d octets : abandonnée", ReponseMax)
	case err != nil:
		return fmt.Errorf("réponse du principal illisible : %w", err)
	}
	return nil
}

// refusDuPrincipal is the principal's refusal, with its code under its
// current name (an older principal may send a code since renamed).
func refusDuPrincipal(e *apiclient.Error) error {
	return &erreur.Erreur{Code: erreur.Actuel(erreur.Code(e.Code())), Message: "le principal refuse : " + e.Message}
}

// Suivi reads the twinning the token is bound to.
func (p *Principal) Suivi(ctx context.Context) (federation.Suivi, error) {
	var out struct {
		S struct {
			Jumelage, Principal, Site, Tournoi string
			Formule                            int
			Parties                            []string
		} `json:"suiviJumelage"`
	}
	err := p.requete(ctx, `{ suiviJumelage { jumelage formule principal site tournoi parties } }`, nil, &out)
	s := out.S
	return federation.Suivi{Jumelage: s.Jumelage, Formule: federation.Formule(s.Formule), Principal: s.Principal, Site: s.Site,
		Tournoi: s.Tournoi, Parties: s.Parties}, err
}

// Faits reads a game's facts from position depuis on.
func (p *Principal) Faits(ctx context.Context, partie string, depuis int) ([]federation.Fait, error) {
	var out struct {
		Faits []struct {
			Position      int
			Type, Donnees string
		} `json:"faitsPartie"`
	}
	if err := p.requete(ctx, `query($p: ID!, $d: Int) { faitsPartie(partie:$p, depuis:$d) { position type donnees } }`,
		map[string]any{"p": partie, "d": depuis}, &out); err != nil {
		return nil, err
	}
	faits := make([]federation.Fait, len(out.Faits))
	for i, f := range out.Faits {
		faits[i] = federation.Fait{Position: f.Position, Type: f.Type, Donnees: json.RawMessage(f.Donnees)}
	}
	return faits, nil
}

// EnvoyerResultats sends the bundle of the site's game.
func (p *Principal) EnvoyerResultats(ctx context.Context, paquet []byte, cle string) error {
	var out json.RawMessage
	return p.requete(ctx, `mutation($p: String!, $id: String) { envoyerResultatsJumeles(paquet:$p, clientMutationId:$id) { empreinte } }`,
		map[string]any{"p": base64.StdEncoding.EncodeToString(paquet), "id": cle}, &out)
}

// message is a graphql-transport-ws message.
type message struct {
	ID      string          `json:"id,omitempty"`
	Type    string          `json:"type"`
	Payload json.RawMessage `json:"payload,omitempty"`
}

// Ecouter subscribes to coupAnnonce of a game over graphql-transport-ws:
// f at every state the principal sends (the first at once), until the
// connection drops, f fails or ctx ends.
func (p *Principal) Ecouter(ctx context.Context, partie string, f func() error) error {
	adresse := "ws" + strings.TrimPrefix(strings.TrimSuffix(p.URL, "/"), "http") + "/graphql"
	dialer := websocket.Dialer{Subprotocols: []string{"graphql-transport-ws"}}
	conn, _, err := dialer.DialContext(ctx, adresse, nil)
	if err != nil {
		return err
	}
	defer conn.Close()
	conn.SetReadLimit(MessageMax)
	stop := context.AfterFunc(ctx, func() { conn.Close() })
	defer stop()
	init, err := json.Marshal(map[string]string{"Authorization": "Bearer " + p.Jeton})
	if err != nil {
		return err
	}
	souscrire, err := json.Marshal(map[string]any{"query": `subscription($p: ID!) { coupAnnonce(partie:$p) { statut } }`,
		"variables": map[string]any{"p": partie}})
	if err != nil {
		return err
	}
	if err := conn.WriteJSON(message{Type: "connection_init", Payload: init}); err != nil {
		return err
	}
	for {
		var m message
		if err := conn.ReadJSON(&m); errors.Is(err, websocket.ErrReadLimit) {
			return fmt.Errorf("liaison avec le principal : message de plus de %d octets, abandonné", MessageMax)
		} else if err != nil {
			return fmt.Errorf("liaison avec le principal : %w", err)
		}
		switch m.Type {
		case "connection_ack":
			if err := conn.WriteJSON(message{ID: "1", Type: "subscribe", Payload: souscrire}); err != nil {
				return err
			}
		case "ping":
			if err := conn.WriteJSON(message{Type: "pong"}); err != nil {
				return err
			}
		case "next":
			var r apiclient.Answer
			if err := json.Unmarshal(m.Payload, &r); err != nil {
				return err
			}
			var refus *apiclient.Error
			if errors.As(r.Err(), &refus) {
				return refusDuPrincipal(refus)
			}
			if err := f(); err != nil {
				return err
			}
		case "error", "complete":
			return fmt.Errorf("abonnement terminé par le principal : %s %s", m.Type, m.Payload)
		}
	}
}
