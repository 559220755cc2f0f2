package backend

import (
	"context"
	"fmt"

	"github.com/cayleygraph/cayley/graph"
	"github.com/cayleygraph/cayley/graph/iterator"
	graphrefs "github.com/cayleygraph/cayley/graph/refs"
	"github.com/cayleygraph/quad"
)

// Cayley is what the backends over a Cayley QuadStore without a label
// index (kv over bbolt, memstore) share: reads through Cayley's iterators,
// the subject registry that stands in for the label index, and lookups
// that compare node references instead of decoding quads. Embed it.
type Cayley struct {
	// QS is the quad store; a backend may replace it (bbolt reopens it
	// over the unchanged file after a failed write).
	QS graph.QuadStore
}

// RegistryPredicate links a graph label to each subject of the graph, in
// the meta graph (kv backends only, which have no label index).
const RegistryPredicate = "https://w3id.org/skillgraph/ns#graphSubject"

// Scan is Backend.Scan through Cayley's iterators.
func (c *Cayley) Scan(ctx context.Context, dir quad.Direction, v quad.Value, fn func(quad.Quad) error) error {
	var sh iterator.Shape
	if dir == quad.Any {
		sh = c.QS.QuadsAllIterator()
	} else {
		ref, err := c.QS.ValueOf(v)
		if err != nil || ref == nil {
			return nil // nothing stored with that value
		}
		sh = c.QS.QuadIterator(dir, ref)
	}
	it := sh.Iterate()
	defer it.Close()
	for it.Next(ctx) {
		q, err := c.QS.Quad(it.Result())
		if err != nil {
			return fmt.Errorf("read quad: %w", err)
		}
		if err := fn(q); err != nil {
			return err
		}
	}
	return it.Err()
}

// ScanData calls fn for every quad but the subject registry.
func (c *Cayley) ScanData(ctx context.Context, fn func(quad.Quad) error) error {
	return c.Scan(ctx, quad.Any, nil, func(q quad.Quad) error {
		if q.Predicate == quad.IRI(RegistryPredicate) && q.Label == quad.IRI(MetaGraph) {
			return nil
		}
		return fn(q)
	})
}

// AnyQuad reports whether the store holds any quad at all.
func (c *Cayley) AnyQuad(ctx context.Context) bool {
	it := c.QS.QuadsAllIterator().Iterate()
	defer it.Close()
	return it.Next(ctx)
}

// GraphQuads is Backend.GraphQuads. Cayley's kv backends keep no label
// index: a label lookup scans the whole store, which made every per-file
// read O(store). Apply keeps a registry of each graph's subjects in the
// meta graph (IndexDeltas), so the graph's quads come from the subject
// index instead.
func (c *Cayley) GraphQuads(ctx context.Context, label string) ([]quad.Quad, error) {
	subjects, err := c.graphSubjects(ctx, label)
	if err != nil {
		return nil, err
	}
	var out []quad.Quad
	for _, subj := range subjects {
		err := c.Scan(ctx, quad.Subject, subj, func(q quad.Quad) error {
			if q.Label == quad.IRI(label) {
				out = append(out, q)
			}
			return nil
		})
		if err != nil {
			return nil, fmt.Errorf("read graph %s: %w", label, err)
		}
	}
	return out, nil
}

