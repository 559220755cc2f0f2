package jsonld

import (
	"strings"
	"testing"

	"github.com/skillgraph/skillgraph/ingest/record"
)

// TestDirectDecidesEveryKind: a file of every record kind, with ids and
// text as corpora have them, is converted on the direct path (no
// json-gold), to json-gold's quads.
func TestDirectDecidesEveryKind(t *testing.T) {
	in := record.Instance{Name: "acme", IRIBase: "https://acme.example/h/", Title: "Acme", Needs: []string{"base"},
		Entrypoints: record.Entrypoints{Processes: []string{"p"}}}
	for _, c := range []struct {
		name, parser, id, text string
	}{
		{"tool file", "tool", "x", "a tool"},
		{"declaration", "declaration", "deploy", "Deploys the service."},
		{"escaped ids", "tool", "a b#1?%/ü", "line\nwith \"quotes\" and \t tabs"},
		{"json literal escapes", "tool", "k", "\x01\u2028<&>\\ \U0001F600"},
	} {
		t.Run(c.name, func(t *testing.T) {
			f := fuzzFile("tools/x.json", c.id, c.text, 3)
			f.Parser = c.parser
			// fuzzFile's 1.5 and its port type (the text, a relative IRI)
			// are left to json-gold (TestDirectLeavesToJSONGold).
			f.Tools[0].Install = map[string]any{c.text: []any{c.id, 2}}
			f.Tools[0].Inputs[0].TypeIRI = "json:string"
			f.Skills[0].Output = "https://x.example/contract.json" // fuzzFile's is the id as is
			g := SourceIRI(in.DocIRI(), f.Path)
			doc := Document(in, f, SourceMeta{Path: f.Path, SHA256: "ab", Size: 10, Parser: c.parser})
			qs, ok := DirectQuads(doc, g)
			if !ok {
				t.Fatal("the direct path left a document of records to json-gold")
			}
			if err := SameAsReference(doc, g, qs, nil); err != nil {
				t.Fatal(err)
			}
		})
	}
}

// TestDirectLeavesToJSONGold: what the direct path cannot decide as
// json-gold would is left to it (ok false), never guessed.
func TestDirectLeavesToJSONGold(t *testing.T) {
	node := func(kv ...any) map[string]any {
		n := map[string]any{"id": "urn:a"}
		for i := 0; i+1 < len(kv); i += 2 {
			n[kv[i].(string)] = kv[i+1]
		}
		return n
	}
	for _, c := range []struct {
		name string
		doc  any
	}{
		{"not ours", map[string]any{"@context": "https://example.org/c", "@graph": []any{node()}}},
		{"inline context", map[string]any{"@context": map[string]any{}, "@graph": []any{node()}}},
		{"more top-level keys", map[string]any{"@context": ContextURL, "@graph": []any{}, "@id": "urn:g"}},
		{"blank node", map[string]any{"@context": ContextURL, "@graph": []any{map[string]any{"id": "_:b0", "key": "k"}}}},
		{"no id", map[string]any{"@context": ContextURL, "@graph": []any{map[string]any{"key": "k"}}}},
		{"compact IRI", map[string]any{"@context": ContextURL, "@graph": []any{node("satisfies", "sg:x")}}},
		{"relative IRI", map[string]any{"@context": ContextURL, "@graph": []any{node("portType", "Sentence")}}},
		{"unknown term", map[string]any{"@context": ContextURL, "@graph": []any{node("nope", "x")}}},
		{"keyword", map[string]any{"@context": ContextURL, "@graph": []any{node("@reverse", map[string]any{})}}},
		{"unknown class", map[string]any{"@context": ContextURL, "@graph": []any{node("type", "Nope")}}},
		{"nested node", map[string]any{"@context": ContextURL, "@graph": []any{node("satisfies", map[string]any{"id": "urn:b"})}}},
		{"float", map[string]any{"@context": ContextURL, "@graph": []any{node("line", 1.5)}}},
		{"huge integer", map[string]any{"@context": ContextURL, "@graph": []any{node("line", int64(1)<<60)}}},
		{"invalid UTF-8", map[string]any{"@context": ContextURL, "@graph": []any{node("title", "\xff")}}},
		{"JSON number", map[string]any{"@context": ContextURL, "@graph": []any{node("install", `{"a":1.5}`)}}},
		{"JSON scalar", map[string]any{"@context": ContextURL, "@graph": []any{node("install", `"a"`)}}},
		{"JSON surrogate", map[string]any{"@context": ContextURL, "@graph": []any{node("install", `["\ud800"]`)}}},
		{"JSON duplicate key", map[string]any{"@context": ContextURL, "@graph": []any{node("install", `{"a":1,"a":2}`)}}},
		{"bad JSON", map[string]any{"@context": ContextURL, "@graph": []any{node("install", `{"a":`)}}},
		{"IRI of a boolean", map[string]any{"@context": ContextURL, "@graph": []any{node("satisfies", true)}}},
	} {
		t.Run(c.name, func(t *testing.T) {
			if qs, ok := DirectQuads(c.doc, "urn:g"); ok {
				t.Fatalf("decided: %v", qs)
			}
			qs, err := ToQuads(c.doc, "urn:g")
			if err := SameAsReference(c.doc, "urn:g", qs, err); err != nil {
				t.Fatal(err)
			}
		})
	}
}

