package schemas

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"sync"
)

// Kinds of value a term holds in the store (the term's @type in the
// context).
const (
	KindLiteral = "literal" // a plain string
	KindIRI     = "iri"     // @id: a node reference
	KindInteger = "integer" // xsd:integer
	KindBoolean = "boolean" // xsd:boolean
	KindJSON    = "json"    // rdf:JSON: a structured value as one JSON literal
	KindClass   = "class"   // a node type (the value of "type")
)

// Term is one term of the JSON-LD context: the short name the encoder
// (jsonld.Document) writes and the decoder (queries) reads, and the IRI the
// store holds. The context file is the single source of both.
type Term struct {
	Name string
	IRI  string
	Kind string
}

// terms is the parsed context, read once.
var terms = sync.OnceValues(func() (map[string]Term, error) {
	b, err := Read("context.jsonld")
	if err != nil {
		return nil, err
	}
	return parseTerms(b)
})

// parseTerms reads the term definitions of a JSON-LD context document:
// prefixes (values ending in # or /) expand compact IRIs; keyword aliases
// such as "id" are not terms.
func parseTerms(b []byte) (map[string]Term, error) {
	var doc struct {
		Context map[string]any `json:"@context"`
	}
	if err := json.Unmarshal(b, &doc); err != nil {
		return nil, fmt.Errorf("context.jsonld: %w", err)
	}
	prefixes := map[string]string{}
	for k, v := range doc.Context {
		if s, ok := v.(string); ok && (strings.HasSuffix(s, "#") || strings.HasSuffix(s, "/")) {
			prefixes[k] = s
		}
	}
	expand := func(s string) string {
		if p, rest, ok := strings.Cut(s, ":"); ok {
			if base, ok := prefixes[p]; ok {
				return base + rest
			}
		}
		return s
	}
	out := map[string]Term{}
	for k, v := range doc.Context {
		if strings.HasPrefix(k, "@") || prefixes[k] != "" {
			continue
		}
		var id, typ string
		switch x := v.(type) {
		case string:
			id = x
		case map[string]any:
			id, _ = x["@id"].(string)
			typ, _ = x["@type"].(string)
		default:
			return nil, fmt.Errorf("context.jsonld: term %q: unexpected definition %v", k, v)
		}
		if strings.HasPrefix(id, "@") {
			continue // keyword alias (id, type)
		}
		t := Term{Name: k, IRI: expand(id), Kind: KindLiteral}
		switch {
		case typ == "@id":
			t.Kind = KindIRI
		case typ == "xsd:integer":
			t.Kind = KindInteger
		case typ == "xsd:boolean":
			t.Kind = KindBoolean
		case typ == "rdf:JSON" || typ == "@json":
			t.Kind = KindJSON
		case typ == "" && k != "" && k[0] >= 'A' && k[0] <= 'Z':
			t.Kind = KindClass
		case typ != "":
			return nil, fmt.Errorf("context.jsonld: term %q: unknown @type %q", k, typ)
		}
		out[k] = t
	}
	return out, nil
}

// LookupTerm returns the context's definition of a term.
func LookupTerm(name string) (Term, bool) {
	m, err := terms()
	if err != nil {
		return Term{}, false
	}
	t, ok := m[name]
	return t, ok
}

// Terms returns every term of the context, sorted by name.
func Terms() ([]Term, error) {
	m, err := terms()
	if err != nil {
		return nil, err
	}
	out := make([]Term, 0, len(m))
	for _, t := range m {
		out = append(out, t)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out, nil
}
