package flow

import (
	"bufio"
	"bytes"
	"os/exec"
	"strings"
	"testing"
)

const module = "github.com/skillgraph/skillgraph"

// pkg is one package of the module as go list reports it.
type pkg struct {
	path    string // relative to the module
	doc     string
	hasCode bool // has non-test Go files
	imports []string
}

func listPackages(t *testing.T) []pkg {
	t.Helper()
	cmd := exec.Command("go", "list", "-f", "{{.ImportPath}}\t{{len .GoFiles}}\t{{join .Imports \" \"}}\t{{.Doc}}", module+"/...")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, stderr.String())
	}
	var pkgs []pkg
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		f := strings.SplitN(sc.Text(), "\t", 4)
		if len(f) != 4 {
			t.Fatalf("go list line %q", sc.Text())
		}
		p := pkg{path: rel(f[0]), hasCode: f[1] != "0", doc: f[3]}
		for _, im := range strings.Fields(f[2]) {
			if im == module || strings.HasPrefix(im, module+"/") {
				p.imports = append(p.imports, rel(im))
			}
		}
		pkgs = append(pkgs, p)
	}
	if len(pkgs) < 20 {
		t.Fatalf("only %d packages listed", len(pkgs))
	}
	return pkgs
}

func rel(path string) string { return strings.TrimPrefix(strings.TrimPrefix(path, module), "/") }

// TestNoImportRunsUpTheFlow: no package imports one of a later stage
// (test files may: a test of the snapshot ingests a corpus).
func TestNoImportRunsUpTheFlow(t *testing.T) {
	for _, p := range listPackages(t) {
		from := StageOf(p.path)
		if from < 0 {
			t.Errorf("%s is in no stage of the flow: place it in flow.Stages and docs/architecture.md", p.path)
			continue
		}
		for _, im := range p.imports {
			if to := StageOf(im); to > from {
				t.Errorf("%s (%s) imports %s (%s): an import up the flow", p.path, Stages[from].Name, im, Stages[to].Name)
			}
		}
	}
}

// TestTopFoldersImportOneWay: the top-level folders, each taken whole,
// import one another without a loop, so a picture of the tree by folder
// shows the flow one way too (issue 26.6: ingest/ held both the readers,
// below jsonld, and the orchestration above it, so ingest/ and jsonld/
// imported each other).
func TestTopFoldersImportOneWay(t *testing.T) {
	top := func(p string) string { f, _, _ := strings.Cut(p, "/"); return f }
	edges := map[string]map[string]string{} // folder → folder → an import making it
	for _, p := range listPackages(t) {
		for _, im := range p.imports {
			a, b := top(p.path), top(im)
			if a == b {
				continue
			}
			if edges[a] == nil {
				edges[a] = map[string]string{}
			}
			edges[a][b] = p.path + " → " + im
		}
	}
	// A folder on a loop reaches itself.
	for start := range edges {
		seen := map[string]bool{}
		var path []string
		var reach func(f string) bool
		reach = func(f string) bool {
			for next, why := range edges[f] {
				if next == start {
					path = append(path, why)
					return true
				}
				if !seen[next] {
					seen[next] = true
					if reach(next) {
						path = append(path, why)
						return true
					}
				}
			}
			return false
		}
		if reach(start) {
			t.Errorf("%s/ imports itself back through other folders: %s", start, strings.Join(path, "; "))
		}
	}
}

// TestEveryPackageSaysItsJob: each package with code has a doc comment.
func TestEveryPackageSaysItsJob(t *testing.T) {
	for _, p := range listPackages(t) {
		if p.hasCode && strings.TrimSpace(p.doc) == "" {
			t.Errorf("%s has no package doc comment saying its one job", p.path)
		}
	}
}

func TestStageOf(t *testing.T) {
	for path, want := range map[string]string{
		"schemas":                  "vocabulary",
		"ingest/record":            "records",
		"ingest/record/internal/x": "records",
		"ingest/skill":             "parsers",
		"ingest/gen":               "parsers",
		"ingest/gitsource":         "git objects",
		"ingest/gitsource/gittest": "git objects",
		"queries/history":          "snapshot",
		"graph/ingest":             "orchestration",
		"graph/checkpoint":         "store",
		"graph/backend/bolt":       "store",
		"graph/graphtest":          "store",
		"queries/diff":             "snapshot",
		"api":                      "graphql",
		"api/server/servertest":    "http",
		"cmd/skillgraph":           "programs",
	} {
		if i := StageOf(path); i < 0 || Stages[i].Name != want {
			t.Errorf("StageOf(%s) = %d, want %s", path, i, want)
		}
	}
	if StageOf("apiary") != -1 || StageOf("ingestion") != -1 || StageOf("ingest") != -1 {
		t.Error("a prefix matched a longer name")
	}
}
