package backend

import (
	"context"
	"strconv"
	"strings"

	"github.com/cayleygraph/quad"
)

// MetaGraph is the named graph that holds the store's own bookkeeping.
const MetaGraph = "urn:skillgraph:meta"

// VersionSubject and VersionPredicate hold the graph version counter.
const (
	VersionSubject   = "urn:skillgraph:store"
	VersionPredicate = "https://w3id.org/skillgraph/ns#graphVersion"
)

// The predicates the lookups of Finder match.
const (
	// PredDigest is ingest's change-detection digest of a source file
	// (sg:digest); sg:sha256 is the file's own hash.
	PredDigest   = "https://w3id.org/skillgraph/ns#digest"
	PredInstance = "https://w3id.org/skillgraph/ns#instance"
)

// Change replaces the content of one named graph. A nil Quads with Delete
// set removes the graph.
type Change struct {
	Graph  string
	Quads  []quad.Quad
	Delete bool
	// Stamp, if set, is recorded as the graph's stamp in the same write
	// (see graph.Store.Stamps); a change without one deletes the graph's
	// stamp.
	Stamp []byte
}

// ChangeStamps is the stamp write of an Apply: each changed graph's new
// stamp, or its deletion (nil).
func ChangeStamps(changes []Change) map[string][]byte {
	out := make(map[string][]byte, len(changes))
	for _, c := range changes {
		if c.Delete {
			out[c.Graph] = nil
			continue
		}
		out[c.Graph] = c.Stamp
	}
	return out
}

// VersionQuad is the meta graph's version quad as the store reads it back.
func VersionQuad(v int64) quad.Quad {
	return quad.Quad{Subject: quad.IRI(VersionSubject), Predicate: quad.IRI(VersionPredicate),
		Object: quad.Int(v), Label: quad.IRI(MetaGraph)}
}

// ScanFunc is Backend.Scan, or a scan bound to one transaction.
type ScanFunc func(ctx context.Context, dir quad.Direction, v quad.Value, fn func(quad.Quad) error) error

// Version reads the graph version counter through scan: 0 for a new store.
func Version(ctx context.Context, scan ScanFunc) (int64, error) {
	var v int64
	var perr error
	err := scan(ctx, quad.Subject, quad.IRI(VersionSubject), func(q quad.Quad) error {
		if q.Label == quad.IRI(MetaGraph) && q.Predicate == quad.IRI(VersionPredicate) {
			v, perr = strconv.ParseInt(LiteralString(q.Object), 10, 64)
		}
		return nil
	})
	if err == nil {
		err = perr
	}
	return v, err
}

// LiteralString is the lexical form of a literal as Cayley hands it back.
func LiteralString(v quad.Value) string {
	switch x := v.(type) {
	case quad.TypedString:
		return string(x.Value)
	case quad.String:
		return string(x)
	case quad.Int:
		return strconv.FormatInt(int64(x), 10)
	}
	return quad.StringOf(v)
}

// Key is the identity of a quad in a delta plan: q.NQuad(), built in one
// allocation (NQuad's fmt.Sprintf and each IRI's String were a sixth of
// the bytes an ingest allocates per finding, issue #28 row 14).
func Key(q quad.Quad) string {
	if q.Subject == nil || q.Predicate == nil || q.Object == nil {
		return q.NQuad() // as NQuad prints a missing value
	}
	label, labelled := q.Label.(quad.IRI)
	if q.Label != nil && !labelled {
		return q.NQuad()
	}
	var terms [4]string // the values' N-Quads forms, IRIs left bare
	size := 2           // " ."
	for i, v := range [4]quad.Value{q.Subject, q.Predicate, q.Object, label} {
		if i == 3 && !labelled {
			break
		}
		if iri, ok := v.(quad.IRI); ok {
			terms[i] = string(iri)
			size += len(iri) + 3 // <>, and a space
		} else {
			terms[i] = v.String()
			size += len(terms[i]) + 1
		}
	}
	var b strings.Builder
	b.Grow(size)
	for i, v := range [4]quad.Value{q.Subject, q.Predicate, q.Object, label} {
		if i == 3 && !labelled {
			break
		}
		if i > 0 {
			b.WriteByte(' ')
		}
		if _, ok := v.(quad.IRI); ok {
			b.WriteByte('<')
			b.WriteString(terms[i])
			b.WriteByte('>')
		} else {
			b.WriteString(terms[i])
		}
	}
	b.WriteString(" .")
	return b.String()
}

// HasDigest is Finder.HasDigest through scan (the object index): for a
// backend without lookups of its own.
func HasDigest(ctx context.Context, scan ScanFunc, label, digest string) (bool, error) {
	found := false
	err := scan(ctx, quad.Object, quad.String(digest), func(q quad.Quad) error {
		if q.Subject == quad.IRI(label) && q.Label == quad.IRI(label) && q.Predicate == quad.IRI(PredDigest) {
			found = true
		}
		return nil
	})
	return found, err
}

// SourcesOf is Finder.SourcesOf through scan: the graphs whose own node
// (subject = label) names docIRI as sg:instance.
func SourcesOf(ctx context.Context, scan ScanFunc, docIRI string) ([]string, error) {
	var out []string
	err := scan(ctx, quad.Object, quad.IRI(docIRI), func(q quad.Quad) error {
		if q.Predicate == quad.IRI(PredInstance) && q.Label == q.Subject {
			if iri, ok := q.Subject.(quad.IRI); ok {
				out = append(out, string(iri))
			}
		}
		return nil
	})
	return out, err
}
