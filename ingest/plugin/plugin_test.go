package plugin

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/skillgraph/skillgraph/ingest/record"
)

// codes lists a file's findings as code:line, sorted.
func codes(f record.File) []string {
	var out []string
	for _, x := range f.Findings {
		out = append(out, fmt.Sprintf("%s:%d", x.Code, x.Line))
	}
	slices.Sort(out)
	return out
}

func exists(paths ...string) func(string) bool {
	return func(p string) bool { return slices.Contains(paths, p) }
}

func TestParseManifest(t *testing.T) {
	cases := []struct {
		name, data string
		exists     []string
		want       []string
		plugin     string // the plugin's name, "" for none
	}{
		{"ok", `{"name": "review", "version": "1.0.0"}`, nil, nil, "review"},
		{"no name", `{"version": "1"}`, nil, []string{"plugin-invalid:1"}, "p"},
		{"not kebab", "{\n  \"name\": \"Bad_Name\"\n}", nil, []string{"plugin-invalid:2"}, "Bad_Name"},
		{"not json", "{\n  \"name\": \"x\",\n}", nil, []string{"parse-error:3"}, ""},
		{"not an object", `["name"]`, nil, []string{"plugin-invalid:1"}, ""},
		{"paths present", `{"name": "p", "commands": ["./c/a.md", "./c/b.md"], "agents": "./ag"}`,
			[]string{"plugins/p/c/a.md", "plugins/p/c/b.md", "plugins/p/ag"}, nil, "p"},
		{"path missing", "{\"name\": \"p\",\n \"skills\": \"./nowhere\"}", nil, []string{"plugin-path-missing:2"}, "p"},
		{"path escapes", `{"name": "p", "hooks": "../../../etc/hooks.json"}`, nil, []string{"path-escapes-root:1"}, "p"},
		{"plugin root variable", `{"name": "p", "hooks": "${CLAUDE_PLUGIN_ROOT}/h/hooks.json"}`, []string{"plugins/p/h/hooks.json"}, nil, "p"},
		{"inline servers and hooks", `{"name": "p", "mcpServers": {"s": {"command": "x"}}, "hooks": {"Stop": [{"hooks": [{"type": "command", "command": "echo"}]}]}}`, nil, nil, "p"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := ParseManifest("plugins/p/.claude-plugin/plugin.json", []byte(c.data), Context{Plugin: "plugins/p", Hosts: []string{"codex", "claude-code"}, Exists: exists(c.exists...)})
			if got := codes(f); !slices.Equal(got, c.want) {
				t.Errorf("findings %v, want %v", got, c.want)
			}
			if c.plugin == "" {
				if len(f.Plugins) != 0 {
					t.Errorf("plugins %+v, want none", f.Plugins)
				}
				return
			}
			if len(f.Plugins) != 1 || f.Plugins[0].Name != c.plugin || f.Plugins[0].Folder != "plugins/p" {
				t.Fatalf("plugins %+v, want one %q", f.Plugins, c.plugin)
			}
			if !slices.Equal(f.Plugins[0].Hosts, []string{"claude-code", "codex"}) {
				t.Errorf("hosts %v", f.Plugins[0].Hosts)
			}
		})
	}
	f := ParseManifest("p/.claude-plugin/plugin.json", []byte(`{"name": "p", "mcpServers": {"s": {"command": "x"}}, "hooks": {"Stop": [{"hooks": [{"type": "command", "command": "echo"}]}]}}`), Context{Plugin: "p"})
	if len(f.McpConfigs) != 1 || len(f.Hooks) != 1 {
		t.Errorf("inline components: %d servers, %d hooks; want 1 and 1", len(f.McpConfigs), len(f.Hooks))
	}
}

func TestReadManifestPaths(t *testing.T) {
	m := ReadManifest([]byte(`{"name": "p", "commands": ["./a", "b/"], "agents": "./x/y.md", "mcpServers": {"s": {}}}`))
	if m.Name != "p" || !slices.Equal(m.Paths["commands"], []string{"a", "b"}) || !slices.Equal(m.Paths["agents"], []string{"x/y.md"}) || len(m.Paths["mcpServers"]) != 0 {
		t.Fatalf("%+v", m)
	}
	if m := ReadManifest([]byte("not json")); m.Name != "" || len(m.Paths) != 0 {
		t.Fatalf("broken manifest: %+v", m)
	}
}

