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
	node := quad.IRI(sk.IRI + "/triage")
	var keep []quad.Quad
	for _, q := range old {
		if q.Subject != node {
			keep = append(keep, q)
		}
	}
	p := func(name string) quad.IRI { return quad.IRI(jsonld.NS + name) }
	now := time.Now().UTC().Format(time.RFC3339Nano)
	keep = append(keep,
		quad.Quad{Subject: node, Predicate: quad.IRI("http://www.w3.org/1999/02/22-rdf-syntax-ns#type"), Object: p("TriageDecision")},
		quad.Quad{Subject: node, Predicate: p("triageOf"), Object: quad.IRI(sk.IRI)},
		// Like every node, the decision points at its graph: that is how the
		// store finds a graph's quads without a label index.
		quad.Quad{Subject: node, Predicate: quad.IRI("http://www.w3.org/ns/prov#wasDerivedFrom"), Object: quad.IRI(TriageGraph)},
		quad.Quad{Subject: node, Predicate: p("verdict"), Object: quad.String(verdict)},
		quad.Quad{Subject: node, Predicate: p("recordedAt"), Object: quad.String(now)},
	)
	if note != "" {
		keep = append(keep, quad.Quad{Subject: node, Predicate: p("note"), Object: quad.String(note)})
	}
	change := []graph.Change{{Graph: TriageGraph, Quads: keep}}
	v, err := s.store.Apply(ctx, change)
	if err != nil {
		return 0, err
	}
	s.advance(ctx, change, v)
	s.recordTallies(ctx, v)
	return v, nil
}
