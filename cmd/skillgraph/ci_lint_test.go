package main

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/rhysd/actionlint"
)

// TestCIWorkflowsLint runs actionlint (the linter GitHub workflow authors
// use) over every workflow of docs/ci.md and over a workflow that calls the
// repository's composite action (action.yml) with each of its inputs: the
// job a user copies must lint clean, and action.yml must be a valid action
// whose inputs the workflow can set (issue 25.4).
func TestCIWorkflowsLint(t *testing.T) {
	docs, err := os.ReadFile("../../docs/ci.md")
	if err != nil {
		t.Fatal(err)
	}
	action, err := os.ReadFile("../../action.yml")
	if err != nil {
		t.Fatal(err)
	}
	repo := t.TempDir()
	wf := filepath.Join(repo, ".github", "workflows")
	if err := os.MkdirAll(wf, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(repo, "action.yml"), action, 0o644); err != nil {
		t.Fatal(err)
	}
	blocks := regexp.MustCompile("(?s)```yaml\n(.*?)```").FindAllSubmatch(docs, -1)
	var files []string
	for i, b := range blocks {
		y := string(b[1])
		if !strings.Contains(y, "jobs:") {
			continue
		}
		if !strings.Contains(y, "\non:") && !strings.HasPrefix(y, "on:") {
			y = "name: from-docs\non: [pull_request]\n" + y // a jobs-only excerpt
		}
		p := filepath.Join(wf, "docs-"+string(rune('a'+i))+".yml")
		if err := os.WriteFile(p, []byte(y), 0o644); err != nil {
			t.Fatal(err)
		}
		files = append(files, p)
	}
	if len(files) < 2 {
		t.Fatalf("found %d workflows in docs/ci.md; the extraction no longer matches the docs", len(files))
	}
	local := `name: local
on: [pull_request]
permissions:
  contents: read
  security-events: write
jobs:
  gate:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
        with:
          fetch-depth: 0
      - uses: ./
        id: sg
        with:
          corpus: .
          fail-on: warning
          sarif: "false"
          diff-base: origin/${{ github.base_ref }}
          version: ""
      - run: echo "${{ steps.sg.outputs.diff-status }}"
`
	p := filepath.Join(wf, "local.yml")
	if err := os.WriteFile(p, []byte(local), 0o644); err != nil {
		t.Fatal(err)
	}
	files = append(files, p)
	var out bytes.Buffer
	l, err := actionlint.NewLinter(&out, &actionlint.LinterOptions{})
	if err != nil {
		t.Fatal(err)
	}
	t.Chdir(repo)
	errs, err := l.LintFiles(files, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range errs {
		t.Errorf("actionlint: %s:%d:%d: %s [%s]", filepath.Base(e.Filepath), e.Line, e.Column, e.Message, e.Kind)
	}
}
