package safety

import (
	"bytes"
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/skillgraph/skillgraph/ingest/record"
)

// hiddenRunes names the characters a reader does not see but a model
// reads (or that reorder what a reader sees): the Trojan Source bidi
// controls (CVE-2021-42574), zero-width and other invisible format
// characters, and the tag block used for "ASCII smuggling". Variation
// selectors are judged in context (smuggle) and tags by range (isTag).
var hiddenRunes = map[rune]string{
	0x061C: "ARABIC LETTER MARK",
	0x180E: "MONGOLIAN VOWEL SEPARATOR",
	0x200B: "ZERO WIDTH SPACE",
	0x200C: "ZERO WIDTH NON-JOINER",
	0x200D: "ZERO WIDTH JOINER",
	0x200E: "LEFT-TO-RIGHT MARK",
	0x200F: "RIGHT-TO-LEFT MARK",
	0x202A: "LEFT-TO-RIGHT EMBEDDING",
	0x202B: "RIGHT-TO-LEFT EMBEDDING",
	0x202C: "POP DIRECTIONAL FORMATTING",
	0x202D: "LEFT-TO-RIGHT OVERRIDE",
	0x202E: "RIGHT-TO-LEFT OVERRIDE",
	0x2060: "WORD JOINER",
	0x2061: "FUNCTION APPLICATION",
	0x2062: "INVISIBLE TIMES",
	0x2063: "INVISIBLE SEPARATOR",
	0x2064: "INVISIBLE PLUS",
	0x2066: "LEFT-TO-RIGHT ISOLATE",
	0x2067: "RIGHT-TO-LEFT ISOLATE",
	0x2068: "FIRST STRONG ISOLATE",
	0x2069: "POP DIRECTIONAL ISOLATE",
	0xFEFF: "ZERO WIDTH NO-BREAK SPACE (BOM)",
}

func isTag(r rune) bool { return r >= 0xE0000 && r <= 0xE007F }

func isVariationSelector(r rune) bool {
	return (r >= 0xFE00 && r <= 0xFE0F) || (r >= 0xE0100 && r <= 0xE01EF)
}

// runeName is the Unicode name of a flagged character.
func runeName(r rune) string {
	switch {
	case isTag(r):
		return "TAG CHARACTER"
	case r >= 0xFE00 && r <= 0xFE0F:
		return fmt.Sprintf("VARIATION SELECTOR-%d", r-0xFE00+1)
	case r >= 0xE0100 && r <= 0xE01EF:
		return fmt.Sprintf("VARIATION SELECTOR-%d", r-0xE0100+17)
	}
	return hiddenRunes[r]
}

// hit is one flagged character (or escape that decodes to one) at a byte
// offset of the file.
type hit struct {
	off     int
	r       rune
	escaped bool // written as an escape (\u200B, &#x202E;) that the file's format decodes
}

// escapeRE finds the escapes JSON, YAML, JavaScript and XML decode into a
// character: \uXXXX (with surrogate pairs), \UXXXXXXXX, \u{X…}, &#xX…; and &#N…;.
var escapeRE = regexp.MustCompile(`\\u\{([0-9A-Fa-f]{1,6})\}|\\U([0-9A-Fa-f]{8})|\\u([0-9A-Fa-f]{4})(?:\\u([0-9A-Fa-f]{4}))?|&#[xX]([0-9A-Fa-f]{1,6});|&#([0-9]{1,7});`)

// decodesEscapes reports whether escapes in the file become characters an
// agent receives: everything but markdown bodies, where `\u200b` is six
// characters of text (their front matter is YAML, which decodes them).
func (t *text) decodesEscapes(off int) bool { return !t.markdown() || t.inFrontMatter(off) }

// invisible reports hidden characters, one finding per line.
func (t *text) invisible() []record.Finding {
	hits := t.hiddenHits()
	if len(hits) == 0 {
		return nil
	}
	var out []record.Finding
	for i := 0; i < len(hits); {
		line, col := t.pos(hits[i].off)
		j := i + 1
		for j < len(hits) && t.lineOf(hits[j].off) == line {
			j++
		}
		out = append(out, record.New(record.CodeContentInvisibleUnicode, t.path, line, "", describeHits(hits[i:j], col)))
		i = j
	}
	return capped(out, record.CodeContentInvisibleUnicode, t.path, "lines with hidden characters")
}

