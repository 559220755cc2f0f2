package bolt

import (
	"context"
	"errors"
	"sync"

	bolt "go.etcd.io/bbolt"

	"github.com/skillgraph/skillgraph/graph/backend"
)

// errClosed is the walk's result once the store is closed before it ran.
var errClosed = errors.New("the store is closed")

// lateWalk is the page walk of a store opened with Hooks.VerifyLater
// (checkBoltFile's page headers and checkPages, what an open with
// VerifyPages runs before it returns):
// started by the first read that needs it (or VerifyStore), run once, on a
// goroutine of its own, to the end or until Close.
type lateWalk struct {
	mu     sync.Mutex
	done   chan struct{} // nil until started; closed when err is set
	err    error
	cancel context.CancelFunc
}

// VerifyStore is backend.Verifier.VerifyStore.
func (s *store) VerifyStore(ctx context.Context) error { return s.trust(ctx) }

// trust returns nil once s may be read as a whole: at once for a store
// not opened with VerifyLater (its open walked it, or the caller wrote it),
// else when the walk has found every page sound (ErrCorrupt when it found
// damage). Callers waiting give up with ctx; the walk goes on.
func (s *store) trust(ctx context.Context) error {
	if !s.hooks.VerifyLater || s.hooks.VerifyPages {
		return nil
	}
	done := s.startWalk()
	select {
	case <-done:
		return s.late.err // set before done was closed
	case <-ctx.Done():
		return ctx.Err()
	}
}

func (s *store) startWalk() <-chan struct{} {
	s.late.mu.Lock()
	defer s.late.mu.Unlock()
	if s.late.done != nil {
		return s.late.done
	}
	s.late.done = make(chan struct{})
	ctx, cancel := context.WithCancel(context.Background())
	s.late.cancel = cancel
	go func() {
		defer close(s.late.done)
		defer cancel()
		s.late.err = backend.Protect(func() error {
			// The page headers first (the late open left them, see
			// openBolt), then every key of every bucket.
			if err := checkBoltFile(s.path, true); err != nil {
				return err
			}
			if err := checkPages(ctx, s.kv.bolt); err != nil {
				if ctx.Err() != nil {
					return errClosed
				}
				return backend.Corruptf("%s: %v", s.path, err)
			}
			return nil
		})
		if s.late.err == nil {
			// The walk mapped every page of the file; what the
			// snapshot needed is in memory already (see dropResident).
			_ = s.kv.bolt.View(func(tx *bolt.Tx) error {
				return dropResident(s.kv.bolt.Info().Data, tx.Size())
			})
		}
	}()
	return s.late.done
}

// stopWalk stops a walk that runs (and keeps one from starting) and
// reports whether the store may be closed: not when the walk found damage,
// as bbolt may still hold the lock of the transaction the damage ended.
func (s *store) stopWalk() bool {
	s.late.mu.Lock()
	if s.late.done == nil {
		s.late.done = make(chan struct{})
		s.late.err = errClosed
		close(s.late.done)
	}
	done, cancel := s.late.done, s.late.cancel
	s.late.mu.Unlock()
	if cancel != nil {
		cancel()
	}
	<-done
	return !errors.Is(s.late.err, backend.ErrCorrupt)
}
