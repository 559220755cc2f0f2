// Package corpustest writes small corpora for tests: a map of slash paths
// to contents becomes a folder tree. It is the one such helper, so tests
// state their corpus inline instead of each writing its own file loop.
package corpustest

import (
	"os"
	"path/filepath"
	"testing"
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
