package jsonld

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"sync"

	"github.com/cayleygraph/quad"
	"github.com/piprate/json-gold/ld"

	"github.com/skillgraph/skillgraph/schemas"
)

// ErrRemoteContext is returned when a document names a context other than
// the embedded skillgraph one: ingest never fetches anything (SPEC §3.4).
var ErrRemoteContext = errors.New("remote JSON-LD context refused")

// Context returns the embedded skillgraph context document.
func Context() []byte {
	b, err := schemas.Read("context.jsonld")
	if err != nil {
		// The file is embedded at build time; its absence is a build defect.
		panic(fmt.Sprintf("skillgraph: embedded context missing: %v", err))
	}
	return b
}

// parsedContext decodes the embedded context once: json-gold only reads a
// loaded document, so one decoded copy is shared by every conversion.
var parsedContext = sync.OnceValues(func() (any, error) {
	var doc any
	if err := json.Unmarshal(Context(), &doc); err != nil {
		return nil, fmt.Errorf("embedded context: %w", err)
	}
	return doc, nil
})

// Loader is json-gold's document loader for skillgraph: it serves the
// embedded context and refuses everything else. It holds no state, so one
// Loader may be shared between goroutines.
type Loader struct{}

// LoadDocument implements ld.DocumentLoader.
func (Loader) LoadDocument(u string) (*ld.RemoteDocument, error) {
	switch u {
	case ContextURL, NS[:len(NS)-1], "https://w3id.org/skillgraph/ns":
		doc, err := parsedContext()
		if err != nil {
			return nil, err
		}
		return &ld.RemoteDocument{DocumentURL: ContextURL, Document: doc}, nil
	}
	return nil, fmt.Errorf("%w: %s", ErrRemoteContext, u)
}

// Options returns json-gold options with the offline loader.
func Options() *ld.JsonLdOptions {
	o := ld.NewJsonLdOptions("")
	o.DocumentLoader = Loader{}
	o.ProcessingMode = ld.JsonLd_1_1
	return o
}

// activeContext is the embedded context as json-gold processes it: the
// term definitions an expansion of a document naming ContextURL starts
// from. Processing it took a fifth of every conversion
// (BenchmarkDocumentToQuads); it is done once and every document gets a
// copy (issue #14).
var activeContext = sync.OnceValues(func() (*ld.Context, error) {
	c, err := ld.NewContext(nil, Options()).Parse(ContextURL)
	if err != nil {
		return nil, fmt.Errorf("embedded context: %w", err)
	}
	return c, nil
})

// ToQuads expands a JSON-LD document to RDF and returns its quads, all
// labelled with graph; with graph "" the document's own named graphs are
// kept (how an export is read back). Blank nodes are renamed to be unique per document
// (json-gold restarts at _:b0 for every document). The result is sorted.
//
// It is ToQuadsBatch of one document, which gives ReferenceQuads' quads
// (SameAsReference): the equality is tested on every corpus (ingest
// TestConvertEqualsReference) and fuzzed (FuzzAmortisedEqualsReference).
func ToQuads(doc any, graph string) ([]quad.Quad, error) {
	cs := []Conversion{{Doc: doc, Graph: graph}}
	ToQuadsBatch(cs)
	return cs[0].Quads, cs[0].Err
}

// plainJSON re-decodes doc: json-gold wants plain JSON values ([]any,
// float64), not Go slices and structs.
func plainJSON(doc any) (any, error) {
	b, err := json.Marshal(doc)
	if err != nil {
		return nil, fmt.Errorf("encode document: %w", err)
	}
	var generic any
	if err := json.Unmarshal(b, &generic); err != nil {
		return nil, fmt.Errorf("decode document: %w", err)
	}
	return generic, nil
}

// withSharedContext puts a copy of the processed embedded context in
// place of a top-level @context naming ContextURL.
func withSharedContext(generic any) error {
	m, ok := generic.(map[string]any)
	if !ok {
		return nil
	}
	if u, ok := m["@context"].(string); !ok || u != ContextURL {
		return nil
	}
	ac, err := activeContext()
	if err != nil {
		return err
	}
	// json-gold's context processing takes a *Context as a local context
	// as it is: here the result of processing ContextURL on the initial
	// context, which is what it would compute itself. It gets a copy
	// because that step sets the copy's processing mode, and conversions
	// run in parallel.
	m["@context"] = ld.CopyContext(ac)
	return nil
}

// datasetQuads turns json-gold's statements (by graph name) into graph's
// sorted quads, as ToQuads describes.
func datasetQuads(graphs map[string][]*ld.Quad, graph string) ([]quad.Quad, error) {
	out, err := quadsOf(graphs, graph)
	if err != nil {
		return nil, err
	}
	SortQuads(out)
	return out, nil
}

