package server

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/cayleygraph/quad"

	"github.com/skillgraph/skillgraph/graph"
	"github.com/skillgraph/skillgraph/jsonld"
)

// TriageGraph holds the maintainers' triage decisions; ingest never touches
// it, so decisions survive every re-ingest (SPEC §3.3).
const TriageGraph = "urn:skillgraph:triage"

// RecordTriage implements api.Mutator: one decision per skill, replaced by
// the next one, in the triage graph.
func (s *Service) RecordTriage(ctx context.Context, skill, verdict, note string) (int64, error) {
	snap := s.snap.Load()
	if snap == nil {
		return 0, errors.New("not ready: no snapshot yet")
	}
	sk := snap.Skill(skill)
	if sk == nil {
		return 0, fmt.Errorf("no skill %q", skill)
	}
	s.ingestMu.Lock()
	defer s.ingestMu.Unlock()
	// A decision is a store write on top of the served version: not while
	// that version is not in the store.
	if !s.Durable() {
		return 0, ErrNotDurable
	}
	old, err := s.store.GraphQuads(ctx, TriageGraph)
	if err != nil {
		return 0, err
	}
	// The decision is a JSON-LD document converted like every record; the
	// graph keeps every other skill's decision.
	now := time.Now().UTC().Format(time.RFC3339Nano)
	mine, err := jsonld.ToQuads(jsonld.TriageDocument(sk.IRI, TriageGraph, verdict, note, now), TriageGraph)
	if err != nil {
		return 0, fmt.Errorf("triage decision of %s: %w", skill, err)
	}
	node := quad.IRI(jsonld.TriageIRI(sk.IRI))
	var keep []quad.Quad
	for _, q := range old {
		if q.Subject != node {
			keep = append(keep, q)
		}
	}
	keep = append(keep, mine...)
	change := []graph.Change{{Graph: TriageGraph, Quads: keep}}
	v, err := s.store.Apply(ctx, change)
	if err != nil {
		return 0, err
	}
	s.advance(ctx, change, v)
	s.recordTallies(ctx, v)
	return v, nil
}
