package safety

import (
	"bytes"
	"fmt"
	"regexp"
	"sort"
	"strings"

	"github.com/skillgraph/skillgraph/ingest/record"
)

// Where a pattern applies.
const (
	// inDescriptions: Tool files, MCP tools/list snapshots and the front
	// matter of skills, commands and agents — the text a host loads into
	// the model's context as what a tool or skill is.
	inDescriptions = 1 << iota
	// inBodies: the prose of skills, commands and agents (outside fenced
	// code). A body is instructions by design, so only the shapes no
	// honest instruction has apply there.
	inBodies
)

// instruction is one tool-poisoning shape: text addressed to the model
// that overrides its instructions, hides from the user, or sends data
// away. The shapes are the ones the published attacks use (Invariant
// Labs' tool-poisoning notification and mcp-scan, the MCP security
// write-ups): docs/content-safety.md lists them with an example each.
type instruction struct {
	name  string
	where int
	// words are lower-case literals one of which every match contains:
	// the expression runs only around them (find).
	words []string
	re    *regexp.Regexp
}

// sensitiveFiles are the files a poisoned description asks the model to
// read and pass on: keys, credentials and the host's own MCP config.
const sensitiveFiles = `(?:~/\.ssh|\.ssh/|id_rsa|id_ed25519|id_ecdsa|\.aws/credentials|\.env\b|mcp\.json|\.netrc|\.npmrc|\.pypirc|\.pgpass|/etc/passwd|/etc/shadow|\.git-credentials|\.docker/config\.json|\.kube/config|\.gnupg)`

// endOfObject is where a concealment's object ends: "do not tell the
// user." hides something; "never tell the user to reinstall" says what to
// tell.
const endOfObject = `(?:\s+(?:about\s+(?:this|it|these|that)|that\s+you|what\s+you|you\s+(?:have|are|did|used|read)))?\s*(?:[.,;:)!"'` + "`" + `]|$)`

// sensitiveWords are literals of sensitiveFiles, one in every match.
var sensitiveWords = []string{".ssh", "id_rsa", "id_ed25519", "id_ecdsa", ".aws", ".env", "mcp.json", ".netrc", ".npmrc", ".pypirc", ".pgpass", "/etc/", ".git-credentials", ".docker", ".kube", ".gnupg"}

// instructions is the table of shapes, in the order a line is tried.
var instructions = []instruction{
	{"instruction override", inDescriptions | inBodies, []string{"ignore", "disregard", "forget"}, regexp.MustCompile(
		`(?i)\b(?:ignore|disregard|forget)\s+(?:all\s+|any\s+)?(?:of\s+)?(?:the\s+|your\s+|my\s+)?(?:previous|prior|preceding|above|earlier)\s+(?:instructions?|prompts?|rules|directions|guidelines|messages)` +
			`|(?i)\b(?:ignore|disregard)\s+(?:the\s+|your\s+)system\s+prompt`)},
	{"concealment from the user", inDescriptions | inBodies, []string{"user"}, regexp.MustCompile(
		`(?i)\b(?:do\s+not|don'?t|never)\s+(?:tell|inform|notify|alert)\s+the\s+user` + endOfObject +
			`|(?i)\bthe\s+user\s+(?:must|should)\s+(?:not|never)\s+(?:know|see|find\s+out|be\s+told)\b` +
			`|(?i)\b(?:keep|hide)\s+(?:this|it)\s+(?:secret\s+|hidden\s+)?from\s+the\s+user`)},
	{"concealment from the user", inDescriptions, []string{"user", "mention"}, regexp.MustCompile(
		`(?i)\bwithout\s+(?:telling|informing|notifying|alerting)\s+the\s+user|\b(?:do\s+not|don'?t|never)\s+mention\s+(?:that|this|it)\b`)},
	{"hidden instruction block", inDescriptions, []string{"important", "system", "instruction", "hidden", "secret", "admin"}, regexp.MustCompile(
		`(?i)<\s*(important|system|instructions?|hidden|secret|admin)\s*>`)},
	{"precondition aimed at the model", inDescriptions, []string{"before", "otherwise"}, regexp.MustCompile(
		`(?i)\bbefore\s+(?:using|calling|invoking)\s+(?:this|the|any)\s+tool,?\s+(?:you\s+must\s+|first\s+|always\s+)?(?:read|call|run|pass|send|include|fetch|open|execute)\b|\botherwise\s+(?:the|this)\s+tool\s+will\s+not\s+work`)},
	{"read of a sensitive file", inDescriptions, sensitiveWords, regexp.MustCompile(
		`(?i)\b(?:read|pass|send|include|provide|attach|upload|forward|paste|share|concatenate|append|exfiltrate|collect|extract|contents?\s+of)\b[^\n,;!?]{0,40}?` + sensitiveFiles)},
	{"exfiltration URL", inDescriptions, []string{"http"}, regexp.MustCompile(
		`(?i)(?:\b(?:send|post|upload|forward|append|include|fetch|visit|open|load|render|embed|request)\b[^\n]{0,80}?|!\[[^\]\n]*\]\()https?://[^\s"'<>)]+\?[^\s"'<>)]*=(?:\{\{?[^}\s]+\}\}?|\$\{?[A-Za-z_][A-Za-z0-9_]*\}?|<[^>\s]+>|\[[A-Za-z_ ]+\])`)},
}

