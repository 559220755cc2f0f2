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
	"net/url"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/cayleygraph/quad"

	"github.com/skillgraph/skillgraph/graph"
	"github.com/skillgraph/skillgraph/graph/ingest"
	"github.com/skillgraph/skillgraph/jsonld"
	"github.com/skillgraph/skillgraph/queries"
	"github.com/skillgraph/skillgraph/queries/history"
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
	recorded atomic.Int64 // the last version whose tallies this service recorded (tallies.go)

	// served is set once the snapshot answers for the corpora this
	// service was given (SPEC §6.4 /readyz): after their first ingest, or
	// at once when the store already held a graph (a warm start).
	served    atomic.Bool
	ingestErr atomic.Pointer[string] // why the first ingest failed, while not served
	changeMu  sync.Mutex
	changed   chan struct{} // closed and replaced at every snapshot swap or readiness change
	quadCount atomic.Pointer[quadCount]

	// early is the snapshot served before its store write committed
	// (answers before durability, docs/decisions.md): the answers served
	// are durable unless the snapshot served is this one. It is cleared
	// when the write commits and kept when it fails, so nothing served
	// after a failed write claims durability.
	early    atomic.Pointer[queries.Snapshot]
	writeErr atomic.Pointer[string] // why the store write of early failed
	// beforeWrite, when set (tests), runs after an early snapshot is
	// served and before its store write starts.
	beforeWrite func()
	// lagging is the number of changed paths whose re-ingest failed and
	// waits for a retry (see watchLoop), lagErr why the last round failed.
	lagging atomic.Int64
	lagErr  atomic.Pointer[string]
	// updating, when set (tests), runs when the update of the snapshot
	// computed while a store write runs (speculate) starts.
	updating func()
	// beforeRecord, when set (tests), runs when recordTallies starts.
	beforeRecord func(v int64)
}

// ErrNotDurable refuses a write while the answers served are not yet those
// of the store: their own store write is running, or it failed.
var ErrNotDurable = errors.New("the answers served are not durable yet: the store write of the corpus is running (or failed); retry once /readyz says durable")

// quadCount caches the exportable quads of one graph version, counted up
// to a bound.
type quadCount struct {
	version, bound int64
	n              int
}

// NewService wraps a store. corpora may be empty for a read-only replica.
func NewService(st *graph.Store, corpora []string, opt ingest.Options, log *slog.Logger, m *Metrics) *Service {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	if opt.Discovery == nil {
		// Each ingest's discovery serves the next partial one (--watch).
		opt.Discovery = &ingest.Discovery{}
	}
	return &Service{store: st, corpora: corpora, opt: opt, log: log, metrics: m, changed: make(chan struct{})}
}

// Readiness says whether the service answers for its corpora (/readyz).
type Readiness struct {
	Ready   bool   `json:"ready"`
	Version int64  `json:"version"` // graph version served
	Skills  int    `json:"skills"`
	Durable bool   `json:"durable"` // the answers are those of a version committed to the store
	Reason  string `json:"reason,omitempty"`
	// Lagging is the number of changed corpus paths (under --watch) whose
	// re-ingest failed and is being retried: the answers are a committed
	// version, older than the files. The server stays ready meanwhile.
	Lagging int `json:"lagging,omitempty"`
}

// Readiness reports what is served. Ready means the corpora given are the
// ones answered from: a cold start is not ready while its first ingest
// runs, even though version 0 (an empty graph) is served meanwhile.
func (s *Service) Readiness() Readiness {
	snap := s.snap.Load()
	if snap == nil {
		return Readiness{Reason: "no snapshot yet: the store is being read"}
	}
	// Every snapshot but an early one is built from a committed version
	// (Refresh reads the store, advance follows a committed Apply).
	r := Readiness{Version: snap.Version, Skills: len(snap.Skills), Durable: s.durable(snap), Ready: s.served.Load(),
		Lagging: int(s.lagging.Load())}
	switch {
	case r.Ready && r.Lagging > 0:
		why := "an edit is waiting for the debounce"
		if e := s.lagErr.Load(); e != nil {
			why = "the re-ingest failed (" + *e + "); retrying with backoff"
		}
		r.Reason = fmt.Sprintf("the answers lag the files: %d changed paths are not served yet: %s", r.Lagging, why)
	case r.Ready && !r.Durable && s.writeErr.Load() != nil:
		r.Reason = "the store write failed, so the answers (from the converted corpus) are not durable: " + *s.writeErr.Load()
	case r.Ready && !r.Durable:
		r.Reason = fmt.Sprintf("the answers are from the converted corpus; the store write is running (version %d once committed)", snap.Version)
	case r.Ready:
	case len(s.corpora) == 0:
		r.Reason = fmt.Sprintf("the store %s holds no graph version yet (nothing was ever ingested into it); a replica is ready once a writer commits one", redactedStore(s.store.URL()))
	case s.ingestErr.Load() != nil:
		r.Reason = "the first ingest of the corpus failed: " + *s.ingestErr.Load()
	default:
		r.Reason = "the first ingest of the corpus is running"
	}
	return r
}

