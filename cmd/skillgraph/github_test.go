package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestCheckGitHubAnnotations: --format github writes one workflow command
// per finding (::error/::warning/::notice with file, line and title), the
// file relative to the checkout's root, the message escaped so that a
// newline or a comma cannot end or split the command, and exits as the
// text format does.
func TestCheckGitHubAnnotations(t *testing.T) {
	repo := write(t, map[string]string{
		"harness/tools/bad.yaml":  "id: bad\nsatisfies: [nowhere]\ninvoke:\n  shell: [bad]\n",
		"harness/skills/ops/a.md": "# A skill\n",
	})
	if err := os.Mkdir(filepath.Join(repo, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Chdir(filepath.Join(repo, "harness"))
	out, errs, code := runCLI(t, "check", "--corpus", ".", "--format", "github")
	if code != 1 {
		t.Fatalf("exit %d, want 1 (an error finding); stderr %s", code, errs)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	re := regexp.MustCompile(`^::(error|warning|notice) (file=[^,:]+,line=\d+,)?title=skillgraph [a-z-]+::[^\n]+$`)
	found := false
	for _, l := range lines[:len(lines)-1] {
		if !re.MatchString(l) {
			t.Errorf("not a workflow command: %q", l)
		}
		if strings.HasPrefix(l, "::error file=harness/tools/bad.yaml,line=2,title=skillgraph satisfies-unknown-skill::") {
			found = true
		}
	}
	if !found {
		t.Errorf("no error annotation on harness/tools/bad.yaml line 2:\n%s", out)
	}
	if !strings.HasSuffix(lines[len(lines)-1], "info") || !strings.Contains(lines[len(lines)-1], "errors,") {
		t.Errorf("no summary line: %q", lines[len(lines)-1])
	}
	if got := escapeData("a\nb%c"); got != "a%0Ab%25c" {
		t.Errorf("escapeData: %q", got)
	}
	if got := escapeProperty("a,b:c"); got != "a%2Cb%3Ac" {
		t.Errorf("escapeProperty: %q", got)
	}
}
