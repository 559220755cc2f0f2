package main

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/skillgraph/skillgraph/ingest/gen"
)

// TestExportCorpusIsTheStoresExport: `export --corpus` (written as the
// files are converted, no store) prints the lines `export --store` prints
// after an ingest of the same corpus into a bbolt store, in another
// order, and the same JSON-LD document and MCP tools/list.
func TestExportCorpusIsTheStoresExport(t *testing.T) {
	generated := filepath.Join(t.TempDir(), "gen")
	if _, err := gen.Write(generated, gen.Options{Skills: 80, Seed: 4}); err != nil {
		t.Fatal(err)
	}
	for _, corpus := range []string{exampleCorpus, generated} {
		t.Run(filepath.Base(corpus), func(t *testing.T) {
			url := "bbolt:" + filepath.Join(t.TempDir(), "graph.db")
			if _, errs, code := runCLI(t, "ingest", "--corpus", corpus, "--store", url); code != 0 {
				t.Fatalf("ingest: exit %d %s", code, errs)
			}
			for _, format := range []string{"nquads", "jsonld", "mcp-tools"} {
				got, errs, code := runCLI(t, "export", "--corpus", corpus, "--format", format)
				if code != 0 {
					t.Fatalf("export --corpus --format %s: exit %d %s", format, code, errs)
				}
				want := exportOf(t, url, format)
				if format == "nquads" {
					got, want = sortedLines(got), sortedLines(want)
					if n := strings.Count(got, "\n"); n < 100 {
						t.Fatalf("the export holds %d lines", n+1)
					}
				}
				if got != want {
					t.Errorf("--format %s: export --corpus differs from export --store after ingest (%d and %d bytes)", format, len(got), len(want))
				}
			}
		})
	}
}
