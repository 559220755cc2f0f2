package jsonld

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"
)

// wideDoc is an export-shaped document: one named graph, one subject with
// n values of one property, written in parts node objects of that subject.
func wideDoc(n, parts int, iris bool) map[string]any {
	var nodes []any
	per := n / parts
	for p := range parts {
		var vals []any
		for i := p * per; i < (p+1)*per; i++ {
			if iris {
				vals = append(vals, map[string]any{"@id": fmt.Sprintf("urn:x:%d", i)})
			} else {
				vals = append(vals, fmt.Sprintf("v%d", i))
			}
		}
		nodes = append(nodes, map[string]any{"@id": "urn:s", "urn:p": vals})
	}
	return map[string]any{"@context": ContextURL, "@graph": []any{map[string]any{"@id": "urn:g", "@graph": nodes}}}
}

// TestImportValuesBounded (issue #28 row 11): a JSON-LD import whose
// subject holds more than MaxImportValues values of one property (in one
// node object or spread over several, literals or IRIs, or @type) is
// refused before json-gold merges them; at the bound it is read. 50 000
// values took 119 s, 900 000 over 120 s.
func TestImportValuesBounded(t *testing.T) {
	types := func(n int) map[string]any {
		var ts []any
		for i := range n {
			ts = append(ts, fmt.Sprintf("urn:T%d", i))
		}
		return map[string]any{"@context": ContextURL, "@graph": []any{map[string]any{"@id": "urn:g", "@graph": []any{map[string]any{"@id": "urn:s", "@type": ts}}}}}
	}
	for _, c := range []struct {
		name string
		doc  map[string]any
		ok   bool
	}{
		{"literals at the bound", wideDoc(MaxImportValues, 1, false), true},
		{"IRIs at the bound in 4 parts", wideDoc(MaxImportValues, 4, true), true},
		{"literals past the bound", wideDoc(MaxImportValues+1, 1, false), false},
		{"IRIs past the bound in 7 parts", wideDoc(7*(MaxImportValues/6), 7, true), false},
		{"50 000 literals", wideDoc(50_000, 1, false), false},
		{"250 000 IRIs", wideDoc(250_000, 1, true), false},
		{"types at the bound", types(MaxImportValues), true},
		{"types past the bound", types(MaxImportValues + 1), false},
	} {
		t.Run(c.name, func(t *testing.T) {
			start := time.Now() // the document is built: only the import is timed
			qs, err := ImportQuads(context.Background(), c.doc)
			if d := time.Since(start); d > 20*time.Second {
				t.Errorf("took %v", d)
			}
			if c.ok {
				if err != nil || len(qs) < MaxImportValues {
					t.Fatalf("%d quads, error %v", len(qs), err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), fmt.Sprintf("more than %d values", MaxImportValues)) || time.Since(start) > 5*time.Second {
				t.Fatalf("%d quads, error %v after %v; want the bound named at once", len(qs), err, time.Since(start))
			}
		})
	}
}

// TestImportQuadsIsToQuads: below the bound an import gives ToQuads'
// quads (named graphs, blank nodes, lists, types, literals).
func TestImportQuadsIsToQuads(t *testing.T) {
	doc := map[string]any{"@context": ContextURL, "@graph": []any{
		map[string]any{"@id": "urn:g1", "@graph": []any{
			map[string]any{"@id": "urn:s", "@type": "Tool", "title": "T", "urn:l": map[string]any{"@list": []any{"a", "b"}},
				"urn:n": map[string]any{"urn:q": "nested blank"}},
			map[string]any{"@id": "urn:s", "urn:more": []any{1, 2.5, true}},
		}},
		map[string]any{"@id": "urn:g2", "@graph": []any{map[string]any{"@id": "urn:s", "title": "other graph"}}},
	}}
	want, err := ToQuads(doc, "")
	if err != nil {
		t.Fatal(err)
	}
	got, err := ImportQuads(context.Background(), doc)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got, want) {
		t.Fatalf("quads differ:\n got %v\nwant %v", got, want)
	}
}

// TestImportCancelled: a cancelled import returns the context's error.
func TestImportCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := ImportQuads(ctx, wideDoc(MaxImportValues, 1, true)); !errors.Is(err, context.Canceled) {
		t.Fatalf("error %v, want context.Canceled", err)
	}
}

// wideSubjects is an export-shaped document of subjects subjects, each
// with per IRI values of one property.
func wideSubjects(subjects, per int) map[string]any {
	nodes := make([]any, 0, subjects)
	for s := range subjects {
		vals := make([]any, 0, per)
		for i := range per {
			vals = append(vals, map[string]any{"@id": fmt.Sprintf("urn:x:%d:%d", s, i)})
		}
		nodes = append(nodes, map[string]any{"@id": fmt.Sprintf("urn:s:%d", s), "urn:p": vals})
	}
	return map[string]any{"@context": ContextURL, "@graph": []any{map[string]any{"@id": "urn:g", "@graph": nodes}}}
}

// BenchmarkImportValues (issue #28 row 11): an import of many values of
// one property under the bound, across subjects; ns/value should not grow
// with the values per subject or the number of subjects.
func BenchmarkImportValues(b *testing.B) {
	for _, c := range []struct{ subjects, per int }{{1, 1_000}, {10, 1_000}, {1, 100}, {100, 100}, {1_000, 1}, {10_000, 1}} {
		b.Run(fmt.Sprintf("%dx%d", c.subjects, c.per), func(b *testing.B) {
			doc := wideSubjects(c.subjects, c.per)
			cpu0 := cpuTime()
			for b.Loop() {
				if _, err := ImportQuads(context.Background(), doc); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*c.subjects*c.per), "ns/value")
			// The process's CPU time too: on a shared machine the wall
			// time mostly measures the other processes.
			b.ReportMetric(float64((cpuTime()-cpu0).Nanoseconds())/float64(b.N*c.subjects*c.per), "cpu-ns/value")
		})
	}
}
