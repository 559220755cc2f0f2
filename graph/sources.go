package graph

import (
	"context"
	"fmt"
	"sort"

	"github.com/cayleygraph/quad"
)

const (
	predSHA      = "https://w3id.org/skillgraph/ns#sha256"
	predInstance = "https://w3id.org/skillgraph/ns#instance"
)

// SourceDigest returns the digest recorded for a source graph, "" if the
// graph is not stored.
func (s *Store) SourceDigest(ctx context.Context, label string) (string, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	qs, err := s.graphQuadsLocked(ctx, label)
	if err != nil {
		return "", err
	}
	for _, q := range qs {
		if q.Subject == quad.IRI(label) && q.Predicate == quad.IRI(predSHA) {
			return literalString(q.Object), nil
		}
	}
	return "", nil
}

// SourcesOf lists the source graphs stored for one instance document IRI.
func (s *Store) SourcesOf(ctx context.Context, docIRI string) ([]string, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	ref, err := s.qs.ValueOf(quad.IRI(docIRI))
	if err != nil || ref == nil {
		return nil, nil
	}
	it := s.qs.QuadIterator(quad.Object, ref).Iterate()
	defer it.Close()
	var out []string
	for it.Next(ctx) {
		q, err := s.qs.Quad(it.Result())
		if err != nil {
			return nil, fmt.Errorf("read sources of %s: %w", docIRI, err)
		}
		if q.Predicate == quad.IRI(predInstance) && q.Label == q.Subject {
			if iri, ok := q.Subject.(quad.IRI); ok {
				out = append(out, string(iri))
			}
		}
	}
	sort.Strings(out)
	return out, it.Err()
}
