package skill

// isNameChar reports a character that may appear in a hard-skill param
// reference ($name): ASCII letter, digit or underscore.
func isNameChar(b byte) bool {
	return isLetter(b) || (b >= '0' && b <= '9') || b == '_'
}

// runVars lists the param names a run word references, in order: $name or
// ${name}. "$$" is a literal "$"; a "$" not followed by a name character (or
// by "{name}") is literal.
func runVars(w string) []string {
	var out []string
	for i := 0; i < len(w); i++ {
		if w[i] != '$' {
			continue
		}
		if i+1 >= len(w) {
			break
		}
		switch c := w[i+1]; {
		case c == '$':
			i++ // literal $
		case c == '{':
			if name, ok := braced(w, i+2); ok {
				out = append(out, name)
				i += 2 + len(name)
			}
		case isNameChar(c):
			j := i + 1
			for j < len(w) && isNameChar(w[j]) {
				j++
			}
			out = append(out, w[i+1:j])
			i = j - 1
		}
	}
	return out
}

// braced returns the name in s[start:] up to a closing "}" when it is made
// of name characters only (scanning stops at the first other character, so
// the scan stays linear).
func braced(s string, start int) (string, bool) {
	j := start
	for j < len(s) && isNameChar(s[j]) {
		j++
	}
	if j == start || j >= len(s) || s[j] != '}' {
		return "", false
	}
	return s[start:j], true
}

// allNameChars reports whether s is non-empty and all name characters.
func allNameChars(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !isNameChar(s[i]) {
			return false
		}
	}
	return true
}

// varRef is one ${name} skill-variable reference.
type varRef struct {
	Name string
	Line int
}

// skillVars lists the ${name} references of lines (name an identifier,
// ^[A-Za-z_][A-Za-z0-9_]*$), first is the file line of lines[0]. "$$" is a
// literal pair and starts no reference.
func skillVars(lines []string, first int) []varRef {
	var out []varRef
	for li, l := range lines {
		for i := 0; i+1 < len(l); i++ {
			if l[i] != '$' {
				continue
			}
			if l[i+1] == '$' {
				i++
				continue
			}
			if l[i+1] != '{' {
				continue
			}
			if name, ok := braced(l, i+2); ok && isIdent(name) {
				out = append(out, varRef{Name: name, Line: first + li})
				i += 2 + len(name)
			}
		}
	}
	return out
}

// isIdent reports ^[A-Za-z_][A-Za-z0-9_]*$.
func isIdent(s string) bool {
	return s != "" && !(s[0] >= '0' && s[0] <= '9') && allNameChars(s)
}
