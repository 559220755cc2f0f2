package api_test

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/skillgraph/skillgraph/api"
	"github.com/skillgraph/skillgraph/cmd/loadgen/mix"
	"github.com/skillgraph/skillgraph/graph"
	"github.com/skillgraph/skillgraph/graph/ingest"
	"github.com/skillgraph/skillgraph/queries"
)

// mapCache is an unbounded FieldCache that counts its hits.
type mapCache struct {
	mu   sync.Mutex
	snap *queries.Snapshot
	m    map[string][]byte
	hits int
}

func (c *mapCache) Get(snap *queries.Snapshot, key string) ([]byte, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	b, ok := c.m[key]
	if ok && c.snap == snap {
		c.hits++
		return b, true
	}
	return nil, false
}

func (c *mapCache) Put(snap *queries.Snapshot, key string, b []byte) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.snap != snap {
		c.snap, c.m = snap, map[string][]byte{}
	}
	c.m[key] = b
}

// sharedCases are documents whose answers must not depend on what was
// asked before: aliases, fragments, variables, introspection, errors,
// several operations, directives, a root key twice.
var sharedCases = []struct {
	name, query, op string
	vars            map[string]any
}{
	{"plain", `{ graphVersion skills(first: 2) { totalCount nodes { id } } }`, "", nil},
	{"same field, other layout", "{\n  skills( first: 2 ) { totalCount, nodes { id } }\n}", "", nil},
	{"aliased", `{ a: skills(first: 2) { totalCount nodes { id } } b: skills(first: 3) { nodes { id } } }`, "", nil},
	{"alias of the same field as plain", `{ x: graphVersion }`, "", nil},
	{"fragment", `{ skills(first: 2) { ...S } } fragment S on SkillConnection { totalCount nodes { id tier } }`, "", nil},
	{"same fragment name, other content", `{ skills(first: 2) { ...S } } fragment S on SkillConnection { nodes { id title } }`, "", nil},
	{"nested fragments", `{ skills(first: 2) { ...S } } fragment S on SkillConnection { nodes { ...T } } fragment T on Skill { id package }`, "", nil},
	{"variable", `query Q($n: Int) { skills(first: $n) { nodes { id } } graphVersion }`, "", map[string]any{"n": 1}},
	{"variable, other value", `query Q($n: Int) { skills(first: $n) { nodes { id } } graphVersion }`, "", map[string]any{"n": 3}},
	{"variable absent, default", `query Q($n: Int = 2) { skills(first: $n) { nodes { id } } }`, "", nil},
	{"variable absent, other default", `query Q($n: Int = 4) { skills(first: $n) { nodes { id } } }`, "", nil},
	{"unused variable", `{ skills(first: 2) { totalCount nodes { id } } }`, "", map[string]any{"nonce": 7}},
	{"variable in a fragment", `query Q($t: String) { skills { ...S } } fragment S on SkillConnection { totalCount nodes { id } }`, "", map[string]any{"t": "x"}},
	{"variable in a nested argument", `query Q($f: Int) { findings(first: $f) { totalCount edges { node { code } } } }`, "", map[string]any{"f": 2}},
	{"two operations", `query A { graphVersion } query B { skills(first: 1) { nodes { id } } }`, "B", nil},
	{"two operations, the other", `query A { graphVersion } query B { skills(first: 1) { nodes { id } } }`, "A", nil},
	{"directive on a root field", `query Q($s: Boolean!) { graphVersion @skip(if: $s) skills(first: 1) { totalCount } }`, "", map[string]any{"s": true}},
	{"directive inside", `query Q($s: Boolean!) { skills(first: 1) { totalCount @skip(if: $s) nodes { id } } }`, "", map[string]any{"s": false}},
	{"directive inside, other value", `query Q($s: Boolean!) { skills(first: 1) { totalCount @skip(if: $s) nodes { id } } }`, "", map[string]any{"s": true}},
	{"root key twice", `{ skills(first: 1) { totalCount } skills(first: 1) { nodes { id } } }`, "", nil},
	{"root fragment", `{ ...R } fragment R on Query { graphVersion }`, "", nil},
	{"introspection", `{ __typename __schema { queryType { name } } __type(name: "Skill") { name } }`, "", nil},
	{"viewer", `{ viewer { canRecord readOnly } graphVersion }`, "", nil},
	{"error in one field", `{ graphVersion skill(id: "no-such") { id } skills(first: -1) { totalCount } }`, "", nil},
	{"bad cursor", `{ skills(after: "nope") { totalCount } coverage { total } }`, "", nil},
	{"unknown profile", `{ coverage(profile: "nope") { total } graphVersion }`, "", nil},
	{"string with a dollar and dots", `{ search(text: "$x ...F") { __typename } graphVersion }`, "", nil},
}

