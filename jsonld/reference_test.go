package jsonld

import (
	"reflect"
	"sync"
	"testing"

	"github.com/piprate/json-gold/ld"

	"github.com/skillgraph/skillgraph/ingest/record"
)

// TestSharedContextUnchanged: every conversion starts from a copy of the
// one processed context, so conversions on all cores (ingest's convert)
// must leave it as processing the embedded context makes it. Run with
// -race it also catches a conversion writing to it while others read.
func TestSharedContextUnchanged(t *testing.T) {
	in := record.Instance{Name: "acme", IRIBase: "https://acme.example/h/"}
	var wg sync.WaitGroup
	errs := make([]error, 8)
	for i := range errs {
		wg.Go(func() {
			f := fuzzFile("tools/x.json", "x", "some text", i+1)
			_, errs[i] = ToQuads(Document(in, f, SourceMeta{Path: f.Path}), SourceIRI(in.DocIRI(), f.Path))
		})
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	shared, err := activeContext()
	if err != nil {
		t.Fatal(err)
	}
	fresh, err := ld.NewContext(nil, Options()).Parse(ContextURL)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(shared, fresh) {
		t.Fatal("the shared processed context was changed by conversions")
	}
}
