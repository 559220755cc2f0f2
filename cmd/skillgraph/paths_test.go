package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestFindingPathsOneRule (issue 25.7, 23.7): text prints a finding's file
// relative to the working directory, json's `file` is relative to the
// --corpus folder (SPEC §9) and its `path` to the working directory, and
// SARIF stays relative to SRCROOT: one workspace instance below the
// --corpus folder included. Before, text and json printed the path relative
// to the instance ("tools/t.yaml"), which exists nowhere from the shell.
func TestFindingPathsOneRule(t *testing.T) {
	decl := `{"name": %q, "directories": [{"id": "s", "path": "skills", "graphTypologies": ["skills"]}, {"id": "t", "path": "tools", "graphTypologies": ["tools"]}]}`
	files := map[string]string{}
	for _, in := range []string{"a", "b"} {
		files["repo/"+in+"/harness.json"] = fmt.Sprintf(decl, in)
		files["repo/"+in+"/skills/core/deploy.md"] = "---\nname: deploy\ndescription: Deploys.\n---\nDeploy.\n"
		files["repo/"+in+"/tools/t.yaml"] = "tools:\n  - id: deployer\n    title: Deployer\n    description: Deploys.\n    satisfies: [deploy, nosuch]\n    install: none\n    invoke:\n      shell: [deploy]\n"
	}
	files["single/harness.json"] = fmt.Sprintf(decl, "single")
	files["single/skills/core/deploy.md"] = files["repo/a/skills/core/deploy.md"]
	files["single/tools/t.yaml"] = files["repo/a/tools/t.yaml"]
	top := write(t, files)
	tests := []struct {
		name, cwd, corpus string
		text, file, path  string // where the satisfies-unknown-skill of instance a (or single) is
	}{
		{"corpus below the working directory", ".", "single", "single/tools/t.yaml:5:", "tools/t.yaml", "single/tools/t.yaml"},
		{"working directory inside the corpus", "single/tools", "..", "t.yaml:5:", "tools/t.yaml", "t.yaml"},
		{"corpus beside the working directory", "repo", "../single", "../single/tools/t.yaml:5:", "tools/t.yaml", "../single/tools/t.yaml"},
		{"workspace instance", ".", "repo", "repo/a/tools/t.yaml:5:", "a/tools/t.yaml", "repo/a/tools/t.yaml"},
		{"workspace from its root", "repo", ".", "a/tools/t.yaml:5:", "a/tools/t.yaml", "a/tools/t.yaml"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Chdir(filepath.Join(top, tc.cwd))
			out, errs, code := runCLI(t, "check", "--corpus", tc.corpus)
			if code != 1 {
				t.Fatalf("exit %d: %s", code, errs)
			}
			var line string
			for _, l := range strings.Split(out, "\n") {
				if strings.Contains(l, "satisfies-unknown-skill") && !strings.Contains(l, "/b/") {
					line = l
					break
				}
			}
			if !strings.HasPrefix(line, tc.text+" error satisfies-unknown-skill") {
				t.Errorf("text line %q, want it to start with %q", line, tc.text)
			}
			if p := strings.TrimSuffix(tc.text, ":5:"); !exists(p) {
				t.Errorf("text path %s does not exist from the working directory", p)
			}
			out, _, _ = runCLI(t, "check", "--corpus", tc.corpus, "--format", "json")
			var got struct{ Findings []jsonFinding }
			if err := json.Unmarshal([]byte(out), &got); err != nil {
				t.Fatal(err)
			}
			var f *jsonFinding
			for i := range got.Findings {
				if got.Findings[i].Code == "satisfies-unknown-skill" && got.Findings[i].Instance != "b" {
					f = &got.Findings[i]
					break
				}
			}
			if f == nil || f.File != tc.file || f.Path != tc.path {
				t.Fatalf("json finding %+v, want file %q path %q", f, tc.file, tc.path)
			}
			out, _, _ = runCLI(t, "check", "--corpus", tc.corpus, "--format", "sarif")
			var log sarifLog
			if err := json.Unmarshal([]byte(out), &log); err != nil {
				t.Fatal(err)
			}
			// SARIF is relative to SRCROOT (here no git: the working
			// directory) when the file is inside it, else to its corpus.
			want := tc.path
			if strings.HasPrefix(want, "../") {
				want = tc.file
			}
			found := false
			for _, r := range log.Runs[0].Results {
				loc := r.Locations[0].PhysicalLocation.ArtifactLocation
				if r.RuleID == "satisfies-unknown-skill" && loc.URI == want {
					found = true
				}
			}
			if !found {
				t.Errorf("no SARIF satisfies-unknown-skill at %q:\n%s", want, out)
			}
		})
	}
}

func exists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}
