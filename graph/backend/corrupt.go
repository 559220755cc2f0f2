package backend

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

// Corruptf is an ErrCorrupt with its particulars.
func Corruptf(format string, args ...any) error {
	return fmt.Errorf("%w: "+format, append([]any{ErrCorrupt}, args...)...)
}

// Protect runs fn so that a damaged bbolt file is an error instead of a
// crash: bbolt asserts on the pages it reads (a panic) and reads them
// through a memory map (a fault past the end of a truncated file, which the
// runtime turns into a panic only with SetPanicOnFault, per goroutine).
func Protect(fn func() error) (err error) {
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	defer func() {
		if r := recover(); r != nil {
			err = Corruptf("reading it failed: %v", r)
		}
	}()
	return fn()
}
