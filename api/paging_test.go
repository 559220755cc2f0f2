package api_test

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/skillgraph/skillgraph/api"
	"github.com/skillgraph/skillgraph/graph"
	"github.com/skillgraph/skillgraph/graph/ingest"
	"github.com/skillgraph/skillgraph/queries"
)

type page struct {
	TotalCount int
	Nodes      []struct{ ID string }
	Edges      []struct{ Cursor string }
	PageInfo   struct {
		HasNextPage, HasPreviousPage bool
		StartCursor, EndCursor       *string
	}
}

var (
	harnessOnce sync.Once
	harnessSnap *queries.Snapshot
	harnessErr  error
)

// harnessSnapshot builds the snapshot of examples/harness once.
func harnessSnapshot(t testing.TB) *queries.Snapshot {
	harnessOnce.Do(func() {
		ctx := context.Background()
		st, err := graph.Open(ctx, "memory")
		if err != nil {
			harnessErr = err
			return
		}
		defer st.Close()
		if _, harnessErr = ingest.Run(ctx, st, []string{"../examples/harness"}, ingest.Options{}); harnessErr != nil {
			return
		}
		harnessSnap, harnessErr = queries.Build(ctx, st)
	})
	if harnessErr != nil {
		t.Fatal(harnessErr)
	}
	return harnessSnap
}

func skillsPage(t *testing.T, args string) (page, []string) {
	t.Helper()
	_, schema := miniSnapshot(t)
	snap := harnessSnapshot(t)
	q := fmt.Sprintf(`{ skills%s { totalCount nodes { id } edges { cursor } pageInfo { hasNextPage hasPreviousPage startCursor endCursor } } }`, args)
	res := schema.Execute(context.Background(), snap, api.Request{Query: q}, api.DefaultLimits())
	if len(res.Errors) > 0 {
		t.Fatalf("%s: %v", args, res.Errors)
	}
	b, _ := json.Marshal(res.Data.(map[string]any)["skills"])
	var p page
	if err := json.Unmarshal(b, &p); err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, n := range p.Nodes {
		ids = append(ids, n.ID)
	}
	return p, ids
}

// TestRelayPaging: first/after and last/before walk the same order from
// both ends; pageInfo says what lies around a page; first: 0 is an empty
// page with null cursors and the same totals.
func TestRelayPaging(t *testing.T) {
	all, ids := skillsPage(t, "(first: 500)")
	n := all.TotalCount
	if n < 5 || len(ids) != n {
		t.Fatalf("mini corpus has %d skills", n)
	}
	c := func(p page, i int) string { return p.Edges[i].Cursor }
	for _, tc := range []struct {
		name, args      string
		want            []string
		hasNext, hasPrv bool
	}{
		{"first 2", "(first: 2)", ids[:2], true, false},
		{"last 2", "(last: 2)", ids[n-2:], false, true},
		{"first 2 after the second", fmt.Sprintf("(first: 2, after: %q)", c(all, 1)), ids[2:4], n > 4, true},
		{"last 2 before the fourth", fmt.Sprintf("(last: 2, before: %q)", c(all, 3)), ids[1:3], true, true},
		{"between two cursors", fmt.Sprintf("(after: %q, before: %q)", c(all, 0), c(all, 3)), ids[1:3], true, true},
		{"first 0", "(first: 0)", nil, true, false},
		{"last 0", "(last: 0)", nil, false, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, got := skillsPage(t, tc.args)
			if strings.Join(got, ",") != strings.Join(tc.want, ",") {
				t.Fatalf("nodes %v, want %v", got, tc.want)
			}
			if p.TotalCount != n || p.PageInfo.HasNextPage != tc.hasNext || p.PageInfo.HasPreviousPage != tc.hasPrv {
				t.Fatalf("totalCount %d hasNextPage %v hasPreviousPage %v", p.TotalCount, p.PageInfo.HasNextPage, p.PageInfo.HasPreviousPage)
			}
			if len(got) == 0 {
				if p.PageInfo.StartCursor != nil || p.PageInfo.EndCursor != nil {
					t.Fatal("an empty page has cursors")
				}
				return
			}
			if *p.PageInfo.StartCursor != p.Edges[0].Cursor || *p.PageInfo.EndCursor != p.Edges[len(p.Edges)-1].Cursor {
				t.Fatal("start/end cursors are not the page's first and last")
			}
		})
	}
	_, schema := miniSnapshot(t)
	res := schema.Execute(context.Background(), harnessSnapshot(t), api.Request{Query: `{ skills(last: 501) { totalCount } }`}, api.DefaultLimits())
	if len(res.Errors) == 0 || !strings.Contains(res.Errors[0].Message, "last may be at most 500") {
		t.Fatalf("last: 501 gave %v", res.Errors)
	}
}

