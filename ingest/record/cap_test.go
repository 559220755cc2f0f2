package record

import (
	"fmt"
	"strings"
	"testing"
)

func TestCapFindings(t *testing.T) {
	mk := func(sevs string) []Finding {
		var fs []Finding
		for i, c := range sevs {
			code := map[rune]string{'e': CodeParseError, 'w': CodeToolUnknownField, 'i': CodeFileNotRead}[c]
			fs = append(fs, Finding{Code: code, Severity: SeverityOf(code), File: "f", Line: i + 1})
		}
		return fs
	}
	for _, c := range []struct {
		name  string
		in    string
		limit int
		kept  string // the severities kept, in order (then the summary)
		msg   string
	}{
		{"under", "ewi", 3, "ewi", ""},
		{"at", "ewiw", 4, "ewiw", ""},
		{"errors kept first", "iwewi", 2, "we", "3 of its 5 findings are not listed (why): 0 errors, 1 warnings, 2 info (2 " + CodeFileNotRead + ", 1 " + CodeToolUnknownField + ")"},
		{"one of each code first", "eeeeiw", 3, "eiw", "3 of its 6 findings are not listed (why): 3 errors, 0 warnings, 0 info (3 parse-error)"},
		{"all errors", "eeee", 1, "e", "3 of its 4 findings are not listed (why): 3 errors, 0 warnings, 0 info (3 parse-error)"},
		{"limit 0", "wie", 0, "", "3 of its 3 findings are not listed (why): 1 errors, 1 warnings, 1 info"},
	} {
		t.Run(c.name, func(t *testing.T) {
			in := mk(c.in)
			out := CapFindings(in, "f", c.limit, "why")
			if c.msg == "" {
				if len(out) != len(in) {
					t.Fatalf("%d of %d kept", len(out), len(in))
				}
				return
			}
			if len(out) != len(c.kept)+1 {
				t.Fatalf("%d findings, want %d and the summary", len(out), len(c.kept))
			}
			var got strings.Builder
			for i, f := range out[:len(out)-1] {
				got.WriteByte(string(f.Severity)[0])
				if i > 0 && f.Line < out[i-1].Line {
					t.Errorf("kept findings out of order: %+v", out)
				}
			}
			if got.String() != c.kept {
				t.Errorf("kept %q, want %q", got.String(), c.kept)
			}
			s := out[len(out)-1]
			if s.Code != CodeFindingsTruncated || s.File != "f" || s.Severity != Warning || !strings.Contains(s.Message, c.msg) {
				t.Errorf("summary %+v, want message with %q", s, c.msg)
			}
		})
	}
	// Many codes: the eight most frequent are named, then how many more.
	var many []Finding
	for i := range 20 {
		for range 20 - i {
			many = append(many, Finding{Code: fmt.Sprintf("c%02d", i), Severity: Warning})
		}
	}
	s := CapFindings(many, "f", 0, "why")[0]
	if !strings.Contains(s.Message, "(20 c00, 19 c01,") || !strings.HasSuffix(s.Message, ", 12 more codes)") {
		t.Errorf("summary %q", s.Message)
	}
}
