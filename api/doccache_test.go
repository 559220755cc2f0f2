package api_test

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/skillgraph/skillgraph/api"
)

// TestDocumentCache: a text sent again gets the document parsed the
// first time; a document that does not parse is not kept; a kept
// document that does not validate is refused every time; the cost limit,
// which depends on the variables, is checked on every request; the
// cache stays within its bound.
func TestDocumentCache(t *testing.T) {
	_, schema := miniSnapshot(t)
	snap := harnessSnapshot(t)
	lim := api.DefaultLimits()
	dc := api.NewDocumentCache(4, 1<<20)
	parse := func(q string) *api.Document {
		t.Helper()
		d, err := dc.Parse(q, lim)
		if err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		return d
	}
	const q = `query Q($n: Int) { skills(first: $n) { totalCount nodes { id } } }`
	if parse(q) != parse(q) {
		t.Error("the same text was parsed twice")
	}
	if parse(q) == parse(q+" ") {
		t.Error("another text got the same document")
	}
	for range 2 {
		if _, err := dc.Parse("{ skills(", lim); err == nil {
			t.Fatal("a broken document parsed")
		}
	}
	run := func(query string, vars map[string]any) *api.Response {
		return schema.ExecuteShared(context.Background(), snap, parse(query), api.Request{Query: query, Variables: vars}, lim, nil)
	}
	for i := range 2 {
		res := run(`{ skills { noSuchField } }`, nil)
		if !res.RequestError || len(res.Errors) == 0 || !strings.Contains(res.Errors[0].Message, "noSuchField") {
			t.Errorf("round %d: an invalid kept document answered %+v", i, res)
		}
	}
	// 600 pages of $n skills: cheap for 1, over the cost limit for 500
	pages := "query P($n: Int) {" + repeat(600, func(i int) string { return fmt.Sprintf(" p%d: skills(first: $n) { nodes { id } }", i) }) + " }"
	for _, c := range []struct {
		n    int
		fail bool
	}{{1, false}, {500, true}, {2, false}} {
		res := run(pages, map[string]any{"n": float64(c.n)}) // as decoded from JSON
		failed := len(res.Errors) > 0 && res.RequestError && strings.Contains(res.Errors[0].Message, "cost")
		if failed != c.fail || (!c.fail && len(res.Errors) > 0) {
			t.Errorf("first: %d on a kept document: errors %.200v, want the cost refused: %v", c.n, res.Errors, c.fail)
		}
	}
	first := parse(`{ graphVersion }`)
	for i := range 8 {
		parse(fmt.Sprintf(`{ a%d: graphVersion }`, i))
	}
	if parse(`{ graphVersion }`) == first {
		t.Error("a cache bounded to 4 documents kept one 8 others later")
	}
}

// TestKeptDocumentRunsConcurrently: requests share one kept document
// (run with -race).
func TestKeptDocumentRunsConcurrently(t *testing.T) {
	_, schema := miniSnapshot(t)
	snap := harnessSnapshot(t)
	lim := api.DefaultLimits()
	dc := api.NewDocumentCache(4, 1<<20)
	const q = `query Q($n: Int) { skills(first: $n) { totalCount nodes { id tier } } coverage { total } ... on Query { graphVersion } }`
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			d, err := dc.Parse(q, lim)
			if err != nil {
				t.Error(err)
				return
			}
			res := schema.ExecuteShared(context.Background(), snap, d, api.Request{Query: q, Variables: map[string]any{"n": 1 + i%3}}, lim, &mapCache{})
			if len(res.Errors) > 0 {
				t.Error(res.Errors)
			}
		}()
	}
	wg.Wait()
}