// TestExecuteSharedAnswersAsExecute: every document gets the answer
// ExecuteDocument gives, byte for byte, whether its root fields were
// asked before or not, in any order, for either viewer.
func TestExecuteSharedAnswersAsExecute(t *testing.T) {
	_, schema := miniSnapshot(t)
	snap := harnessSnapshot(t)
	lim := api.DefaultLimits()
	encode := func(t *testing.T, r *api.Response) string {
		b, err := r.Encode()
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	want := func(ctx context.Context, t *testing.T, query, op string, vars map[string]any) string {
		req := api.Request{Query: query, OperationName: op, Variables: vars}
		return encode(t, schema.Execute(ctx, snap, req, lim))
	}
	shared := func(ctx context.Context, t *testing.T, fc api.FieldCache, query, op string, vars map[string]any) string {
		req := api.Request{Query: query, OperationName: op, Variables: vars}
		doc, err := api.Parse(query, lim)
		if err != nil {
			t.Fatal(err)
		}
		return encode(t, schema.ExecuteShared(ctx, snap, doc, req, lim, fc))
	}
	for _, v := range []api.Viewer{{ReadOnly: true}, {CanRecord: true}} {
		ctx := api.WithViewer(context.Background(), v)
		for _, order := range []string{"forward", "backward", "twice"} {
			fc := &mapCache{}
			idx := make([]int, len(sharedCases))
			for i := range idx {
				idx[i] = i
				if order == "backward" {
					idx[i] = len(sharedCases) - 1 - i
				}
			}
			if order == "twice" {
				idx = append(idx, idx...)
			}
			for _, i := range idx {
				c := sharedCases[i]
				w := want(ctx, t, c.query, c.op, c.vars)
				if got := shared(ctx, t, fc, c.query, c.op, c.vars); got != w {
					t.Errorf("%+v, %s, %s:\n got %s\nwant %s", v, order, c.name, got, w)
				}
			}
			if fc.hits == 0 {
				t.Errorf("%+v, %s: no root field was shared", v, order)
			}
		}
	}
	// one cache for both viewers: the viewer is part of the key
	fc := &mapCache{}
	for _, v := range []api.Viewer{{ReadOnly: true}, {CanRecord: true}} {
		ctx := api.WithViewer(context.Background(), v)
		q := `{ viewer { canRecord readOnly } }`
		if got, w := shared(ctx, t, fc, q, "", nil), want(ctx, t, q, "", nil); got != w {
			t.Errorf("viewer %+v: got %s, want %s", v, got, w)
		}
	}
}

// TestExecuteSharedReusesRootFields: a dashboard query asked again with
// another alias in front (what loadgen -vary text sends), or with a new
// unused variable (-vary vars), computes no root field of the first again.
func TestExecuteSharedReusesRootFields(t *testing.T) {
	_, schema := miniSnapshot(t)
	snap := harnessSnapshot(t)
	lim := api.DefaultLimits()
	ctx := context.Background()
	for _, q := range mix.Dashboard {
		fc := &mapCache{}
		run := func(query string, vars map[string]any) {
			doc, err := api.Parse(query, lim)
			if err != nil {
				t.Fatal(err)
			}
			res := schema.ExecuteShared(ctx, snap, doc, api.Request{Query: query, Variables: vars}, lim, fc)
			if len(res.Errors) > 0 {
				t.Fatalf("%s: %v", q.Name, res.Errors)
			}
			var data map[string]any
			b, _ := res.Encode()
			if err := json.Unmarshal(b, &data); err != nil {
				t.Fatalf("%s: %v: %s", q.Name, err, b)
			}
		}
		run(q.Text, nil)
		fields := len(fc.m)
		run(mix.Vary(q.Text, 1), nil)
		run(q.Text, map[string]any{"nonce": 2})
		if fc.hits != 2*fields {
			t.Errorf("%s: %d hits, want %d (each of the %d root fields twice)", q.Name, fc.hits, 2*fields, fields)
		}
	}
}

// TestExecuteSharedConcurrently: requests on a new snapshot share one
// field cache, the fields in flight and the per-snapshot lists while they
// are first computed (run with -race); each gets the answer Execute gives
// it on another snapshot of the same corpus, whether it computed a field,
// waited for one or found it stored.
func TestExecuteSharedConcurrently(t *testing.T) {
	_, schema := miniSnapshot(t)
	other := harnessSnapshot(t)
	ctx := context.Background()
	st, err := graph.Open(ctx, "memory")
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if _, err := ingest.Run(ctx, st, []string{"../examples/harness"}, ingest.Options{}); err != nil {
		t.Fatal(err)
	}
	snap, err := queries.Build(ctx, st) // nothing asked of it yet
	if err != nil {
		t.Fatal(err)
	}
	lim := api.DefaultLimits()
	type ask struct {
		query string
		vars  map[string]any
	}
	var asks []ask
	for i, q := range mix.Dashboard {
		asks = append(asks, ask{q.Text, nil}, ask{mix.Vary(q.Text, i+1), nil}, ask{q.Text, map[string]any{"nonce": i}})
	}
	asks = append(asks,
		ask{`query Q($n: Int) { skills(first: $n) { nodes { id } } graphVersion }`, map[string]any{"n": 1}},
		ask{`query Q($n: Int) { skills(first: $n) { nodes { id } } graphVersion }`, map[string]any{"n": 3}},
		ask{`{ skills(orderBy: TIER, desc: true, first: 3) { nodes { id } } findings(severity: ERROR) { totalCount } }`, nil},
	)
	want := make([]string, len(asks))
	for i, a := range asks {
		b, err := schema.Execute(ctx, other, api.Request{Query: a.query, Variables: a.vars}, lim).Encode()
		if err != nil {
			t.Fatal(err)
		}
		want[i] = string(b)
	}
	fc := &mapCache{}
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k := range asks {
				i := (k + g*3) % len(asks) // each goroutine starts elsewhere
				a := asks[i]
				doc, err := api.Parse(a.query, lim)
				if err != nil {
					t.Error(err)
					return
				}
				b, err := schema.ExecuteShared(context.Background(), snap, doc, api.Request{Query: a.query, Variables: a.vars}, lim, fc).Encode()
				if err != nil {
					t.Error(err)
					return
				}
				if string(b) != want[i] {
					t.Errorf("%.80s %v:\n got %.300s\nwant %.300s", a.query, a.vars, b, want[i])
				}
			}
		}()
	}
	wg.Wait()
	if fc.hits == 0 {
		t.Error("no root field was shared")
	}
}