// notProse are front-matter keys whose values are permissions or
// settings, not text the model reads as instructions (Read(.env) is a
// permission, not a request).
var notProse = map[string]bool{"allowed-tools": true, "allowed_tools": true, "allowedTools": true, "tools": true,
	"disallowed-tools": true, "disallowedTools": true, "model": true, "hooks": true, "mcpServers": true}

var fmKey = regexp.MustCompile(`^([A-Za-z_][A-Za-z0-9_-]*)\s*:`)

// quoted reports whether byte i of a line is inside quotes (straight
// double quotes, backticks or curly quotes): a body that quotes an attack
// is discussing it.
func quoted(line []byte, i int) bool {
	var dq, bt, open int
	for j, r := range string(line[:i]) {
		switch r {
		case '"':
			if j == 0 || line[j-1] != '\\' {
				dq++
			}
		case '`':
			bt++
		case '“', '‘':
			open++
		case '”', '’':
			if open > 0 {
				open--
			}
		}
	}
	return dq%2 == 1 || bt%2 == 1 || open > 0
}

// instructions reports the tool-poisoning shapes of the file's text, one
// finding per line (the first shape that matches it).
func (t *text) instructions() []record.Finding {
	var out []record.Finding
	fence := false
	key := "" // the front-matter key a line belongs to
	for line := 1; line <= len(t.lines); line++ {
		lt := t.lineText(line)
		off := t.lines[line-1]
		where := 0
		switch {
		case t.kind == kindTool || t.kind == kindMCP:
			where = inDescriptions
		case t.kind == kindSkill || t.kind == kindCommand || t.kind == kindAgent:
			if t.inFrontMatter(off) {
				if m := fmKey.FindSubmatch(lt); m != nil {
					key = string(m[1])
				}
				if !notProse[key] {
					where = inDescriptions
				}
				break
			}
			if t.fmEnd > 0 && off < t.fmEnd+4 {
				continue // the closing --- line
			}
			trimmed := bytes.TrimLeft(lt, " \t")
			if bytes.HasPrefix(trimmed, []byte("```")) || bytes.HasPrefix(trimmed, []byte("~~~")) {
				fence = !fence
				continue
			}
			if !fence {
				where = inBodies
			}
		}
		if where == 0 {
			continue
		}
		for _, in := range instructions {
			if in.where&where == 0 {
				continue
			}
			m := find(in.re, lt, t.lowerLine(line), in.words)
			if m == nil || (where == inBodies && quoted(lt, m[0])) {
				continue
			}
			if len(m) > 2 && m[2] >= 0 && !t.closes(string(lt[m[2]:m[3]]), off+m[1]) {
				continue // <system> with no </system>: a placeholder, not a block
			}
			_, col := t.pos(off + m[0])
			span := string(lt[m[0]:m[1]])
			out = append(out, record.New(record.CodeContentHiddenInstruction, t.path, line, "",
				fmt.Sprintf("%s at column %d: %s — text aimed at the model that a user who approves the tool or skill does not read", in.name, col, quote(span, 100))))
			break
		}
	}
	return capped(out, record.CodeContentHiddenInstruction, t.path, "lines with hidden instructions")
}

// closes reports whether a closing tag </name> follows byte offset from.
func (t *text) closes(name string, from int) bool {
	return bytes.Contains(t.lowered()[min(from, len(t.data)):], []byte("</"+strings.ToLower(name)+">"))
}

// window is how far around a literal an expression looks: more than the
// longest match of the table but a URL's tail.
const window = 400

// maxWindows bounds the windows one line is searched in for one literal:
// a line is searched around the first 256 occurrences of each (a 4 MiB
// line of "user user …" costs 256 windows, not 4 MiB of automaton).
const maxWindows = 256

// find is the first match of re in line among the windows around the
// occurrences of words in lower (the line lower-cased): a 4 MiB line
// without them costs a byte search, not an automaton's pass.
func find(re *regexp.Regexp, line, lower []byte, words []string) []int {
	var wins [][2]int
	for _, w := range words {
		for i := 0; i < len(lower); {
			j := bytes.Index(lower[i:], []byte(w))
			if j < 0 {
				break
			}
			p := i + j
			wins = append(wins, [2]int{max(0, p-window), min(len(line), p+len(w)+window)})
			if len(wins) >= maxWindows {
				break
			}
			i = p + len(w)
		}
	}
	if len(wins) == 0 {
		return nil
	}
	sort.Slice(wins, func(i, j int) bool { return wins[i][0] < wins[j][0] })
	merged := wins[:1]
	for _, w := range wins[1:] {
		last := &merged[len(merged)-1]
		if w[0] <= last[1] {
			last[1] = max(last[1], w[1])
			continue
		}
		merged = append(merged, w)
	}
	for _, w := range merged {
		if m := re.FindSubmatchIndex(line[w[0]:w[1]]); m != nil {
			for k := range m {
				if m[k] >= 0 {
					m[k] += w[0]
				}
			}
			return m
		}
	}
	return nil
}
