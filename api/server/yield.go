package server

import (
	"context"
	"errors"
	"sync"

	"github.com/skillgraph/skillgraph/graph/ingest"
)

// A full ingest of the corpora over a store that already serves a graph
// (the reconcile a warm `serve --corpus --watch` start runs, or an
// api Reingest of everything) only reads while it prepares: at 10k skills
// that is ≈ 0.6–1 s of stamps, discovery and the store's source lists
// before anything is written. An edit the watcher saw meanwhile waited for
// all of it, so the first edit after a warm start cost 3.45× a steady one
// (issue #27). Instead the full ingest prepares without ingestMu
// (ingestOnce) and the watch round interrupts it (nothing written yet, so
// nothing to undo), commits the edit at a steady edit's cost, and the full
// ingest prepares again from the version the edit committed. It yields at
// most maxYields times, so edits made more often than a full prepare takes
// cannot postpone the reconcile for ever.
const maxYields = 3

// errYield is the cause a watch round cancels a preparing full ingest with.
var errYield = errors.New("the full ingest yielded to a watched edit")

// yielder hands ingestMu from a preparing full ingest to a watch round and
// back.
type yielder struct {
	mu sync.Mutex
	// cancel is the preparing full ingest's, nil when none may be
	// interrupted.
	cancel context.CancelCauseFunc
	// resume is closed when the round the full ingest yielded to is done.
	resume chan struct{}
}

// preparing registers a full ingest's prepare as interruptible and returns
// its context; done unregisters it and reports whether it was interrupted.
func (y *yielder) preparing(ctx context.Context) (pctx context.Context, done func() (yielded bool)) {
	pctx, cancel := context.WithCancelCause(ctx)
	y.mu.Lock()
	y.cancel = cancel
	y.mu.Unlock()
	return pctx, func() bool {
		y.mu.Lock()
		y.cancel = nil
		y.mu.Unlock()
		yielded := errors.Is(context.Cause(pctx), errYield) && ctx.Err() == nil
		cancel(nil)
		return yielded
	}
}

// interrupt stops a full ingest that is preparing, if there is one; the
// caller calls the func returned once its own ingest is done, which lets
// the full ingest prepare again.
func (y *yielder) interrupt() (finished func()) {
	y.mu.Lock()
	defer y.mu.Unlock()
	if y.cancel == nil {
		return func() {}
	}
	resume := make(chan struct{})
	y.resume = resume
	y.cancel(errYield)
	y.cancel = nil
	return sync.OnceFunc(func() { close(resume) })
}

// wait blocks a full ingest that yielded until the round it yielded to is
// done (or ctx ends).
func (y *yielder) wait(ctx context.Context) error {
	y.mu.Lock()
	resume := y.resume
	y.resume = nil
	y.mu.Unlock()
	if resume == nil {
		return nil
	}
	select {
	case <-resume:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// PrimeDiscovery walks the corpora and remembers their discovery for the
// first watched edit (ingest.Prime): `serve --corpus --watch` runs it while
// a warm start reads the store, so the round that interrupts the
// reconcile's prepare need not walk the trees itself. A failure only
// costs that round a walk: logged.
func (s *Service) PrimeDiscovery(ctx context.Context) {
	if len(s.corpora) == 0 {
		return
	}
	if err := ingest.Prime(ctx, s.corpora, s.opt); err != nil {
		s.log.Warn("discovery not primed; the first watched edit walks the corpus", "err", err)
	}
}
