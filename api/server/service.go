// Package server is skillgraph's composition root for `serve`: it owns the
// store, runs ingests, builds analysis snapshots and swaps them atomically,
// and serves GraphQL, the export, the vocabulary, metrics and the triage
// page over HTTP (github.com/go-chi/chi/v5).
package server

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"github.com/cayleygraph/quad"

	"github.com/skillgraph/skillgraph/graph"
	"github.com/skillgraph/skillgraph/ingest"
	"github.com/skillgraph/skillgraph/jsonld"
	"github.com/skillgraph/skillgraph/queries"
)

// TriageGraph holds the maintainers' triage decisions; ingest never touches
// it, so decisions survive every re-ingest (SPEC §3.3).
const TriageGraph = "urn:skillgraph:triage"

// Service keeps the current snapshot of one store.
type Service struct {
	store   *graph.Store
	corpora []string
	opt     ingest.Options
	log     *slog.Logger
	metrics *Metrics

	snap     atomic.Pointer[queries.Snapshot]
	ingestMu sync.Mutex // one ingest or triage write at a time
	ingested atomic.Int64
}

// NewService wraps a store. corpora may be empty for a read-only replica.
func NewService(st *graph.Store, corpora []string, opt ingest.Options, log *slog.Logger, m *Metrics) *Service {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Service{store: st, corpora: corpora, opt: opt, log: log, metrics: m}
}

// Snapshot returns the snapshot being served, nil before the first one.
func (s *Service) Snapshot() *queries.Snapshot { return s.snap.Load() }

// IngestedAt is when the served snapshot's ingest finished (zero if unknown).
func (s *Service) IngestedAt() time.Time {
	if n := s.ingested.Load(); n > 0 {
		return time.Unix(0, n)
	}
	return time.Time{}
}

// Refresh rebuilds the snapshot from the store and swaps it in when the
// store's graph version differs from the one served.
func (s *Service) Refresh(ctx context.Context) (*queries.Snapshot, error) {
	v, err := s.store.Version(ctx)
	if err != nil {
		return nil, err
	}
	if cur := s.snap.Load(); cur != nil && cur.Version == v {
		return cur, nil
	}
	start := time.Now()
	snap, err := queries.Build(ctx, s.store)
	if err != nil {
		return nil, fmt.Errorf("build snapshot: %w", err)
	}
	s.snap.Store(snap)
	s.ingested.Store(time.Now().UnixNano())
	if s.metrics != nil {
		s.metrics.snapshotBuild.Observe(time.Since(start).Seconds())
		s.metrics.graphVersion.Set(float64(snap.Version))
	}
	s.log.Info("snapshot served", "version", snap.Version, "skills", len(snap.Skills), "tools", len(snap.Tools),
		"findings", len(snap.Findings), "build", time.Since(start).Round(time.Millisecond))
	return snap, nil
}

// Ingest re-reads the corpora and serves the new snapshot. A failed ingest
// leaves the previous graph and snapshot in place.
func (s *Service) Ingest(ctx context.Context) (ingest.Result, error) {
	if len(s.corpora) == 0 {
		return ingest.Result{}, errors.New("this server has no corpus to ingest (read-only replica)")
	}
	s.ingestMu.Lock()
	defer s.ingestMu.Unlock()
	start := time.Now()
	res, err := ingest.Run(ctx, s.store, s.corpora, s.opt)
	if s.metrics != nil {
		s.metrics.ingestDuration.Observe(time.Since(start).Seconds())
		if err != nil {
			s.metrics.ingestFailures.Inc()
		}
	}
	if err != nil {
		return res, err
	}
	s.advance(ctx, res.Changes, res.Version)
	return res, nil
}

// advance serves the snapshot of version v: updated in memory from the
// previous one when v directly follows it (this process made the only
// change), else rebuilt from the store.
func (s *Service) advance(ctx context.Context, changes []graph.Change, v int64) {
	cur := s.snap.Load()
	if cur != nil && cur.Version == v {
		return
	}
	if cur != nil && cur.Version == v-1 && len(changes) > 0 {
		start := time.Now()
		next := cur.Update(changes, v)
		s.snap.Store(next)
		s.ingested.Store(time.Now().UnixNano())
		if s.metrics != nil {
			s.metrics.snapshotBuild.Observe(time.Since(start).Seconds())
			s.metrics.graphVersion.Set(float64(v))
		}
		s.log.Info("snapshot updated", "version", v, "changed graphs", len(changes), "build", time.Since(start).Round(time.Millisecond))
		return
	}
	if _, err := s.Refresh(ctx); err != nil {
		s.log.Warn("snapshot refresh failed; the previous snapshot is still served", "err", err)
	}
}

// Reingest implements api.Mutator.
func (s *Service) Reingest(ctx context.Context, paths []string) (int64, error) {
	res, err := s.Ingest(ctx)
	if err != nil {
		return 0, err
	}
	return res.Version, nil
}

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
	return v, nil
}

// Poll refreshes the snapshot whenever the store's version changes, until
// ctx ends: how read-only replicas follow a shared store.
func (s *Service) Poll(ctx context.Context, every time.Duration) {
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			if _, err := s.Refresh(ctx); err != nil && ctx.Err() == nil {
				s.log.Warn("refresh failed", "err", err)
			}
		}
	}
}
