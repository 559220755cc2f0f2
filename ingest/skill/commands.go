package skill

import (
	"regexp"
	"strings"

	"github.com/skillgraph/skillgraph/ingest/record"
)

// knownCLIs are the programs whose invocation in a skill's prose is a Tool
// the skill has swallowed (the harness document, checklist 1: "grep your own
// draft for vendor names, binaries, endpoints"). The value is the words
// that, after the program's name on a plain prose line, make the line an
// invocation; nil means inline code spans only (the name is also an English
// word or too generic: "make sure", "go to", "node of the graph"), and
// "*" means any next word that looks like an argument.
var knownCLIs = map[string][]string{
	"gh":    {"pr", "issue", "api", "repo", "run", "release", "workflow", "auth", "label", "search", "gist", "secret"},
	"beans": {"create", "update", "list", "show", "prime", "init", "archive", "delete", "query", "claim"},
	// git's subcommands are English verbs ("the git commit SHA changed"):
	// code spans only.
	"git":       nil,
	"kubectl":   {"*"},
	"helm":      {"install", "upgrade", "uninstall", "rollback", "template"},
	"npx":       {"*"},
	"curl":      {"https://", "http://"},
	"wget":      {"https://", "http://"},
	"docker":    {"run", "build", "push", "pull", "compose", "exec"},
	"terraform": {"init", "plan", "apply", "destroy"},
	"aws":       {"s3", "ec2", "iam", "lambda", "sts", "cloudformation", "ecr", "ecs"},
	"gcloud":    {"*"},
	"az":        nil,
	"npm":       {"install", "publish", "run"},
	"pnpm":      {"install", "publish", "run", "dlx"},
	"yarn":      nil,
	"bun":       {"run", "test", "install", "x"},
	"bunx":      {"*"},
	"uv":        {"run", "pip", "tool", "sync"},
	"uvx":       {"*"},
	"pip":       {"install"},
	"pip3":      {"install"},
	"python":    nil,
	"python3":   nil,
	"node":      nil,
	"deno":      {"run", "task"},
	"cargo":     {"run", "build", "install", "publish", "test"},
	"go":        nil,
	"make":      nil,
	"jq":        nil,
	"psql":      nil,
	"sqlite3":   nil,
	"ssh":       nil,
	"scp":       nil,
	"rsync":     nil,
	"brew":      {"install", "upgrade"},
	"apt-get":   {"install"},
	"vercel":    {"deploy", "env", "link"},
	"fly":       {"deploy", "secrets"},
	"stripe":    nil,
	"jira":      nil,
	"linear":    nil,
}

// KnownCLI reports whether program is in the parser's table of known CLIs
// (record.Invocation.Known is set from it).
func KnownCLI(program string) bool { _, ok := knownCLIs[program]; return ok }

// allowMarker is the HTML comment that marks a program's mentions in a file
// as deliberate: <!-- skillgraph: allow gh git -->.
var allowMarker = regexp.MustCompile(`<!--\s*skillgraph:\s*allow\s+([^>]*?)\s*-->`)

// programWord is what a program name looks like: a lower-case word, maybe
// with digits, dots, dashes or underscores (apt-get, python3, redis-cli).
var programWord = regexp.MustCompile(`^[a-z][a-z0-9._-]*$`)

// packageWord is what follows npx, bunx, kubectl… when it is an argument:
// a word or an npm package name (@scope/name).
var packageWord = regexp.MustCompile(`^@?[a-z][a-z0-9._/-]*$`)

