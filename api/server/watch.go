package server

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/fsnotify/fsnotify"

	"github.com/skillgraph/skillgraph/ingest/discover"
	"github.com/skillgraph/skillgraph/ingest/format"
)

// WatchOptions bound how long an edit waits before it is re-ingested.
type WatchOptions struct {
	// Debounce is the quiet time that ends a burst of events (an editor's
	// write-rename-chmod); 0 means DefaultDebounce.
	Debounce time.Duration
	// MaxWait bounds the delay from the first event of a burst, so that a
	// file rewritten more often than Debounce cannot starve the others;
	// 0 means DefaultMaxWait.
	MaxWait time.Duration
	// RetryMin is the first wait before the changed paths of a failed
	// re-ingest are ingested again; each failure doubles it up to
	// RetryMax. 0 means DefaultRetryMin and DefaultRetryMax.
	RetryMin, RetryMax time.Duration
}

// Watch defaults: an editor's save is a burst of a few milliseconds, and an
// edit should be served within about a tenth of a second (issue #14).
const (
	DefaultDebounce = 20 * time.Millisecond
	DefaultMaxWait  = 100 * time.Millisecond
	// A failed re-ingest (the database down, the disk full) is retried
	// soon, then less and less often: every retry reads the changed files
	// again.
	DefaultRetryMin = 250 * time.Millisecond
	DefaultRetryMax = 30 * time.Second
)

// Watch registers every directory under the corpora, then re-ingests the
// files that change, until ctx ends. It returns once the directories are
// registered, so an edit made after it returns is seen; the channel is
// closed when the loop has stopped. Only the changed paths are re-read
// (ingest.Options.Only); the new snapshot is swapped in atomically by the
// ingest. A directory that cannot be watched (inotify's watch limit) is
// logged; a corpus root that cannot be is an error.
func (s *Service) Watch(ctx context.Context, opt WatchOptions) (<-chan struct{}, error) {
	if opt.Debounce <= 0 {
		opt.Debounce = DefaultDebounce
	}
	if opt.MaxWait <= 0 {
		opt.MaxWait = DefaultMaxWait
	}
	if opt.RetryMin <= 0 {
		opt.RetryMin = DefaultRetryMin
	}
	if opt.RetryMax < opt.RetryMin {
		opt.RetryMax = max(DefaultRetryMax, opt.RetryMin)
	}
	w, err := fsnotify.NewWatcher()
	if err != nil {
		return nil, err
	}
	for _, root := range s.corpora {
		if err := s.addTree(w, root); err != nil {
			_ = w.Close()
			return nil, err
		}
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		defer w.Close()
		s.watchLoop(ctx, w, opt)
	}()
	return done, nil
}

// watchLoop collects changed paths and ingests them when the burst is
// quiet for Debounce, or at the latest MaxWait after its first event. The
// paths of a failed round stay pending and are ingested again after a
// backoff (RetryMin doubling to RetryMax), with any edit made meanwhile,
// until a round commits: issue 28.5 (a round failed while PostgreSQL was
// down was dropped for good, and /readyz said ready). While they wait the
// service says its answers lag the files (Readiness.Lagging, the
// skillgraph_watch_lagging_paths gauge).
func (s *Service) watchLoop(ctx context.Context, w *fsnotify.Watcher, opt WatchOptions) {
	timer := time.NewTimer(time.Hour)
	timer.Stop()
	pending := map[string]bool{}
	var first time.Time
	retry := time.Duration(0) // the wait after the last failed round; 0: none failed
	defer s.setLag(0, nil)
	for {
		select {
		case <-ctx.Done():
			timer.Stop()
			return
		case ev, ok := <-w.Events:
			if !ok {
				return
			}
			if !s.relevant(w, ev) {
				continue
			}
			now := time.Now()
			if len(pending) == 0 {
				first = now
			}
			pending[ev.Name] = true
			if retry > 0 {
				// A failed round is waiting out its backoff: the edit joins
				// it, and the store is not tried again any sooner.
				s.setLag(len(pending), nil)
				continue
			}
			wait := min(opt.Debounce, time.Until(first.Add(opt.MaxWait)))
			timer.Reset(max(wait, 0))
		case err, ok := <-w.Errors:
			if !ok {
				return
			}
			s.log.Warn("watch error; edits may be missed until the next one", "err", err)
		case <-timer.C:
			paths := make([]string, 0, len(pending))
			for p := range pending {
				paths = append(paths, p)
			}
			sort.Strings(paths)
			// A full ingest still preparing (a warm start's own) waits
			// for this round rather than this round for all of it.
			finished := s.yield.interrupt()
			res, err := s.IngestPaths(ctx, paths)
			finished()
			if err != nil {
				if ctx.Err() != nil {
					return
				}
				// Kept: every path of the round, and the edits made while
				// it ran, are ingested again after the backoff.
				retry = min(max(2*retry, opt.RetryMin), opt.RetryMax)
				s.setLag(len(pending), err)
				s.log.Warn("re-ingest failed; the previous graph is still served, retrying", "err", err, "paths", len(paths), "retry", retry)
				timer.Reset(retry)
				continue
			}
			// Events that came during the round wait in w.Events (this
			// goroutine reads them): pending holds only the round's paths.
			clear(pending)
			retry = 0
			s.setLag(0, nil)
			s.log.Info("re-ingested", "paths", len(paths), "changed", res.Changed, "removed", res.Removed,
				"version", res.Version, "duration", res.Duration.Round(time.Millisecond))
		}
	}
}

