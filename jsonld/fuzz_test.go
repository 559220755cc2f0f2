package jsonld

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/cayleygraph/quad"

	"github.com/skillgraph/skillgraph/ingest/record"
)

// fuzzFile builds one source file's records of every kind from fuzzed
// strings: ids, names, paths and prose all come from the fuzzer, as they
// come from corpus files in real life.
func fuzzFile(p, id, text string, line int) record.File {
	yes := true
	return record.File{
		Path: p, Parser: "tool",
		Skills: []record.Skill{{ID: id, Flavour: "hard", Name: id, Title: text, Description: text, Package: text,
			Line: line, Input: text, Output: "https://x.example/" + id, AllowedTools: []string{text, id},
			Metadata: map[string]string{id: text}, Includes: []string{text}}},
		ToolSkills: []record.ToolSkill{{Key: id, Summary: text, Phases: []string{text}, Line: line,
			Trigger: record.Trigger{AnyOf: []record.Trigger{{Tool: id}, {AllOf: []record.Trigger{{McpServer: text}}}}}}},
		Tools: []record.Tool{{ID: id, Origin: "authored", Title: text, Description: text, Line: line,
			Satisfies: []string{id, text}, Install: map[string]any{text: []any{id, 1.5}},
			Invoke:    record.Invoke{Shell: []string{text, id}, McpServer: text, McpTool: id},
			Inputs:    []record.Port{{Name: id, TypeIRI: text, JSONType: text, Required: true, Arg: text, Line: line}},
			Outputs:   []record.Port{{Name: text, TypeIRI: "json:string", Render: text}},
			Selection: &record.Selection{When: text}, Requires: &record.Requires{OS: []string{text}, Network: &yes},
			Remedies: []record.Remedy{{Host: text, Tool: id}}, Maintains: []record.Maintained{{Source: text}},
			Subprocesses: []string{id}, ReadOnly: &yes, Annotations: map[string]bool{text: true},
			Server: text, McpName: id, Extra: map[string]any{text: id}}},
		Servers: []record.McpServer{{Name: id, Tools: []string{text}, Line: line}},
		Processes: []record.Process{{ID: id, Stem: text, Name: text, Line: line,
			Activities: []record.Activity{{ID: id, Name: text, Element: "serviceTask", Line: line,
				Skills: []record.SkillRef{{Ref: text, Line: line}}, Called: text, Lane: id, Parent: text,
				Beans: []string{text}, Documentation: text}},
			Lanes: []record.Lane{{ID: text, Name: id, Nodes: []string{id}}},
			Flows: []record.Flow{{ID: text, Source: id, Target: text}}}},
		Beans: []record.Bean{{ID: id, Title: text, Status: text, Type: text, Tags: []string{text},
			Parent: text, Blocking: []string{id}, BlockedBy: []string{text}, Mentions: []string{text}, Line: line}},
		Contracts: []record.Contract{{Path: p, Required: []string{id}, Properties: map[string]string{text: id}}},
		Scripts:   []record.Script{{Key: id, Command: text, Line: line}},
		Findings: []record.Finding{{Code: id, Severity: record.Error, Message: text, File: p, Line: line,
			Subject: text, Related: []string{id}}},
	}
}