// harnessRunner runs queries on the bundled example's snapshot, failing
// the test on an error, and returns their data.
func harnessRunner(t *testing.T) func(q string) map[string]any {
	_, schema := miniSnapshot(t)
	snap := harnessSnapshot(t)
	return func(q string) map[string]any {
		t.Helper()
		res := schema.Execute(context.Background(), snap, api.Request{Query: q}, api.DefaultLimits())
		if len(res.Errors) > 0 {
			t.Fatalf("%s: %v", q, res.Errors)
		}
		return res.Data.(map[string]any)
	}
}

// TestNodeInterface: node(id:) returns the entity of each globalId, null
// for an id that names none; every connection has nodes.
func TestNodeInterface(t *testing.T) {
	run := harnessRunner(t)
	d := run(`{ skills(first: 1) { nodes { id globalId } } tools(first: 1) { nodes { id globalId } } processes(first: 1) { nodes { id globalId } } beans(first: 1) { nodes { id globalId } } }`)
	for _, conn := range []string{"skills", "tools", "processes", "beans"} {
		nodes := d[conn].(map[string]any)["nodes"].([]any)
		if len(nodes) == 0 {
			continue
		}
		n := nodes[0].(map[string]any)
		got := run(fmt.Sprintf(`{ node(id: %q) { __typename globalId ... on Skill { id } ... on Tool { id } ... on Process { id } ... on Bean { id } } }`, n["globalId"]))["node"]
		m, _ := got.(map[string]any)
		if m == nil || m["id"] != n["id"] || m["globalId"] != n["globalId"] {
			t.Errorf("%s: node(%v) = %v, want id %v", conn, n["globalId"], got, n["id"])
		}
	}
	for _, bad := range []string{"bm9wZQ==", "U2tpbGw6bm9uZQ==", "!!"} {
		if got := run(fmt.Sprintf(`{ node(id: %q) { globalId } }`, bad))["node"]; got != nil {
			t.Errorf("node(%q) = %v, want null", bad, got)
		}
	}
	types := run(`{ __schema { types { name fields { name } } } }`)["__schema"].(map[string]any)["types"].([]any)
	conns := 0
	for _, ty := range types {
		m := ty.(map[string]any)
		if !strings.HasSuffix(m["name"].(string), "Connection") {
			continue
		}
		conns++
		has := false
		for _, f := range m["fields"].([]any) {
			has = has || f.(map[string]any)["name"] == "nodes"
		}
		if !has {
			t.Errorf("%s has no nodes", m["name"])
		}
	}
	if conns < 5 {
		t.Fatalf("%d connections", conns)
	}
}

