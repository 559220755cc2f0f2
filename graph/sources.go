package graph

import (
	"context"
	"fmt"
	"sort"

	graphrefs "github.com/cayleygraph/cayley/graph/refs"
	"github.com/cayleygraph/quad"
)

const (
	// predDigest is ingest's change-detection digest of a source file
	// (sg:digest); sg:sha256 is the file's own hash.
	predDigest   = "https://w3id.org/skillgraph/ns#digest"
	predInstance = "https://w3id.org/skillgraph/ns#instance"
)

// HasDigest reports whether the source graph label is stored with exactly
// this digest. It looks the digest value up through the object index, which
// is cheaper than reading the source node when nothing changed.
func (s *Store) HasDigest(ctx context.Context, label, digest string) (_ bool, err error) {
	if digest == "" {
		return false, nil
	}
	defer s.guard(&err)()
	if err := s.damaged(); err != nil {
		return false, err
	}
	defer s.readLock()()
	if s.db == nil {
		return s.hasDigestKV(ctx, label, digest)
	}
	found := false
	err = s.scanLocked(ctx, quad.Object, quad.String(digest), func(q quad.Quad) error {
		if q.Subject == quad.IRI(label) && q.Label == quad.IRI(label) && q.Predicate == quad.IRI(predDigest) {
			found = true
		}
		return nil
	})
	return found, err
}

// SourcesOf lists the source graphs stored for one instance document IRI.
func (s *Store) SourcesOf(ctx context.Context, docIRI string) (_ []string, err error) {
	defer s.guard(&err)()
	if err := s.damaged(); err != nil {
		return nil, err
	}
	defer s.readLock()()
	if s.db == nil {
		out, err := s.sourcesOfKV(ctx, docIRI)
		if err != nil {
			return nil, fmt.Errorf("read sources of %s: %w", docIRI, err)
		}
		sort.Strings(out)
		return out, nil
	}
	var out []string
	err = s.scanLocked(ctx, quad.Object, quad.IRI(docIRI), func(q quad.Quad) error {
		if q.Predicate == quad.IRI(predInstance) && q.Label == q.Subject {
			if iri, ok := q.Subject.(quad.IRI); ok {
				out = append(out, string(iri))
			}
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("read sources of %s: %w", docIRI, err)
	}
	sort.Strings(out)
	return out, nil
}

// hasDigestKV compares node references instead of decoding each quad: a
// digest is unique to its file, so the object index yields one candidate.
func (s *Store) hasDigestKV(ctx context.Context, label, digest string) (bool, error) {
	obj, err := s.qs.ValueOf(quad.String(digest))
	if err != nil || obj == nil {
		return false, nil // that digest is stored nowhere
	}
	want := map[quad.Direction]quad.Value{quad.Subject: quad.IRI(label), quad.Predicate: quad.IRI(predDigest), quad.Label: quad.IRI(label)}
	refs := map[quad.Direction]any{}
	for d, v := range want {
		r, err := s.qs.ValueOf(v)
		if err != nil || r == nil {
			return false, nil
		}
		refs[d] = graphrefs.ToKey(r)
	}
	it := s.qs.QuadIterator(quad.Object, obj).Iterate()
	defer it.Close()
	for it.Next(ctx) {
		match := true
		for d, k := range refs {
			r, err := s.qs.QuadDirection(it.Result(), d)
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

// sourcesOfKV is SourcesOf on the kv backends, comparing node references
// as hasDigestKV does: only the subjects of the matching quads are decoded
// (a full re-ingest at 10k skills spent a fifth of its time decoding every
// quad that names the instance).
func (s *Store) sourcesOfKV(ctx context.Context, docIRI string) ([]string, error) {
	obj, err := s.qs.ValueOf(quad.IRI(docIRI))
	if err != nil || obj == nil {
		return nil, nil // the instance is stored nowhere
	}
	pred, err := s.qs.ValueOf(quad.IRI(predInstance))
	if err != nil || pred == nil {
		return nil, nil
	}
	pk := graphrefs.ToKey(pred)
	var out []string
	it := s.qs.QuadIterator(quad.Object, obj).Iterate()
	defer it.Close()
	for it.Next(ctx) {
		r := it.Result()
		if p, err := s.qs.QuadDirection(r, quad.Predicate); err != nil || p == nil || graphrefs.ToKey(p) != pk {
			continue
		}
		sub, err := s.qs.QuadDirection(r, quad.Subject)
		if err != nil || sub == nil {
			continue
		}
		if l, err := s.qs.QuadDirection(r, quad.Label); err != nil || l == nil || graphrefs.ToKey(l) != graphrefs.ToKey(sub) {
			continue
		}
		v, err := s.qs.NameOf(sub)
		if err != nil {
			return nil, err
		}
		if iri, ok := v.(quad.IRI); ok {
			out = append(out, string(iri))
		}
	}
	return out, it.Err()
}
