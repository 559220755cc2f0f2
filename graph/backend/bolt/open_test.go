package bolt_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/skillgraph/skillgraph/graph"
	"github.com/skillgraph/skillgraph/graph/backend/bolt"
)

// TestOpenOnlyRegularFiles: a store whose indexes.bolt is a FIFO, an empty
// file or a directory is refused at once with ErrNotStore, and the file is
// left as it was (issue 28.6: a FIFO hung every command; 28.8: an empty
// file became a new store, rewritten, at version 0).
func TestOpenOnlyRegularFiles(t *testing.T) {
	tests := []struct {
		name string
		make func(t *testing.T, path string)
	}{
		{"fifo", func(t *testing.T, path string) {
			if err := syscall.Mkfifo(path, 0o644); err != nil {
				t.Skipf("mkfifo: %v", err)
			}
		}},
		{"empty file", func(t *testing.T, path string) {
			if err := os.WriteFile(path, nil, 0o644); err != nil {
				t.Fatal(err)
			}
		}},
		{"directory", func(t *testing.T, path string) {
			if err := os.Mkdir(path, 0o755); err != nil {
				t.Fatal(err)
			}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "g.db")
			if err := os.Mkdir(dir, 0o755); err != nil {
				t.Fatal(err)
			}
			path := filepath.Join(dir, "indexes.bolt")
			tt.make(t, path)
			before, err := os.Lstat(path)
			if err != nil {
				t.Fatal(err)
			}
			done := make(chan error, 1)
			go func() {
				st, err := graph.Open(context.Background(), "bbolt:"+dir)
				if err == nil {
					st.Close()
				}
				done <- err
			}()
			select {
			case err = <-done:
			case <-time.After(10 * time.Second):
				// Unblock the open so the test process can end.
				if f, err := os.OpenFile(path, os.O_WRONLY|syscall.O_NONBLOCK, 0); err == nil {
					f.Close()
				}
				t.Fatal("opening the store hung")
			}
			if !errors.Is(err, bolt.ErrNotStore) {
				t.Fatalf("open: %v, want ErrNotStore", err)
			}
			after, err := os.Lstat(path)
			if err != nil {
				t.Fatal(err)
			}
			if after.Mode() != before.Mode() || after.Size() != before.Size() || !after.ModTime().Equal(before.ModTime()) {
				t.Fatalf("the file was changed: %v %d → %v %d", before.Mode(), before.Size(), after.Mode(), after.Size())
			}
		})
	}
}
