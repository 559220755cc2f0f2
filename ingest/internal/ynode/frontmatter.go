package ynode

import (
	"strings"
)

// Lines normalises a markdown file for line counting and splits it: a
// UTF-8 byte-order mark is dropped, and CRLF and a lone CR each end a line
// (as in CommonMark and YAML), so that file lines, YAML lines and finding
// lines agree.
func Lines(data []byte) []string {
	text := strings.TrimPrefix(string(data), "\uFEFF")
	text = strings.ReplaceAll(text, "\r\n", "\n")
	text = strings.ReplaceAll(text, "\r", "\n")
	return strings.Split(text, "\n")
}

// FrontMatter is the split of a markdown file into its YAML header and body.
type FrontMatter struct {
	Present bool    // the file starts with a --- line
	Closed  bool    // a closing --- (or ...) line was found
	YAML    string  // the text between the fences
	Lines   LineMap // YAML line → file line
	BodyIdx int     // 0-based index of the first body line (0 when not closed: all is body)
}

// isFence reports whether line is a front-matter fence: three dashes (or
// three dots, to close), trailing blanks allowed.
func isFence(line string, closing bool) bool {
	line = strings.TrimRight(line, " \t")
	return line == "---" || (closing && line == "...")
}

// SplitFrontMatter finds the front matter in lines (as Lines returns them).
// This is the one front-matter rule of skills and beans: the file's first
// line is ---, the first later --- or ... line closes it.
func SplitFrontMatter(lines []string) FrontMatter {
	var fm FrontMatter
	if len(lines) == 0 || !isFence(lines[0], false) {
		return fm
	}
	fm.Present = true
	for i := 1; i < len(lines); i++ {
		if isFence(lines[i], true) {
			fm.Closed = true
			fm.BodyIdx = i + 1
			fm.YAML = strings.Join(lines[1:i], "\n")
			fm.Lines = NewLineMap(fm.YAML, 2)
			return fm
		}
	}
	return fm
}

// LineMap maps the 1-based lines of a YAML text to file lines. YAML also
// breaks lines at NEL, LS and PS, which markdown does not; m holds the map
// only when the text has such characters.
type LineMap struct {
	first int   // file line of YAML line 1
	n     int   // number of YAML lines
	m     []int // m[i] = file line of YAML line i+1, or nil
}

// NewLineMap maps text whose first line is file line first.
func NewLineMap(text string, first int) LineMap {
	lm := LineMap{first: first, n: strings.Count(text, "\n") + 1}
	if !strings.ContainsAny(text, "\u0085\u2028\u2029") {
		return lm
	}
	lm.m = []int{first}
	fl := first
	for _, r := range text {
		switch r {
		case '\n':
			fl++
			lm.m = append(lm.m, fl)
		case 0x85, 0x2028, 0x2029:
			lm.m = append(lm.m, fl)
		}
	}
	lm.n = len(lm.m)
	return lm
}

// At returns the file line of YAML line yl, clamped to the text.
func (lm LineMap) At(yl int) int {
	if lm.first == 0 {
		return 1 // no YAML text
	}
	yl = max(1, min(yl, lm.n))
	if lm.m != nil {
		return lm.m[yl-1]
	}
	return lm.first + yl - 1
}