// hiddenHits lists the flagged characters in file order: literal ones,
// then (merged) escapes the format decodes.
func (t *text) hiddenHits() []hit {
	var hits []hit
	d := t.data
	var prev rune = -1
	for off := 0; off < len(d); {
		if d[off] < utf8.RuneSelf {
			prev = rune(d[off])
			off++
			continue
		}
		r, n := utf8.DecodeRune(d[off:])
		next, _ := utf8.DecodeRune(d[off+n:])
		if flagged(r, prev, next, off) {
			hits = append(hits, hit{off: off, r: r})
		}
		prev = r
		off += n
	}
	hits = append(hits, t.escapeHits()...)
	return smuggled(hits)
}

// flagged decides one literal character in its context: prev and next are
// the characters around it (-1 or utf8.RuneError at the edges).
func flagged(r, prev, next rune, off int) bool {
	switch {
	case isTag(r):
		return true
	case isVariationSelector(r):
		// One selector after a base character is how emoji and CJK
		// variants are written (❤️); a run of them encodes bytes
		// (smuggled decides the run).
		return isVariationSelector(prev) || isVariationSelector(next)
	case r == 0xFEFF:
		return off != 0 // a byte order mark opens a file; anywhere else it hides
	case r == 0x200D:
		// The joiner of emoji sequences (👩‍💻) and of Indic and Arabic
		// letters is how those are written.
		return !(isPictograph(prev) && isPictograph(next)) && !joinsLetters(prev, next)
	case r == 0x200C:
		return !joinsLetters(prev, next)
	}
	_, ok := hiddenRunes[r]
	return ok
}

// isPictograph reports whether r is an emoji or a part of one.
func isPictograph(r rune) bool {
	return r >= 0x1F000 && r <= 0x1FAFF || r >= 0x2300 && r <= 0x23FF || r >= 0x2600 && r <= 0x27BF ||
		r >= 0x2B00 && r <= 0x2BFF || r == 0xFE0F || r == 0x20E3 || r >= 0x2190 && r <= 0x21FF
}

// joinsLetters reports whether a joiner sits between letters of a script
// that uses it (not Latin, Greek or Cyrillic, whose words never need one).
func joinsLetters(prev, next rune) bool {
	letter := func(r rune) bool {
		return unicode.IsLetter(r) || unicode.Is(unicode.Mn, r) || unicode.Is(unicode.Mc, r)
	}
	plain := func(r rune) bool {
		return r < 0x0590 // Latin, Greek, Cyrillic, Armenian
	}
	return letter(prev) && letter(next) && !(plain(prev) && plain(next))
}

// escapeHits finds escapes that decode to a flagged character, where the
// format decodes them (a literal character is found by hiddenHits).
func (t *text) escapeHits() []hit {
	if !bytes.Contains(t.data, []byte(`\u`)) && !bytes.Contains(t.data, []byte(`\U`)) && !bytes.Contains(t.data, []byte("&#")) {
		return nil
	}
	var out []hit
	for _, m := range escapeRE.FindAllSubmatchIndex(t.data, -1) {
		if !t.decodesEscapes(m[0]) {
			continue
		}
		var r rune
		group := func(k int) string {
			if m[2*k] < 0 {
				return ""
			}
			return string(t.data[m[2*k]:m[2*k+1]])
		}
		switch {
		case group(1) != "":
			r = parseRune(group(1), 16)
		case group(2) != "":
			r = parseRune(group(2), 16)
		case group(3) != "":
			r = parseRune(group(3), 16)
			if lo := group(4); lo != "" && r >= 0xD800 && r <= 0xDBFF {
				if l := parseRune(lo, 16); l >= 0xDC00 && l <= 0xDFFF {
					r = 0x10000 + (r-0xD800)<<10 + (l - 0xDC00)
				}
			}
		case group(5) != "":
			r = parseRune(group(5), 16)
		case group(6) != "":
			r = parseRune(group(6), 10)
		}
		// In context an escaped selector or joiner is as legitimate as a
		// literal one; judged alone (its neighbours are escapes too)
		// only tags and the always-hidden characters count.
		if isTag(r) || isVariationSelector(r) {
			out = append(out, hit{off: m[0], r: r, escaped: true})
			continue
		}
		if _, ok := hiddenRunes[r]; ok && r != 0x200C && r != 0x200D && !(r == 0xFEFF && m[0] == 0) {
			out = append(out, hit{off: m[0], r: r, escaped: true})
		}
	}
	return out
}

