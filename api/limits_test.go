package api_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/graphql-go/graphql"

	"github.com/skillgraph/skillgraph/api"
)

// repeat joins n results of f.
func repeat(n int, f func(i int) string) string {
	var b strings.Builder
	for i := range n {
		b.WriteString(f(i))
	}
	return b.String()
}

// attackShapes are the request shapes of issue #16.1 at the sizes the
// attack run used, and the shapes found while fixing them. On graphql-go
// alone each costs from seconds to minutes of CPU that no deadline stops.
var attackShapes = []struct {
	name  string
	query string
	want  string // in the first error
}{
	{"list nesting 800", `{search(text: ` + strings.Repeat("[", 800) + `"x"` + strings.Repeat("]", 800) + `) { __typename }}`, "depth exceeds"},
	{"list nesting within the bracket scan", `{search(text: ` + strings.Repeat("[", 40) + `"x"` + strings.Repeat("]", 40) + `) { __typename }}`, "nests deeper than 8"},
	{"object nesting 300", `{search(text: ` + strings.Repeat("{a:", 300) + `1` + strings.Repeat("}", 300) + `) { __typename }}`, "depth exceeds"},
	{"object nesting within the bracket scan", `{search(text: ` + strings.Repeat("{a:", 30) + `1` + strings.Repeat("}", 30) + `) { __typename }}`, "nests deeper than 8"},
	{"nesting that fills the body", strings.Repeat("{a", 400_000) + strings.Repeat("}", 400_000), "depth exceeds"},
	{"5000 unknown arguments", `{graphVersion(` + repeat(5000, func(i int) string { return fmt.Sprintf("a%d: 1 ", i) }) + `)}`, "unknown fields, arguments"},
	{"1990 unknown fields and a 900 KB comment", "#" + strings.Repeat("x", 900_000) + "\n{" + repeat(1990, func(i int) string { return fmt.Sprintf("f%d ", i) }) + "}", "unknown fields, arguments"},
	{"unknown directives", `{graphVersion ` + repeat(30, func(i int) string { return fmt.Sprintf("@d%d ", i) }) + `}`, "unknown fields, arguments or directives"},
	{"5001 values", `{search(text: [` + repeat(5001, func(int) string { return "1 " }) + `]) { __typename }}`, "more than 5000 arguments"},
	{"5001 fragment spreads", `{` + repeat(5001, func(int) string { return "...F " }) + `} fragment F on Query { graphVersion }`, "more than 5000 arguments"},
	{"one key 1000 times with different arguments", `{` + repeat(1000, func(i int) string { return fmt.Sprintf(`a: skill(id: "x%d") { id } `, i) }) + `}`, `response key "a"`},
	{"one key through 400 inline fragments", `{` + repeat(400, func(i int) string { return fmt.Sprintf(`... { a: skill(id: "x%d") { id } } `, i) }) + `}`, `response key "a"`},
	{"fragments that spread the next twice, 40 levels", "{ ...F0 }" + repeat(40, func(i int) string { return fmt.Sprintf(" fragment F%d on Query { ...F%d ...F%d }", i, i+1, i+1) }) + " fragment F40 on Query { ...Nope }", "expands into more than"},
	{"one key through 400 fragments", `{` + repeat(400, func(i int) string { return fmt.Sprintf("...F%d ", i) }) + `}` + repeat(400, func(i int) string { return fmt.Sprintf(` fragment F%d on Query { a: skill(id: "%d") { id } }`, i, i) }), `response key "a"`},
}

// TestAttackShapesRefused: each shape is a request error naming the limit
// it broke, found before graphql-go validates the document.
func TestAttackShapesRefused(t *testing.T) {
	snap, schema := miniSnapshot(t)
	for _, c := range attackShapes {
		t.Run(c.name, func(t *testing.T) {
			res := schema.Execute(context.Background(), snap, api.Request{Query: c.query}, api.DefaultLimits())
			if !res.RequestError || len(res.Errors) == 0 {
				t.Fatalf("want a request error, got %+v", res.Errors)
			}
			if msg := res.Errors[0].Message; !strings.Contains(msg, c.want) {
				t.Fatalf("first error %q, want one about %q", msg, c.want)
			}
		})
	}
}

// TestVariablesBounded: variables nest and count like literals.
func TestVariablesBounded(t *testing.T) {
	snap, schema := miniSnapshot(t)
	var deep any = "x"
	for range 50 {
		deep = []any{deep}
	}
	wide := make([]any, 6000)
	for i := range wide {
		wide[i] = "review"
	}
	for _, c := range []struct {
		name string
		vars map[string]any
		want string
	}{
		{"deep", map[string]any{"p": deep}, "Variable $p nests deeper than 8"},
		{"wide", map[string]any{"p": wide}, "more than 5000 values"},
	} {
		t.Run(c.name, func(t *testing.T) {
			res := schema.Execute(context.Background(), snap, api.Request{Query: `mutation($p: [String!]) { reingest(paths: $p) { graphVersion } }`, Variables: c.vars}, api.DefaultLimits())
			if !res.RequestError || len(res.Errors) == 0 || !strings.Contains(res.Errors[0].Message, c.want) {
				t.Fatalf("want a request error about %q, got %+v", c.want, res.Errors)
			}
		})
	}
}

