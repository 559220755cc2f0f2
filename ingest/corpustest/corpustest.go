// Package corpustest writes small corpora for tests: a map of slash paths
// to contents becomes a folder tree. It is the one such helper, so tests
// state their corpus inline instead of each writing its own file loop.
package corpustest

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// Write creates the files (slash path → content) under a new temporary
// directory and returns it; the directory is removed when the test ends.
func Write(t testing.TB, files map[string]string) string {
	t.Helper()
	root := t.TempDir()
	WriteInto(t, root, files)
	return root
}

// WriteInto creates or replaces the files (slash path → content) under root.
func WriteInto(t testing.TB, root string, files map[string]string) {
	t.Helper()
	for p, body := range files {
		full := filepath.Join(root, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// Age dates every file under root at t: a corpus written just before an
// ingest is in its same-second window (no file gets a stamp), one dated
// back is stamped as a corpus at rest.
func Age(t testing.TB, root string, at time.Time) {
	t.Helper()
	err := filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		return os.Chtimes(p, at, at)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// WriteAt creates or replaces the file rel (a slash path) under root with
// body and dates it at mtime.
func WriteAt(t testing.TB, root, rel, body string, mtime time.Time) {
	t.Helper()
	WriteInto(t, root, map[string]string{rel: body})
	if err := os.Chtimes(filepath.Join(root, filepath.FromSlash(rel)), mtime, mtime); err != nil {
		t.Fatal(err)
	}
}