// proseCommands finds the command invocations in a skill's prose: each inline
// code span whose first word is a program (`gh pr create`, `$ beans list`),
// and each plain line where a known CLI is followed by one of its
// subcommands (gh pr create, curl https://…). Fenced blocks are not prose:
// shell blocks are evidence of their own, other blocks are examples. A
// program named in an allow marker of the file is left out. Unknown programs
// of code spans are kept (Known false): the analysis counts them when a
// declared Tool runs that program.
func (p *parser) proseCommands() []record.Invocation {
	lines := p.bodyLines()
	inFence := make([]bool, len(lines))
	for _, f := range p.body.Fences {
		end := f.Line + len(f.Content) // closing fence line (1-based file lines)
		for l := f.Line; l <= end; l++ {
			if i := l - 1 - p.fm.BodyIdx; i >= 0 && i < len(lines) {
				inFence[i] = true
			}
		}
	}
	allowed := map[string]bool{}
	for _, l := range p.lines {
		for _, m := range allowMarker.FindAllStringSubmatch(l, -1) {
			for _, w := range strings.FieldsFunc(m[1], func(r rune) bool { return r == ' ' || r == ',' || r == '\t' }) {
				allowed[w] = true
			}
		}
	}
	var out []record.Invocation
	add := func(text string, line int, plain bool) {
		text = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(text), "$ "))
		words := strings.Fields(text)
		if len(words) == 0 {
			return
		}
		prog := words[0]
		if !programWord.MatchString(prog) || allowed[prog] || strings.HasSuffix(prog, ".") {
			return
		}
		_, known := knownCLIs[prog]
		if plain && !known {
			return
		}
		if len(words) < 2 {
			// A one-word span (`beans`, `jq`) names the program; an
			// invocation has at least a subcommand or an argument.
			return
		}
		if len(text) > 200 {
			text = text[:200]
		}
		out = append(out, record.Invocation{Program: prog, Text: text, Line: line, Known: known})
	}
	for i, l := range lines {
		if inFence[i] {
			continue
		}
		line := p.fm.BodyIdx + i + 1
		spans, rest := codeSpans(l)
		for _, s := range spans {
			add(s, line, false)
		}
		for _, inv := range plainInvocations(rest) {
			add(inv, line, true)
		}
	}
	return out
}

// codeSpans returns the contents of the single-backtick code spans of a
// line and the line with the spans blanked out.
func codeSpans(l string) (spans []string, rest string) {
	var b strings.Builder
	for {
		i := strings.IndexByte(l, '`')
		if i < 0 {
			b.WriteString(l)
			break
		}
		n := 1
		for i+n < len(l) && l[i+n] == '`' {
			n++
		}
		delim := l[i : i+n]
		j := strings.Index(l[i+n:], delim)
		if j < 0 {
			b.WriteString(l)
			break
		}
		b.WriteString(l[:i])
		b.WriteByte(' ')
		spans = append(spans, l[i+n:i+n+j])
		l = l[i+n+j+n:]
	}
	return spans, b.String()
}

// plainInvocations finds known CLIs followed by one of their subcommands on
// a prose line (code spans already blanked), and returns each from the
// program's name to the end of its clause.
func plainInvocations(l string) []string {
	words := strings.Fields(l)
	var out []string
	for i := 0; i+1 < len(words); i++ {
		prog := strings.TrimLeft(words[i], "(\"'*_")
		subs, ok := knownCLIs[prog]
		if !ok || subs == nil || (prog != words[i] && !strings.HasPrefix(words[i], "(")) {
			continue
		}
		next := strings.TrimRight(words[i+1], ".,;:)\"'*_")
		if !subcommand(subs, next) {
			continue
		}
		end := i + 2
		for end < len(words) && end < i+6 && !strings.ContainsAny(words[end-1][len(words[end-1])-1:], ".,;:)") {
			end++
		}
		out = append(out, strings.TrimRight(prog+" "+strings.Join(words[i+1:end], " "), ".,;:)\"'*_"))
		i = end - 1
	}
	return out
}

// subcommand reports whether next, after a known CLI on a plain line, makes
// the line an invocation.
func subcommand(subs []string, next string) bool {
	for _, s := range subs {
		switch {
		case s == "*":
			if packageWord.MatchString(next) && !commonWords[next] {
				return true
			}
		case strings.HasSuffix(s, "://"):
			if strings.HasPrefix(next, s) {
				return true
			}
		case next == s:
			return true
		}
	}
	return false
}

// commonWords are English words that follow a CLI's name in prose without
// invoking it ("kubectl is installed", "npx and bunx").
var commonWords = map[string]bool{
	"is": true, "are": true, "and": true, "or": true, "to": true, "the": true, "a": true, "an": true,
	"of": true, "in": true, "on": true, "with": true, "for": true, "was": true, "will": true, "can": true,
	"must": true, "should": true, "may": true, "not": true, "itself": true, "binary": true, "command": true,
	"commands": true, "cli": true, "installed": true, "version": true, "that": true, "which": true, "as": true,
}
