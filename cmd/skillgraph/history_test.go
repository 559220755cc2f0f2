package main

import (
	"encoding/csv"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/skillgraph/skillgraph/ingest/gitsource/gittest"
	"github.com/skillgraph/skillgraph/queries/history"
	"github.com/skillgraph/skillgraph/queries/querytest"
)

// historyRepo builds a repository whose corpora/harness folder is the
// example corpus, changed in several commits; it returns the repository,
// the corpus folder in its work tree and the commits, oldest first, with
// the name of each.
func historyRepo(t *testing.T) (*gittest.Repo, string, []string, []string) {
	t.Helper()
	repo := gittest.Init(t, filepath.Join(t.TempDir(), "repo"))
	corpus := filepath.Join(repo.Dir, "corpora", "harness")
	edit := func(rel, old, new string) func(string) {
		return func(string) {
			p := filepath.Join(corpus, filepath.FromSlash(rel))
			data, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(string(data), old) {
				t.Fatalf("%s lacks %q", rel, old)
			}
			if err := os.WriteFile(p, []byte(strings.Replace(string(data), old, new, 1)), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	var hashes, names []string
	commit := func(name string, f func(string)) {
		hashes = append(hashes, repo.Commit(name, f))
		names = append(names, name)
	}
	commit("a README outside the corpus", func(dir string) {
		if err := os.WriteFile(filepath.Join(dir, "README.md"), []byte("# repo\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	})
	commit("add the harness", func(string) { gittest.CopyTree(t, exampleCorpus, corpus) })
	commit("add a Tool", func(string) {
		tool := `{"id": "summary-gen", "title": "Summary generator", "description": "Summarises a draft read on stdin.",
  "satisfies": ["draft-article"], "install": {"cli": "pipx install quill-summary"},
  "invoke": {"shell": ["quill-summary"]},
  "io": {"inputs": [{"name": "draft", "type": "Text", "required": true, "arg": {"stdin": true}}],
         "outputs": [{"name": "summary", "type": "Text"}]}}
`
		if err := os.WriteFile(filepath.Join(corpus, "tools", "summary-gen.json"), []byte(tool), 0o644); err != nil {
			t.Fatal(err)
		}
	})
	commit("outside the corpus again", func(dir string) {
		if err := os.WriteFile(filepath.Join(dir, "README.md"), []byte("# repo\n\nmore\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	})
	commit("break a contract", edit("tools/translation.yaml", "{name: path, type: RepoPath, required: true, arg: {flag: --page}}", "{name: page, type: RepoPath, required: true, arg: {flag: --page}}"))
	commit("remove an entry point", edit("harness.json", `"tools": ["site-preview"],`, ``))
	commit("rename a file", func(string) {
		if err := os.Rename(filepath.Join(corpus, "tools", "fact-check.json"), filepath.Join(corpus, "tools", "claims.json")); err != nil {
			t.Fatal(err)
		}
	})
	commit("a file becomes a folder", func(string) {
		p := filepath.Join(corpus, "tools", "outline-gen.json")
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.Remove(p); err != nil {
			t.Fatal(err)
		}
		if err := os.MkdirAll(p, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(p, "tool.json"), data, 0o644); err != nil {
			t.Fatal(err)
		}
	})
	return repo, corpus, hashes, names
}

// checkoutTallies is what coverage and check say on a checkout of commit
// hash: the numbers history must give for it.
type checkoutTallies struct {
	Total, Covered, Contradicted, Uncovered int
	Tiers                                   map[string]int
	Counts                                  map[string]int
	Codes                                   map[string]int
	Processes, Performed, Manual, Gap       int
}

func tallyCheckout(t *testing.T, repo *gittest.Repo, hash string) checkoutTallies {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "harness") // the folder name is the instance name
	if !repo.Checkout(hash, "corpora/harness", dir) {
		t.Fatalf("commit %s has no corpus", hash)
	}
	out, errs, code := runCLI(t, "coverage", "--corpus", dir, "--format", "json")
	if code != 0 {
		t.Fatalf("coverage on a checkout of %s: exit %d, %s", hash, code, errs)
	}
	var cov struct {
		Total        int
		Covered      []string
		Contradicted []string
		Uncovered    int
		Tiers        []struct {
			Tier  string
			Count int
		}
	}
	if err := json.Unmarshal([]byte(out), &cov); err != nil {
		t.Fatal(err)
	}
	ct := checkoutTallies{Total: cov.Total, Covered: len(cov.Covered), Contradicted: len(cov.Contradicted), Uncovered: cov.Uncovered,
		Tiers: map[string]int{}, Codes: map[string]int{}}
	for _, tier := range cov.Tiers {
		ct.Tiers[tier.Tier] = tier.Count
	}
	out, errs, code = runCLI(t, "check", "--corpus", dir, "--format", "json", "--fail-on", "info")
	if code != 1 && code != 0 {
		t.Fatalf("check on a checkout of %s: exit %d, %s", hash, code, errs)
	}
	var chk struct {
		Findings []struct{ Code string }
		Counts   map[string]int
	}
	if err := json.Unmarshal([]byte(out), &chk); err != nil {
		t.Fatal(err)
	}
	ct.Counts = chk.Counts
	for _, f := range chk.Findings {
		ct.Codes[f.Code]++
	}
	out, errs, code = runCLI(t, "coverage", "--corpus", dir, "--format", "json", "--workflows")
	if code != 0 {
		t.Fatalf("coverage --workflows on a checkout of %s: exit %d, %s", hash, code, errs)
	}
	var wf struct {
		Workflows []struct{ Performed, Manual, Gap int }
	}
	if err := json.Unmarshal([]byte(out), &wf); err != nil {
		t.Fatal(err)
	}
	for _, w := range wf.Workflows {
		ct.Processes++
		ct.Performed += w.Performed
		ct.Manual += w.Manual
		ct.Gap += w.Gap
	}
	return ct
}

// fromHistory is the same numbers out of a history point.
func fromHistory(p history.Point) checkoutTallies {
	t := p.Tallies
	return checkoutTallies{Total: t.Coverage.Total, Covered: t.Coverage.Covered, Contradicted: t.Coverage.Contradicted,
		Uncovered: t.Coverage.Uncovered, Tiers: t.Coverage.Tiers,
		Counts: map[string]int{"error": t.Findings.Error, "warning": t.Findings.Warning, "info": t.Findings.Info},
		Codes:  t.Findings.ByCode, Processes: t.Workflows.Processes, Performed: t.Workflows.Performed, Manual: t.Workflows.Manual, Gap: t.Workflows.Gap}
}

// TestHistoryEqualsCheckouts: history gives, at every commit that changed
// the corpus and at no other, exactly the numbers coverage and check give
// on a checkout of that commit (and its per-package counts are the
// checkout's snapshot's); each edit moves the numbers it should, and
// a rename moves none.
func TestHistoryEqualsCheckouts(t *testing.T) {
	repo, corpus, hashes, names := historyRepo(t)
	out, errs, code := runCLI(t, "history", "--corpus", corpus, "--format", "json")
	if code != 0 {
		t.Fatalf("history: exit %d, %s", code, errs)
	}
	var points []history.Point
	if err := json.Unmarshal([]byte(out), &points); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	var want []string
	for i, n := range names {
		if !strings.Contains(n, "outside the corpus") && !strings.Contains(n, "README") {
			want = append(want, hashes[i])
		}
	}
	var got []string
	for _, p := range points {
		got = append(got, p.Commit)
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("history visited %v, want the commits that changed the corpus %v", got, want)
	}
	byName := map[string]history.Tallies{}
	for i, p := range points {
		name := names[indexOf(hashes, p.Commit)]
		byName[name] = p.Tallies
		if w, g := tallyCheckout(t, repo, p.Commit), fromHistory(p); !reflect.DeepEqual(g, w) {
			t.Errorf("point %d (%s): history says\n%+v\na checkout says\n%+v", i, name, g, w)
		}
		dir := filepath.Join(t.TempDir(), "harness")
		repo.Checkout(p.Commit, "corpora/harness", dir)
		if want := history.Of(querytest.Build(t, dir)).Packages; len(want) == 0 || !reflect.DeepEqual(p.Tallies.Packages, want) {
			t.Errorf("point %d (%s): history's packages\n%+v\na checkout's\n%+v", i, name, p.Tallies.Packages, want)
		}
	}
	add, brk, entry, rename := byName["add a Tool"], byName["break a contract"], byName["remove an entry point"], byName["rename a file"]
	if base := byName["add the harness"]; add.Reachability.Tools != base.Reachability.Tools+1 {
		t.Errorf("add a Tool: %d Tools, want %d", add.Reachability.Tools, base.Reachability.Tools+1)
	}
	if brk.Coverage.Contradicted <= add.Coverage.Contradicted && reflect.DeepEqual(brk.Findings, add.Findings) {
		t.Errorf("break a contract changed neither the contradicted skills nor the findings: %+v", brk.Coverage)
	}
	if entry.Reachability.UnreachableTools <= brk.Reachability.UnreachableTools {
		t.Errorf("remove an entry point: %d unreachable Tools, was %d", entry.Reachability.UnreachableTools, brk.Reachability.UnreachableTools)
	}
	if !reflect.DeepEqual(rename, entry) {
		t.Errorf("a rename is a dip:\n%+v\nwas\n%+v", rename, entry)
	}
}

func indexOf(xs []string, x string) int {
	for i, y := range xs {
		if y == x {
			return i
		}
	}
	return -1
}

// TestHistoryRangesAndFormats: --since (a revision or a date), --until and
// --every choose the commits; csv and text carry the same numbers; bad
// input is exit 2.
func TestHistoryRangesAndFormats(t *testing.T) {
	_, corpus, hashes, names := historyRepo(t)
	commits := func(args ...string) []string {
		t.Helper()
		out, errs, code := runCLI(t, append([]string{"history", "--corpus", corpus, "--format", "json"}, args...)...)
		if code != 0 {
			t.Fatalf("%v: exit %d, %s", args, code, errs)
		}
		var ps []history.Point
		if err := json.Unmarshal([]byte(out), &ps); err != nil {
			t.Fatal(err)
		}
		var names []string
		for _, p := range ps {
			names = append(names, p.Subject)
		}
		return names
	}
	at := func(name string) string { return hashes[indexOf(names, name)] }
	for _, tc := range []struct {
		args []string
		want []string
	}{
		{nil, []string{"add the harness", "add a Tool", "break a contract", "remove an entry point", "rename a file", "a file becomes a folder"}},
		{[]string{"--since", at("break a contract")}, []string{"break a contract", "remove an entry point", "rename a file", "a file becomes a folder"}},
		{[]string{"--since", at("outside the corpus again")}, []string{"break a contract", "remove an entry point", "rename a file", "a file becomes a folder"}},
		{[]string{"--until", at("remove an entry point")[:10]}, []string{"add the harness", "add a Tool", "break a contract", "remove an entry point"}},
		{[]string{"--since", "2026-01-01T16:30:00Z"}, []string{"break a contract", "remove an entry point", "rename a file", "a file becomes a folder"}},
		{[]string{"--every", "4"}, []string{"add the harness", "rename a file", "a file becomes a folder"}},
		{[]string{"--until", at("a README outside the corpus")}, nil},
	} {
		if got := commits(tc.args...); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%v: %q, want %q", tc.args, got, tc.want)
		}
	}

	out, _, code := runCLI(t, "history", "--corpus", corpus, "--format", "csv")
	rows, err := csv.NewReader(strings.NewReader(out)).ReadAll()
	if err != nil || code != 0 || len(rows) != 7 {
		t.Fatalf("csv: exit %d, %d rows, %v\n%s", code, len(rows), err, out)
	}
	if rows[0][0] != "commit" || rows[0][4] != "skills" || rows[1][2] != "add the harness" || rows[1][4] != "21" {
		t.Errorf("csv rows: %q / %q", rows[0], rows[1])
	}
	out, _, code = runCLI(t, "history", "--corpus", corpus)
	if code != 0 || !strings.Contains(out, at("add a Tool")[:12]) || !strings.Contains(out, "rename a file") || !strings.Contains(out, "findings +") {
		t.Errorf("text: exit %d\n%s", code, out)
	}

	for _, bad := range [][]string{
		{"history"},
		{"history", "--corpus", t.TempDir()}, // in no repository
		{"history", "--corpus", corpus, "--every", "0"},
		{"history", "--corpus", corpus, "--format", "xml"},
		{"history", "--corpus", corpus, "--since", "no-such-rev"},
		{"history", "--corpus", corpus, "--until", "no-such-rev"},
		{"history", "--corpus", corpus, "--store", "memory"},
	} {
		if _, errs, code := runCLI(t, bad...); code != 2 || errs == "" {
			t.Errorf("%v: exit %d (%s), want 2 with a message", bad, code, errs)
		}
	}
}

// TestHistoryChangesEqualDiff: `history --format json` gives, at each point
// after the first, the change list `diff --format json` gives between
// checkouts of the previous point's commit and this one's (its "failing"
// aside, which depends on --fail-on): which skills became uncovered,
// which Tools lost reachability, new and fixed findings; the first point
// has none, and text and csv compute none.
func TestHistoryChangesEqualDiff(t *testing.T) {
	repo, corpus, _, _ := historyRepo(t)
	out, errs, code := runCLI(t, "history", "--corpus", corpus, "--format", "json")
	if code != 0 {
		t.Fatalf("history: exit %d, %s", code, errs)
	}
	var points []struct {
		Commit  string
		Subject string
		Changes map[string]any
	}
	if err := json.Unmarshal([]byte(out), &points); err != nil {
		t.Fatal(err)
	}
	if len(points) < 3 || points[0].Changes != nil {
		t.Fatalf("%d points, the first with changes %v", len(points), points[0].Changes)
	}
	checkout := func(hash string) string {
		dir := filepath.Join(t.TempDir(), "harness") // the folder name is the instance name
		if !repo.Checkout(hash, "corpora/harness", dir) {
			if err := os.MkdirAll(dir, 0o755); err != nil {
				t.Fatal(err)
			}
		}
		return dir
	}
	someChange := false
	for i := 1; i < len(points); i++ {
		p := points[i]
		got, errs, code := runCLI(t, "diff", "--base", checkout(points[i-1].Commit), "--corpus", checkout(p.Commit), "--format", "json")
		if code > 1 {
			t.Fatalf("%s: diff: exit %d, %s", p.Subject, code, errs)
		}
		var want map[string]any
		if err := json.Unmarshal([]byte(got), &want); err != nil {
			t.Fatal(err)
		}
		delete(want, "failing")
		if !reflect.DeepEqual(p.Changes, want) {
			a, _ := json.MarshalIndent(p.Changes, "", " ")
			t.Errorf("%s: history's changes\n%s\ndiff says\n%s", p.Subject, a, got)
		}
		if n, _ := p.Changes["newlyUnreachableTools"].([]any); len(n) > 0 {
			someChange = true
		}
	}
	if !someChange {
		t.Error("no point lost a Tool's reachability: the test compares empty lists only")
	}
	if out, _, _ := runCLI(t, "history", "--corpus", corpus, "--format", "csv"); strings.Contains(out, "newlyUncovered") {
		t.Error("csv carries a change list")
	}
}
