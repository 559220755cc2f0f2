package jsonld

import (
	"errors"
	"testing"

	"github.com/piprate/json-gold/ld"

	"github.com/skillgraph/skillgraph/ingest/record"
)

// TestBatchFailureFailsOnlyItsDocument: a document json-gold panics on
// (an ill-typed node: it fails in expansion, before grouping) fails
// alone; every other document of the batch gets the quads it gets alone,
// whatever the bad one's place in the batch.
func TestBatchFailureFailsOnlyItsDocument(t *testing.T) {
	in := record.Instance{Name: "acme", IRIBase: "https://acme.example/h/"}
	good := func(i int) Conversion {
		p := []string{"tools/a.json", "tools/b.json", "tools/c.json"}[i]
		rec := fuzzFile(p, "x", "some text", i+1)
		return Conversion{Doc: Document(in, rec, SourceMeta{Path: p}), Graph: SourceIRI(in.DocIRI(), p)}
	}
	bad := func() Conversion {
		return Conversion{Doc: map[string]any{"@context": ContextURL, "@graph": []any{map[string]any{"@id": "urn:bad", "": 0.0}}}, Graph: "urn:bad-graph"}
	}
	for _, tc := range []struct {
		name  string
		batch []Conversion
		bad   int
	}{
		{"bad first", []Conversion{bad(), good(0), good(1), good(2)}, 0},
		{"bad between", []Conversion{good(0), good(1), bad(), good(2)}, 2},
		{"bad last", []Conversion{good(0), good(1), good(2), bad()}, 3},
	} {
		t.Run(tc.name, func(t *testing.T) {
			defer withoutDirect()()
			ToQuadsBatch(tc.batch)
			for i, c := range tc.batch {
				if i == tc.bad {
					if !errors.Is(c.Err, ErrProcessor) {
						t.Errorf("ill-typed document: want ErrProcessor, got %v", c.Err)
					}
					continue
				}
				if c.Err != nil || len(c.Quads) == 0 {
					t.Errorf("document %d: %d quads, error %v; want its own quads", i, len(c.Quads), c.Err)
				}
				if err := SameAsReference(c.Doc, c.Graph, c.Quads, c.Err); err != nil {
					t.Errorf("document %d: %v", i, err)
				}
			}
		})
	}
}

// TestGroupFailureConvertsEachAlone: when json-gold panics on a group's
// shared RDF step, every document of the group is converted on its own,
// so each gets the quads it gets alone (none is lost with the group).
func TestGroupFailureConvertsEachAlone(t *testing.T) {
	var batch []Conversion
	for _, id := range []string{"urn:a", "urn:b", "urn:c"} {
		doc := map[string]any{"@context": ContextURL, "@graph": []any{map[string]any{"id": id, "type": "Skill", "key": id, "satisfies": "urn:shared"}}}
		batch = append(batch, Conversion{Doc: doc, Graph: id + "/graph"})
	}
	calls := 0
	defer withoutDirect()()
	defer func(orig func(map[string]any) *ld.RDFDataset) { groupToRDF = orig }(groupToRDF)
	groupToRDF = func(map[string]any) *ld.RDFDataset {
		calls++
		panic("interface conversion: as json-gold's own")
	}
	ToQuadsBatch(batch)
	if calls == 0 {
		t.Fatal("the documents were not written as one group: the test does not reach the fallback")
	}
	for i, c := range batch {
		if c.Err != nil || len(c.Quads) == 0 {
			t.Errorf("document %d: %d quads, error %v; want its own quads", i, len(c.Quads), c.Err)
		}
		if err := SameAsReference(c.Doc, c.Graph, c.Quads, c.Err); err != nil {
			t.Errorf("document %d: %v", i, err)
		}
	}
}
