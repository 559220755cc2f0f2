package jsonld

import (
	"fmt"
	"io"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/cayleygraph/quad"
	"github.com/cayleygraph/quad/nquads"

	"github.com/skillgraph/skillgraph/ingest/record"
)

// hostileIDs are ids that reached the export in the attack run of issue
// #16.5: each made the N-Quads export unreadable or the JSON-LD export fail.
var hostileIDs = []struct{ name, id string }{
	{"quote", `a"b`},
	{"angle brackets", `q"uo<te>`},
	{"entity-decoded BPMN id", `P<x>`},
	{"NUL", "nul\x00byte"},
	{"newline", "two\nlines"},
	{"RTL override", "abc\u202Etxt.exe"},
	{"braces pipe caret backtick backslash", "{a|b}^`c\\d"},
	{"invalid UTF-8", "bad\xff\xfeutf8"},
	{"percent hash question", "50%#x?y"},
	{"non-ASCII letters", "café-ü"},
}

// TestMintedIRIsAreValid: every minted IRI matches the IRI grammar (SPEC
// §3.1) and Split gives back the id it was minted from.
func TestMintedIRIsAreValid(t *testing.T) {
	for _, tc := range hostileIDs {
		t.Run(tc.name, func(t *testing.T) {
			iri := Mint("urn:skillgraph:h", "tool", tc.id)
			if bad := invalidIRIChar(iri); bad != "" {
				t.Fatalf("Mint(%q) = %q holds %s, outside the IRI grammar", tc.id, iri, bad)
			}
			if _, _, id, ok := Split(iri); !ok || id != tc.id {
				t.Fatalf("Split(%q) = %q, %v; want %q", iri, id, ok, tc.id)
			}
		})
	}
}

// invalidIRIChar names the first character of iri that RFC 3987 does not
// allow in an IRI (or that it forbids as a bidi formatting character).
func invalidIRIChar(iri string) string {
	if !utf8.ValidString(iri) {
		return "invalid UTF-8"
	}
	for _, r := range iri {
		if r <= 0x20 || r == 0x7f || strings.ContainsRune(`"<>\^`+"`"+`{|}`, r) || isBidiFormat(r) {
			return fmt.Sprintf("%U", r)
		}
	}
	return ""
}

// TestExportRoundTripHostileIDs: a Tool, a skill, a process and a bean with
// hostile ids go to quads; the N-Quads of those quads are read back by
// Cayley's own N-Quads reader into the same quads, and the JSON-LD export
// (FromRDF + compact) succeeds (issue #16.5).
func TestExportRoundTripHostileIDs(t *testing.T) {
	in := record.Instance{Name: "h"}
	for _, tc := range hostileIDs {
		t.Run(tc.name, func(t *testing.T) {
			f := record.File{Path: "tools/" + tc.id + ".json", Parser: "tool",
				Tools: []record.Tool{{ID: tc.id, Origin: "authored", Title: "T", Line: 1, Satisfies: []string{tc.id},
					Inputs: []record.Port{{Name: tc.id, JSONType: "string", Required: true}}}},
				Skills:    []record.Skill{{ID: tc.id, Flavour: "harness", Package: tc.id, Line: 1}},
				Processes: []record.Process{{ID: tc.id, Stem: tc.id + "s", Line: 1, Activities: []record.Activity{{ID: tc.id, Element: "task", Line: 2, Skills: []record.SkillRef{{Ref: tc.id, Line: 2}}}}}},
				Beans:     []record.Bean{{ID: tc.id, Line: 1, Parent: tc.id, Blocking: []string{tc.id}}},
			}
			qs, err := ToQuads(Document(in, f, SourceMeta{Path: f.Path}), SourceIRI(in.DocIRI(), f.Path))
			if err != nil {
				t.Fatalf("to quads: %v", err)
			}
			var b strings.Builder
			for _, q := range qs {
				b.WriteString(q.NQuad())
				b.WriteByte('\n')
			}
			r := nquads.NewReader(strings.NewReader(b.String()), true)
			var back []quad.Quad
			for {
				q, err := r.ReadQuad()
				if err == io.EOF {
					break
				}
				if err != nil {
					t.Fatalf("cayley's N-Quads reader refuses the export: %v\n%s", err, b.String())
				}
				back = append(back, q)
			}
			if len(back) != len(qs) {
				t.Fatalf("read back %d quads of %d", len(back), len(qs))
			}
			for i := range qs {
				if back[i].NQuad() != qs[i].NQuad() {
					t.Errorf("quad %d: wrote %s, read %s", i, qs[i].NQuad(), back[i].NQuad())
				}
			}
			exp, err := FromQuads(qs)
			if err != nil {
				t.Fatalf("json-ld export: %v", err)
			}
			if _, err := Compact(exp); err != nil {
				t.Fatalf("json-ld compact: %v", err)
			}
		})
	}
}
