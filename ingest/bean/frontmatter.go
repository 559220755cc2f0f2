package bean

import (
	"bytes"
	"strings"
)

// frontMatter is the split of a bean file.
type frontMatter struct {
	yaml     string // the YAML between the fences
	closed   bool   // a closing fence was found
	body     string // the Markdown after the closing fence
	bodyLine int    // 1-based line of the body's first line
}

// normalize drops a UTF-8 byte-order mark and turns CRLF into LF; line
// numbers are unchanged.
func normalize(data []byte) string {
	data = bytes.TrimPrefix(data, []byte{0xEF, 0xBB, 0xBF})
	return strings.ReplaceAll(string(data), "\r\n", "\n")
}

// isFence reports whether line is a front-matter fence: three dashes (or
// three dots, to close), trailing blanks allowed.
func isFence(line string, closing bool) bool {
	line = strings.TrimRight(line, " \t\r")
	return line == "---" || (closing && line == "...")
}

// splitFrontMatter finds the front matter; ok is false when the text does
// not start with a fence.
func splitFrontMatter(text string) (frontMatter, bool) {
	first, rest, _ := strings.Cut(text, "\n")
	if !isFence(first, false) {
		return frontMatter{}, false
	}
	var fm frontMatter
	off, line := 0, 2
	for off <= len(rest) {
		end := strings.IndexByte(rest[off:], '\n')
		next := len(rest) + 1
		if end >= 0 {
			next = off + end + 1
		}
		cur := rest[off:min(next-1, len(rest))]
		if isFence(cur, true) {
			fm.yaml, fm.closed, fm.bodyLine = rest[:off], true, line+1
			if next <= len(rest) {
				fm.body = rest[next:]
			}
			return fm, true
		}
		off, line = next, line+1
	}
	return fm, true
}
