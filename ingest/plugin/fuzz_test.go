package plugin

import (
	"strings"
	"testing"

	"github.com/skillgraph/skillgraph/ingest/record"
)

// FuzzReaders feeds one input to every reader of this package: none may
// panic (each recovers into an "internal error" finding, which is still a
// bug), and every finding has a registered code and a line.
func FuzzReaders(f *testing.F) {
	for _, s := range []string{
		`{"name": "p", "commands": ["./a"], "hooks": {"Stop": [{"hooks": [{"type": "command", "command": "${CLAUDE_PLUGIN_ROOT}/x.sh"}]}]}}`,
		`{"name": "m", "plugins": [{"name": "a", "source": "./a"}, {"name": "b", "source": {"source": "url", "url": "./"}}]}`,
		`{"mcpServers": {"a": {"command": "x", "args": ["1"]}, "b": {"type": "http", "url": "u"}}}`,
		`{"hooks": {"PreToolUse": [{"matcher": "*", "hooks": [{"type": "command", "command": "a"}]}]}}`,
		"---\nname: a\ndescription: x: y\ntools: Read\n---\nbody",
		"---\nallowed-tools: [Read, mcp__a__b]\n---\n",
		`{"a": [1, {"b": null}], "plugins": "x"}`,
		"",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		c := Context{Plugin: "p", Name: "p", Exists: func(string) bool { return true }}
		for _, out := range []record.File{
			ParseManifest("p/.claude-plugin/plugin.json", data, c),
			ParseMarketplace(".claude-plugin/marketplace.json", data, c),
			ParseHooks("p/hooks/hooks.json", data, c),
			ParseMcpConfig("p/.mcp.json", data, c),
			ParseCommand("p/commands/a.md", data, c, "p/commands"),
			ParseAgent("p/agents/a.md", data, c),
		} {
			for _, fd := range out.Findings {
				if strings.Contains(fd.Message, "internal error") {
					t.Fatalf("%s: %s", out.Parser, fd.Message)
				}
				if _, ok := record.Lookup(fd.Code); !ok || fd.Line < 1 {
					t.Fatalf("%s: finding %+v has an unregistered code or no line", out.Parser, fd)
				}
			}
		}
		_ = ReadManifest(data)
		_ = Entries(".claude-plugin/marketplace.json", data)
	})
}
