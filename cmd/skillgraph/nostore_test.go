package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/skillgraph/skillgraph/graph"
	"github.com/skillgraph/skillgraph/graph/ingest"
	"github.com/skillgraph/skillgraph/ingest/gen"
	"github.com/skillgraph/skillgraph/queries"
	"github.com/skillgraph/skillgraph/queries/querytest"
)

// invalidTools is an MCP listing of n tools, each with an mcp-invalid
// finding: named ones are kept as data, nameless ones dropped (the shapes
// of issue #28 row 14).
func invalidTools(n int, named bool) string {
	var ts []string
	for i := range n {
		if named {
			ts = append(ts, fmt.Sprintf(`{"name": "tool_%d", "description": "d"}`, i))
		} else {
			ts = append(ts, fmt.Sprintf(`{"title": "tool_%d", "description": "d"}`, i))
		}
	}
	return `{"tools": [` + strings.Join(ts, ",\n") + `]}`
}

// writeTree writes files (relative path → body) under a new folder.
func writeTree(t testing.TB, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for rel, body := range files {
		p := filepath.Join(dir, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// TestSnapshotNoStoreEqualsStored: the snapshot an analysis command
// builds from a corpus with no --store (the converted quads, never
// written) is the one read back from a store the corpus was ingested
// into, field for field, on the bundled examples, a generated corpus,
// corpora of findings, the hostile corpora and the real ones present.
func TestSnapshotNoStoreEqualsStored(t *testing.T) {
	gen1 := filepath.Join(t.TempDir(), "gen")
	if _, err := gen.Write(gen1, gen.Options{Skills: 120, Seed: 3}); err != nil {
		t.Fatal(err)
	}
	corpora := map[string][]string{
		"harness":       {"../../examples/harness"},
		"marketplace":   {"../../examples/marketplace"},
		"two corpora":   {"../../examples/harness", "../../examples/marketplace"},
		"generated":     {gen1},
		"empty":         {t.TempDir()},
		"findings kept": {writeTree(t, map[string]string{"mcp/a.json": invalidTools(300, true), "mcp/b.json": invalidTools(40, true)})},
		"findings only": {writeTree(t, map[string]string{"mcp/a.json": invalidTools(300, false), "mcp/b.json": invalidTools(40, false)})},
	}
	for _, pattern := range []string{"../../ingest/hostile/testdata/*", "../../../shared/realworld/*"} {
		dirs, _ := filepath.Glob(pattern)
		for _, d := range dirs {
			if st, err := os.Stat(d); err == nil && st.IsDir() {
				corpora[filepath.Base(filepath.Dir(filepath.Dir(d)))+"-"+filepath.Base(d)] = []string{d}
			}
		}
	}
	ctx := context.Background()
	for name, roots := range corpora {
		t.Run(name, func(t *testing.T) {
			stored := storedSnapshot(ctx, t, roots)
			st, err := graph.Open(ctx, "memory")
			if err != nil {
				t.Fatal(err)
			}
			defer st.Close()
			direct, err := snapshotOfCorpora(ctx, st, roots, ingest.Options{})
			if err != nil {
				t.Fatal(err)
			}
			if v, err := st.Version(ctx); err != nil || v != 0 {
				t.Errorf("the store was written: version %d (%v)", v, err)
			}
			direct.BuiltAt, stored.BuiltAt = time.Time{}, time.Time{}
			// Every exported field, walked to the bottom (unexported
			// fields of the entities included). The snapshot's own
			// unexported fields are indexes of what those hold, and its
			// node list comes in no fixed order (two Builds of one store
			// differ there), so they are left out.
			var diffs []string
			seen := map[[2]uintptr]bool{}
			a, b := reflect.ValueOf(direct).Elem(), reflect.ValueOf(stored).Elem()
			for i := range a.NumField() {
				if f := a.Type().Field(i); f.IsExported() {
					snapshotDiffs(a.Field(i), b.Field(i), f.Name, seen, &diffs)
				}
			}
			if len(diffs) > 0 {
				t.Errorf("snapshot without a store differs from the stored one: version %d/%d, %d/%d skills, %d/%d tools, %d/%d findings",
					direct.Version, stored.Version, len(direct.Skills), len(stored.Skills), len(direct.Tools), len(stored.Tools),
					len(direct.Findings), len(stored.Findings))
				t.Errorf("differences: %s", strings.Join(diffs, "; "))
			}
		})
	}
}

// storedSnapshot is the snapshot of roots as the analysis commands built
// it before: ingested into a memory store, then read back.
func storedSnapshot(_ context.Context, t testing.TB, roots []string) *queries.Snapshot {
	t.Helper()
	return querytest.Build(t, roots...)
}

// snapshotDiffs walks a and b together and appends the paths where they
// differ (at most a few). reflect.DeepEqual cannot be used: a map keyed
// by pointers (the snapshot's lazily built source → package index) holds
// each snapshot's own pointers, so such a map is compared by its length
// only; what it indexes is compared where it is held. Pointers met twice
// (the graph of entities is cyclic) are compared once.
func snapshotDiffs(a, b reflect.Value, path string, seen map[[2]uintptr]bool, out *[]string) {
	if len(*out) > 5 {
		return
	}
	if a.Kind() != b.Kind() {
		*out = append(*out, path+": kind")
		return
	}
	switch a.Kind() {
	case reflect.Pointer:
		if a.IsNil() || b.IsNil() {
			if a.IsNil() != b.IsNil() {
				*out = append(*out, path+": nil vs non-nil")
			}
			return
		}
		k := [2]uintptr{a.Pointer(), b.Pointer()}
		if seen[k] {
			return
		}
		seen[k] = true
		snapshotDiffs(a.Elem(), b.Elem(), path, seen, out)
	case reflect.Interface:
		if a.IsNil() || b.IsNil() {
			if a.IsNil() != b.IsNil() {
				*out = append(*out, path+": nil iface")
			}
			return
		}
		snapshotDiffs(a.Elem(), b.Elem(), path, seen, out)
	case reflect.Struct:
		for i := range a.NumField() {
			snapshotDiffs(a.Field(i), b.Field(i), path+"."+a.Type().Field(i).Name, seen, out)
		}
	case reflect.Slice, reflect.Array:
		if a.Len() != b.Len() {
			*out = append(*out, fmt.Sprintf("%s: len %d vs %d", path, a.Len(), b.Len()))
			return
		}
		for i := range a.Len() {
			snapshotDiffs(a.Index(i), b.Index(i), fmt.Sprintf("%s[%d]", path, i), seen, out)
		}
	case reflect.Map:
		if a.Len() != b.Len() || a.Type().Key().Kind() == reflect.Pointer {
			if a.Len() != b.Len() {
				*out = append(*out, fmt.Sprintf("%s: map len %d vs %d", path, a.Len(), b.Len()))
			}
			return
		}
		for _, k := range a.MapKeys() {
			bv := b.MapIndex(k)
			if !bv.IsValid() {
				*out = append(*out, fmt.Sprintf("%s[%v]: missing", path, k))
				continue
			}
			snapshotDiffs(a.MapIndex(k), bv, fmt.Sprintf("%s[%v]", path, k), seen, out)
		}
	case reflect.Func:
	default:
		if fmt.Sprint(a) != fmt.Sprint(b) {
			*out = append(*out, fmt.Sprintf("%s: %v vs %v", path, a, b))
		}
	}
}
