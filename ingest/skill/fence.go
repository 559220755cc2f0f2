package skill

import "strings"

// fence is one fenced code block of the markdown body.
type fence struct {
	Line    int    // 1-based file line of the opening fence
	Info    string // info string, trimmed
	Content []string
	Closed  bool
}

// word returns the first word of the info string, lower-cased.
func (f fence) word() string {
	w, _, _ := strings.Cut(f.Info, " ")
	w, _, _ = strings.Cut(w, "\t")
	w, _, _ = strings.Cut(w, "{") // ```bash{.line-numbers}
	return strings.ToLower(w)
}

// isTool reports whether the info string is exactly "tool".
func (f fence) isTool() bool { return f.Info == "tool" }

// isShell reports whether the block is a sh, bash or console block.
func (f fence) isShell() bool {
	switch f.word() {
	case "sh", "bash", "console":
		return true
	}
	return false
}

// body is the scanned markdown body of a skill file.
type body struct {
	Fences []fence
	Title  string // first "# " heading outside fences
}

// openFence parses an opening fence line: the fence char, its length and the
// info string. Leading whitespace is allowed (fences inside list items).
func openFence(line string) (ch byte, n int, info string, ok bool) {
	t := strings.TrimLeft(line, " \t")
	if len(t) < 3 || (t[0] != '`' && t[0] != '~') {
		return 0, 0, "", false
	}
	ch = t[0]
	for n < len(t) && t[n] == ch {
		n++
	}
	if n < 3 {
		return 0, 0, "", false
	}
	info = strings.TrimSpace(t[n:])
	if ch == '`' && strings.Contains(info, "`") {
		return 0, 0, "", false
	}
	return ch, n, info, true
}

// closesFence reports whether line closes a fence of ch repeated n times.
func closesFence(line string, ch byte, n int) bool {
	t := strings.TrimLeft(line, " \t")
	k := 0
	for k < len(t) && t[k] == ch {
		k++
	}
	return k >= n && strings.TrimSpace(t[k:]) == ""
}

// scanBody finds the fenced blocks and the title in lines[start:]. Line
// numbers are file lines (index + 1).
func scanBody(lines []string, start int) body {
	var b body
	for i := start; i < len(lines); i++ {
		line := lines[i]
		ch, n, info, ok := openFence(line)
		if !ok {
			if b.Title == "" {
				b.Title = heading(line)
			}
			continue
		}
		f := fence{Line: i + 1, Info: info}
		j := i + 1
		for ; j < len(lines); j++ {
			if closesFence(lines[j], ch, n) {
				f.Closed = true
				break
			}
		}
		f.Content = lines[i+1 : min(j, len(lines))]
		b.Fences = append(b.Fences, f)
		i = j
	}
	return b
}

// heading returns the text of a level-1 ATX heading ("# Title"), else "".
func heading(line string) string {
	t := strings.TrimLeft(line, " ")
	if len(line)-len(t) > 3 || !strings.HasPrefix(t, "# ") {
		return ""
	}
	t = strings.TrimSpace(t[2:])
	// Strip an optional closing sequence: "# Title #".
	if s := strings.TrimRight(t, "#"); s != t && (s == "" || strings.HasSuffix(s, " ")) {
		t = strings.TrimSpace(s)
	}
	return t
}

// shellLines lists the opening lines of sh/bash/console blocks.
func (b body) shellLines() []int {
	var out []int
	for _, f := range b.Fences {
		if f.isShell() {
			out = append(out, f.Line)
		}
	}
	return out
}

// hasToolFence reports whether the body holds a ```tool fence.
func (b body) hasToolFence() bool {
	for _, f := range b.Fences {
		if f.isTool() {
			return true
		}
	}
	return false
}

// countLines counts the lines of text (a trailing newline ends the last
// line; it does not start a new one).
func countLines(lines []string) int {
	n := len(lines)
	if n > 0 && lines[n-1] == "" {
		n--
	}
	return n
}
