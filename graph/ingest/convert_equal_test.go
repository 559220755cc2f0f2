package ingest

import (
	"context"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/skillgraph/skillgraph/ingest/discover"
	"github.com/skillgraph/skillgraph/ingest/gen"
	"github.com/skillgraph/skillgraph/jsonld"
)

// realworld names more corpora for TestConvertEqualsReference (a glob,
// e.g. -realworld '../../../shared/realworld/*'): the realworld corpora live
// beside the project, not in it, so CI's run of the test does not read them.
var realworld = flag.String("realworld", "", "glob of extra corpora TestConvertEqualsReference converts both ways")

// TestConvertEqualsReference converts every document of every corpus the
// tests have (examples, every testdata corpus, a generated corpus, and with
// -realworld the realworld ones) by convert (jsonld.ToQuadsBatch) and by
// json-gold's plain per-document path
// (jsonld.ReferenceQuads): jsonld.SameAsReference must find them equal
// (issue #14).
func TestConvertEqualsReference(t *testing.T) {
	var roots []string
	for _, pattern := range []string{
		"../../examples/*",
		"../../ingest/testdata/*",
		"../../ingest/hostile/testdata/*",
		"../../web/testdata/corpus",
		"../../queries/testdata/entrypoint-unknown",
	} {
		m, err := filepath.Glob(pattern)
		if err != nil {
			t.Fatal(err)
		}
		roots = append(roots, m...)
	}
	if *realworld != "" {
		m, err := filepath.Glob(*realworld)
		if err != nil || len(m) == 0 {
			t.Fatalf("-realworld %q matches no corpus (%v)", *realworld, err)
		}
		roots = append(roots, m...)
	}
	synth := filepath.Join(t.TempDir(), "synth")
	if _, err := gen.Write(synth, gen.Options{Skills: 12, Seed: 7}); err != nil {
		t.Fatal(err)
	}
	roots = append(roots, synth)

	ctx := context.Background()
	var all []*unit
	for _, root := range roots {
		if fi, err := os.Stat(root); err != nil || !fi.IsDir() {
			continue
		}
		insts, err := discover.Workspace(root, discover.Options{})
		if err != nil {
			t.Logf("%s: no corpus (%v)", root, err)
			continue
		}
		for _, wi := range insts {
			c, err := discover.Load(ctx, wi.Root, discover.Options{Exclude: wi.Exclude})
			if err != nil {
				t.Logf("%s: no corpus (%v)", wi.Root, err)
				continue
			}
			c.Instance.Root = c.Root
			units, err := parseCorpus(ctx, c, Options{})
			c.Close()
			if err != nil {
				t.Fatalf("%s: %v", wi.Root, err)
			}
			all = append(all, units...)
		}
	}
	// convert is ingest's path: every unit, in batches, on all cores.
	if err := convert(ctx, all, Options{}); err != nil {
		t.Logf("convert: %v", err) // each failing unit is compared below
	}
	direct := 0
	undecided := map[string]int{}
	for _, u := range all {
		label := jsonld.SourceIRI(u.in.DocIRI(), u.file.Path)
		doc := jsonld.Document(*u.in, u.file, u.meta)
		if err := jsonld.SameAsReference(doc, label, u.quads, u.err); err != nil {
			t.Errorf("%s %s: %v", u.in.Root, u.file.Path, err)
		}
		// The direct path (no json-gold) must agree wherever it decides.
		if qs, ok := jsonld.DirectQuads(doc, label); ok {
			direct++
			if err := jsonld.SameAsReference(doc, label, qs, nil); err != nil {
				t.Errorf("direct path, %s %s: %v", u.in.Root, u.file.Path, err)
			}
		} else {
			undecided[u.file.Parser]++
		}
	}
	t.Logf("direct path decided %d of %d documents; left to json-gold by parser: %v", direct, len(all), undecided)
	docs := len(all)
	if docs < 100 {
		t.Fatalf("only %d documents converted: the corpora were not found", docs)
	}
	t.Logf("%d documents of %d corpus roots: same quads both ways", docs, len(roots))
}