func TestParseMarketplace(t *testing.T) {
	data := `{
  "name": "m",
  "owner": {"name": "o"},
  "plugins": [
    {"name": "local-str", "source": "./plugins/a"},
    {"name": "local-obj", "source": {"source": "local", "path": "./plugins/b"}},
    {"name": "gh", "source": {"source": "github", "repo": "o/r"}},
    {"name": "git", "source": {"source": "git", "url": "https://example.org/r.git"}},
    {"name": "url", "source": {"source": "url", "url": "https://example.org/r.git"}},
    {"name": "sub", "source": {"source": "git-subdir", "url": "https://example.org/r.git", "path": "p/x"}},
    {"name": "npm", "source": {"source": "npm", "package": "@o/p"}},
    {"name": "here", "source": {"source": "url", "url": "./"}},
    {"name": "gone", "source": "./plugins/gone"},
    {"name": "local-str", "source": "./plugins/a"},
    {"source": "./plugins/a"},
    {"name": "nosource"},
    "just a string",
    {"name": "escape", "source": "../../outside"}
  ]
}`
	f := ParseMarketplace(".claude-plugin/marketplace.json", []byte(data), Context{Exists: exists("plugins/a", "plugins/b", "plugins/b/.claude-plugin/plugin.json", ".")})
	want := []string{"marketplace-invalid:15", "marketplace-invalid:16", "marketplace-invalid:17",
		"path-escapes-root:18", "plugin-duplicate:14", "plugin-source-missing:13",
		"plugin-source-remote:10", "plugin-source-remote:11", "plugin-source-remote:7", "plugin-source-remote:8", "plugin-source-remote:9"}
	slices.Sort(want)
	if got := codes(f); !slices.Equal(got, want) {
		t.Errorf("findings %v\nwant %v", got, want)
	}
	if len(f.Marketplaces) != 1 || f.Marketplaces[0].Name != "m" || f.Marketplaces[0].Owner != "o" {
		t.Fatalf("marketplace %+v", f.Marketplaces)
	}
	kinds := map[string]string{}
	for _, e := range f.Marketplaces[0].Entries {
		kinds[e.Name] = e.SourceKind + " " + e.Folder
	}
	for name, want := range map[string]string{"local-str": "local plugins/a", "local-obj": "local plugins/b", "gh": "github ",
		"git": "git ", "url": "url ", "sub": "git-subdir ", "npm": "npm ", "here": "local ."} {
		if kinds[name] != want {
			t.Errorf("entry %s: %q, want %q", name, kinds[name], want)
		}
	}
	// plugins/a and . have no manifest: their entries define the plugins;
	// plugins/b has one, which defines it.
	var defined []string
	for _, p := range f.Plugins {
		defined = append(defined, p.Name+"@"+p.Folder)
	}
	slices.Sort(defined)
	if !slices.Equal(defined, []string{"here@.", "local-str@plugins/a"}) {
		t.Errorf("plugins defined by entries: %v", defined)
	}
	if bad := ParseMarketplace(".claude-plugin/marketplace.json", []byte(`{"plugins": {}}`), Context{}); !slices.Equal(codes(bad), []string{"marketplace-invalid:1", "marketplace-invalid:1"}) {
		t.Errorf("no name, no list: %v", codes(bad))
	}
	if MarketplaceRoot(".agents/plugins/marketplace.json") != "." || MarketplaceRoot("x/.claude-plugin/marketplace.json") != "x" {
		t.Error("marketplace roots")
	}
}

func TestParseHooks(t *testing.T) {
	data := `{
  "description": "d",
  "hooks": {
    "PreToolUse": [
      {"matcher": "Bash", "hooks": [
        {"type": "command", "command": "${CLAUDE_PLUGIN_ROOT}/hooks/ok.sh"},
        {"type": "command", "command": "python3 \"${CLAUDE_PLUGIN_ROOT}/hooks/gone.py\" --x"},
        {"type": "command"},
        {"type": "prompt", "prompt": "is it safe?"},
        "nope"
      ]}
    ],
    "Stopp": [{"hooks": [{"type": "command", "command": "echo"}]}],
    "Stop": {"not": "a list"},
    "SessionStart": [{"matcher": "startup"}, 7]
  }
}`
	f := ParseHooks("plugins/p/hooks/hooks.json", []byte(data), Context{Plugin: "plugins/p", Name: "p", Exists: exists("plugins/p/hooks/ok.sh")})
	want := []string{"hook-event-unknown:13", "hook-invalid:10", "hook-invalid:14", "hook-invalid:15", "hook-invalid:15", "hook-invalid:8", "hook-script-missing:7"}
	if got := codes(f); !slices.Equal(got, want) {
		t.Errorf("findings %v\nwant %v", got, want)
	}
	if len(f.Hooks) != 5 {
		t.Fatalf("%d handlers, want 5: %+v", len(f.Hooks), f.Hooks)
	}
	if f.Hooks[0].Script != "plugins/p/hooks/ok.sh" || f.Hooks[0].Event != "PreToolUse" || f.Hooks[0].Matcher != "Bash" || f.Hooks[0].Package != "p" {
		t.Errorf("first handler %+v", f.Hooks[0])
	}
	// The event map itself, without {"hooks": …}, is read the same.
	flat := ParseHooks("h.json", []byte(`{"Stop": [{"hooks": [{"type": "command", "command": "echo"}]}]}`), Context{})
	if len(flat.Hooks) != 1 || len(flat.Findings) != 0 {
		t.Errorf("flat: %+v", flat)
	}
}

