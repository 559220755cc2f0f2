package server

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/fsnotify/fsnotify"

	"github.com/skillgraph/skillgraph/ingest/discover"
)

// Watch re-ingests when a file under the corpora changes, until ctx ends.
// Events are debounced so that an editor's write-rename-chmod burst is one
// ingest; the new snapshot is swapped in atomically by Ingest.
func (s *Service) Watch(ctx context.Context, debounce time.Duration) error {
	w, err := fsnotify.NewWatcher()
	if err != nil {
		return err
	}
	defer w.Close()
	for _, root := range s.corpora {
		addTree(w, root)
	}
	var timer *time.Timer
	fire := make(chan struct{}, 1)
	for {
		select {
		case <-ctx.Done():
			return nil
		case ev, ok := <-w.Events:
			if !ok {
				return nil
			}
			if ev.Op&fsnotify.Create != 0 {
				if st, err := os.Stat(ev.Name); err == nil && st.IsDir() {
					addTree(w, ev.Name)
				}
			}
			if timer == nil {
				timer = time.AfterFunc(debounce, func() {
					select {
					case fire <- struct{}{}:
					default:
					}
				})
			} else {
				timer.Reset(debounce)
			}
		case err, ok := <-w.Errors:
			if !ok {
				return nil
			}
			s.log.Warn("watch error", "err", err)
		case <-fire:
			res, err := s.Ingest(ctx)
			if err != nil {
				s.log.Warn("re-ingest failed; the previous graph is still served", "err", err)
				continue
			}
			s.log.Info("re-ingested", "changed", res.Changed, "removed", res.Removed, "version", res.Version)
		}
	}
}

// addTree watches root and every directory below it (fsnotify is not
// recursive), skipping VCS and store folders.
func addTree(w *fsnotify.Watcher, root string) {
	_ = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || !d.IsDir() {
			return nil
		}
		if p != root && discover.SkipDir(d.Name()) {
			return filepath.SkipDir
		}
		_ = w.Add(p)
		return nil
	})
}
