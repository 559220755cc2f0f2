package graph

import (
	"errors"
	"fmt"
	"runtime/debug"
)

// ErrCorrupt marks a store whose files are damaged: bbolt pages that do not
// parse, a truncated file, an invalid meta page. Such a store is never read
// on (a damaged page can make bbolt panic, fault or loop); restore it from a
// backup or delete it and ingest again.
var ErrCorrupt = errors.New("store is corrupt")

func corruptf(format string, args ...any) error {
	return fmt.Errorf("%w: "+format, append([]any{ErrCorrupt}, args...)...)
}

// protect runs fn so that a damaged bbolt file is an error instead of a
// crash: bbolt asserts on the pages it reads (a panic) and reads them
// through a memory map (a fault past the end of a truncated file, which the
// runtime turns into a panic only with SetPanicOnFault, per goroutine).
func protect(fn func() error) (err error) {
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	defer func() {
		if r := recover(); r != nil {
			err = corruptf("reading it failed: %v", r)
		}
	}()
	return fn()
}

// guard is protect for the methods of Store: the first damage found marks
// the store, and every later call (Close included, which would wait forever
// on the lock of the transaction the panic abandoned) returns the same
// error. Use as `defer s.guard(&err)()` before taking s.mu, so the lock is
// released before the panic is recovered.
func (s *Store) guard(err *error) func() {
	if s.kv == nil {
		return func() {}
	}
	old := debug.SetPanicOnFault(true)
	return func() {
		debug.SetPanicOnFault(old)
		if r := recover(); r != nil {
			e := corruptf("%s: reading it failed: %v", s.url, r)
			s.broken.CompareAndSwap(nil, &e)
			*err = e
		}
	}
}

// damaged returns the error that marked the store, if any.
func (s *Store) damaged() error {
	if p := s.broken.Load(); p != nil {
		return *p
	}
	return nil
}
