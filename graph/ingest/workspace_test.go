package ingest_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/skillgraph/skillgraph/graph"
	"github.com/skillgraph/skillgraph/graph/ingest"
	"github.com/skillgraph/skillgraph/ingest/corpustest"
	"github.com/skillgraph/skillgraph/queries"
)

// writeTree writes files (slash paths → contents) under a new temp root.
func writeTree(t *testing.T, files map[string]string) string { return corpustest.Write(t, files) }

// ingestMemory ingests roots into a new memory store, closed when the
// test ends.
func ingestMemory(t *testing.T, roots ...string) *graph.Store {
	t.Helper()
	st, err := graph.Open(context.Background(), "memory")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	if _, err := ingest.Run(context.Background(), st, roots, ingest.Options{}); err != nil {
		t.Fatal(err)
	}
	return st
}

// snapshotOf builds the snapshot of st: what serve answers from it.
func snapshotOf(t *testing.T, st *graph.Store) *queries.Snapshot {
	t.Helper()
	snap, err := queries.Build(context.Background(), st)
	if err != nil {
		t.Fatal(err)
	}
	return snap
}

func skillFile(name string) string {
	return "---\nname: " + name + "\ndescription: The " + name + " skill.\n---\n\n# " + name + "\n"
}

// TestWorkspaceOneCommand: a repository root holding three instances (the
// root's own and two in subfolders) with needs between them is ingested by
// one --corpus: every instance is found, references resolve through needs,
// the root instance does not read its siblings' folders, and a needs that
// names nothing is instance-unknown at its line (SPEC §1.1).
func TestWorkspaceOneCommand(t *testing.T) {
	root := writeTree(t, map[string]string{
		"harness.json": `{"name": "repo", "needs": ["cat"],
  "directories": [{"id": "skills", "path": "skills", "graphTypologies": ["skills"]},
                  {"id": "tools", "path": "tools", "graphTypologies": ["tools"]}]}`,
		"skills/core/publish.md": skillFile("publish"),
		"tools/publish.json":     `{"id": "publish-tool", "title": "Publish", "description": "Publish.", "satisfies": ["publish", "lint"], "install": {"none": true}, "invoke": {"shell": "bin/publish"}}`,
		"cat/harness.json": `{"name": "cat", "needs": ["boot"],
  "directories": [{"id": "skills", "path": "skills", "graphTypologies": ["skills"]},
                  {"id": "tools", "path": "tools", "graphTypologies": ["tools"]}]}`,
		"cat/skills/core/lint.md": skillFile("lint"),
		"cat/tools/lint.json":     `{"id": "lint-tool", "title": "Lint", "description": "Lint.", "satisfies": ["bootstrap"], "install": {"none": true}, "invoke": {"shell": "bin/lint"}}`,
		"bootstrap/boot.json": `{"name": "boot",
  "needs": ["nowhere"],
  "directories": [{"id": "skills", "path": "skills", "graphTypologies": ["skills"]}]}`,
		"bootstrap/skills/core/bootstrap.md": skillFile("bootstrap"),
		// Not instances: a declaration repeating its enclosing instance's
		// name (a beans folder declaring its own split), one inside a
		// directory the enclosing instance declares, one under node_modules.
		"cat/beans/beans.json":         `{"name": "cat", "directories": [{"id": "defs", "path": "defs", "graphTypologies": ["bean-defs"]}]}`,
		"skills/vendored/harness.json": `{"name": "vendored", "directories": [{"id": "s", "path": "s", "graphTypologies": ["skills"]}]}`,
		"node_modules/x/harness.json":  `{"name": "ignored", "directories": [{"id": "s", "path": "s", "graphTypologies": ["skills"]}]}`,
	})
	snap := snapshotOf(t, ingestMemory(t, root))
	for _, name := range []string{"repo", "cat", "boot"} {
		if snap.Instance(name) == nil {
			t.Errorf("instance %s not found in the workspace", name)
		}
	}
	for _, name := range []string{"ignored", "vendored"} {
		if snap.Instance(name) != nil {
			t.Errorf("%s was read as an instance of the workspace", name)
		}
	}
	var unknown []queries.Finding
	for _, f := range snap.Findings {
		switch f.Code {
		case "satisfies-unknown-skill":
			t.Errorf("reference did not resolve through needs: %+v", f)
		case "instance-unknown":
			unknown = append(unknown, f)
		}
	}
	if len(unknown) != 1 || unknown[0].File != "boot.json" || unknown[0].Line != 2 {
		t.Errorf("instance-unknown findings = %+v, want one at boot.json:2", unknown)
	}
	for _, id := range []string{"publish", "lint", "bootstrap"} {
		sk := snap.Skill(id)
		if sk == nil {
			t.Errorf("skill %s missing", id)
			continue
		}
		if !sk.Covered {
			t.Errorf("skill %s not covered: a Tool of a needing instance satisfies it", id)
		}
	}
}

// TestIncludeAddedReReadsTheSkill: a hard skill's include-missing is not
// kept once the included file is added (the answer about the include is
// part of the skill's digest).
func TestIncludeAddedReReadsTheSkill(t *testing.T) {
	root := writeTree(t, map[string]string{
		"skills/hard/proof/SKILL.md": "---\nskill: proof\ndescription: Proofread a draft.\nincludes: rules/style.txt\n---\n\n# Proof\n",
	})
	ctx := context.Background()
	st, err := graph.Open(ctx, "memory")
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	missing := func() int {
		t.Helper()
		if _, err := ingest.Run(ctx, st, []string{root}, ingest.Options{}); err != nil {
			t.Fatal(err)
		}
		snap, err := queries.Build(ctx, st)
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for _, f := range snap.Findings {
			if f.Code == "include-missing" {
				n++
			}
		}
		return n
	}
	if n := missing(); n != 1 {
		t.Fatalf("%d include-missing before the file exists, want 1", n)
	}
	if err := os.MkdirAll(filepath.Join(root, "skills", "hard", "proof", "rules"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "skills", "hard", "proof", "rules", "style.txt"), []byte("no passive voice\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if n := missing(); n != 0 {
		t.Errorf("%d include-missing after the included file was added, want 0", n)
	}
}
