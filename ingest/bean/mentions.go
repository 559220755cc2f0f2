package bean

import (
	"path"
	"regexp"
	"strings"
)

// nameRE is what a backticked mention must look like: one word that could
// be a skill, Tool, process or bean id (no spaces, not an option or a
// sentence). Whether it names anything is decided later against the graph.
var nameRE = regexp.MustCompile(`^[A-Za-z0-9_@][A-Za-z0-9_.:/@+-]{0,199}$`)

// Mentions returns, in order of first appearance and without repeats, the
// names a Markdown body mentions: the text of single-backtick code spans
// that looks like a name, and the file stems of relative links (a link to
// a SKILL.md names its folder). Fenced code blocks, images and links with
// a scheme or an absolute path are ignored. The strings are raw: they are
// resolved against the graph later.
func Mentions(body string) []string {
	var out []string
	seen := map[string]bool{}
	add := func(s string) {
		if s != "" && !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	fence := ""
	for line := range strings.SplitSeq(body, "\n") {
		trimmed := strings.TrimLeft(line, " ")
		if fence != "" {
			if strings.HasPrefix(trimmed, fence) && strings.Trim(trimmed, fence[:1]+" \t") == "" {
				fence = ""
			}
			continue
		}
		if len(line)-len(trimmed) <= 3 && (strings.HasPrefix(trimmed, "```") || strings.HasPrefix(trimmed, "~~~")) {
			fence = trimmed[:3] + strings.Repeat(trimmed[:1], len(trimmed)-len(strings.TrimLeft(trimmed, trimmed[:1]))-3)
			continue
		}
		rest := codeSpans(line, func(code string) {
			if code = strings.TrimSpace(code); nameRE.MatchString(code) {
				add(code)
			}
		})
		linkTargets(rest, func(target string) { add(linkStem(target)) })
	}
	return out
}

// codeSpans calls f with the content of each single-backtick code span of
// line and returns the line with every code span removed. A span opened by
// a run of n backticks is closed by the next run of exactly n; runs are
// matched in one pass, so hostile lines stay linear.
func codeSpans(line string, f func(string)) string {
	if !strings.Contains(line, "`") {
		return line
	}
	type span struct{ at, n int }
	var runs []span
	byLen := map[int][]int{} // run length → indexes into runs, in order
	for i := 0; i < len(line); {
		if line[i] != '`' {
			i++
			continue
		}
		n := 1
		for i+n < len(line) && line[i+n] == '`' {
			n++
		}
		byLen[n] = append(byLen[n], len(runs))
		runs = append(runs, span{i, n})
		i += n
	}
	next := map[int]int{} // run length → first unconsumed position in byLen
	var rest strings.Builder
	pos := 0
	for k := 0; k < len(runs); k++ {
		r := runs[k]
		if r.at < pos {
			continue
		}
		q := byLen[r.n]
		j := next[r.n]
		for j < len(q) && q[j] <= k {
			j++
		}
		next[r.n] = j
		if j == len(q) {
			continue // no closing run: literal backticks
		}
		c := runs[q[j]]
		rest.WriteString(line[pos:r.at])
		if r.n == 1 {
			f(line[r.at+1 : c.at])
		}
		pos = c.at + c.n
		k = q[j]
	}
	rest.WriteString(line[pos:])
	return rest.String()
}

// linkTargets calls f with the target of each inline link [text](target "title")
// of line; images are skipped. Every byte is looked at a bounded number of
// times, so hostile lines stay linear.
func linkTargets(line string, f func(string)) {
	open := -1
	noAngle := false
	for i := 0; i+1 < len(line); i++ {
		switch {
		case line[i] == '[':
			open = i
			continue
		case line[i] != ']' || line[i+1] != '(' || open < 0:
			continue
		}
		image := open > 0 && line[open-1] == '!'
		open = -1
		j := i + 2
		for j < len(line) && (line[j] == ' ' || line[j] == '\t') {
			j++
		}
		var target string
		k := j
		if j < len(line) && line[j] == '<' && !noAngle {
			e := strings.IndexByte(line[j+1:], '>')
			if e < 0 {
				noAngle = true
				continue
			}
			target, k = line[j+1:j+1+e], j+2+e
		} else {
			for k < len(line) && line[k] != ')' && line[k] != ' ' && line[k] != '\t' {
				k++
			}
			target = line[j:k]
		}
		c := strings.IndexByte(line[k:], ')')
		if c < 0 {
			return // no ')' left: no link can close
		}
		if !image {
			f(target)
		}
		i = k + c
	}
}

// linkStem returns the file stem a relative link target names, or "".
func linkStem(target string) string {
	if i := strings.IndexAny(target, "#?"); i >= 0 {
		target = target[:i]
	}
	if target == "" || strings.HasPrefix(target, "/") || strings.Contains(target, ":") {
		return ""
	}
	target = strings.TrimSuffix(target, "/")
	base := path.Base(target)
	if strings.EqualFold(base, "SKILL.md") {
		if dir := path.Base(path.Dir(target)); dir != "." && dir != ".." && dir != "/" {
			return dir
		}
		return ""
	}
	if i := strings.LastIndexByte(base, '.'); i > 0 {
		base = base[:i]
	}
	if base == "." || base == ".." || base == "" {
		return ""
	}
	return base
}
