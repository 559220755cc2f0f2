//go:build unix

package graph

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"syscall"
)

// checkNotLocked fails fast when another process holds the bbolt file:
// Cayley opens it without a timeout, so the open would wait forever (and a
// signal could not interrupt it).
func checkNotLocked(dir string) error {
	f, err := os.OpenFile(filepath.Join(dir, "indexes.bolt"), os.O_RDWR, 0)
	if err != nil {
		return nil // absent: created on open; unreadable: open reports it
	}
	defer f.Close()
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		if errors.Is(err, syscall.EWOULDBLOCK) {
			return fmt.Errorf("%w (%s): a running `skillgraph serve` owns it — query the server's /graphql, or run a replica on a shared PostgreSQL store", ErrStoreBusy, dir)
		}
		return nil
	}
	return syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
}