// FuzzDocument converts records built from fuzzed strings: the conversion
// must never panic and never fail (a failure would abort a whole ingest),
// and every quad must land in the file's graph.
func FuzzDocument(f *testing.F) {
	f.Add("acme", "", "tools/x.json", "x", "a tool", 3)
	f.Add("a-b", "https://acme.example/h/", "skills/a b/#?%.md", "x y#1?%", "text\nwith\tspaces", 1)
	f.Add("", "", "", "", "", 0)
	f.Add("UPPER", "not an iri", "../../etc/passwd", "<script>", "\"quoted\" \\ back", -1)
	f.Add("x", "urn:", "\x00", "\xff\xfe", "\u2028\u0085", 1<<30)
	f.Add("x", "http://a/", "p", "@id", "@context", 1)
	f.Add("x", "_:b0", "p", "_:b1", "{\"@id\": 1}", 2)
	f.Fuzz(func(t *testing.T, name, iriBase, p, id, text string, line int) {
		in := record.Instance{Name: name, IRIBase: iriBase, Title: text, Description: text, Needs: []string{text},
			Vocabulary: text, Entrypoints: record.Entrypoints{Processes: []string{id}, Tools: []string{text},
				Triggers: []record.EntryTrigger{{ID: id, Kind: text, Skill: id, Tool: text}}},
			Exempt: []record.Exemption{{Skill: id, State: text, Reason: text}}, File: p}
		for _, parser := range []string{"tool", "declaration"} {
			f := fuzzFile(p, id, text, line)
			f.Parser = parser
			g := SourceIRI(in.DocIRI(), p)
			doc := Document(in, f, SourceMeta{Path: p, SHA256: text, Size: int64(line), Parser: parser})
			qs, err := ToQuads(doc, g)
			if err != nil {
				t.Fatalf("records of %s did not convert: %v", parser, err)
			}
			if err := SameAsReference(doc, g, qs, err); err != nil {
				t.Fatalf("records of %s: amortised and reference differ: %v", parser, err)
			}
			for _, q := range qs {
				if q.Label != quad.IRI(g) {
					t.Fatalf("quad outside its graph %q: %v", g, q)
				}
			}
		}
	})
}

// allowedContexts are the only context URLs the offline loader serves.
var allowedContexts = map[string]bool{ContextURL: true, NS[:len(NS)-1]: true, "https://w3id.org/skillgraph/ns": true}

// FuzzToQuads feeds an arbitrary JSON document to ToQuads (what reading an
// export back does) and an arbitrary @context to the loader: no panic, and
// a context other than the embedded one is never fetched.
func FuzzToQuads(f *testing.F) {
	f.Add([]byte(`{"@context": "https://w3id.org/skillgraph/context.jsonld", "@graph": [{"id": "urn:a", "type": "Skill", "key": "a"}]}`), "https://example.org/ctx.jsonld")
	f.Add([]byte(`{"@context": "http://127.0.0.1:1/ctx", "@id": "urn:x", "urn:p": "v"}`), "http://127.0.0.1:1/ctx")
	f.Add([]byte(`{"@context": {"@import": "https://example.org/i.jsonld"}, "@id": "urn:x"}`), "file:///etc/passwd")
	f.Add([]byte(`{"@context": [{"@vocab": "urn:v#"}, "https://example.org/c"], "a": 1}`), "//example.org/c")
	f.Add([]byte(`[{"@id": "urn:a", "@graph": {"@id": "urn:b", "urn:p": {"@list": [1, 2, {"@list": []}]}}}]`), "")
	f.Add([]byte(`{"@context": {"p": {"@id": "urn:p", "@type": "@json"}}, "@id": "urn:a", "p": [1, {"a": null}]}`), "https://w3id.org/skillgraph/ns")
	f.Add([]byte(`{"@context": {"@base": "http://a/"}, "@id": "../../x", "@reverse": {"urn:p": {"@id": "y"}}}`), "relative")
	f.Add([]byte(`{"@context": {"a": "b:", "b": "a:"}, "a:x": 1}`), "https://w3id.org/skillgraph/context.jsonld")
	f.Fuzz(func(t *testing.T, data []byte, ctx string) {
		var doc any
		if json.Unmarshal(data, &doc) == nil {
			_, _ = ToQuads(doc, "urn:g")
			_, _ = ToQuads(doc, "")
		}
		if _, err := (Loader{}).LoadDocument(ctx); (err == nil) != allowedContexts[ctx] {
			t.Fatalf("loader on %q: %v", ctx, err)
		}
		wrapped := map[string]any{"@context": ctx, "@id": "urn:x", "urn:p": "v"}
		_, err := ToQuads(wrapped, "urn:g")
		remote := strings.HasPrefix(ctx, "http://") || strings.HasPrefix(ctx, "https://") || strings.HasPrefix(ctx, "file:")
		if remote && !allowedContexts[ctx] && err == nil {
			t.Fatalf("remote context %q accepted", ctx)
		}
		if remote && !allowedContexts[ctx] && !strings.Contains(err.Error(), ErrRemoteContext.Error()) && !strings.Contains(err.Error(), "invalid") {
			t.Fatalf("remote context %q: unexpected error %v", ctx, err)
		}
	})
}

