package queries_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/skillgraph/skillgraph/ingest/corpustest"
	"github.com/skillgraph/skillgraph/queries/querytest"
)

// TestSwallowedTools: a program a skill's prose invokes (code span or plain
// line) is skill-swallowed-tool at its first line and tier-C evidence,
// unless a Tool satisfying the skill runs it, allowed-tools grants it or a
// marker allows it; an unknown program counts once a declared Tool runs it.
func TestSwallowedTools(t *testing.T) {
	tool := func(id, sat string, shell ...string) string {
		return fmt.Sprintf(`{"id": %q, "title": "t", "satisfies": [%q], "install": {"none": true}, "invoke": {"shell": ["%s"]}}`,
			id, sat, strings.Join(shell, `", "`))
	}
	root := corpustest.Write(t, map[string]string{
		"skills/core/open-pr.md":  "---\nname: open-pr\ndescription: d\n---\n# Open a PR\n\nRun `gh pr create --fill` when done.\nThen gh pr merge it.\n",
		"skills/core/covered.md":  "---\nname: covered\ndescription: d\n---\n# Covered\n\nRun `gh pr create`.\n",
		"skills/core/allowed.md":  "---\nname: allowed\ndescription: d\n---\n# Allowed\n\n<!-- skillgraph: allow gh -->\nRun `gh pr create`.\n",
		"skills/core/unknown.md":  "---\nname: unknown\ndescription: d\n---\n# Unknown\n\nRun `frobnicate --all` and `zork it`.\n",
		"skills/core/linked.md":   "---\nname: linked\ndescription: d\n---\n# Linked\n\nRun `zork it`.\n",
		"skills/core/fenced.md":   "---\nname: fenced\ndescription: d\n---\n# Fenced\n\n```text\ngh pr create\n```\nThe `gh` binary; `beans` too.\n",
		"skills/core/endpoint.md": "---\nname: endpoint\ndescription: d\n---\n# Endpoint\n\nFetch it: curl https://api.example.test/x and save.\n",
		"tools/gh.json":           tool("gh-pr", "covered", "gh", "pr", "create"),
		"tools/zork.json":         tool("zork", "linked", "/usr/bin/zork", "it"),
	})
	s := querytest.Build(t, root)
	var got []string
	for _, f := range s.Findings {
		if f.Code == "skill-swallowed-tool" {
			got = append(got, fmt.Sprintf("%s:%d %s", f.File, f.Line, f.Severity))
			if f.File == "skills/core/open-pr.md" && (!strings.Contains(f.Message, `"gh pr create --fill"; also line 8`) || !strings.Contains(f.Message, "allow gh")) {
				t.Errorf("message %q", f.Message)
			}
		}
	}
	slices.Sort(got)
	want := []string{"skills/core/endpoint.md:7 warning", "skills/core/open-pr.md:7 warning", "skills/core/unknown.md:7 warning"}
	if !slices.Equal(got, want) {
		t.Errorf("skill-swallowed-tool at %v, want %v", got, want)
	}
	for _, sk := range s.Skills {
		has := slices.ContainsFunc(sk.Evidence, func(e string) bool { return strings.HasPrefix(e, "prose-command:") })
		if wantEv := sk.ID == "open-pr" || sk.ID == "unknown" || sk.ID == "endpoint"; has != wantEv || (wantEv && sk.Tier != "C") {
			t.Errorf("skill %s: tier %s evidence %v", sk.ID, sk.Tier, sk.Evidence)
		}
	}
}
