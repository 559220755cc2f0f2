package jsonld_test

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/cayleygraph/quad"

	"github.com/skillgraph/skillgraph/ingest/bean"
	"github.com/skillgraph/skillgraph/ingest/bpmn"
	"github.com/skillgraph/skillgraph/ingest/gen"
	"github.com/skillgraph/skillgraph/ingest/record"
	"github.com/skillgraph/skillgraph/ingest/skill"
	"github.com/skillgraph/skillgraph/ingest/tool"
	"github.com/skillgraph/skillgraph/ingest/vocab"
	"github.com/skillgraph/skillgraph/jsonld"
)

// BenchmarkDocumentToQuads measures the per-document conversion ingest runs
// for every changed file: jsonld.Document (records → JSON-LD) and
// jsonld.ToQuads (json-gold ToRDF), on typical files of a generated corpus.
// The tool case is the one SPEC §8 asks for; the others put it in context.
// Each kind runs the reference and the amortised conversion.
func BenchmarkDocumentToQuads(b *testing.B) {
	dir := filepath.Join(b.TempDir(), "corpus")
	if _, err := gen.Write(dir, gen.Options{Skills: 100, Seed: 1}); err != nil {
		b.Fatal(err)
	}
	in := record.Instance{Name: gen.Instance, IRIBase: "https://synth.example/harness/", CanonicalURL: "https://synth.example/harness"}
	voc := vocab.Default(in.CanonicalURL)
	// median picks the file of median size among the matches: "typical".
	median := func(pattern string) (string, []byte) {
		paths, _ := filepath.Glob(filepath.Join(dir, pattern))
		type f struct {
			rel  string
			data []byte
		}
		var fs []f
		for _, p := range paths {
			data, err := os.ReadFile(p)
			if err != nil {
				b.Fatal(err)
			}
			rel, _ := filepath.Rel(dir, p)
			fs = append(fs, f{filepath.ToSlash(rel), data})
		}
		if len(fs) == 0 {
			b.Fatalf("no file matches %s", pattern)
		}
		sort.Slice(fs, func(i, j int) bool {
			return len(fs[i].data) < len(fs[j].data) || len(fs[i].data) == len(fs[j].data) && fs[i].rel < fs[j].rel
		})
		m := fs[len(fs)/2]
		return m.rel, m.data
	}
	cases := []struct {
		name, pattern string
		parse         func(rel string, data []byte) record.File
	}{
		{"tool", "tools/*.json", func(rel string, data []byte) record.File { return tool.Parse(rel, data, voc) }},
		{"skill", "skills/*/*.md", func(rel string, data []byte) record.File {
			return skill.Parse(rel, data, skill.Options{Package: strings.Split(rel, "/")[1]})
		}},
		{"bpmn", "processes/*.bpmn", bpmn.Parse},
		{"bean", "beans/*.md", bean.Parse},
	}
	// Both paths in one run, so their ratio holds on a loaded machine:
	// reference is json-gold's plain per-document ToRDF, amortised is
	// ToQuads with the context processed once (issue #14).
	paths := []struct {
		name    string
		toQuads func(any, string) ([]quad.Quad, error)
	}{{"reference", jsonld.ReferenceQuads}, {"amortised", jsonld.ToQuads}}
	for _, c := range cases {
		rel, data := median(c.pattern)
		f := c.parse(rel, data)
		for _, x := range f.Findings {
			if x.Severity == record.Error {
				b.Fatalf("%s: %s %s", rel, x.Code, x.Message)
			}
		}
		meta := jsonld.SourceMeta{Path: rel, SHA256: "0123", Size: int64(len(data)), Parser: f.Parser}
		label := jsonld.SourceIRI(in.DocIRI(), rel)
		for _, p := range paths {
			b.Run(c.name+"/"+p.name, func(b *testing.B) {
				b.ReportAllocs()
				n := 0
				for b.Loop() {
					qs, err := p.toQuads(jsonld.Document(in, f, meta), label)
					if err != nil {
						b.Fatal(err)
					}
					n = len(qs)
				}
				b.ReportMetric(float64(n), "quads/doc")
				b.ReportMetric(float64(len(data)), "bytes/doc")
			})
		}
	}
}
