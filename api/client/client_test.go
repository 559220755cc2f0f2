package client_test

import (
	"context"
	"errors"
	"testing"

	"github.com/skillgraph/skillgraph/api/client"
	"github.com/skillgraph/skillgraph/api/server"
	"github.com/skillgraph/skillgraph/api/server/servertest"
)

// TestQueryAgainstARealServer (issue 25.9): the client runs queries with
// variables against a real server on loopback, decodes the data, returns
// GraphQL errors as Errors (with a partial answer decoded), and sends the
// bearer token a mutation needs.
func TestQueryAgainstARealServer(t *testing.T) {
	srv := servertest.Start(t, servertest.Options{Corpus: servertest.CopyTree(t, "../../examples/harness"),
		Config: func(c *server.Config) { c.Token = "s3cret" }})
	ctx := context.Background()
	c := client.New(srv.URL)
	var out struct {
		Skill struct {
			ID    string
			Title string
		}
		Coverage struct{ Total int }
	}
	if err := c.Query(ctx, `query($id: ID!) { skill(id: $id) { id title } coverage { total } }`, map[string]any{"id": "check-links"}, &out); err != nil {
		t.Fatal(err)
	}
	if out.Skill.ID != "check-links" || out.Skill.Title == "" || out.Coverage.Total == 0 {
		t.Errorf("decoded %+v", out)
	}
	tests := []struct {
		name, query string
		c           *client.Client
		graphqlErr  bool
	}{
		{"a field that does not exist", `{ nosuch }`, c, true},
		{"a mutation without the token", `mutation { recordTriage(skill: "check-links", verdict: mechanism) { graphVersion } }`, c, true},
		{"the wrong endpoint", `{ graphVersion }`, client.New(srv.URL + "/nope/graphql"), false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.c.Query(ctx, tc.query, nil, nil)
			if err == nil {
				t.Fatal("no error")
			}
			if client.IsGraphQLError(err) != tc.graphqlErr {
				t.Errorf("IsGraphQLError(%v) = %v", err, !tc.graphqlErr)
			}
			var se *client.StatusError
			if !tc.graphqlErr && !errors.As(err, &se) {
				t.Errorf("%v is no StatusError", err)
			}
		})
	}
	// With the token the mutation runs.
	withToken := client.New(srv.URL+"/graphql", client.WithToken("s3cret"))
	var m struct{ RecordTriage struct{ GraphVersion int } }
	if err := withToken.Query(ctx, `mutation($s: ID!) { recordTriage(skill: $s, verdict: mechanism) { graphVersion } }`, map[string]any{"s": "check-links"}, &m); err != nil {
		t.Fatalf("mutation with the token: %v", err)
	}
	if m.RecordTriage.GraphVersion < 2 {
		t.Errorf("the mutation answered %+v", m)
	}
}
