package server

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/skillgraph/skillgraph/graph"
	"github.com/skillgraph/skillgraph/graph/ingest"
	"github.com/skillgraph/skillgraph/queries"
	"github.com/skillgraph/skillgraph/queries/history"
)

// The ingests a Service runs: each prepares the corpora's changes, writes
// them, and serves the snapshot they give (early, before the write, when
// asked; else updated in memory or rebuilt from the store).

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
	start := time.Now()
	// A full ingest may yield to watched edits while it prepares
	// (yield.go); a partial one is short and never does.
	yields := maxYields
	if len(opt.Only) == 0 {
		yields = 0
	}
	for {
		res, err := s.ingestOnce(ctx, opt, early, yields < maxYields)
		if errors.Is(err, errYield) {
			yields++
			if err = s.yield.wait(ctx); err == nil {
				continue
			}
		}
		if s.metrics != nil {
			s.metrics.ingestDuration.Observe(time.Since(start).Seconds())
			if err != nil {
				s.metrics.ingestFailures.Inc()
			}
		}
		return res, err
	}
}

// ingestOnce is one attempt of an ingest; errYield when a watch round
// committed while it prepared (yieldable). A yieldable full ingest
// prepares without ingestMu, so a watch round never waits for its
// prepare (only reads: nothing to undo), and takes the lock to write only
// if no round committed meanwhile.
func (s *Service) ingestOnce(ctx context.Context, opt ingest.Options, early, yieldable bool) (ingest.Result, error) {
	// Only over a durable graph: a cold start's first ingest is what
	// makes the service ready, and a watch round before it would commit
	// one file as the whole graph.
	var p *ingest.Prepared
	if cur := s.snap.Load(); yieldable && cur != nil && cur.Version > 0 && s.durable(cur) {
		var err error
		if p, err = s.prepareYielding(ctx, opt); err != nil {
			if !errors.Is(err, errYield) {
				s.notServed(err)
			}
			return ingest.Result{}, err
		}
	}
	s.ingestMu.Lock()
	defer s.ingestMu.Unlock()
	// After a failed early write the snapshot served is not the store's:
	// the next ingest reads and writes everything again, early.
	cur := s.snap.Load()
	failed := !s.durable(cur) && cur != nil
	if failed {
		opt.Only, early = nil, true
	}
	if p != nil && (failed || cur == nil || cur.Version != p.Base) {
		// A round committed (or failed) while this one prepared: its
		// changes are relative to a version no longer served.
		s.log.Info("full ingest yields to a watched edit; it prepares again after it")
		return ingest.Result{}, errYield
	}
	return s.prepareAndWrite(ctx, p, opt, early, failed)
}

// prepareYielding is ingest.Prepare, interruptible by a watch round: then
// errYield, and nothing was written.
func (s *Service) prepareYielding(ctx context.Context, opt ingest.Options) (*ingest.Prepared, error) {
	pctx, done := s.yield.preparing(ctx)
	if s.preparing != nil {
		s.preparing(pctx)
	}
	p, err := ingest.Prepare(pctx, s.store, s.corpora, opt)
	if done() {
		// Interrupted, even if Prepare got to its end: the watch round
		// commits first, and this one prepares again from its version.
		s.log.Info("full ingest yields to a watched edit; it prepares again after it")
		return nil, errYield
	}
	return p, err
}

// prepareAndWrite runs one ingest with ingestMu held: Prepare (unless p
// is already prepared), the early snapshot when asked for, the store
// write, then the durable snapshot.
func (s *Service) prepareAndWrite(ctx context.Context, p *ingest.Prepared, opt ingest.Options, early, failed bool) (ingest.Result, error) {
	if p == nil {
		var err error
		if p, err = ingest.Prepare(ctx, s.store, s.corpora, opt); err != nil {
			s.notServed(err)
			return ingest.Result{}, err
		}
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
