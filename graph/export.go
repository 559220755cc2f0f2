package graph

import (
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/cayleygraph/quad"
)

// Subject returns every quad whose subject is iri, in any graph.
func (s *Store) Subject(ctx context.Context, iri string) (_ []quad.Quad, err error) {
	defer s.guard(&err)()
	if err := s.damaged(); err != nil {
		return nil, err
	}
	if err := s.trusted(ctx); err != nil {
		return nil, err
	}
	defer s.readLock()()
	var out []quad.Quad
	err = s.b.Scan(ctx, quad.Subject, quad.IRI(iri), func(q quad.Quad) error {
		out = append(out, q)
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("describe %s: %w", iri, err)
	}
	return out, nil
}

var prefixes = map[string]string{
	"xsd:": "http://www.w3.org/2001/XMLSchema#",
	"rdf:": "http://www.w3.org/1999/02/22-rdf-syntax-ns#",
}

// Normalize returns q with every literal in RDF 1.1 form: full datatype
// IRIs (Cayley hands back short xsd: names) and native values as typed
// strings.
func Normalize(q quad.Quad) quad.Quad {
	q.Object = normalizeValue(q.Object)
	return q
}

func normalizeValue(v quad.Value) quad.Value {
	xsd := prefixes["xsd:"]
	switch x := v.(type) {
	case quad.TypedString:
		t := string(x.Type)
		for p, full := range prefixes {
			if strings.HasPrefix(t, p) {
				t = full + t[len(p):]
			}
		}
		if t == xsd+"string" {
			return x.Value
		}
		return quad.TypedString{Value: x.Value, Type: quad.IRI(t)}
	case quad.Int:
		return quad.TypedString{Value: quad.String(strconv.FormatInt(int64(x), 10)), Type: quad.IRI(xsd + "integer")}
	case quad.Bool:
		return quad.TypedString{Value: quad.String(strconv.FormatBool(bool(x))), Type: quad.IRI(xsd + "boolean")}
	case quad.Float:
		return quad.TypedString{Value: quad.String(strconv.FormatFloat(float64(x), 'E', -1, 64)), Type: quad.IRI(xsd + "double")}
	case quad.Time:
		return quad.TypedString{Value: quad.String(time.Time(x).Format(time.RFC3339Nano)), Type: quad.IRI(xsd + "dateTime")}
	}
	return v
}

// WriteNQuads streams every quad except the store's bookkeeping as
// N-Quads, one per line, without holding the graph in memory.
func (s *Store) WriteNQuads(ctx context.Context, w io.Writer) (int, error) {
	n := 0
	err := s.Each(ctx, func(q quad.Quad) error {
		if l, ok := q.Label.(quad.IRI); ok && string(l) == MetaGraph {
			return nil
		}
		if _, err := io.WriteString(w, Normalize(q).NQuad()+"\n"); err != nil {
			return err
		}
		n++
		return nil
	})
	return n, err
}