// graphSubjects lists the subjects of a graph: the label itself (a source
// file's metadata node) and the registered ones.
func (c *Cayley) graphSubjects(ctx context.Context, label string) ([]quad.Value, error) {
	if label == MetaGraph {
		return []quad.Value{quad.IRI(VersionSubject)}, nil
	}
	out := []quad.Value{quad.IRI(label)}
	err := c.Scan(ctx, quad.Subject, quad.IRI(label), func(q quad.Quad) error {
		if q.Label == quad.IRI(MetaGraph) && q.Predicate == quad.IRI(RegistryPredicate) && q.Object != quad.IRI(label) {
			out = append(out, q.Object)
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("read subjects of %s: %w", label, err)
	}
	return out, nil
}

// IndexDeltas is an IndexFunc: it keeps the subject registry of one graph
// in step with its new content, in the same write as the content.
func (c *Cayley) IndexDeltas(ctx context.Context, label string, want map[string]quad.Quad) ([]graph.Delta, error) {
	if label == MetaGraph {
		return nil, nil
	}
	old, err := c.graphSubjects(ctx, label)
	if err != nil {
		return nil, err
	}
	// Subjects by valueKey: one quad.ToString per quad was most of what
	// this allocated for a graph of small nodes (issue #28 row 14).
	type subjKey struct {
		s string
		k byte
	}
	keyOf := func(v quad.Value) subjKey { s, k := valueKey(v); return subjKey{s, k} }
	next := map[subjKey]quad.Value{}
	for _, q := range want {
		if q.Subject != quad.IRI(label) {
			next[keyOf(q.Subject)] = q.Subject
		}
	}
	had := map[subjKey]bool{}
	var deltas []graph.Delta
	for _, subj := range old[1:] {
		k := keyOf(subj)
		had[k] = true
		if _, keep := next[k]; !keep {
			deltas = append(deltas, graph.Delta{Quad: RegistryQuad(label, subj), Action: graph.Delete})
		}
	}
	for k, subj := range next {
		if !had[k] {
			deltas = append(deltas, graph.Delta{Quad: RegistryQuad(label, subj), Action: graph.Add})
		}
	}
	return deltas, nil
}

// RegistryQuad registers subj as a subject of graph label.
func RegistryQuad(label string, subj quad.Value) quad.Quad {
	return quad.Quad{Subject: quad.IRI(label), Predicate: quad.IRI(RegistryPredicate), Object: subj, Label: quad.IRI(MetaGraph)}
}

// HasDigest is Finder.HasDigest comparing node references instead of
// decoding each quad: a digest is unique to its file, so the object index
// yields one candidate.
func (c *Cayley) HasDigest(ctx context.Context, label, digest string) (bool, error) {
	obj, err := c.QS.ValueOf(quad.String(digest))
	if err != nil || obj == nil {
		return false, nil // that digest is stored nowhere
	}
	want := map[quad.Direction]quad.Value{quad.Subject: quad.IRI(label), quad.Predicate: quad.IRI(PredDigest), quad.Label: quad.IRI(label)}
	refs := map[quad.Direction]any{}
	for d, v := range want {
		r, err := c.QS.ValueOf(v)
		if err != nil || r == nil {
			return false, nil
		}
		refs[d] = graphrefs.ToKey(r)
	}
	it := c.QS.QuadIterator(quad.Object, obj).Iterate()
	defer it.Close()
	for it.Next(ctx) {
		match := true
		for d, k := range refs {
			r, err := c.QS.QuadDirection(it.Result(), d)
			if err != nil || r == nil || graphrefs.ToKey(r) != k {
				match = false
				break
			}
		}
		if match {
			return true, nil
		}
	}
	return false, it.Err()
}

// SourcesOf is Finder.SourcesOf comparing node references as HasDigest
// does: only the subjects of the matching quads are decoded (a full
// re-ingest at 10k skills spent a fifth of its time decoding every quad
// that names the instance).
func (c *Cayley) SourcesOf(ctx context.Context, docIRI string) ([]string, error) {
	obj, err := c.QS.ValueOf(quad.IRI(docIRI))
	if err != nil || obj == nil {
		return nil, nil // the instance is stored nowhere
	}
	pred, err := c.QS.ValueOf(quad.IRI(PredInstance))
	if err != nil || pred == nil {
		return nil, nil
	}
	pk := graphrefs.ToKey(pred)
	var out []string
	it := c.QS.QuadIterator(quad.Object, obj).Iterate()
	defer it.Close()
	for it.Next(ctx) {
		r := it.Result()
		if p, err := c.QS.QuadDirection(r, quad.Predicate); err != nil || p == nil || graphrefs.ToKey(p) != pk {
			continue
		}
		sub, err := c.QS.QuadDirection(r, quad.Subject)
		if err != nil || sub == nil {
			continue
		}
		if l, err := c.QS.QuadDirection(r, quad.Label); err != nil || l == nil || graphrefs.ToKey(l) != graphrefs.ToKey(sub) {
			continue
		}
		v, err := c.QS.NameOf(sub)
		if err != nil {
			return nil, err
		}
		if iri, ok := v.(quad.IRI); ok {
			out = append(out, string(iri))
		}
	}
	return out, it.Err()
}