// relevant reports whether an event can change what a parser reads; a new
// directory is watched from now on (and re-read: files may have been moved
// into it).
func (s *Service) relevant(w *fsnotify.Watcher, ev fsnotify.Event) bool {
	if ev.Op == fsnotify.Chmod {
		return false // permissions alone change no content
	}
	name := filepath.Base(ev.Name)
	if ev.Op&fsnotify.Create != 0 {
		if st, err := os.Lstat(ev.Name); err == nil && st.IsDir() {
			if discover.SkipDir(name) {
				return false
			}
			if err := s.addTree(w, ev.Name); err != nil {
				s.log.Warn("cannot watch a new directory; its edits are not seen", "dir", ev.Name, "err", err)
			}
			return true
		}
	}
	// The format table says which files a reader reads or follows:
	// events for any other file (an editor's swap or backup file, an
	// image) start no ingest.
	if format.IsWatched(name) {
		return true
	}
	// A removed or renamed directory has no extension to go by; a removed
	// file without one was never read.
	return ev.Op&(fsnotify.Remove|fsnotify.Rename) != 0 && filepath.Ext(name) == "" && !strings.HasPrefix(name, ".")
}

// addTree watches root and every directory below it (fsnotify is not
// recursive), skipping VCS and store folders. A subdirectory that cannot be
// watched is logged (with the inotify limit to raise, the usual cause) and
// skipped; root itself failing is the error returned.
func (s *Service) addTree(w *fsnotify.Watcher, root string) error {
	failed := 0
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if p == root {
				return err
			}
			s.log.Warn("cannot read a directory to watch", "dir", p, "err", err)
			return nil
		}
		if !d.IsDir() {
			return nil
		}
		if p != root && discover.SkipDir(d.Name()) {
			return filepath.SkipDir
		}
		if err := w.Add(p); err != nil {
			if p == root {
				return err
			}
			failed++
			hint := ""
			if errors.Is(err, fsnotify.ErrEventOverflow) || strings.Contains(err.Error(), "no space left") {
				hint = "raise fs.inotify.max_user_watches"
			}
			s.log.Warn("cannot watch a directory; its edits are not seen", "dir", p, "err", err, "hint", hint)
		}
		return nil
	})
	if err != nil {
		return err
	}
	if failed > 0 {
		s.log.Warn("some directories are not watched", "root", root, "failed", failed)
	}
	return nil
}

// setLag records how many changed paths the answers served do not
// reflect yet, and why (the last failed round's error; nil: none failed).
func (s *Service) setLag(paths int, err error) {
	old := s.lagging.Swap(int64(paths))
	if err != nil {
		msg := err.Error()
		s.lagErr.Store(&msg)
	} else if paths == 0 {
		s.lagErr.Store(nil)
	}
	if s.metrics != nil {
		s.metrics.lagging.Set(float64(paths))
	}
	if old != int64(paths) {
		s.notify()
	}
}
