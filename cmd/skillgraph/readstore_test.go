package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/skillgraph/skillgraph/graph"
	"github.com/skillgraph/skillgraph/graph/pgtest"
)

// runCLIFor is runCLI bounded in time: a command that should refuse at
// once but serves instead (serve --read-only) ends when ctx does, with
// exit 0, and so fails the case instead of hanging the test.
func runCLIFor(t *testing.T, d time.Duration, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), d)
	defer cancel()
	var out, errb bytes.Buffer
	code = report(run(ctx, args, &out, &errb), &errb)
	return out.String(), errb.String(), code
}

// TestReadingCommandsNeedAStore: check, query, coverage, export and serve
// --read-only on a store that does not exist, or holds no graph version,
// exit 2 naming what they looked for, and create nothing; on an ingested
// store they answer (issue 23.3).
func TestReadingCommandsNeedAStore(t *testing.T) {
	dir := t.TempDir()
	ingested := "bbolt:" + filepath.Join(dir, "ingested.db")
	if _, errs, code := runCLI(t, "ingest", "--corpus", exampleCorpus, "--store", ingested); code != 0 {
		t.Fatalf("ingest: exit %d %s", code, errs)
	}
	emptyDir := filepath.Join(dir, "empty")
	if err := os.Mkdir(emptyDir, 0o755); err != nil {
		t.Fatal(err)
	}
	versionZero := filepath.Join(dir, "v0.db") // opened once, never written
	st, err := graph.Open(context.Background(), "bbolt:"+versionZero)
	if err != nil {
		t.Fatal(err)
	}
	st.Close()
	missing := filepath.Join(dir, "typo", "graph.db")

	commands := map[string][]string{
		"check":            {"check"},
		"query":            {"query", "{ graphVersion }"},
		"coverage":         {"coverage"},
		"export":           {"export"},
		"serve--read-only": {"serve", "--read-only", "--addr", "127.0.0.1:0"},
	}
	stores := []struct {
		name, url string
		want      []string // in stderr
		created   string   // a path that must still not exist afterwards
	}{
		{"a missing bbolt path", "bbolt:" + missing, []string{"no such store", missing}, filepath.Join(dir, "typo")},
		{"an empty directory", "bbolt:" + emptyDir, []string{"empty directory", emptyDir}, filepath.Join(emptyDir, "indexes.bolt")},
		{"a bbolt store at version 0", "bbolt:" + versionZero, []string{"version 0", versionZero}, ""},
		{"memory", "memory", []string{"store memory holds no graph"}, ""},
	}
	for _, s := range stores {
		for name, args := range commands {
			t.Run(s.name+"/"+name, func(t *testing.T) {
				_, errs, code := runCLIFor(t, 10*time.Second, append(args, "--store", s.url)...)
				if code != 2 {
					t.Fatalf("exit %d, want 2; stderr %s", code, errs)
				}
				for _, w := range s.want {
					if !strings.Contains(errs, w) {
						t.Errorf("stderr lacks %q: %s", w, errs)
					}
				}
				if s.created != "" {
					if _, err := os.Stat(s.created); err == nil {
						t.Errorf("%s was created by a reading command", s.created)
					}
				}
			})
		}
	}
	// The same commands on an ingested store answer as before (check exits
	// 1: the example corpus has errors on purpose).
	for name, want := range map[string]int{"check": 1, "query": 0, "coverage": 0, "export": 0} {
		if out, errs, code := runCLI(t, append(commands[name], "--store", ingested)...); code != want || out == "" {
			t.Errorf("%s on an ingested store: exit %d, want %d; stderr %s", name, code, want, errs)
		}
	}
}

// TestReadingAnEmptyDatabase: check, query and export on a PostgreSQL
// database nothing was ingested into exit 2; a replica may start on it (a
// writer may be starting alongside, docs/postgres.md) and stays not ready
// (api/server.TestReplicaOnAnEmptyStoreIsNotReady).
func TestReadingAnEmptyDatabase(t *testing.T) {
	url := "postgres:" + pgtest.Scratch(t)
	for _, args := range [][]string{{"check"}, {"query", "{ graphVersion }"}, {"export"}} {
		_, errs, code := runCLI(t, append(args, "--store", url)...)
		if code != 2 || !strings.Contains(errs, "version 0") {
			t.Errorf("%s on an empty database: exit %d, want 2 saying it holds no version; stderr %s", args[0], code, errs)
		}
	}
}