// TestGlobalIDsAreUniquePerNode: two skills of one id in two packages
// (the example's two "glossary" skills) have two global ids, and node()
// returns each of them (issue 25.1: one id, and a normalised client cache
// merged them); an old global id of the corpus id still answers.
func TestGlobalIDsAreUniquePerNode(t *testing.T) {
	run := harnessRunner(t)
	nodes := run(`{ skills(first: 500) { nodes { id iri globalId } } }`)["skills"].(map[string]any)["nodes"].([]any)
	seen := map[string]string{}
	ids := map[string]int{}
	for _, n := range nodes {
		m := n.(map[string]any)
		g, iri := m["globalId"].(string), m["iri"].(string)
		if other, dup := seen[g]; dup {
			t.Errorf("skills %s and %s share global id %s", other, iri, g)
		}
		seen[g] = iri
		ids[m["id"].(string)]++
		got := run(fmt.Sprintf(`{ node(id: %q) { ... on Skill { iri } } }`, g))["node"].(map[string]any)
		if got["iri"] != iri {
			t.Errorf("node(%s) is %v, want %s", g, got["iri"], iri)
		}
	}
	shared := 0
	for _, n := range ids {
		if n > 1 {
			shared++
		}
	}
	if shared == 0 {
		t.Fatal("the example has no two skills of one id: the test shows nothing")
	}
	legacy := base64.URLEncoding.EncodeToString([]byte("Skill:" + nodes[0].(map[string]any)["id"].(string)))
	if got := run(fmt.Sprintf(`{ node(id: %q) { ... on Skill { id } } }`, legacy))["node"]; got == nil {
		t.Error("a global id of the corpus id no longer answers")
	}
}

// TestFlagFiltersPaged holds the memoised flag filters to the filter:
// every combination of the skill flags (more than a snapshot's memo
// keeps, so both the memoised and the per-request path answer), in two
// orders and asked twice, pages of 2 walked to the end give exactly the
// skills of the whole list whose flags match, in its order.
func TestFlagFiltersPaged(t *testing.T) {
	run := harnessRunner(t)
	type flagged struct {
		ID, Package                              string
		Covered, Contradicted, Exempt, Reachable bool
	}
	decode := func(v any, into any) {
		b, _ := json.Marshal(v)
		if err := json.Unmarshal(b, into); err != nil {
			t.Fatal(err)
		}
	}
	flags := []string{"covered", "contradicted", "exempt", "reachable"}
	for _, order := range []string{"", "orderBy: TIER, desc: true, "} {
		var whole struct{ Nodes []flagged }
		decode(run(`{ skills(` + order + `first: 500) { nodes { id package covered contradicted exempt reachable } } }`)["skills"], &whole)
		// 3^4 combinations: each flag absent, true or false.
		for combo := range 81 {
			var args []string
			want := []string{}
			keep := func(f flagged) bool {
				vals := []bool{f.Covered, f.Contradicted, f.Exempt, f.Reachable}
				for i, c := 0, combo; i < len(flags); i, c = i+1, c/3 {
					if c%3 != 0 && vals[i] != (c%3 == 1) {
						return false
					}
				}
				return true
			}
			for i, c := 0, combo; i < len(flags); i, c = i+1, c/3 {
				if c%3 != 0 {
					args = append(args, fmt.Sprintf("%s: %t", flags[i], c%3 == 1))
				}
			}
			for _, f := range whole.Nodes {
				if keep(f) {
					want = append(want, f.Package+"/"+f.ID)
				}
			}
			for round := range 2 {
				got := []string{}
				after := ""
				for {
					q := fmt.Sprintf(`{ skills(%s%s first: 2%s) { nodes { id package } pageInfo { hasNextPage endCursor } } }`, order, strings.Join(args, ", "), after)
					var p struct {
						Nodes    []flagged
						PageInfo struct {
							HasNextPage bool
							EndCursor   *string
						}
					}
					decode(run(q)["skills"], &p)
					for _, n := range p.Nodes {
						got = append(got, n.Package+"/"+n.ID)
					}
					if !p.PageInfo.HasNextPage {
						break
					}
					after = fmt.Sprintf(", after: %q", *p.PageInfo.EndCursor)
				}
				if strings.Join(got, " ") != strings.Join(want, " ") {
					t.Fatalf("order %q, filter %v, round %d: got %v, want %v", order, args, round, got, want)
				}
			}
		}
	}
}