// durable reports whether snap's answers are those of a version committed
// to the store.
func (s *Service) durable(snap *queries.Snapshot) bool {
	return snap != nil && s.early.Load() != snap
}

// Durable reports whether the snapshot served answers from a version
// committed to the store (false while an early snapshot's write runs or
// after it failed).
func (s *Service) Durable() bool { return s.durable(s.snap.Load()) }

// Changed returns a channel closed at the next change of the snapshot served
// or of the readiness: callers wait on it instead of polling.
func (s *Service) Changed() <-chan struct{} {
	s.changeMu.Lock()
	defer s.changeMu.Unlock()
	return s.changed
}

// notify wakes every waiter on Changed.
func (s *Service) notify() {
	s.changeMu.Lock()
	defer s.changeMu.Unlock()
	close(s.changed)
	s.changed = make(chan struct{})
}

// WaitFor blocks until ok holds for the snapshot served and the readiness,
// or ctx ends.
func (s *Service) WaitFor(ctx context.Context, ok func(*queries.Snapshot, Readiness) bool) error {
	for {
		ch := s.Changed()
		if ok(s.snap.Load(), s.Readiness()) {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-ch:
		}
	}
}

// swap serves snap.
func (s *Service) swap(snap *queries.Snapshot) {
	s.snap.Store(snap)
	s.ingested.Store(time.Now().UnixNano())
	if s.metrics != nil {
		s.metrics.graphVersion.Set(float64(snap.Version))
	}
	s.notify()
}

// markServed records that the corpora are answered from.
func (s *Service) markServed() {
	if !s.served.Swap(true) {
		s.ingestErr.Store(nil)
		s.notify()
	}
}

// exportQuadCount counts the exportable quads of the store's current
// version, up to bound+1, without holding them: the JSON-LD export decides
// its limit from it before loading anything. The count is kept per version,
// so repeated refusals cost nothing.
func (s *Service) exportQuadCount(ctx context.Context, bound int) (int, error) {
	v, err := s.store.Version(ctx)
	if err != nil {
		return 0, err
	}
	if c := s.quadCount.Load(); c != nil && c.version == v && c.bound == int64(bound) {
		return c.n, nil
	}
	errEnough := errors.New("enough")
	n := 0
	err = s.store.Each(ctx, func(q quad.Quad) error {
		if l, ok := q.Label.(quad.IRI); ok && string(l) == graph.MetaGraph {
			return nil
		}
		n++
		if n > bound {
			return errEnough
		}
		return nil
	})
	if err != nil && !errors.Is(err, errEnough) {
		return 0, fmt.Errorf("count quads: %w", err)
	}
	s.quadCount.Store(&quadCount{version: v, bound: int64(bound), n: n})
	return n, nil
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
	s.swap(snap)
	if s.metrics != nil {
		s.metrics.snapshotBuild.Observe(time.Since(start).Seconds())
	}
	// A writer's warm store (a graph already committed) is served at once,
	// before its re-ingest. A replica is ready once the store holds a
	// version: at version 0 nothing was ever ingested into it, and an empty
	// graph answered as ready is a typo'd or not yet written store passing
	// for a corpus with nothing wrong (issue 23.3).
	if snap.Version > 0 {
		s.markServed()
	}
	s.log.Info("snapshot served", "version", snap.Version, "skills", len(snap.Skills), "tools", len(snap.Tools),
		"findings", len(snap.Findings), "build", time.Since(start).Round(time.Millisecond))
	return snap, nil
}

// Ingest re-reads the corpora and serves the new snapshot. A failed ingest
// leaves the previous graph and snapshot in place.
func (s *Service) Ingest(ctx context.Context) (ingest.Result, error) {
	return s.ingest(ctx, s.opt, false)
}

// IngestEarly is the ingest of a starting `serve --corpus`: the snapshot
// of the converted changes is served (not durable, /readyz says so) while
// the store write runs, and marked durable when it commits. A failed write
// leaves that snapshot served and never durable; the error is returned.
func (s *Service) IngestEarly(ctx context.Context) (ingest.Result, error) {
	return s.ingest(ctx, s.opt, true)
}

