// Package apiclient is the one Go client of Arbitre's GraphQL API over
// HTTP: the federation link's calls to its principal, the benchmarks
// (`arbitre charge`, `charge national`, `charge --verifier`) and the
// end-to-end tests send their requests through it. An answer is read up to
// a bound, and a GraphQL error comes back as an *Error with its stable code.
package apiclient

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
)

// Client sends GraphQL requests to one server.
type Client struct {
	// URL is the server's /graphql endpoint.
	URL string
	// HTTP sends the requests (http.DefaultClient when nil).
	HTTP *http.Client
	// MaxAnswer bounds an answer's bytes (0: unbounded, for the
	// benchmarks reading their own local server).
	MaxAnswer int64
}

// New is a client of the server at base ("http://host:port", with or
// without a trailing slash).
func New(base string, httpClient *http.Client) *Client {
	return &Client{URL: strings.TrimSuffix(base, "/") + "/graphql", HTTP: httpClient}
}

// Error is a GraphQL error of the answer, with its stable code.
type Error struct {
	Message    string `json:"message"`
	Path       []any  `json:"path,omitempty"`
	Extensions struct {
		Code string `json:"code"`
	} `json:"extensions"`
}

func (e *Error) Error() string { return e.Extensions.Code + ": " + e.Message }

// Code is the error's stable code (INVALID_INPUT, CONFLICT...).
func (e *Error) Code() string { return e.Extensions.Code }

// Answer is a GraphQL answer: its data as sent, and its errors.
type Answer struct {
	Data   json.RawMessage `json:"data"`
	Errors []Error         `json:"errors"`
}

// Err is the answer's first error, nil without one.
func (a *Answer) Err() error {
	if len(a.Errors) == 0 {
		return nil
	}
	return &a.Errors[0]
}

// TooLargeError says an answer went past the client's bound.
type TooLargeError struct{ Max int64 }

func (e *TooLargeError) Error() string {
	return fmt.Sprintf("réponse de plus de %d octets : abandonnée", e.Max)
}

// Body is the request Read sends for query with its variables, encoded
// once: a caller sending the same request many times (a benchmark's
// bulletins, retried with their clientMutationId) hands it to Post.
func Body(query string, vars map[string]any) ([]byte, error) {
	return json.Marshal(map[string]any{"query": query, "variables": vars})
}

// Read sends query with its variables (and the bearer token when given)
// and hands the answer's body to read, whatever its HTTP status: a
// refusal is a GraphQL answer too. A read error says the status.
func (c *Client) Read(ctx context.Context, token, query string, vars map[string]any, read func(io.Reader) error) error {
	body, err := Body(query, vars)
	if err != nil {
		return err
	}
	return c.Post(ctx, token, body, read)
}

// Post sends body, a request as Body encodes it, as Read does.
func (c *Client) Post(ctx context.Context, token string, body []byte, read func(io.Reader) error) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.URL, bytes.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	httpClient := c.HTTP
	if httpClient == nil {
		httpClient = http.DefaultClient
	}
	resp, err := httpClient.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	var r io.Reader = resp.Body
	if c.MaxAnswer > 0 {
		r = &bounded{r: io.LimitReader(resp.Body, c.MaxAnswer+1), left: c.MaxAnswer, max: c.MaxAnswer}
	}
	if err := read(r); err != nil {
		return fmt.Errorf("HTTP %d: %w", resp.StatusCode, err)
	}
	return nil
}

// bounded fails once more than left bytes are read.
type bounded struct {
	r    io.Reader
	left int64
	max  int64
}

func (b *bounded) Read(p []byte) (int, error) {
	n, err := b.r.Read(p)
	b.left -= int64(n)
	if b.left < 0 {
		return n, &TooLargeError{Max: b.max}
	}
	return n, err
}

// Raw sends query and returns the answer's body as read.
func (c *Client) Raw(ctx context.Context, token, query string, vars map[string]any) (body []byte, err error) {
	err = c.Read(ctx, token, query, vars, func(r io.Reader) error {
		body, err = io.ReadAll(r)
		return err
	})
	return body, err
}

// Answer sends query and decodes the whole answer.
func (c *Client) Answer(ctx context.Context, token, query string, vars map[string]any) (*Answer, error) {
	body, err := c.Raw(ctx, token, query, vars)
	if err != nil {
		return nil, err
	}
	return decodeAnswer(body)
}

// decodeAnswer decodes a whole answer's body.
func decodeAnswer(body []byte) (*Answer, error) {
	var a Answer
	if err := json.Unmarshal(body, &a); err != nil {
		return nil, fmt.Errorf("réponse illisible : %w", err)
	}
	return &a, nil
}

// Do sends query and decodes its data into out (a pointer, or nil); the
// answer's first error comes back as an *Error.
func (c *Client) Do(ctx context.Context, token, query string, vars map[string]any, out any) error {
	body, err := c.Raw(ctx, token, query, vars)
	if err != nil {
		return err
	}
	return Decode(body, out)
}

// Decode decodes an answer's body as Do does: its data into out (a
// pointer, or nil), its first error as an *Error.
func Decode(body []byte, out any) error {
	a, err := decodeAnswer(body)
	if err != nil {
		return err
	}
	if err := a.Err(); err != nil {
		return err
	}
	if out == nil || len(a.Data) == 0 {
		return nil
	}
	return json.Unmarshal(a.Data, out)
}