// TestDirectAsJSONGold: values the direct path decides, each as json-gold
// converts it (dropped IRIs, duplicates, typed literals, canonical JSON).
func TestDirectAsJSONGold(t *testing.T) {
	long := "https://acme.example/h#tool/"
	for len(long) < 2100 {
		long += "x"
	}
	for _, c := range []struct {
		name string
		node map[string]any
	}{
		{"invalid http IRI dropped", map[string]any{"id": "urn:a", "satisfies": []string{"http://-bad-/x", "https://ok.example/#a"}}},
		{"invalid subject", map[string]any{"id": "http://-bad-/#x", "key": "k", "type": "Tool"}},
		{"too long an IRI", map[string]any{"id": "urn:a", "satisfies": long}},
		{"escaped fragment", map[string]any{"id": "https://a.example/d#tool/%25x%2F", "key": "k"}},
		{"second hash", map[string]any{"id": "https://a.example/d#x#y", "key": "k"}},
		{"duplicates", map[string]any{"id": "urn:a", "tag": []string{"x", "x", "y"}, "satisfies": []string{"urn:b", "urn:b"}}},
		{"integers and booleans", map[string]any{"id": "urn:a", "line": 3, "size": int64(-1) << 52, "position": 0, "required": false, "readOnly": true}},
		{"string where an integer is typed", map[string]any{"id": "urn:a", "line": "3"}},
		{"one JSON value, two texts", map[string]any{"id": "urn:a", "install": `{"a":1}`, "metadata": `{"a":1}`}},
		{"types", map[string]any{"id": "urn:a", "type": []string{"Tool", "Port", "Tool"}}},
		{"empty values", map[string]any{"id": "urn:a", "tag": []string{}, "title": "", "satisfies": nil}},
		{"JSON literal", map[string]any{"id": "urn:a", "install": "{\"z\":[1,-0,true,null,{}],\"\u00e9\":\"\\u0001\\n\\u2028\\/\",\"\U0001F600\":2,\"\uffff\":3}"}},
		{"JSON array", map[string]any{"id": "urn:a", "invokeShell": `["a","b"]`}},
		{"urn and other schemes", map[string]any{"id": "urn:a", "satisfies": []string{"json:string", "mailto:x@y", "file:///etc"}}},
	} {
		t.Run(c.name, func(t *testing.T) {
			// A second node of the same subject: its values merge with
			// the first's, equal ones once (3 and "3" of line, and two
			// texts of one JSON value, are two values to json-gold).
			again := map[string]any{"id": "urn:a", "key": "again", "line": 3, "install": `{"a": 1}`, "metadata": `{"a":1}`}
			doc := map[string]any{"@context": ContextURL, "@graph": []any{c.node, again, again}}
			for _, g := range []string{"urn:g", ""} {
				qs, ok := DirectQuads(doc, g)
				if !ok {
					t.Fatal("left to json-gold")
				}
				if err := SameAsReference(doc, g, qs, nil); err != nil {
					t.Fatal(err)
				}
			}
		})
	}
}

