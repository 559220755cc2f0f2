package ingest_test

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/cayleygraph/quad"

	"github.com/skillgraph/skillgraph/graph"
	"github.com/skillgraph/skillgraph/graph/ingest"
)

// copyTree copies a testdata corpus into a temp dir the test may edit.
func copyTree(t *testing.T, src string) string {
	t.Helper()
	dst := t.TempDir()
	if err := os.CopyFS(dst, os.DirFS(src)); err != nil {
		t.Fatal(err)
	}
	return dst
}

// dump returns every quad as sorted N-Quads lines, grouped by graph label.
func dump(t *testing.T, st *graph.Store) map[string][]string {
	t.Helper()
	out := map[string][]string{}
	err := st.Each(context.Background(), func(q quad.Quad) error {
		l := quad.StringOf(q.Label)
		out[l] = append(out[l], graph.Normalize(q).NQuad())
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range out {
		sort.Strings(v)
	}
	return out
}

func TestIngestTwiceChangesNothing(t *testing.T) {
	ctx := context.Background()
	root := copyTree(t, "../../ingest/testdata/mini")
	st, err := graph.Open(ctx, "memory")
	if err != nil {
		t.Fatal(err)
	}
	first, err := ingest.Run(ctx, st, []string{root}, ingest.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if first.Changed != first.Files || first.Version != 1 {
		t.Fatalf("first ingest: %+v", first)
	}
	before := dump(t, st)
	second, err := ingest.Run(ctx, st, []string{root}, ingest.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if second.Changed != 0 || second.Skipped != first.Files || second.Version != 1 {
		t.Fatalf("second ingest should skip everything and keep version 1: %+v", second)
	}
	if after := dump(t, st); !reflect.DeepEqual(before, after) {
		t.Fatal("quads changed on an identical re-ingest")
	}
}

func TestEditReplacesExactlyThatFile(t *testing.T) {
	ctx := context.Background()
	root := copyTree(t, "../../ingest/testdata/mini")
	st, _ := graph.Open(ctx, "bbolt:"+filepath.Join(t.TempDir(), "g.db"))
	defer st.Close()
	if _, err := ingest.Run(ctx, st, []string{root}, ingest.Options{}); err != nil {
		t.Fatal(err)
	}
	before := dump(t, st)
	p := filepath.Join(root, "skills/core/review.md")
	b, _ := os.ReadFile(p)
	if err := os.WriteFile(p, []byte(strings.Replace(string(b), "Review a change.", "Read a change for tone.", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	res, err := ingest.Run(ctx, st, []string{root}, ingest.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if res.Changed != 1 || res.Version != 2 {
		t.Fatalf("want exactly one changed graph and version 2: %+v", res)
	}
	after := dump(t, st)
	var changed []string
	for g := range mergeKeys(before, after) {
		if !reflect.DeepEqual(before[g], after[g]) {
			changed = append(changed, g)
		}
	}
	sort.Strings(changed)
	want := []string{"<urn:skillgraph:meta>", "<urn:skillgraph:mini#source/skills/core/review.md>"}
	if !reflect.DeepEqual(changed, want) {
		t.Fatalf("changed graphs = %v, want %v", changed, want)
	}
	if !strings.Contains(strings.Join(after["<urn:skillgraph:mini#source/skills/core/review.md>"], "\n"), "Read a change for tone.") {
		t.Fatal("the edited description is not stored")
	}
	// Deleting a file removes its graph.
	if err := os.Remove(p); err != nil {
		t.Fatal(err)
	}
	res, err = ingest.Run(ctx, st, []string{root}, ingest.Options{})
	if err != nil || res.Removed != 1 {
		t.Fatalf("want one removed graph: %+v %v", res, err)
	}
	if _, ok := dump(t, st)["<urn:skillgraph:mini#source/skills/core/review.md>"]; ok {
		t.Fatal("the deleted file's graph is still stored")
	}
}

func mergeKeys(a, b map[string][]string) map[string]bool {
	out := map[string]bool{}
	for k := range a {
		out[k] = true
	}
	for k := range b {
		out[k] = true
	}
	return out
}

func TestMissingCorpusIsAnError(t *testing.T) {
	st, _ := graph.Open(context.Background(), "memory")
	if _, err := ingest.Run(context.Background(), st, []string{filepath.Join(t.TempDir(), "nope")}, ingest.Options{}); err == nil {
		t.Fatal("want an error for a missing corpus root")
	}
	if v, _ := st.Version(context.Background()); v != 0 {
		t.Fatalf("a failed ingest bumped the version to %d", v)
	}
}
