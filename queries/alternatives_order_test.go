package queries

import (
	"context"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// TestAlternativesOrderIsStable: with a Tool id defined twice
// (tool-duplicate-id), alternative groups and a Tool's alternatives keep
// one order from build to build. Both were sorted by Tool id alone after a
// map walk, so the two copies' order was the map's (found in review:
// groups flipped within three builds).
func TestAlternativesOrderIsStable(t *testing.T) {
	tool := func(id, satisfies, in string) string {
		return `{"id": "` + id + `", "title": "` + id + `", "description": "The ` + id + ` tool.", "satisfies": [` + satisfies + `],
  "install": {"none": true}, "invoke": {"shell": "bin/` + id + `"},
  "io": {"inputs": [{"name": "` + in + `", "type": "string", "required": true}]}}`
	}
	groups := func(s *Snapshot) any { return answers(s)["groups"] }
	alternativesOfT := func(s *Snapshot) any {
		var out []string
		for _, o := range s.Tool("t").Alternatives {
			out = append(out, o.ID+"@"+fileOf(o.Source))
		}
		return out
	}
	for _, tc := range []struct {
		name  string
		files map[string]string
		view  func(*Snapshot) any
	}{
		{"two groups headed by one duplicated id", map[string]string{
			"skills/s.md":   reviewSkill("s"),
			"tools/a1.json": tool("a-dup", `"s"`, "x"),
			"tools/a2.json": tool("a-dup", `"s"`, "y"),
			"tools/b1.json": tool("b1", `"s"`, "x"),
			"tools/b2.json": tool("b2", `"s"`, "y"),
		}, groups},
		{"a Tool's alternatives of one duplicated id", map[string]string{
			"skills/s1.md":  reviewSkill("s1"),
			"skills/s2.md":  reviewSkill("s2"),
			"tools/a1.json": tool("a-dup", `"s1"`, "x"),
			"tools/a2.json": tool("a-dup", `"s2"`, "x"),
			"tools/t.json":  tool("t", `"s1", "s2"`, "x"),
		}, alternativesOfT},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx := context.Background()
			root := t.TempDir()
			writeFile(t, filepath.Join(root, "harness.json"), strings.Replace(reviewLib, `"name": "lib"`, `"name": "alt"`, 1))
			for n, b := range tc.files {
				writeFile(t, filepath.Join(root, n), b)
			}
			st, first := ingestBuild(t, root)
			want := tc.view(first)
			if reflect.ValueOf(want).Len() < 2 {
				t.Fatalf("fixture: %v has fewer than two entries to order", want)
			}
			for i := range 30 {
				s, err := Build(ctx, st)
				if err != nil {
					t.Fatal(err)
				}
				if got := tc.view(s); !reflect.DeepEqual(got, want) {
					t.Fatalf("build %d: %v, first build %v", i, got, want)
				}
			}
		})
	}
}