// FuzzAmortisedEqualsReference puts an arbitrary JSON document under the
// embedded context and converts it by ToQuads (the context processed
// once), and by ToQuadsBatch together with two documents of records (so
// its graph may be written with theirs), and by ReferenceQuads, json-gold's
// plain path: same quads, same errors, for the document's own graphs and
// relabelled (issue #14).
func FuzzAmortisedEqualsReference(f *testing.F) {
	in := record.Instance{Name: "acme", IRIBase: "https://acme.example/h/"}
	var company []Conversion
	for i, p := range []string{"tools/x.json", "tools/y.json"} {
		rec := fuzzFile(p, "x", "some text", i+1)
		company = append(company, Conversion{Doc: Document(in, rec, SourceMeta{Path: p}), Graph: SourceIRI(in.DocIRI(), p)})
	}
	f.Add([]byte(`{"@graph": [{"id": "urn:a", "type": "Skill", "key": "a", "line": 3, "satisfies": "urn:b"}]}`))
	f.Add([]byte(`[{"id": "https://h.example/x.jsonld#tool/t", "type": ["Tool", "Port"], "title": {"@value": "T", "@language": "en"}}]`))
	f.Add([]byte(`{"@context": {"p": {"@id": "urn:p", "@type": "@json"}}, "@id": "urn:a", "p": [1, {"a": null}]}`))
	f.Add([]byte(`{"@context": [null, {"@vocab": "urn:v#"}], "a": {"@list": [1, 2.5, true, {"@list": []}]}}`))
	f.Add([]byte(`{"@id": "urn:g", "@graph": {"id": "_:b0", "next": {"id": "_:b1"}, "urn:p": {"urn:q": "nested"}}}`))
	f.Add([]byte(`{"@context": {"id": null}, "id": "x", "@reverse": {"urn:p": {"@id": "urn:y"}}, "@included": [{"@id": "urn:i"}]}`))
	f.Add([]byte(`{"@context": {"type": {"@id": "@type", "@container": "@set"}, "Skill": {"@id": "urn:S", "@context": {"key": "urn:k"}}}, "type": "Skill", "key": "v"}`))
	f.Add([]byte(`{"@context": "https://example.org/remote.jsonld", "id": "urn:a"}`))
	f.Add([]byte(`{"id": "http://exa mple/bad iri", "title": 1e300, "line": -0.0, "position": "3"}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		var v any
		if json.Unmarshal(data, &v) != nil {
			return
		}
		// Under @graph, the value's own @context applies on top of the
		// embedded one; an object is also tried with the embedded context
		// in place of its own (its top-level keywords then count).
		docs := []map[string]any{{"@context": ContextURL, "@graph": v}}
		if m, ok := v.(map[string]any); ok {
			top := map[string]any{}
			for k, x := range m {
				top[k] = x
			}
			top["@context"] = ContextURL
			docs = append(docs, top)
		}
		batch := append([]Conversion(nil), company...)
		for _, doc := range docs {
			for _, g := range []string{"urn:g", ""} {
				qs, err := ToQuads(doc, g)
				if err := SameAsReference(doc, g, qs, err); err != nil {
					t.Fatalf("graph %q: amortised and reference differ: %v\n%s", g, err, data)
				}
				batch = append(batch, Conversion{Doc: doc, Graph: g})
			}
		}
		ToQuadsBatch(batch)
		for _, c := range batch {
			if err := SameAsReference(c.Doc, c.Graph, c.Quads, c.Err); err != nil {
				t.Fatalf("batch, graph %q: amortised and reference differ: %v\n%s", c.Graph, err, data)
			}
		}
	})
}