// answer is a response as FuzzExecuteSharedEqualsExecute compares it:
// the whole encoding when it has no errors; else its data and the number
// of errors (graphql-go words its "did you mean" suggestions in map
// order, so their text differs from run to run).
func answer(r *api.Response) (string, error) {
	if len(r.Errors) == 0 {
		b, err := r.Encode()
		return string(b), err
	}
	b, err := json.Marshal(r.Data)
	return fmt.Sprintf("data %s, %d errors, request error %t", b, len(r.Errors), r.RequestError), err
}

// FuzzExecuteSharedEqualsExecute: whatever the document and variables,
// ExecuteShared answers as Execute does, byte for byte, when its root
// fields are new, when they were just stored, and after another document
// stored fields it may share: every seed, asked by this viewer and by
// another.
func FuzzExecuteSharedEqualsExecute(f *testing.F) {
	for _, c := range sharedCases {
		vars, _ := json.Marshal(c.vars)
		f.Add(c.query, c.op, string(vars))
	}
	snap, schema := miniSnapshot(f)
	lim := api.DefaultLimits()
	warm := make([]api.Request, len(sharedCases))
	for i, c := range sharedCases {
		warm[i] = api.Request{Query: c.query, OperationName: c.op, Variables: c.vars}
	}
	f.Fuzz(func(t *testing.T, query, op, vars string) {
		var v map[string]any
		if json.Unmarshal([]byte(vars), &v) != nil {
			v = nil
		}
		req := api.Request{Query: query, OperationName: op, Variables: v}
		base, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		// the fuzzed request's viewer may record; the other one may not
		ctx := api.WithViewer(base, api.Viewer{CanRecord: true})
		other := api.WithViewer(base, api.Viewer{ReadOnly: true})
		wres := schema.Execute(ctx, snap, req, lim)
		want, err := answer(wres)
		if err != nil || ctx.Err() != nil {
			return // the deadline's answers may differ by where it struck
		}
		doc, err := api.Parse(query, lim)
		if err != nil {
			return // Execute answered the parse error; ExecuteShared never sees it
		}
		fc := &mapCache{}
		for i, step := range []string{"new", "stored", "after another document"} {
			if i == 2 {
				fc = &mapCache{}
				for _, wctx := range []context.Context{other, ctx} {
					for _, w := range warm {
						if wd, err := api.Parse(w.Query, lim); err == nil {
							schema.ExecuteShared(wctx, snap, wd, w, lim, fc)
						}
					}
				}
			}
			got, err := answer(schema.ExecuteShared(ctx, snap, doc, req, lim, fc))
			if ctx.Err() != nil {
				return
			}
			if err != nil || got != want {
				t.Fatalf("%s: ExecuteShared %s (%v)\nExecute       %s", step, got, err, want)
			}
		}
	})
}
