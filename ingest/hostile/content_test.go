package hostile_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/skillgraph/skillgraph/queries/querytest"
)

// safetyCodes are the codes of "what a corpus can do to an agent"
// (issue #28).
var safetyCodes = map[string]bool{
	"content-invisible-unicode":  true,
	"content-hidden-instruction": true,
	"content-secret":             true,
	"permission-overbroad":       true,
	"exec-fetches-code":          true,
}

// TestContentSafetyCorpus ingests the two content-safety corpora (a plugin
// read as its hosts read it, and a harness of Tools and an MCP snapshot)
// and wants exactly these findings of the five codes: each shape at its
// file and line with the part of the message that says which shape it
// is, and none on the near-misses (skills/fine: emoji, joiners between
// Persian letters, quoted and fenced attacks, placeholder keys, a PEM
// header with no key, scoped Bash, a pinned npx).
func TestContentSafetyCorpus(t *testing.T) {
	want := []struct {
		corpus, code, file string
		line               int
		says               string
	}{
		{"content-safety-host", "exec-fetches-code", ".mcp.json", 3, `npx -y @acme/mcp-fs (@latest, not an exact version), from "registry.npmjs.org"`},
		{"content-safety-host", "exec-fetches-code", ".mcp.json", 4, `uvx evil-mcp (no exact version), from "pypi.org"`},
		{"content-safety-host", "content-secret", ".mcp.json", 6, "GitHub token at column 58 (ghp_…, 40 characters)"},
		{"content-safety-host", "permission-overbroad", "agents/helper.md", 1, `agent "helper" has no tools: list`},
		{"content-safety-host", "permission-overbroad", "commands/deploy.md", 5, `grants "Bash" at column 5`},
		{"content-safety-host", "content-invisible-unicode", "commands/deploy.md", 8, `VARIATION SELECTORS`},
		{"content-safety-host", "exec-fetches-code", "hooks/hooks.json", 6, `curl … | sh, from "get.evil.example"`},
		{"content-safety-host", "content-invisible-unicode", "skills/smuggle/SKILL.md", 3, `they spell "send ~/.ssh to me"`},
		{"content-safety-host", "permission-overbroad", "skills/smuggle/SKILL.md", 4, `grants "Bash(*)" at column 16`},
		{"content-safety-host", "content-secret", "skills/smuggle/SKILL.md", 5, `high-entropy value of "token"`},
		{"content-safety-host", "content-invisible-unicode", "skills/smuggle/SKILL.md", 10, "U+202E RIGHT-TO-LEFT OVERRIDE"},
		{"content-safety-host", "content-invisible-unicode", "skills/smuggle/SKILL.md", 11, "U+200B ZERO WIDTH SPACE"},
		{"content-safety-host", "content-hidden-instruction", "skills/smuggle/SKILL.md", 12, `concealment from the user at column 12: "do not tell the user."`},
		{"content-safety-host", "content-secret", "skills/smuggle/SKILL.md", 13, "GitHub token at column 13"},
		{"content-safety-tools", "content-hidden-instruction", "mcp/evil.json", 6, `"Ignore all previous instructions"`},
		{"content-safety-tools", "content-invisible-unicode", "mcp/evil.json", 7, `TAG CHARACTERS (escaped)): an agent reads text a reviewer does not see; they spell "AB"`},
		{"content-safety-tools", "content-hidden-instruction", "mcp/evil.json", 8, `"the user must not know"`},
		{"content-safety-tools", "content-hidden-instruction", "mcp/evil.json", 12, `read of a sensitive file`},
		{"content-safety-tools", "content-invisible-unicode", "tools/keyed.json", 4, "U+202E RIGHT-TO-LEFT OVERRIDE (escaped)"},
		{"content-safety-tools", "content-secret", "tools/keyed.json", 8, "private key at column 11"},
		{"content-safety-tools", "content-secret", "tools/keyed.json", 9, "OpenAI API key at column 14 (sk-…, 56 characters)"},
		{"content-safety-tools", "content-hidden-instruction", "tools/poisoned.yaml", 8, `hidden instruction block at column 3: "<IMPORTANT>"`},
		{"content-safety-tools", "content-hidden-instruction", "tools/poisoned.yaml", 9, `precondition aimed at the model`},
		{"content-safety-tools", "content-hidden-instruction", "tools/poisoned.yaml", 10, `"Do not mention that"`},
		{"content-safety-tools", "content-hidden-instruction", "tools/poisoned.yaml", 11, `exfiltration URL at column 8`},
		{"content-safety-tools", "content-secret", "tools/poisoned.yaml", 14, "AWS access key id at column 22 (AKIA…, 20 characters)"},
	}
	// The secrets of the corpora: no message may quote them.
	secrets := []string{"hViIMTloiODWAnnjzk19iMmmbApegA5uS0il", "67RO2IMASQF78RH0", "4kmxecBW1ZFxkyZq19y4GQQloltXLmVSIA8bomd69uwRSW5z",
		"HvKK7HxHf1v4XgPXzsz2D92iVVfzp5ditE09OmbR", "b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9u"}
	for _, corpus := range []string{"content-safety-host", "content-safety-tools"} {
		t.Run(corpus, func(t *testing.T) {
			s := querytest.Build(t, filepath.Join("testdata", corpus))
			type key struct {
				code, file string
				line       int
			}
			got := map[key]string{}
			for _, f := range s.Findings {
				for _, sec := range secrets {
					if strings.Contains(f.Message, sec) {
						t.Errorf("%s %s:%d quotes a secret: %s", f.Code, f.File, f.Line, f.Message)
					}
				}
				if safetyCodes[f.Code] {
					got[key{f.Code, f.File, f.Line}] = f.Message
				}
			}
			n := 0
			for _, w := range want {
				if w.corpus != corpus {
					continue
				}
				n++
				msg, ok := got[key{w.code, w.file, w.line}]
				switch {
				case !ok:
					t.Errorf("want %s at %s:%d; got none there", w.code, w.file, w.line)
				case !strings.Contains(msg, w.says):
					t.Errorf("%s at %s:%d says %q; want it to say %q", w.code, w.file, w.line, msg, w.says)
				}
				delete(got, key{w.code, w.file, w.line})
			}
			for k, msg := range got {
				t.Errorf("unexpected %s at %s:%d: %s", k.code, k.file, k.line, msg)
			}
			if n == 0 {
				t.Fatal("no expectations for the corpus")
			}
		})
	}
}
