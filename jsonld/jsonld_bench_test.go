package jsonld_test

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

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
// for every changed file: jsonld.Document (records → JSON-LD) and the
// conversion to quads (json-gold), on 32 files of each kind of a generated
// corpus (evenly spread in path order, as ingest's batches take them).
// The tool case is the one SPEC §8 asks for; the others put it in context.
// One op converts the 32 files; ns/doc, B/doc and allocs/doc are per file.
// Each kind runs three ways in one run, so their ratios hold on a loaded
// machine (issue #14): reference is json-gold's plain ToRDF per document
// (jsonld.ReferenceQuads), amortised is jsonld.ToQuads per document (the
// context processed once), batched is jsonld.ToQuadsBatch of the 32 (one
// RDF step for documents that share no subject), json-gold's best; the
// last three with the direct path off. direct is jsonld.ToQuadsBatch as
// ingest runs it: the direct path, no json-gold (issue #27, #28 row 14).
func BenchmarkDocumentToQuads(b *testing.B) {
	const perKind = 32
	dir := filepath.Join(b.TempDir(), "corpus")
	if _, err := gen.Write(dir, gen.Options{Skills: 320, Seed: 1}); err != nil {
		b.Fatal(err)
	}
	in := record.Instance{Name: gen.Instance, IRIBase: "https://synth.example/harness/", CanonicalURL: "https://synth.example/harness"}
	voc := vocab.Default(in.CanonicalURL)
	type file struct {
		rel  string
		data []byte
	}
	// spread picks perKind of the matches, evenly spaced in path order.
	spread := func(pattern string) []file {
		paths, _ := filepath.Glob(filepath.Join(dir, pattern))
		sort.Strings(paths)
		if len(paths) < perKind {
			b.Fatalf("%d files match %s, want %d", len(paths), pattern, perKind)
		}
		var fs []file
		for i := range perKind {
			p := paths[i*len(paths)/perKind]
			data, err := os.ReadFile(p)
			if err != nil {
				b.Fatal(err)
			}
			rel, _ := filepath.Rel(dir, p)
			fs = append(fs, file{filepath.ToSlash(rel), data})
		}
		return fs
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
		// A file of 100 findings and nothing else (issue #28 row 14: 30
		// MCP listings of 999 invalid tools); /doc figures are per file.
		{"findings", "tools/*.json", func(rel string, _ []byte) record.File {
			f := record.File{Path: rel, Parser: "mcp"}
			for i := range 100 {
				f.Findings = append(f.Findings, record.Finding{Code: "mcp-invalid", Severity: record.Warning,
					Message: fmt.Sprintf("tools[%d]: a tool needs a name", i), File: rel, Line: i + 2})
			}
			return f
		}},
	}
	type input struct {
		f     record.File
		meta  jsonld.SourceMeta
		label string
	}
	each := func(convert func(any, string) error) func([]input) error {
		return func(ins []input) error {
			for _, x := range ins {
				if err := convert(jsonld.Document(in, x.f, x.meta), x.label); err != nil {
					return err
				}
			}
			return nil
		}
	}
	batched := func(ins []input) error {
		cs := make([]jsonld.Conversion, len(ins))
		for i, x := range ins {
			cs[i] = jsonld.Conversion{Doc: jsonld.Document(in, x.f, x.meta), Graph: x.label}
		}
		jsonld.ToQuadsBatch(cs)
		for _, c := range cs {
			if c.Err != nil {
				return c.Err
			}
		}
		return nil
	}
	ways := []struct {
		name    string
		convert func([]input) error
	}{
		{"reference", each(func(doc any, label string) error { _, err := jsonld.ReferenceQuads(doc, label); return err })},
		{"amortised", each(func(doc any, label string) error {
			defer jsonld.WithoutDirect()()
			_, err := jsonld.ToQuads(doc, label)
			return err
		})},
		{"batched", func(ins []input) error {
			defer jsonld.WithoutDirect()()
			return batched(ins)
		}},
		{"direct", func(ins []input) error { return batched(ins) }},
	}
	for _, c := range cases {
		var ins []input
		bytes, quads := 0, 0
		for _, fl := range spread(c.pattern) {
			f := c.parse(fl.rel, fl.data)
			for _, x := range f.Findings {
				if x.Severity == record.Error {
					b.Fatalf("%s: %s %s", fl.rel, x.Code, x.Message)
				}
			}
			meta := jsonld.SourceMeta{Path: fl.rel, SHA256: "0123", Size: int64(len(fl.data)), Parser: f.Parser}
			label := jsonld.SourceIRI(in.DocIRI(), fl.rel)
			qs, err := jsonld.ReferenceQuads(jsonld.Document(in, f, meta), label)
			if err != nil {
				b.Fatal(err)
			}
			ins = append(ins, input{f, meta, label})
			bytes += len(fl.data)
			quads += len(qs)
		}
		for _, w := range ways {
			b.Run(c.name+"/"+w.name, func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					if err := w.convert(ins); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(ins)), "ns/doc")
				b.ReportMetric(float64(quads)/float64(len(ins)), "quads/doc")
				b.ReportMetric(float64(bytes)/float64(len(ins)), "bytes/doc")
			})
		}
	}
}