// IngestPaths re-reads only the named files (absolute paths), as
// ingest.Options.Only does: a full read when one of them is context of
// other files' parses. `serve --watch` calls it with the changed paths.
func (s *Service) IngestPaths(ctx context.Context, paths []string) (ingest.Result, error) {
	opt := s.opt
	opt.Only = paths
	return s.ingest(ctx, opt, false)
}

func (s *Service) ingest(ctx context.Context, opt ingest.Options, early bool) (ingest.Result, error) {
	if len(s.corpora) == 0 {
		return ingest.Result{}, errors.New("this server has no corpus to ingest (read-only replica)")
	}
	s.ingestMu.Lock()
	defer s.ingestMu.Unlock()
	// After a failed early write the snapshot served is not the store's:
	// the next ingest reads and writes everything again, early.
	failed := !s.durable(s.snap.Load()) && s.snap.Load() != nil
	if failed {
		opt.Only, early = nil, true
	}
	start := time.Now()
	res, err := s.prepareAndWrite(ctx, opt, early, failed)
	if s.metrics != nil {
		s.metrics.ingestDuration.Observe(time.Since(start).Seconds())
		if err != nil {
			s.metrics.ingestFailures.Inc()
		}
	}
	return res, err
}

// prepareAndWrite runs one ingest with ingestMu held: Prepare, the early
// snapshot when asked for, the store write, then the durable snapshot.
func (s *Service) prepareAndWrite(ctx context.Context, opt ingest.Options, early, failed bool) (ingest.Result, error) {
	p, err := ingest.Prepare(ctx, s.store, s.corpora, opt)
	if err != nil {
		s.notServed(err)
		return ingest.Result{}, err
	}
	prev := s.snap.Load() // what changed is against it (the tally record)
	var pre *queries.Snapshot
	if early && len(p.Changes()) > 0 {
		pre = s.serveEarly(ctx, p, failed)
	}
	var next <-chan speculated
	if pre == nil && !failed {
		next = s.speculate(p)
	}
	if s.beforeWrite != nil {
		s.beforeWrite()
	}
	rec := s.recordInWrite(p.Base, prev, failed, pre, next)
	res, err := p.ApplyTallied(ctx, s.store, rec.tally, history.MergeData)
	if err != nil {
		if pre != nil {
			msg := err.Error()
			s.writeErr.Store(&msg)
			s.notify()
			s.log.Error("the store write failed: the answers served are not durable", "version", pre.Version, "err", err)
			return res, err
		}
		s.notServed(err)
		return res, err
	}
	switch {
	case pre != nil && res.Version == pre.Version:
		// The committed version is the one served: same changes from the
		// same base, so the same answers. Only durability changes.
		s.early.CompareAndSwap(pre, nil)
		s.ingested.Store(time.Now().UnixNano())
		s.notify()
		s.log.Info("snapshot durable", "version", res.Version)
	case pre != nil || failed:
		// Another writer committed in between (a shared database), or the
		// snapshot served is a failed write's: serve the store's own.
		if err := s.rebuild(ctx); err != nil {
			s.log.Warn("snapshot rebuild failed; the previous snapshot is still served", "err", err)
			return res, nil
		}
		s.markServed()
	case next != nil && res.Version == p.Base+1:
		// The write committed the version the update was computed for:
		// no other writer came in between.
		sp := rec.speculated()
		s.serveUpdate(sp.snap, len(res.Changes), sp.took, "while writing", true)
		s.markServed()
	default:
		// res.Changes is nil after a first write into an empty store
		// (it dropped the quads as it wrote them): advance reads the store.
		if s.advance(ctx, res.Changes, res.Version) {
			s.markServed()
		}
	}
	if rec.recorded == res.Version && res.Version > 0 {
		s.recorded.Store(res.Version)
	}
	s.recordTallies(ctx, res.Version)
	return res, nil
}

// serveUpdate serves next, a snapshot updated from changed graphs in
// took, and records its build (attrs: more to log).
func (s *Service) serveUpdate(next *queries.Snapshot, changed int, took time.Duration, attrs ...any) {
	s.swap(next)
	if s.metrics != nil {
		s.metrics.snapshotBuild.Observe(took.Seconds())
	}
	s.log.Info("snapshot updated", append([]any{"version", next.Version, "changed graphs", changed,
		"build", took.Round(time.Millisecond)}, attrs...)...)
}

// speculated is a snapshot updated while its store write ran.
type speculated struct {
	snap *queries.Snapshot
	took time.Duration
}

