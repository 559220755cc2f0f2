// Package server is skillgraph's composition root for `serve`: the live
// snapshot service (live.go: the snapshot served, its readiness and
// durability; runs.go: the ingests that replace it; watch.go, triage.go)
// and the HTTP layer over it (http.go and the handlers; an endpoint
// returns its reply and wrap, in respond.go, writes it), serving GraphQL,
// the export, the vocabulary, metrics and the triage page
// (github.com/go-chi/chi/v5).
package server

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/skillgraph/skillgraph/graph"
	"github.com/skillgraph/skillgraph/graph/ingest"
	"github.com/skillgraph/skillgraph/queries"
)

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
	// yield lets a watch round interrupt a full ingest that is still
	// preparing (yield.go).
	yield yielder
	// preparing, when set (tests), runs when an interruptible full
	// ingest starts preparing, with the context a watch round cancels.
	preparing func(ctx context.Context)
}

// ErrNotDurable refuses a write while the answers served are not yet those
// of the store: their own store write is running, or it failed.
var ErrNotDurable = errors.New("the answers served are not durable yet: the store write of the corpus is running (or failed); retry once /readyz says durable")

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
	cur := s.snap.Load()
	if cur != nil && cur.Version == v {
		return cur, nil
	}
	start := time.Now()
	if next, ok, err := s.follow(ctx, cur, v); err != nil || ok {
		return next, err
	}
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

// follow serves the snapshot of the store's version (v or a later one)
// updated from cur with the graphs changed since cur's version, when the
// store can tell which (a shared store's checkpoint records them: a
// replica following a writer); ok false means build it whole. Reading the
// changed graphs and updating is a fraction of reading every graph and
// building anew (issue #27: 4.4 s at 10k skills, most of it the whole
// read and build), and gives the same snapshot (queries Update).
func (s *Service) follow(ctx context.Context, cur *queries.Snapshot, v int64) (*queries.Snapshot, bool, error) {
	if cur == nil || cur.Version <= 0 || cur.Version > v || !s.durable(cur) {
		return nil, false, nil
	}
	start := time.Now()
	nv, changes, ok, err := s.store.ChangesSince(ctx, cur.Version)
	if err != nil {
		return nil, false, fmt.Errorf("read changes since version %d: %w", cur.Version, err)
	}
	if !ok {
		s.log.Info("the store cannot say what changed since the version served; reading it whole", "version", cur.Version)
		return nil, false, nil
	}
	if nv == cur.Version {
		return cur, true, nil
	}
	read := time.Since(start)
	next := cur.Update(changes, nv)
	s.serveUpdate(next, len(changes), time.Since(start), "from", cur.Version, "read", read.Round(time.Millisecond))
	return next, true, nil
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