// TestErrorLocations: locations are lines and columns of the source
// although graphql-go is given no source (it would scan the whole body
// once per error).
func TestErrorLocations(t *testing.T) {
	snap, schema := miniSnapshot(t)
	q := "# comment\r\n{\n  graphVersion\n    nope\n}"
	res := schema.Execute(context.Background(), snap, api.Request{Query: q}, api.DefaultLimits())
	if len(res.Errors) != 1 || len(res.Errors[0].Locations) != 1 {
		t.Fatalf("errors %+v", res.Errors)
	}
	if l := res.Errors[0].Locations[0]; l.Line != 4 || l.Column != 5 {
		t.Fatalf("location %+v, want line 4 column 5", l)
	}
}

// TestErrorsCapped: a response lists at most MaxErrors errors and says how
// many it left out.
func TestErrorsCapped(t *testing.T) {
	snap, schema := miniSnapshot(t)
	q := "query(" + repeat(30, func(i int) string { return fmt.Sprintf("$v%d: Int ", i) }) + ") { graphVersion }"
	res := schema.Execute(context.Background(), snap, api.Request{Query: q}, api.DefaultLimits())
	if len(res.Errors) != 21 || res.Errors[20].Message != "10 more errors not shown" {
		t.Fatalf("%d errors, last %+v", len(res.Errors), res.Errors[len(res.Errors)-1])
	}
}

// TestRequestErrorHasNoData: a request error has no data entry; an
// execution error keeps data.
func TestRequestErrorHasNoData(t *testing.T) {
	snap, schema := miniSnapshot(t)
	for _, c := range []struct {
		query    string
		wantData bool
	}{
		{`{`, false},
		{`{ nope }`, false},
		{`{ skills(first: 9999) { totalCount } }`, true},
		{`{ graphVersion }`, true},
	} {
		res := schema.Execute(context.Background(), snap, api.Request{Query: c.query}, api.DefaultLimits())
		b, err := json.Marshal(res)
		if err != nil {
			t.Fatal(err)
		}
		var m map[string]any
		_ = json.Unmarshal(b, &m)
		if _, has := m["data"]; has != c.wantData {
			t.Errorf("%s: %s", c.query, b)
		}
	}
}

// TestDeadlineStopsWork: once the deadline has passed, validation does
// not start and every resolver returns the context's error instead of
// working (graphql-go keeps running resolvers after Execute returned).
func TestDeadlineStopsWork(t *testing.T) {
	snap, schema := miniSnapshot(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	res := schema.Execute(ctx, snap, api.Request{Query: `{ skills { totalCount } }`}, api.DefaultLimits())
	if len(res.Errors) == 0 || !strings.Contains(res.Errors[0].Message, "deadline") {
		t.Fatalf("errors %+v", res.Errors)
	}
	gs := schema.GraphQL()
	for _, name := range []string{"skills", "graphVersion", "coverage"} {
		fd := gs.QueryType().Fields()[name]
		v, err := fd.Resolve(graphql.ResolveParams{Context: api.WithSnapshot(ctx, snap), Args: map[string]any{}})
		if err != context.Canceled || v != nil {
			t.Errorf("%s: resolver returned %v, %v after the deadline", name, v, err)
		}
	}
	skill := gs.Type("Skill").(*graphql.Object).Fields()["id"]
	if _, err := skill.Resolve(graphql.ResolveParams{Context: ctx, Source: snap.Skills[0]}); err != context.Canceled {
		t.Errorf("Skill.id: %v", err)
	}
}

// TestIntrospectionLimits: a full introspection query with a type
// reference nested nine levels (as introspecting clients send it) passes;
// introspection that walks the schema's cycles is still refused, and so
// is an ofType chain past the introspection depth.
func TestIntrospectionLimits(t *testing.T) {
	snap, schema := miniSnapshot(t)
	typeRef := "kind name" + strings.Repeat(" ofType { kind name", 8) + strings.Repeat(" }", 8)
	full := `query Introspect { __schema { queryType { name } mutationType { name } subscriptionType { name }
	  types { ...Full } directives { name description locations args { ...Input } } } }
	fragment Full on __Type { kind name description
	  fields(includeDeprecated: true) { name description args { ...Input } type { ...Ref } isDeprecated deprecationReason }
	  inputFields { ...Input } interfaces { ...Ref } enumValues(includeDeprecated: true) { name description isDeprecated deprecationReason }
	  possibleTypes { ...Ref } }
	fragment Input on __InputValue { name description type { ...Ref } defaultValue }
	fragment Ref on __Type { ` + typeRef + ` }`
	for _, c := range []struct {
		name, query, want string
	}{
		{"full introspection", full, ""},
		{"one type", `{ __type(name: "Skill") { name fields { name type { ...Ref } } } } fragment Ref on __Type { ` + typeRef + ` }`, ""},
		{"schema cycles", `{ __schema { types { fields { type { fields { type { fields { type { fields { name } } } } } } } } } }`, "introspection cost exceeds"},
		{"ofType past the depth", `{ __type(name: "Skill") { ` + strings.Repeat("ofType { ", 20) + "name" + strings.Repeat(" }", 20) + ` } }`, "introspection depth exceeds"},
		{"depth still bounded outside introspection", `{ skill(id: "review") ` + strings.Repeat("{ tools { satisfies ", 7) + "{ id }" + strings.Repeat("} }", 7) + " }", "depth exceeds the limit of 12"},
	} {
		t.Run(c.name, func(t *testing.T) {
			res := schema.Execute(context.Background(), snap, api.Request{Query: c.query}, api.DefaultLimits())
			if c.want == "" {
				if len(res.Errors) > 0 {
					t.Fatal(res.Errors)
				}
				return
			}
			if len(res.Errors) == 0 || !strings.Contains(res.Errors[0].Message, c.want) {
				t.Fatalf("errors %v, want one about %q", res.Errors, c.want)
			}
		})
	}
}
