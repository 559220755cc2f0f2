package discover

import (
	"context"
	"github.com/skillgraph/skillgraph/ingest/corpustest"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/skillgraph/skillgraph/ingest/record"
)

func sources(c *Corpus) map[string]Source {
	m := map[string]Source{}
	for _, s := range c.Sources {
		m[s.Path] = s
	}
	return m
}

// TestHostLayout reads a marketplace repository as the hosts do (SPEC
// §1.3): every SKILL.md is a skill and the other files of its folder its
// resources (a nested SKILL.md is a skill of its own), documents and
// workflows are never read, a plugin's components come from their default
// places and its manifest's paths, and what no reader reads is reported
// once per folder.
func TestHostLayout(t *testing.T) {
	root := corpustest.Write(t, map[string]string{
		".claude-plugin/marketplace.json":                   `{"name": "m", "plugins": [{"name": "a", "source": "./plugins/a"}, {"name": "lsp", "source": "./plugins/lsp"}]}`,
		".github/workflows/ci.yml":                          "on: push\njobs: {}\n",
		"README.md":                                         "# m\n",
		"plugins/a/.claude-plugin/plugin.json":              `{"name": "a", "commands": ["./more/x.md"], "agents": "./crew"}`,
		"plugins/a/.codex-plugin/plugin.json":               `{"name": "a"}`,
		"plugins/a/.cursor-plugin/plugin.json":              `{"name": "a"}`,
		"plugins/a/README.md":                               "# a\n",
		"plugins/a/CHANGELOG.md":                            "# 1.0\n",
		"plugins/a/commands/go.md":                          "---\ndescription: go\n---\n",
		"plugins/a/commands/git/commit.md":                  "---\ndescription: c\n---\n",
		"plugins/a/commands/README.md":                      "commands of a\n",
		"plugins/a/more/x.md":                               "x\n",
		"plugins/a/agents/rev.md":                           "---\nname: rev\ndescription: d\n---\n",
		"plugins/a/agents/deep/not-an-agent.md":             "---\nname: no\n---\n",
		"plugins/a/crew/pilot.md":                           "---\nname: pilot\ndescription: d\n---\n",
		"plugins/a/hooks/hooks.json":                        `{"hooks": {}}`,
		"plugins/a/hooks/run.sh":                            "exit 0\n",
		"plugins/a/.mcp.json":                               `{"s": {"command": "x"}}`,
		"plugins/a/skills/s1/SKILL.md":                      "---\nname: s1\ndescription: d\n---\n",
		"plugins/a/skills/s1/references/guide.md":           "# guide\n",
		"plugins/a/skills/s1/CHANGELOG.md":                  "# c\n",
		"plugins/a/skills/s1/scripts/run.py":                "print()\n",
		"plugins/a/skills/s1/inner/SKILL.md":                "---\nname: inner\ndescription: d\n---\n",
		"plugins/a/skills/s1/inner/notes.md":                "notes\n",
		"plugins/a/skills/s1/agents/helper.md":              "an example agent of the skill, a resource\n",
		"plugins/a/skills/loose.md":                         "# not a skill to the hosts: no SKILL.md\n",
		"skills/harness-one.md":                             "# A harness skill: the root skills/ tree holds no SKILL.md\n",
		"plugins/lsp/README.md":                             "# lsp\n",
		"plugins/orphan/.claude-plugin/plugin.json":         `{"name": "orphan"}`,
		"assets/logo.png":                                   "png",
		"assets/deep/more.svg":                              "svg",
		"node_modules/x/skills/y/SKILL.md":                  "---\nname: y\n---\n",
		"docs/guide.md":                                     "# guide\n",
		"plugins/a/skills/s1/references/README.md":          "resource index\n",
		"plugins/a/skills/s1/references/nested/deep.md":     "deep\n",
		"plugins/a/skills/s1/inner/references/checklist.md": "- x\n",
	})
	c, err := Load(context.Background(), root, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	got := map[string]string{}
	for p, s := range sources(c) {
		got[p] = s.Kind
	}
	want := map[string]string{
		".claude-plugin/marketplace.json":           KindMarketplace,
		"plugins/a/.claude-plugin/plugin.json":      KindPlugin,
		"plugins/a/.codex-plugin/plugin.json":       KindPlugin,
		"plugins/a/commands/go.md":                  KindCommand,
		"plugins/a/commands/git/commit.md":          KindCommand,
		"plugins/a/more/x.md":                       KindCommand,
		"plugins/a/agents/rev.md":                   KindAgent,
		"plugins/a/crew/pilot.md":                   KindAgent,
		"plugins/a/hooks/hooks.json":                KindHooks,
		"plugins/a/.mcp.json":                       KindMcpConfig,
		"plugins/a/skills/s1/SKILL.md":              KindSkill,
		"plugins/a/skills/s1/inner/SKILL.md":        KindSkill,
		"skills/harness-one.md":                     KindSkill,
		"plugins/orphan/.claude-plugin/plugin.json": KindPlugin,
	}
	for p, k := range want {
		if got[p] != k {
			t.Errorf("%s: read as %q, want %q", p, got[p], k)
		}
	}
	for p, k := range got {
		if _, ok := want[p]; !ok {
			t.Errorf("%s read as %s: not a component", p, k)
		}
	}
	src := sources(c)
	s1 := src["plugins/a/skills/s1/SKILL.md"]
	wantRes := []string{"plugins/a/skills/s1/CHANGELOG.md", "plugins/a/skills/s1/agents/helper.md", "plugins/a/skills/s1/references/README.md",
		"plugins/a/skills/s1/references/guide.md", "plugins/a/skills/s1/references/nested/deep.md", "plugins/a/skills/s1/scripts/run.py"}
	if !slices.Equal(s1.Resources, wantRes) {
		t.Errorf("s1 resources %v\nwant %v", s1.Resources, wantRes)
	}
	inner := src["plugins/a/skills/s1/inner/SKILL.md"]
	if !slices.Equal(inner.Resources, []string{"plugins/a/skills/s1/inner/notes.md", "plugins/a/skills/s1/inner/references/checklist.md"}) {
		t.Errorf("inner resources %v", inner.Resources)
	}
	if s1.Package != "a" || s1.Plugin != "plugins/a" || !slices.Equal(s1.Hosts, []string{"claude-code", "codex", "cursor"}) {
		t.Errorf("s1 context: package %q plugin %q hosts %v", s1.Package, s1.Plugin, s1.Hosts)
	}
	if cm := src["plugins/a/commands/git/commit.md"]; cm.Dir != "plugins/a/commands" {
		t.Errorf("command dir %q", cm.Dir)
	}
	if !src["plugins/a/.codex-plugin/plugin.json"].Secondary || src["plugins/a/.claude-plugin/plugin.json"].Secondary {
		t.Error("the Claude Code manifest is the plugin's; the Codex one beside it is secondary")
	}
	var notRead []string
	for _, f := range c.Findings {
		if f.Code == record.CodeFileNotRead {
			notRead = append(notRead, f.File)
		}
	}
	sort.Strings(notRead)
	// One per folder: assets/ as a whole, docs/, the hooks folder's
	// script, the agents folder's nested file.
	wantNR := []string{"assets/deep/more.svg", "docs/guide.md", "plugins/a/agents/deep/not-an-agent.md", "plugins/a/hooks/run.sh", "plugins/a/skills/loose.md"}
	if !slices.Equal(notRead, wantNR) {
		t.Errorf("file-not-read on %v\nwant %v", notRead, wantNR)
	}
	for _, f := range c.Findings {
		if strings.HasPrefix(f.File, ".github/") || strings.HasSuffix(f.File, "README.md") || strings.Contains(f.File, "node_modules") {
			t.Errorf("finding on a file that is no component: %+v", f)
		}
	}
}

// TestProjectLayout: a root with .claude/ is a project; its commands are
// /<stem>, and its .mcp.json is read.
func TestProjectLayout(t *testing.T) {
	root := corpustest.Write(t, map[string]string{
		".claude/commands/deploy.md": "---\ndescription: d\n---\n",
		".claude/agents/a.md":        "---\nname: a\ndescription: d\n---\n",
		".claude/skills/x/SKILL.md":  "---\nname: x\ndescription: d\n---\n",
		".mcp.json":                  `{"mcpServers": {}}`,
	})
	c, err := Load(context.Background(), root, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	src := sources(c)
	for p, k := range map[string]string{".claude/commands/deploy.md": KindCommand, ".claude/agents/a.md": KindAgent,
		".claude/skills/x/SKILL.md": KindSkill, ".mcp.json": KindMcpConfig} {
		if src[p].Kind != k || src[p].Plugin != "" {
			t.Errorf("%s: %+v, want kind %s outside any plugin", p, src[p], k)
		}
	}
}

// TestIsDocument: the documents of SPEC §1.3, and names that only start
// like one.
func TestIsDocument(t *testing.T) {
	for _, n := range []string{"README.md", "readme.txt", "README-dev.md", "CHANGELOG.md", "LICENSE", "LICENSE-MIT", "LICENSE.txt",
		"NOTICE", "SECURITY.md", "CONTRIBUTING.md", "CODE_OF_CONDUCT.md", "AGENTS.md", "CLAUDE.md", "GEMINI.md"} {
		if !IsDocument(n) {
			t.Errorf("%s is a document", n)
		}
	}
	for _, n := range []string{"security-auditor.md", "readme-generator.md", "license-check.md", "SKILL.md", "notices.md"} {
		if IsDocument(n) {
			t.Errorf("%s is no document", n)
		}
	}
}
