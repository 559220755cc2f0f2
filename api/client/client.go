// Package client is a small Go client of skillgraph's GraphQL endpoint
// (issue 25.9): Query posts one document with its variables to /graphql
// and decodes the data into the caller's value. It imports nothing else
// of skillgraph: a dashboard or a tool depends on the HTTP API only.
package client

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
)

// Client talks to one skillgraph server.
type Client struct {
	endpoint string
	token    string
	http     *http.Client
}

// Option configures a Client.
type Option func(*Client)

// WithToken sends the bearer token mutations need (serve's
// SKILLGRAPH_TOKEN).
func WithToken(token string) Option { return func(c *Client) { c.token = token } }

// WithHTTPClient uses hc instead of http.DefaultClient (timeouts,
// transports).
func WithHTTPClient(hc *http.Client) Option { return func(c *Client) { c.http = hc } }

// New is a client of the server at url: its base (http://127.0.0.1:8080)
// or its /graphql endpoint.
func New(url string, opts ...Option) *Client {
	url = strings.TrimSuffix(url, "/")
	if !strings.HasSuffix(url, "/graphql") {
		url += "/graphql"
	}
	c := &Client{endpoint: url, http: http.DefaultClient}
	for _, o := range opts {
		o(c)
	}
	return c
}

// Error is one GraphQL error of a response.
type Error struct {
	Message    string         `json:"message"`
	Path       []any          `json:"path,omitempty"`
	Locations  []Location     `json:"locations,omitempty"`
	Extensions map[string]any `json:"extensions,omitempty"`
}

// Location is where in the document an error is.
type Location struct {
	Line   int `json:"line"`
	Column int `json:"column"`
}

// Errors are the errors of a response that had some; the data that came
// with them (a partial answer) is still decoded.
type Errors []Error

func (e Errors) Error() string {
	msgs := make([]string, len(e))
	for i, x := range e {
		msgs[i] = x.Message
	}
	return "graphql: " + strings.Join(msgs, "; ")
}

// StatusError is an HTTP answer that is no GraphQL response.
type StatusError struct {
	Status int
	Body   string
}

func (e *StatusError) Error() string {
	return fmt.Sprintf("graphql: HTTP %d: %s", e.Status, e.Body)
}

// Query runs one document (a query or, with a token, a mutation) with its
// variables and decodes the response's data into out (a pointer, or nil
// to ignore it). A response with errors returns them as Errors after
// decoding what data there is; a request error (a document that does not
// validate, a limit broken: HTTP 400 with errors) returns Errors too; any
// other failure is wrapped with what was asked.
func (c *Client) Query(ctx context.Context, query string, vars map[string]any, out any) error {
	body, err := json.Marshal(map[string]any{"query": query, "variables": vars})
	if err != nil {
		return fmt.Errorf("graphql: encode the request: %w", err)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.endpoint, bytes.NewReader(body))
	if err != nil {
		return fmt.Errorf("graphql: %w", err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/graphql-response+json, application/json")
	if c.token != "" {
		req.Header.Set("Authorization", "Bearer "+c.token)
	}
	res, err := c.http.Do(req)
	if err != nil {
		return fmt.Errorf("graphql: POST %s: %w", c.endpoint, err)
	}
	defer res.Body.Close()
	raw, err := io.ReadAll(io.LimitReader(res.Body, 256<<20))
	if err != nil {
		return fmt.Errorf("graphql: read the response: %w", err)
	}
	var resp struct {
		Data   json.RawMessage `json:"data"`
		Errors Errors          `json:"errors"`
	}
	if err := json.Unmarshal(raw, &resp); err != nil || (resp.Data == nil && resp.Errors == nil) {
		return &StatusError{Status: res.StatusCode, Body: strings.TrimSpace(string(raw[:min(len(raw), 512)]))}
	}
	if out != nil && len(resp.Data) > 0 && !bytes.Equal(resp.Data, []byte("null")) {
		if err := json.Unmarshal(resp.Data, out); err != nil {
			return fmt.Errorf("graphql: decode the data: %w", err)
		}
	}
	if len(resp.Errors) > 0 {
		return resp.Errors
	}
	if res.StatusCode != http.StatusOK {
		return &StatusError{Status: res.StatusCode, Body: strings.TrimSpace(string(raw[:min(len(raw), 512)]))}
	}
	return nil
}

// IsGraphQLError reports whether err carries GraphQL errors (as opposed to
// a transport failure).
func IsGraphQLError(err error) bool {
	var e Errors
	return errors.As(err, &e)
}