// quadsOf is datasetQuads before the sort.
func quadsOf(graphs map[string][]*ld.Quad, graph string) ([]quad.Quad, error) {
	sum := sha256.Sum256([]byte(graph))
	prefix := hex.EncodeToString(sum[:6])
	var label quad.Value
	if graph != "" {
		label = quad.IRI(graph)
	}
	// The quads of every changed file are held until they are written
	// (and, by a cold `serve`, until its early snapshot is built): sized
	// once, and each IRI boxed once per document (a subject's IRI is in
	// all its quads, a predicate in most) instead of once per quad.
	n := 0
	names := make([]string, 0, len(graphs))
	for name := range graphs {
		names = append(names, name)
		n += len(graphs[name])
	}
	sort.Strings(names)
	out := make([]quad.Quad, 0, n)
	iris := make(map[string]quad.Value, n/2)
	for _, name := range names {
		lbl := label
		if graph == "" && name != "@default" {
			lbl = quad.IRI(name)
		}
		for _, q := range graphs[name] {
			s, err1 := toValue(q.Subject, prefix, iris)
			p, err2 := toValue(q.Predicate, prefix, iris)
			o, err3 := toValue(q.Object, prefix, iris)
			if err := errors.Join(err1, err2, err3); err != nil {
				return nil, err
			}
			out = append(out, quad.Quad{Subject: s, Predicate: p, Object: o, Label: lbl})
		}
	}
	return out, nil
}

// referenceQuads is json-gold's plain path: ToRDF of the whole document.
func referenceQuads(doc any, graph string) ([]quad.Quad, error) {
	generic, err := plainJSON(doc)
	if err != nil {
		return nil, err
	}
	res, err := toRDF(generic)
	if err != nil {
		return nil, fmt.Errorf("json-ld to rdf: %w", err)
	}
	ds, ok := res.(*ld.RDFDataset)
	if !ok {
		return nil, fmt.Errorf("json-ld to rdf: unexpected result %T", res)
	}
	return datasetQuads(ds.Graphs, graph)
}

// ErrProcessor is returned when json-gold fails on a document in a way it
// does not report as an error: it asserts value types, so some ill-typed
// documents (a number where it expects an IRI string) make it panic. An
// import of such a file is refused, not a crash.
var ErrProcessor = errors.New("json-ld processor failed")

// toRDF is json-gold's ToRDF with a panic turned into ErrProcessor.
func toRDF(doc any) (res any, err error) {
	defer func() {
		if r := recover(); r != nil {
			res, err = nil, fmt.Errorf("%w: %v", ErrProcessor, r)
		}
	}()
	return ld.NewJsonLdProcessor().ToRDF(doc, Options())
}

func toValue(n ld.Node, prefix string, iris map[string]quad.Value) (quad.Value, error) {
	switch v := n.(type) {
	case ld.IRI:
		return iri(iris, v.Value), nil
	case *ld.IRI:
		return iri(iris, v.Value), nil
	case ld.BlankNode:
		return quad.BNode(prefix + "_" + trimBlank(v.Attribute)), nil
	case *ld.BlankNode:
		return quad.BNode(prefix + "_" + trimBlank(v.Attribute)), nil
	case ld.Literal:
		return literal(v), nil
	case *ld.Literal:
		return literal(*v), nil
	}
	return nil, fmt.Errorf("unexpected rdf node %T", n)
}

// iri is the IRI s, boxed once per iris (the same value for every quad
// naming it).
func iri(iris map[string]quad.Value, s string) quad.Value {
	if v, ok := iris[s]; ok {
		return v
	}
	v := quad.Value(quad.IRI(s))
	iris[s] = v
	return v
}

func trimBlank(s string) string {
	if len(s) > 2 && s[:2] == "_:" {
		return s[2:]
	}
	return s
}

// XSDString is the datatype of plain literals.
const XSDString = "http://www.w3.org/2001/XMLSchema#string"

func literal(l ld.Literal) quad.Value {
	switch {
	case l.Language != "":
		return quad.LangString{Value: quad.String(l.Value), Lang: l.Language}
	case l.Datatype == "" || l.Datatype == XSDString:
		return quad.String(l.Value)
	}
	return quad.TypedString{Value: quad.String(l.Value), Type: quad.IRI(l.Datatype)}
}

// SortQuads orders quads by their N-Quads form, for stable output. Each
// key is formatted once: NQuad uses fmt and dominated ToQuads when called
// inside the comparison.
func SortQuads(qs []quad.Quad) {
	keys := make([]string, len(qs))
	for i, q := range qs {
		keys[i] = q.NQuad()
	}
	sort.Sort(byKey{qs, keys})
}

type byKey struct {
	qs   []quad.Quad
	keys []string
}

func (b byKey) Len() int           { return len(b.qs) }
func (b byKey) Less(i, j int) bool { return b.keys[i] < b.keys[j] }
func (b byKey) Swap(i, j int) {
	b.qs[i], b.qs[j] = b.qs[j], b.qs[i]
	b.keys[i], b.keys[j] = b.keys[j], b.keys[i]
}
