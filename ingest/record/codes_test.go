package record

import (
	"regexp"
	"strings"
	"testing"
)

var codePattern = regexp.MustCompile(`^[a-z][a-z0-9]*(-[a-z0-9]+)+$`)

// TestRegistryWellFormed checks every rule can be documented: a code of the
// stable shape, registered once, a severity, a SPEC section, a meaning, a
// reason and either an example or a note saying why there is none.
func TestRegistryWellFormed(t *testing.T) {
	seen := map[string]bool{}
	areas := map[Area]bool{}
	for _, a := range Areas() {
		areas[a] = true
		if a.Spec() == "" {
			t.Errorf("area %q has no SPEC sections", a)
		}
	}
	for _, r := range registry {
		if !codePattern.MatchString(r.Code) {
			t.Errorf("%q is not a code of the stable shape", r.Code)
		}
		if seen[r.Code] {
			t.Errorf("%s is registered twice", r.Code)
		}
		seen[r.Code] = true
		if r.Severity.Rank() == 0 {
			t.Errorf("%s: severity %q", r.Code, r.Severity)
		}
		if !strings.HasPrefix(r.Spec, "§") {
			t.Errorf("%s: SPEC section %q", r.Code, r.Spec)
		}
		if !areas[r.Area] {
			t.Errorf("%s: unknown area %q", r.Code, r.Area)
		}
		if strings.TrimSpace(r.Means) == "" || strings.TrimSpace(r.Why) == "" {
			t.Errorf("%s: meaning or reason missing", r.Code)
		}
		ex := r.Example
		switch {
		case r.Planned && ex != (Example{}):
			t.Errorf("%s: a planned code has no example yet", r.Code)
		case !r.Planned && ex.Corpus == "" && ex.Note == "":
			t.Errorf("%s: neither an example nor a note saying why there is none", r.Code)
		case ex.Corpus != "" && (ex.File == "" || ex.Line < 1 || ex.Message == ""):
			t.Errorf("%s: example %+v is incomplete", r.Code, ex)
		}
	}
	if len(Codes()) != len(registry) || len(Rules()) != len(registry) {
		t.Errorf("Codes %d, Rules %d, registry %d", len(Codes()), len(Rules()), len(registry))
	}
}

func TestLookupAndSeverity(t *testing.T) {
	for _, c := range []struct {
		code string
		ok   bool
		sev  Severity
	}{
		{CodeParseError, true, Error},
		{CodeDuplicateNode, true, Warning},
		{CodeCallDynamic, true, Info},
		{"no-such-code", false, Error}, // SPEC §4: an error unless marked otherwise
	} {
		r, ok := Lookup(c.code)
		if ok != c.ok || (ok && r.Code != c.code) {
			t.Errorf("Lookup(%q) = %+v, %v", c.code, r, ok)
		}
		if got := SeverityOf(c.code); got != c.sev {
			t.Errorf("SeverityOf(%q) = %s, want %s", c.code, got, c.sev)
		}
	}
	f := New(CodeTriggerInert, "a.md", 0, "s", "m")
	if f.Severity != Info || f.Line != 1 || f.Code != CodeTriggerInert || f.File != "a.md" || f.Subject != "s" || f.Message != "m" {
		t.Errorf("New: %+v", f)
	}
}
