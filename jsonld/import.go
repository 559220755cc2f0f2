package jsonld

import (
	"context"
	"fmt"
	"strconv"

	"github.com/cayleygraph/quad"
	"github.com/piprate/json-gold/ld"
)

// MaxImportValues bounds the values one subject holds for one property in
// one graph of an imported JSON-LD document (its @type included): json-gold
// merged each value into a node by comparing it with every value the
// property already had, so 50 000 values of one property took 119 s and
// 900 000 over 120 s (issue #28 row 11). The node map is now linear
// (nodeMapper); the bound stays, as every list of skillgraph's is bounded,
// and costs no export: an ingest never stores more than ynode.MaxItems
// (1 000) values of one property of one node (the most in a real corpus:
// 140).
const MaxImportValues = 1_000

// ImportQuads is ToQuads(doc, "") for a document read from outside (an
// export being restored): the graphs are the document's own, a property
// of more than MaxImportValues values of one subject is refused before
// json-gold merges them, and the work stops when ctx is done (the walk
// checks it as it goes; json-gold, which takes no context, runs on a
// goroutine that is left to finish while ImportQuads returns ctx's error).
func ImportQuads(ctx context.Context, doc any) ([]quad.Quad, error) {
	type result struct {
		qs  []quad.Quad
		err error
	}
	done := make(chan result, 1)
	go func() {
		qs, err := importQuads(ctx, doc)
		done <- result{qs, err}
	}()
	select {
	case r := <-done:
		return r.qs, r.err
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

func importQuads(ctx context.Context, doc any) ([]quad.Quad, error) {
	// First the document as decoded, before its re-encoding and
	// expansion, whose cost per value is high: no array but the node
	// lists of @graph and @list may be over the bound (a term an @context
	// aliases to @graph is not known here and is held to it too).
	if err := checkArrays(ctx, doc, MaxImportValues); err != nil {
		return nil, err
	}
	generic, err := plainJSON(doc)
	if err != nil {
		return nil, err
	}
	if err := withSharedContext(generic); err != nil {
		return nil, err
	}
	expanded, err := expand(generic)
	if err != nil {
		return nil, fmt.Errorf("json-ld to rdf: %w", err)
	}
	if err := checkValues(ctx, expanded, MaxImportValues); err != nil {
		return nil, err
	}
	nm, err := nodeMapOf(expanded)
	if err != nil {
		return nil, fmt.Errorf("json-ld to rdf: %w", err)
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return nm.alone("")
}

// checkArrays refuses a document as written when an array under a key
// other than @graph and @list holds more than limit values: after
// expansion it would be the values of one property of one subject.
func checkArrays(ctx context.Context, generic any, limit int) error {
	visits := 0
	var walk func(v any) error
	walk = func(v any) error {
		if visits++; visits%1024 == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		switch x := v.(type) {
		case []any:
			for _, e := range x {
				if err := walk(e); err != nil {
					return err
				}
			}
		case map[string]any:
			for k, e := range x {
				if k == "@context" {
					continue
				}
				if l, ok := e.([]any); ok && len(l) > limit && k != "@graph" && k != "@list" {
					return fmt.Errorf("%d values of %s in one node object: more than %d values of one property are refused", len(l), strconv.Quote(k), limit)
				}
				if err := walk(e); err != nil {
					return err
				}
			}
		}
		return nil
	}
	return walk(generic)
}

// valueKey is one property of one subject in one graph.
type valueKey struct{ graph, subject, property string }

// checkValues counts, in an expanded document, the values of each
// property of each subject per graph (a subject written in several node
// objects adds up, as json-gold merges them) and refuses the document
// when one is over limit. Nested node objects are subjects of their own;
// a node object without @id is a blank node that nothing else can add to.
func checkValues(ctx context.Context, expanded any, limit int) error {
	counts := map[valueKey]int{}
	blank, visits := 0, 0
	var walk func(v any, graph string) error
	walk = func(v any, graph string) error {
		if visits++; visits%1024 == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		switch x := v.(type) {
		case []any:
			for _, e := range x {
				if err := walk(e, graph); err != nil {
					return err
				}
			}
		case map[string]any:
			if _, ok := x["@value"]; ok {
				return nil
			}
			if l, ok := x["@list"]; ok {
				return walk(l, graph)
			}
			subject, ok := x["@id"].(string)
			if !ok {
				blank++
				subject = "\x00" + strconv.Itoa(blank)
			}
			for k, vals := range x {
				switch k {
				case "@id", "@index", "@context":
					continue
				case "@graph":
					if err := walk(vals, subject); err != nil {
						return err
					}
					continue
				case "@reverse":
					if m, ok := vals.(map[string]any); ok {
						for _, rv := range m {
							if err := walk(rv, graph); err != nil {
								return err
							}
						}
					}
					continue
				}
				list, ok := vals.([]any)
				if !ok {
					continue
				}
				key := valueKey{graph, subject, k}
				if counts[key] += len(list); counts[key] > limit {
					return fmt.Errorf("%s has more than %d values of %s (in graph %q): a document this wide is refused", subjectName(subject), limit, k, graph)
				}
				if k == "@type" {
					continue
				}
				if err := walk(list, graph); err != nil {
					return err
				}
			}
		}
		return nil
	}
	return walk(expanded, "@default")
}

// subjectName is how an error names a subject (a blank node has no name).
func subjectName(s string) string {
	if s != "" && s[0] == 0 {
		return "a blank node"
	}
	return strconv.Quote(s)
}

// expand is json-gold's expansion with a panic turned into ErrProcessor.
func expand(generic any) (expanded []any, err error) {
	defer func() {
		if r := recover(); r != nil {
			expanded, err = nil, fmt.Errorf("%w: %v", ErrProcessor, r)
		}
	}()
	return ld.NewJsonLdProcessor().Expand(generic, Options())
}

// nodeMapOf is json-gold's node map of an expanded document (made by
// nodeMapper, in linear time), with a panic turned into ErrProcessor.
func nodeMapOf(expanded []any) (nm nodeMap, err error) {
	defer func() {
		if r := recover(); r != nil {
			nm, err = nodeMap{}, fmt.Errorf("%w: %v", ErrProcessor, r)
		}
	}()
	nm = nodeMap{graphs: map[string]any{"@default": map[string]any{}}, issuer: ld.NewIdentifierIssuer("_:b")}
	m := nodeMapper{issuer: nm.issuer, props: map[propKey]*propValues{}}
	if _, err := m.generate(expanded, nm.graphs, "@default", "", "", nil); err != nil {
		return nodeMap{}, err
	}
	return nm, nil
}
