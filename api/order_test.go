package api_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/skillgraph/skillgraph/api"
)

// keyOrder lists every object key of a JSON document in the order it is
// written, each as its path (a.b.c; list elements share their list's
// path), the first time it appears.
func keyOrder(t *testing.T, body []byte) []string {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(body))
	var out []string
	seen := map[string]bool{}
	var walk func(path string) error
	walk = func(path string) error {
		tok, err := dec.Token()
		if err != nil {
			return err
		}
		switch tok {
		case json.Delim('{'):
			for dec.More() {
				k, err := dec.Token()
				if err != nil {
					return err
				}
				p := strings.TrimPrefix(path+"."+k.(string), ".")
				if !seen[p] {
					seen[p] = true
					out = append(out, p)
				}
				if err := walk(p); err != nil {
					return err
				}
			}
			_, err = dec.Token()
		case json.Delim('['):
			for dec.More() {
				if err := walk(path); err != nil {
					return err
				}
			}
			_, err = dec.Token()
		}
		return err
	}
	if err := walk(""); err != nil {
		t.Fatalf("%v\n%s", err, body)
	}
	return out
}

// TestResponseKeysInSelectionOrder (issue 25.5, spec §7.2.2): the keys of
// every object come back in the order the selection asked for them:
// aliases, fragment spreads and inline fragments where they stand, a
// repeated response key at its first place with its selections merged,
// @skip/@include (literal and variable) applied; through Execute and
// through ExecuteShared (root fields from the field cache, cold and
// warm). Before, graphql-go's maps were written with sorted keys.
func TestResponseKeysInSelectionOrder(t *testing.T) {
	_, schema := miniSnapshot(t)
	snap := harnessSnapshot(t)
	tests := []struct {
		name, query string
		vars        map[string]any
		want        []string
	}{
		{"roots and fields unsorted", `{ graphVersion coverage { total covered { id } uncovered } }`, nil,
			[]string{"data", "data.graphVersion", "data.coverage", "data.coverage.total", "data.coverage.covered", "data.coverage.covered.id", "data.coverage.uncovered"}},
		{"aliases", `{ z: graphVersion a: graphVersion m: coverage { y: total b: uncovered } }`, nil,
			[]string{"data", "data.z", "data.a", "data.m", "data.m.y", "data.m.b"}},
		{"fragments where they stand, merged keys", `query { coverage { uncovered ...F total ... on Coverage { covered { id } } } }
			fragment F on Coverage { covered { title } total }`, nil,
			[]string{"data", "data.coverage", "data.coverage.uncovered", "data.coverage.covered", "data.coverage.covered.title", "data.coverage.covered.id", "data.coverage.total"}},
		{"skip and include", `query Q($no: Boolean = true) { coverage { uncovered @skip(if: true) total @include(if: $no) covered @include(if: false) { id } } graphVersion }`, nil,
			[]string{"data", "data.coverage", "data.coverage.total", "data.graphVersion"}},
		{"include by a variable given", `query Q($yes: Boolean!) { graphVersion @include(if: $yes) coverage { total } }`, map[string]any{"yes": false},
			[]string{"data", "data.coverage", "data.coverage.total"}},
		{"union members", `{ search(text: "glossary", first: 3) { __typename ... on Tool { title id } ... on Skill { name id } } }`, nil,
			// the first element is a Skill: its own fragment's order
			[]string{"data", "data.search", "data.search.__typename", "data.search.name", "data.search.id", "data.search.title"}},
		{"union members without __typename", `{ search(text: "glossary", first: 3) { ... on Tool { title id } ... on Skill { name id } } }`, nil,
			[]string{"data", "data.search", "data.search.name", "data.search.id", "data.search.title"}},
		{"introspection", `{ __schema { types { name kind } queryType { name } } }`, nil,
			[]string{"data", "data.__schema", "data.__schema.types", "data.__schema.types.name", "data.__schema.types.kind", "data.__schema.queryType", "data.__schema.queryType.name"}},
	}
	lim := api.DefaultLimits()
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			fc := &mapCache{}
			for _, how := range []string{"Execute", "ExecuteShared cold", "ExecuteShared warm"} {
				var res *api.Response
				if how == "Execute" {
					res = schema.Execute(context.Background(), snap, api.Request{Query: tc.query, Variables: tc.vars}, lim)
				} else {
					doc, err := api.Parse(tc.query, lim)
					if err != nil {
						t.Fatal(err)
					}
					res = schema.ExecuteShared(context.Background(), snap, doc, api.Request{Query: tc.query, Variables: tc.vars}, lim, fc)
				}
				if len(res.Errors) > 0 {
					t.Fatalf("%s: %v", how, res.Errors)
				}
				body, err := res.Encode()
				if err != nil {
					t.Fatal(err)
				}
				got := keyOrder(t, body)
				if fmt.Sprint(got) != fmt.Sprint(tc.want) {
					t.Errorf("%s: keys\n got %v\nwant %v\n%s", how, got, tc.want, body)
				}
				// json.MarshalIndent (the CLI's query) keeps the order.
				ind, err := json.MarshalIndent(res, "", "  ")
				if err != nil {
					t.Fatal(err)
				}
				if got := keyOrder(t, ind); fmt.Sprint(got) != fmt.Sprint(tc.want) {
					t.Errorf("%s indented: keys %v", how, got)
				}
			}
		})
	}
}
