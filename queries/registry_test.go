package queries

import (
	"os"
	"path/filepath"
	"sort"
	"testing"

	"github.com/skillgraph/skillgraph/ingest/record"
)

// registryCorpora are every corpus of the repository: the example, the
// small test corpus and each hostile-input case.
func registryCorpora(t *testing.T) []string {
	t.Helper()
	roots := []string{"../examples/harness", "../ingest/testdata/mini"}
	hostile, err := filepath.Glob("../ingest/hostile/testdata/*")
	if err != nil || len(hostile) == 0 {
		t.Fatalf("hostile corpora: %v (%d found)", err, len(hostile))
	}
	for _, h := range hostile {
		if fi, err := os.Stat(h); err == nil && fi.IsDir() {
			roots = append(roots, h)
		}
	}
	return roots
}

// TestEmittedCodesRegistered ingests and analyses every corpus and fails
// when a finding's code is not in the finding registry, its severity is not
// the registered one, or it is a code the registry still marks planned.
func TestEmittedCodesRegistered(t *testing.T) {
	emitted := map[string]bool{}
	for _, root := range registryCorpora(t) {
		s := build(t, "memory", root)
		for _, f := range s.Findings {
			emitted[f.Code] = true
			r, ok := record.Lookup(f.Code)
			switch {
			case !ok:
				t.Errorf("%s: %s:%d: code %q is not registered in ingest/record/codes.go", root, f.File, f.Line, f.Code)
			case r.Severity != f.Severity:
				t.Errorf("%s: %s:%d: %s reported as %s, registered as %s", root, f.File, f.Line, f.Code, f.Severity, r.Severity)
			case r.Planned:
				t.Errorf("%s: %s is reported: clear Planned in its registry entry and give it an example", root, f.Code)
			}
		}
	}
	if len(emitted) < 20 {
		t.Errorf("only %d codes emitted over all corpora: the corpora were not read", len(emitted))
	}
}

// TestRegistryExamples fails when an example of the registry (and so of
// docs/findings.md) is not reported exactly so on its corpus.
func TestRegistryExamples(t *testing.T) {
	byCorpus := map[string][]record.Rule{}
	for _, r := range record.Rules() {
		if r.Example.Corpus != "" {
			byCorpus[r.Example.Corpus] = append(byCorpus[r.Example.Corpus], r)
		}
	}
	corpora := make([]string, 0, len(byCorpus))
	for c := range byCorpus {
		corpora = append(corpora, c)
	}
	sort.Strings(corpora)
	for _, c := range corpora {
		s := build(t, "memory", filepath.Join("..", filepath.FromSlash(c)))
		type key struct {
			code, file string
			line       int
			msg        string
		}
		got := map[key]bool{}
		for _, f := range s.Findings {
			got[key{f.Code, f.File, f.Line, f.Message}] = true
		}
		for _, r := range byCorpus[c] {
			ex := r.Example
			if !got[key{r.Code, ex.File, ex.Line, ex.Message}] {
				t.Errorf("%s: the example of %s is not reported: want %s:%d: %s", c, r.Code, ex.File, ex.Line, ex.Message)
			}
		}
	}
}