func parseRune(s string, base int) rune {
	v, err := strconv.ParseInt(s, base, 32)
	if err != nil || v < 0 || v > utf8.MaxRune {
		return utf8.RuneError
	}
	return rune(v)
}

// smuggled sorts the hits by offset and drops escaped variation
// selectors that stand alone (one selector is a variant, not a payload).
func smuggled(hits []hit) []hit {
	sort.SliceStable(hits, func(i, j int) bool { return hits[i].off < hits[j].off })
	out := hits[:0]
	for i, h := range hits {
		if h.escaped && isVariationSelector(h.r) {
			prevVS := i > 0 && hits[i-1].escaped && isVariationSelector(hits[i-1].r)
			nextVS := i+1 < len(hits) && hits[i+1].escaped && isVariationSelector(hits[i+1].r)
			if !prevVS && !nextVS {
				continue
			}
		}
		out = append(out, h)
	}
	return out
}

// describeHits is the message for the hidden characters of one line:
// what they are, where, and what tag or selector runs spell.
func describeHits(hs []hit, col int) string {
	var names []string
	seen := map[string]bool{}
	kinds := map[hit]bool{} // by character and form, offset zeroed: one name each
	for _, h := range hs {
		if k := (hit{r: h.r, escaped: h.escaped}); kinds[k] {
			continue
		} else {
			kinds[k] = true
		}
		n := fmt.Sprintf("U+%04X %s", h.r, runeName(h.r))
		switch {
		case isTag(h.r):
			n = "U+E0000–U+E007F TAG CHARACTERS"
		case isVariationSelector(h.r):
			n = "a run of VARIATION SELECTORS"
		}
		if h.escaped {
			n += " (escaped)"
		}
		if !seen[n] {
			seen[n] = true
			names = append(names, n)
		}
	}
	if len(names) > 4 {
		names = append(names[:4], fmt.Sprintf("%d more", len(names)-4))
	}
	what := "a hidden character"
	if len(hs) > 1 {
		what = fmt.Sprintf("%d hidden characters", len(hs))
	}
	msg := fmt.Sprintf("%s from column %d (%s): an agent reads text a reviewer does not see", what, col, strings.Join(names, ", "))
	if s := spelled(hs); s != "" {
		msg += "; they spell " + quote(s, 80)
	}
	if bidi(hs) {
		msg += "; bidi controls reorder what the line shows"
	}
	return msg
}

// spelled decodes the hidden text of a line: tag characters map to ASCII
// (U+E0041 is "A"), variation-selector runs to bytes (VS1–16 are 0–15,
// VS17–256 are 16–255). "" when nothing printable comes out.
func spelled(hs []hit) string {
	var tags strings.Builder
	var vs []byte
	for _, h := range hs {
		switch {
		case isTag(h.r) && h.r >= 0xE0020 && h.r <= 0xE007E:
			tags.WriteRune(h.r - 0xE0000)
		case h.r >= 0xFE00 && h.r <= 0xFE0F:
			vs = append(vs, byte(h.r-0xFE00))
		case h.r >= 0xE0100 && h.r <= 0xE01EF:
			vs = append(vs, byte(h.r-0xE0100+16))
		}
	}
	if tags.Len() > 0 {
		return tags.String()
	}
	if len(vs) > 1 && utf8.Valid(vs) {
		s := string(vs)
		for _, r := range s {
			if !unicode.IsPrint(r) && r != '\n' && r != '\t' {
				return ""
			}
		}
		return s
	}
	return ""
}

func bidi(hs []hit) bool {
	for _, h := range hs {
		if h.r >= 0x202A && h.r <= 0x202E || h.r >= 0x2066 && h.r <= 0x2069 {
			return true
		}
	}
	return false
}