func TestParseMcpConfig(t *testing.T) {
	cases := []struct {
		name, data string
		servers    []string // name/transport
		want       []string
	}{
		{"wrapped", `{"mcpServers": {"gh": {"command": "npx", "args": ["-y", "x"]}, "web": {"type": "http", "url": "https://x/mcp"}}}`, []string{"gh/stdio", "web/http"}, nil},
		{"flat", `{"gh": {"command": "gh-mcp"}, "ev": {"type": "sse", "url": "https://x/sse"}}`, []string{"gh/stdio", "ev/sse"}, nil},
		{"url only", `{"a": {"url": "https://x"}}`, []string{"a/http"}, nil},
		{"neither", "{\n \"a\": {\"env\": {}}\n}", []string{"a/"}, []string{"mcp-config-invalid:2"}},
		{"http without url", `{"a": {"type": "http", "command": "x"}}`, []string{"a/http"}, []string{"mcp-config-invalid:1"}},
		{"server not an object", `{"a": "npx x"}`, nil, []string{"mcp-config-invalid:1"}},
		{"servers not an object", `{"mcpServers": []}`, nil, []string{"mcp-config-invalid:1"}},
		{"not json", `{`, nil, []string{"parse-error:1"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := ParseMcpConfig(".mcp.json", []byte(c.data), Context{})
			var got []string
			for _, s := range f.McpConfigs {
				got = append(got, s.Name+"/"+s.Transport)
			}
			if !slices.Equal(got, c.servers) {
				t.Errorf("servers %v, want %v", got, c.servers)
			}
			if g := codes(f); !slices.Equal(g, c.want) {
				t.Errorf("findings %v, want %v", g, c.want)
			}
		})
	}
}

func TestParseCommandAndAgent(t *testing.T) {
	c := ParseCommand("plugins/p/commands/git/commit.md", []byte("---\nallowed-tools: Bash(git add:*), Bash(git commit:*), mcp__gh__create_pr\ndescription: Commit\nargument-hint: [msg]\n---\nbody\n"),
		Context{Plugin: "plugins/p", Name: "p"}, "plugins/p/commands")
	if len(c.Commands) != 1 || c.Commands[0].Name != "/p:git:commit" || c.Commands[0].Description != "Commit" ||
		!slices.Equal(c.Commands[0].AllowedTools, []string{"Bash(git add:*)", "Bash(git commit:*)", "mcp__gh__create_pr"}) {
		t.Fatalf("command %+v", c.Commands)
	}
	if c.Commands[0].Refs.Line("allowedTools", "mcp__gh__create_pr") != 2 {
		t.Error("allowed-tools line")
	}
	if proj := ParseCommand(".claude/commands/deploy.md", []byte("no front matter\n"), Context{}, ".claude/commands"); proj.Commands[0].Name != "/deploy" || len(proj.Findings) != 0 {
		t.Errorf("project command %+v", proj)
	}
	a := ParseAgent("p/agents/r.md", []byte("---\nname: r\ndescription: Use this agent when: reviewing. Examples: Context: x\ntools: Read, Grep\nskills: [one, two]\n---\n"), Context{Plugin: "p", Name: "p"})
	if got := codes(a); !slices.Equal(got, []string{"frontmatter-not-yaml:3"}) {
		t.Errorf("lenient agent: %v", got)
	}
	if len(a.Agents) != 1 || a.Agents[0].Name != "r" || !strings.HasPrefix(a.Agents[0].Description, "Use this agent") || !slices.Equal(a.Agents[0].Tools, []string{"Read", "Grep"}) || a.Agents[0].AllTools {
		t.Fatalf("agent %+v", a.Agents)
	}
	b := ParseAgent("p/agents/all.md", []byte("---\nname: all\ndescription: d\nskills:\n  - one\n  - two\n---\n"), Context{})
	if len(b.Findings) != 0 || !b.Agents[0].AllTools || !slices.Equal(b.Agents[0].Skills, []string{"one", "two"}) {
		t.Errorf("agent without tools: %+v %v", b.Agents, codes(b))
	}
	bad := ParseAgent("p/agents/x.md", []byte("---\ntools: Read\n---\n"), Context{})
	if got := codes(bad); !slices.Equal(got, []string{"agent-invalid:1", "agent-invalid:1"}) || bad.Agents[0].Name != "x" {
		t.Errorf("agent without name and description: %v %+v", got, bad.Agents)
	}
	if bare := ParseAgent("p/agents/prompt.md", []byte("You are a reviewer.\n"), Context{}); !slices.Equal(codes(bare), []string{"agent-invalid:1"}) {
		t.Errorf("an agent without front matter is one finding: %v", codes(bare))
	}
	unclosed := ParseAgent("p/agents/u.md", []byte("---\nname: u\n"), Context{})
	if got := codes(unclosed); !slices.Contains(got, "parse-error:1") {
		t.Errorf("unclosed front matter: %v", got)
	}
}

func TestHostOf(t *testing.T) {
	for m, want := range map[string]string{".claude-plugin/plugin.json": "claude-code", "x/.codex-plugin/plugin.json": "codex",
		".cursor-plugin/plugin.json": "cursor", "gemini-extension.json": "gemini", ".kimi-plugin/plugin.json": "kimi"} {
		if got := HostOf(m); got != want {
			t.Errorf("HostOf(%s) = %s, want %s", m, got, want)
		}
	}
}
