package gen_test

import (
	"bytes"
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"github.com/skillgraph/skillgraph/graph"
	"github.com/skillgraph/skillgraph/graph/ingest"
	"github.com/skillgraph/skillgraph/ingest/gen"
	"github.com/skillgraph/skillgraph/queries"
)

// readTree returns every file under dir by slash path.
func readTree(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		rel, _ := filepath.Rel(dir, p)
		out[filepath.ToSlash(rel)] = b
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func TestDeterministicPerSeed(t *testing.T) {
	write := func(seed int64) (map[string][]byte, gen.Stats) {
		dir := filepath.Join(t.TempDir(), "corpus")
		st, err := gen.Write(dir, gen.Options{Skills: 300, Seed: seed})
		if err != nil {
			t.Fatal(err)
		}
		return readTree(t, dir), st
	}
	a, sa := write(7)
	b, sb := write(7)
	if sa != sb {
		t.Fatalf("stats differ for one seed: %+v vs %+v", sa, sb)
	}
	if len(a) != len(b) || len(a) != sa.Files {
		t.Fatalf("file counts differ: %d, %d, stats %d", len(a), len(b), sa.Files)
	}
	for p, data := range a {
		if !bytes.Equal(data, b[p]) {
			t.Fatalf("%s differs between two runs of one seed", p)
		}
	}
	c, _ := write(8)
	same := 0
	for p, data := range a {
		if bytes.Equal(data, c[p]) {
			same++
		}
	}
	if same == len(a) {
		t.Fatal("seeds 7 and 8 wrote the same corpus")
	}
}

func TestRefusesNonEmptyDir(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "x"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := gen.Write(dir, gen.Options{Skills: 10}); err == nil {
		t.Fatal("want an error for a non-empty directory")
	}
	if _, err := gen.Write(t.TempDir(), gen.Options{}); err == nil {
		t.Fatal("want an error for zero skills")
	}
}

func TestSmallCorpora(t *testing.T) {
	for _, n := range []int{1, 2, 3, 9} {
		if _, err := gen.Write(filepath.Join(t.TempDir(), "c"), gen.Options{Skills: n, Seed: 1}); err != nil {
			t.Fatalf("%d skills: %v", n, err)
		}
	}
}

// TestIngestsClean ingests a generated corpus and checks that every file
// parses and that the analyses see the shapes the generator promises.
func TestIngestsClean(t *testing.T) {
	ctx := context.Background()
	dir := filepath.Join(t.TempDir(), "corpus")
	st, err := gen.Write(dir, gen.Options{Skills: 200, Seed: 42})
	if err != nil {
		t.Fatal(err)
	}
	store, err := graph.Open(ctx, "memory")
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	res, err := ingest.Run(ctx, store, []string{dir}, ingest.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if res.Files != st.Files-1 { // .beans.yml is configuration, not a source
		t.Errorf("ingested %d files, generated %d", res.Files, st.Files)
	}
	snap, err := queries.Build(ctx, store)
	if err != nil {
		t.Fatal(err)
	}
	forbidden := map[string]bool{"parse-error": true, "bpmn-invalid": true, "tool-invalid": true, "bean-invalid": true,
		"declaration-invalid": true, "directory-missing": true, "mcp-invalid": true, "contract-unreadable": true,
		"tool-skill-invalid": true, "port-type-unknown": true, "input-unsafe-on-argv": true, "exemption-stale": true,
		"bean-cycle": true, "bean-parent-type": true, "bean-parent-unknown": true, "bean-blocking-unknown": true,
		"satisfies-unknown-skill": true, "remedy-unknown-tool": true, "subprocess-unknown-process": true,
		"call-unknown-process": true, "skill-name-ambiguous": true, "duplicate-node": true, "tool-duplicate-id": true,
		"tool-unknown-field": true, "selection-partial": true, "invoke-mcp-only": true, "network-without-remedies": true}
	codes := map[string]int{}
	for _, f := range snap.Findings {
		codes[f.Code]++
		if forbidden[f.Code] || len(f.Code) > 11 && f.Code[:11] == "hard-skill-" {
			t.Errorf("finding %s at %s:%d: %s", f.Code, f.File, f.Line, f.Message)
		}
	}
	if len(snap.Skills) != st.Skills {
		t.Errorf("snapshot has %d skills, generated %d", len(snap.Skills), st.Skills)
	}
	if want := st.Tools + st.HardTools + st.McpTools; len(snap.Tools) != want {
		t.Errorf("snapshot has %d tools, generated %d", len(snap.Tools), want)
	}
	if len(snap.Processes) != st.Processes || len(snap.Beans) != st.Beans {
		t.Errorf("processes %d/%d, beans %d/%d", len(snap.Processes), st.Processes, len(snap.Beans), st.Beans)
	}
	for _, code := range []string{"call-cycle", "alternative-without-selection"} {
		if codes[code] == 0 {
			t.Errorf("no %s finding: the generator should produce one", code)
		}
	}
	if codes["contract-required-missing"]+codes["contract-type-mismatch"] == 0 {
		t.Error("no contradicted contract")
	}
	if len(snap.Alternatives.Groups) == 0 || len(snap.Alternatives.Complementary) == 0 {
		t.Errorf("alternatives: %d groups, %d complementary", len(snap.Alternatives.Groups), len(snap.Alternatives.Complementary))
	}
	if len(snap.Coverage.Exempt) != 2 {
		t.Errorf("exempt: %d skills, want 2", len(snap.Coverage.Exempt))
	}
	for _, tier := range snap.Coverage.Tiers {
		if len(tier.Skills) == 0 {
			t.Errorf("tier %s is empty", tier.Tier)
		}
	}
	t.Logf("stats %+v; %d quads; findings %v", st, res.Quads, codes)
}
