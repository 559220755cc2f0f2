package safety

import (
	"bytes"
	"fmt"
	"regexp"
	"strings"

	"github.com/skillgraph/skillgraph/ingest/record"
)

// allowedKey is the front-matter key of the tools a skill or command runs
// without asking (Claude Code's allowed-tools; the spellings seen in use).
var allowedKey = regexp.MustCompile(`^(allowed-tools|allowed_tools|allowedTools)\s*:(.*)$`)

// unrestrictedBash is a Bash permission with no command pattern: every
// shell command runs without the user being asked.
var unrestrictedBash = regexp.MustCompile(`^Bash(?:\(\s*(?:\*|\*\s*:\s*\*|:\s*\*)?\s*\))?$`)

// permissions reports allowed-tools entries that allow every shell
// command, in the front matter of skills and commands.
func (t *text) permissions() []record.Finding {
	if (t.kind != kindSkill && t.kind != kindCommand) || t.fmEnd == 0 {
		return nil
	}
	var out []record.Finding
	first := t.lineOf(t.fmStart)
	last := t.lineOf(t.fmEnd - 1)
	for line := first; line <= last; line++ {
		m := allowedKey.FindSubmatchIndex(t.lineText(line))
		if m == nil {
			continue
		}
		key := string(t.lineText(line)[m[2]:m[3]])
		// The inline value, then a block list under the key.
		items := []span{{line, m[4], string(t.lineText(line)[m[4]:])}}
		for l := line + 1; l <= last; l++ {
			lt := t.lineText(l)
			trimmed := bytes.TrimLeft(lt, " \t")
			if len(trimmed) == len(lt) && len(trimmed) > 0 {
				break // the next key
			}
			if bytes.HasPrefix(trimmed, []byte("- ")) {
				items = append(items, span{l, len(lt) - len(trimmed) + 2, string(trimmed[2:])})
			}
		}
		for _, it := range items {
			for _, tok := range tokens(it.text) {
				if !unrestrictedBash.MatchString(tok.text) {
					continue
				}
				_, col := t.pos(t.lines[it.line-1] + it.col + tok.col)
				out = append(out, record.New(record.CodePermissionOverbroad, t.path, it.line, "",
					fmt.Sprintf("%s grants %q at column %d: every shell command runs without the user being asked; name the commands (Bash(git status:*))", key, tok.text, col)))
			}
		}
	}
	return capped(out, record.CodePermissionOverbroad, t.path, "over-broad permissions")
}

// span is text of one line starting at a byte column (0-based).
type span struct {
	line, col int
	text      string
}

// token is one entry of a tool list and its byte column in the value.
type token struct {
	col  int
	text string
}

// tokens splits an allowed-tools value: entries are separated by commas
// or spaces outside parentheses (Bash(git add:*) holds a space), and
// YAML's brackets and quotes around them are not part of them.
func tokens(v string) []token {
	var out []token
	depth, start := 0, -1
	flush := func(end int) {
		if start >= 0 {
			s := v[start:end]
			lead := len(s) - len(strings.TrimLeft(s, `"'[`))
			s = strings.Trim(s, `"'[]`)
			if s != "" {
				out = append(out, token{start + lead, s})
			}
		}
		start = -1
	}
	for i, r := range v {
		switch {
		case r == '(':
			depth++
		case r == ')':
			depth = max(depth-1, 0)
		case r == '#' && depth == 0 && (i == 0 || v[i-1] == ' '):
			flush(i)
			return out // a YAML comment
		case (r == ',' || r == ' ' || r == '\t') && depth == 0:
			flush(i)
			continue
		}
		if start < 0 {
			start = i
		}
	}
	flush(len(v))
	return out
}