// FuzzDirectEqualsReference: records built from fuzzed strings, a fuzzed
// IRI as a subject and as an @id value, and a fuzzed JSON literal: where
// the direct path decides, it gives json-gold's quads.
func FuzzDirectEqualsReference(f *testing.F) {
	f.Add("acme", "https://acme.example/h/", "tools/x.json", "x", "a tool", 3, "https://a.example/#x", `{"b":[1,"\u2028"],"a":{}}`)
	f.Add("a-b", "", "skills/a b/#?%.md", "x y#1?%", "text\nwith\tspaces", 1, "http://exa mple/", `[true,null,-0,12345678901234]`)
	f.Add("", "urn:", "", "", "", 0, "sg:x", `{"\u00e9":1,"\U0001F600":2,"\uffff":3}`)
	f.Add("x", "not an iri", "\x00", "\xff\xfe", "\u2028\u0085", 1<<30, "_:b0", `{"a":1e2}`)
	f.Add("x", "http://a/#", "p", "@id", "@context", 1, "relative", `{"a":1,"a":2}`)
	f.Fuzz(func(t *testing.T, name, iriBase, p, id, text string, line int, iri, literal string) {
		in := record.Instance{Name: name, IRIBase: iriBase, Title: text, Needs: []string{text}}
		var docs []any
		for _, parser := range []string{"tool", "declaration"} {
			rec := fuzzFile(p, id, text, line)
			rec.Parser = parser
			docs = append(docs, Document(in, rec, SourceMeta{Path: p, SHA256: text, Size: int64(line), Parser: parser}))
			// fuzzFile's float and relative port type send it to
			// json-gold; this one the direct path decides when the
			// fuzzed strings allow.
			rec = fuzzFile(p, id, text, line)
			rec.Parser = parser
			rec.Tools[0].Install = map[string]any{text: []any{id, line}}
			rec.Tools[0].Inputs[0].TypeIRI = iri
			rec.Skills[0].Output = iri
			docs = append(docs, Document(in, rec, SourceMeta{Path: p, SHA256: text, Size: int64(line), Parser: parser}))
		}
		docs = append(docs, map[string]any{"@context": ContextURL, "@graph": []any{
			map[string]any{"id": iri, "type": "Tool", "key": text, "install": literal, "line": line},
			map[string]any{"id": "urn:a", "satisfies": []string{iri, text}, "portType": iri, "metadata": literal},
		}})
		for _, doc := range docs {
			for _, g := range []string{"urn:g", ""} {
				qs, ok := DirectQuads(doc, g)
				if !ok {
					continue
				}
				if err := SameAsReference(doc, g, qs, nil); err != nil {
					t.Fatalf("graph %q: direct and reference differ: %v", g, err)
				}
			}
		}
	})
}

// nquadsOrder is the order compareNQuads must give: the N-Quads lines'
// as strings.
func nquadsOrder(a, b [3]string, tail string) int {
	return strings.Compare(a[0]+" "+a[1]+" "+a[2]+tail, b[0]+" "+b[1]+" "+b[2]+tail)
}

// TestCompareNQuadsIsTheTextsOrder: the part-wise comparison orders
// statements as their N-Quads lines, including where one part is a
// prefix of the other (the separator, a space, then decides).
func TestCompareNQuadsIsTheTextsOrder(t *testing.T) {
	const tail = " <urn:g> ."
	for _, c := range [][2][3]string{
		{{"<urn:a>", "<urn:p>", `"x"`}, {"<urn:a>", "<urn:p>", `"x"`}},
		{{"<urn:a>", "<urn:p>", `"x"`}, {"<urn:b>", "<urn:p>", `"x"`}},
		{{"<urn:a>", "<urn:p>", `"x"`}, {"<urn:a>", "<urn:q>", `"a"`}},
		{{"<urn:a>", "<urn:p>", `"x"`}, {"<urn:a>", "<urn:p>", `"y"`}},
		// prefixes: the shorter part is followed by a space (0x20), which
		// sorts below most characters and above a few
		{{"<urn:a", "<urn:p>", `"x"`}, {"<urn:a>", "<urn:p>", `"x"`}},
		{{"ab", "c", "d"}, {"ab!", "c", "d"}},
		{{"ab", "c", "d"}, {"ab\x01", "c", "d"}},
		{{"a", "b c", "d"}, {"a b", "c", "d"}},
		{{"a", "b", `"x"`}, {"a", "b", `"x"^^<urn:t>`}},
		{{"", "", ""}, {"", "", " "}},
	} {
		a, b := c[0], c[1]
		for _, p := range [][2][3]string{{a, b}, {b, a}} {
			if got, want := compareNQuads(&p[0], &p[1], tail), nquadsOrder(p[0], p[1], tail); got != want {
				t.Errorf("compareNQuads(%q, %q) = %d, the texts' order %d", p[0], p[1], got, want)
			}
		}
	}
}

// FuzzCompareNQuads holds compareNQuads to the texts' order on any parts.
func FuzzCompareNQuads(f *testing.F) {
	f.Add("<urn:a>", "<urn:p>", `"x"`, "<urn:a>", "<urn:p>", `"y"`)
	f.Add("ab", "c", "d", "ab!", "c", "d")
	f.Add("a", "b c", "d", "a b", "c", "d")
	f.Fuzz(func(t *testing.T, a0, a1, a2, b0, b1, b2 string) {
		a, b := [3]string{a0, a1, a2}, [3]string{b0, b1, b2}
		if got, want := compareNQuads(&a, &b, " ."), nquadsOrder(a, b, " ."); got != want {
			t.Fatalf("compareNQuads(%q, %q) = %d, the texts' order %d", a, b, got, want)
		}
	})
}