// speculate starts updating the snapshot served, of version p.Base, with
// p's changes, on a goroutine of its own while the store write runs (the
// update is most of a one-file `--watch` ingest; on two cores the write
// and the update need not wait for each other). The result is served only
// if the write commits p.Base+1, the version it was computed for; else it
// is dropped and the snapshot is advanced as after any write. nil when no
// update applies: nothing changed, the snapshot served is not of p.Base,
// or p is the first write (Base 0), which drops its changes' quads as it
// writes them (ingest.Result.Changes).
func (s *Service) speculate(p *ingest.Prepared) <-chan speculated {
	cur := s.snap.Load()
	changes := p.Changes()
	if cur == nil || p.Base == 0 || cur.Version != p.Base || len(changes) == 0 {
		return nil
	}
	out := make(chan speculated, 1) // the result of a failed write is dropped: never blocks
	go func() {
		if s.updating != nil {
			s.updating()
		}
		start := time.Now()
		next := cur.Update(changes, p.Base+1)
		out <- speculated{snap: next, took: time.Since(start)}
	}()
	return out
}

// notServed records why the first ingest failed while nothing is served.
func (s *Service) notServed(err error) {
	if !s.served.Load() {
		msg := err.Error()
		s.ingestErr.Store(&msg)
		s.notify()
	}
}

// serveEarly serves the snapshot of p's changes applied to the store's
// version p.Base, before they are written, and returns it; nil when there
// is no snapshot of that version to start from. failed: the snapshot
// served is not the store's (a failed early write), so the base is read
// from the store.
func (s *Service) serveEarly(ctx context.Context, p *ingest.Prepared, failed bool) *queries.Snapshot {
	base := s.snap.Load()
	if failed {
		var err error
		if base, err = queries.Build(ctx, s.store); err != nil {
			s.log.Warn("no early snapshot: the store cannot be read", "err", err)
			return nil
		}
	}
	if base == nil || base.Version != p.Base {
		return nil // the store moved on since it was read: no base to update
	}
	start := time.Now()
	pre := base.Update(p.Changes(), p.Base+1)
	s.writeErr.Store(nil)
	s.early.Store(pre) // before it is served: never shown as durable
	s.swap(pre)
	s.markServed()
	if s.metrics != nil {
		s.metrics.snapshotBuild.Observe(time.Since(start).Seconds())
	}
	s.log.Info("snapshot served before the store write (not durable)", "version", pre.Version, "skills", len(pre.Skills),
		"changed graphs", len(p.Changes()), "build", time.Since(start).Round(time.Millisecond))
	return pre
}

// rebuild serves a snapshot built from the store, whatever is served now.
func (s *Service) rebuild(ctx context.Context) error {
	start := time.Now()
	snap, err := queries.Build(ctx, s.store)
	if err != nil {
		return fmt.Errorf("build snapshot: %w", err)
	}
	s.swap(snap)
	s.early.Store(nil)
	s.writeErr.Store(nil)
	s.notify()
	if s.metrics != nil {
		s.metrics.snapshotBuild.Observe(time.Since(start).Seconds())
	}
	return nil
}

// advance serves the snapshot of version v: updated in memory from the
// previous one when v directly follows it (this process made the only
// change), else rebuilt from the store. It reports whether version v (or
// a later one) is served.
func (s *Service) advance(ctx context.Context, changes []graph.Change, v int64) bool {
	cur := s.snap.Load()
	if cur != nil && cur.Version >= v {
		return true
	}
	if cur != nil && cur.Version == v-1 && len(changes) > 0 {
		start := time.Now()
		next := cur.Update(changes, v)
		s.serveUpdate(next, len(changes), time.Since(start))
		return true
	}
	snap, err := s.Refresh(ctx)
	if err != nil {
		s.log.Warn("snapshot refresh failed; the previous snapshot is still served", "err", err)
		return false
	}
	return snap.Version >= v
}

// Reingest implements api.Mutator: the corpus-relative paths given are
// re-read (all files when none is given).
func (s *Service) Reingest(ctx context.Context, paths []string) (int64, error) {
	var abs []string
	for _, p := range paths {
		rel := filepath.Clean(filepath.FromSlash(p))
		if filepath.IsAbs(rel) || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			return 0, fmt.Errorf("path %q is not inside the corpus", p)
		}
		for _, root := range s.corpora {
			abs = append(abs, filepath.Join(root, rel))
		}
	}
	res, err := s.IngestPaths(ctx, abs)
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

// redactedStore is a store URL fit for /readyz, which anyone may read: a
// DSN's password is replaced by "xxxxx" (postgres:postgres://u:pw@host/db).
func redactedStore(store string) string {
	i := strings.Index(store, "://")
	if i < 0 {
		return store
	}
	start := strings.LastIndexByte(store[:i], ':') + 1 // after "postgres:", or 0
	u, err := url.Parse(store[start:])
	if err != nil {
		return store[:start] + "(an unparsable URL)"
	}
	return store[:start] + u.Redacted()
}
