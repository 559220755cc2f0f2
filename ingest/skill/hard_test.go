package skill

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/skillgraph/skillgraph/ingest/internal/ynode"
	"github.com/skillgraph/skillgraph/ingest/record"
)

// hardFile builds a hard skill with the given fence lines after a 4-line
// front matter and one prose line, so the first fence opens on line 6.
func hardFile(fence ...string) []byte {
	lines := []string{"---", "skill: wl", "description: d", "---", "Prose."}
	return md(append(lines, fence...)...)
}

func TestHardSkill(t *testing.T) {
	f := Parse("skills/hard/waitlist/SKILL.md", hardFile(
		"```tool", // 6
		"# comment inside the fence",
		"id: access", // 8
		"description: accept or reject",
		"params:",
		"  operation:", // 11
		"    type: string",
		"    enum: accept, reject",
		"    default: accept",
		"  user:", // 15
		"    type: string",
		"    format: email",
		"  count:", // 18
		"    type: integer",
		"    default: 1",
		"  flags:", // 21
		"run: uv run handle.py --$operation $user x${count}y $$HOME $ -- ${flags}", // 22
		"```",
	), Options{Exists: func(string) bool { return true }})
	checkFindings(t, f)
	s := only(t, f)
	if s.ID != "wl" || s.Flavour != FlavourHard || s.Description != "d" || s.Title != "wl" {
		t.Errorf("skill %+v", s)
	}
	if len(f.Tools) != 1 {
		t.Fatalf("tools %+v", f.Tools)
	}
	tl := f.Tools[0]
	if tl.ID != "wl.access" || tl.Origin != OriginHardSkill || tl.Title != "access" || tl.Description != "accept or reject" || tl.Line != 6 || !slices.Equal(tl.Satisfies, []string{"wl"}) {
		t.Errorf("tool %+v", tl)
	}
	wantShell := []string{"uv", "run", "handle.py", "--$operation", "$user", "x${count}y", "$$HOME", "$", "--", "${flags}"}
	if !slices.Equal(tl.Invoke.Shell, wantShell) {
		t.Errorf("shell %q", tl.Invoke.Shell)
	}
	wantPorts := []record.Port{
		{Name: "operation", TypeIRI: "json:string", JSONType: "string", Required: false, Line: 11},
		{Name: "user", TypeIRI: "json:string", JSONType: "string", Required: true, Line: 15},
		{Name: "count", TypeIRI: "json:integer", JSONType: "integer", Required: false, Line: 18},
		{Name: "flags", TypeIRI: "json:string", JSONType: "string", Required: true, Line: 21},
	}
	if !slices.Equal(tl.Inputs, wantPorts) {
		t.Errorf("ports\n got %+v\nwant %+v", tl.Inputs, wantPorts)
	}
}

func TestHardSkillFindings(t *testing.T) {
	cases := []struct {
		name  string
		fence []string
		want  []want
		tools []string
	}{
		{"param unused", []string{"```tool", "id: a", "params:", "  p: {type: string}", "  q: {}", "run: echo $p", "```"},
			[]want{E("hard-skill-param-unused", 10)}, []string{"wl.a"}},
		{"undeclared var", []string{"```tool", "id: a", "run: echo $x ${y} $x", "```"},
			[]want{E("hard-skill-undeclared-var", 8), E("hard-skill-undeclared-var", 8)}, []string{"wl.a"}},
		{"literal dollars", []string{"```tool", "id: a", "run: echo $$x $ $- ${ $} ${a-b}", "```"}, nil, []string{"wl.a"}},
		{"run as list", []string{"```tool", "id: a", "params: {p: {}}", "run:", "  - echo", "  - $p and $q", "```"},
			[]want{E("hard-skill-undeclared-var", 11)}, []string{"wl.a"}},
		{"unknown param key", []string{"```tool", "id: a", "params:", "  p:", "    type: string", "    minLength: 3", "run: echo $p", "```"},
			[]want{E("hard-skill-unknown-key", 11)}, []string{"wl.a"}},
		{"unknown fence key", []string{"```tool", "id: a", "run: echo", "timeout: 5", "```"},
			[]want{E("hard-skill-unknown-key", 9)}, []string{"wl.a"}},
		{"unknown type", []string{"```tool", "id: a", "params:", "  p:", "    type: text", "run: echo $p", "```"},
			[]want{E("parse-error", 10)}, []string{"wl.a"}},
		{"default not in enum string", []string{"```tool", "id: a", "params:", "  p:", "    enum: a, b", "    default: c", "run: echo $p", "```"},
			[]want{E("hard-skill-default-not-in-enum", 11)}, []string{"wl.a"}},
		{"default not in enum list", []string{"```tool", "id: a", "params:", "  p:", "    enum: [a, b]", "    default: c", "run: echo $p", "```"},
			[]want{E("hard-skill-default-not-in-enum", 11)}, []string{"wl.a"}},
		{"default in enum list", []string{"```tool", "id: a", "params:", "  p:", "    enum: [a, 'b']", "    default: b", "run: echo $p", "```"},
			nil, []string{"wl.a"}},
		{"duplicate tool", []string{"```tool", "id: a", "run: echo 1", "```", "```tool", "id: a", "run: echo 2", "```"},
			[]want{E("hard-skill-duplicate-tool", 10)}, []string{"wl.a"}},
		{"duplicate param", []string{"```tool", "id: a", "params:", "  p: {}", "  p: {type: integer}", "run: echo $p", "```"},
			[]want{E("hard-skill-duplicate-param", 10)}, []string{"wl.a"}},
		{"unterminated fence", []string{"```tool", "id: a", "run: echo", "````"},
			nil, []string{"wl.a"}},
		{"unterminated fence really", []string{"```tool", "id: a", "run: echo", "~~~"},
			[]want{E("hard-skill-unterminated-fence", 6)}, nil},
		{"missing id", []string{"```tool", "run: echo", "```"},
			[]want{E("hard-skill-missing-id-or-run", 6)}, nil},
		{"missing run", []string{"```tool", "id: a", "params: {p: {}}", "```"},
			[]want{E("hard-skill-missing-id-or-run", 6), E("hard-skill-param-unused", 8)}, []string{"wl.a"}},
		{"empty run", []string{"```tool", "id: a", "run: ''", "```"},
			[]want{E("hard-skill-missing-id-or-run", 6)}, []string{"wl.a"}},
		{"empty fence", []string{"```tool", "```"},
			[]want{E("hard-skill-missing-id-or-run", 6)}, nil},
		{"fence yaml invalid", []string{"```tool", "id: a", "run: [echo", "```"},
			[]want{E("parse-error", 8)}, nil},
		{"fence yaml scalar", []string{"```tool", "just words", "```"},
			[]want{E("parse-error", 6)}, nil},
		{"params not a map", []string{"```tool", "id: a", "params: [a, b]", "run: echo", "```"},
			[]want{E("parse-error", 8)}, []string{"wl.a"}},
		{"param not a map", []string{"```tool", "id: a", "params:", "  p: string", "run: echo $p", "```"},
			[]want{E("parse-error", 9)}, []string{"wl.a"}},
		{"two tools", []string{"```tool", "id: a", "run: echo", "```", "~~~tool", "id: b", "run: echo", "~~~"},
			nil, []string{"wl.a", "wl.b"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := Parse("skills/hard/wl/SKILL.md", hardFile(c.fence...), Options{})
			checkFindings(t, f, c.want...)
			only(t, f)
			var ids []string
			for _, tl := range f.Tools {
				ids = append(ids, tl.ID)
			}
			if !slices.Equal(ids, c.tools) {
				t.Errorf("tools %v, want %v", ids, c.tools)
			}
			for _, fi := range f.Findings {
				if fi.Severity != record.Error {
					t.Errorf("hard-skill finding %s is not an error", fi.Code)
				}
			}
		})
	}
}

func TestHardSkillIDFallback(t *testing.T) {
	f := Parse("skills/hard/deploy/SKILL.md", md("# Deploy", "```tool", "id: ship", "run: echo", "```"), Options{})
	checkFindings(t, f)
	s := only(t, f)
	if s.ID != "deploy" || s.Title != "Deploy" || len(f.Tools) != 1 || f.Tools[0].ID != "deploy.ship" || !slices.Equal(f.Tools[0].Satisfies, []string{"deploy"}) {
		t.Errorf("skill %+v tools %+v", s, f.Tools)
	}
	// Broken front matter still yields the fence tools.
	f = Parse("skills/hard/deploy/SKILL.md", md("---", "skill: [", "---", "```tool", "id: ship", "run: echo", "```"), Options{})
	checkFindings(t, f, E("parse-error", 2))
	if s := only(t, f); s.ID != "deploy" || s.Flavour != FlavourHard || len(f.Tools) != 1 {
		t.Errorf("skill %+v tools %+v", s, f.Tools)
	}
}

func TestIncludes(t *testing.T) {
	exists := map[string]bool{"skills/hard/wl/handle.py": true, "skills/hard/wl/scripts": true, "skills/hard/wl/q/a.sql": true}
	cases := []struct {
		name     string
		includes string
		exists   bool // use the exists map (else Exists is nil)
		want     []want
		got      []string
	}{
		{"all present", "includes: handle.py, scripts/, q/a.sql", true, nil, []string{"handle.py", "scripts/", "q/a.sql"}},
		{"list form", "includes: [handle.py, scripts]", true, nil, []string{"handle.py", "scripts"}},
		{"missing", "includes: handle.py, nope.py", true, []want{E("include-missing", 3)}, []string{"handle.py", "nope.py"}},
		{"nil exists means missing", "includes: handle.py", false, []want{E("include-missing", 3)}, []string{"handle.py"}},
		{"absolute", "includes: /etc/passwd", true, []want{E("include-escapes", 3)}, []string{"/etc/passwd"}},
		{"windows absolute", `includes: 'C:\x'`, true, []want{E("include-escapes", 3)}, []string{`C:\x`}},
		{"home", "includes: ~/x", true, []want{E("include-escapes", 3)}, []string{"~/x"}},
		{"dotdot", "includes: a/../../x", true, []want{E("include-escapes", 3)}, []string{"a/../../x"}},
		{"backslash dotdot", `includes: 'a\..\x'`, true, []want{E("include-escapes", 3)}, []string{`a\..\x`}},
		{"dot", "includes: ./handle.py", true, []want{E("include-escapes", 3)}, []string{"./handle.py"}},
		{"empty segment", "includes: a//b", true, []want{E("include-escapes", 3)}, []string{"a//b"}},
		{"empty entry", "includes: handle.py,,scripts", true, []want{E("include-escapes", 3)}, []string{"handle.py", "scripts"}},
		{"null", "includes:", true, nil, nil},
		{"map", "includes: {a: b}", true, []want{E("parse-error", 3)}, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			opt := Options{}
			if c.exists {
				opt.Exists = func(rel string) bool { return exists[rel] }
			}
			f := Parse("skills/hard/wl/SKILL.md", md("---", "skill: wl", c.includes, "---"), opt)
			checkFindings(t, f, c.want...)
			if s := only(t, f); !slices.Equal(s.Includes, c.got) {
				t.Errorf("includes %q", s.Includes)
			}
		})
	}
}

func TestRunVars(t *testing.T) {
	cases := map[string][]string{
		"--$operation":   {"operation"},
		"$a$b":           {"a", "b"},
		"x${a}y":         {"a"},
		"$$a":            nil,
		"$$$a":           {"a"},
		"$":              nil,
		"${":             nil,
		"${}":            nil,
		"${a-b}":         nil,
		"$-":             nil,
		"a=$1":           {"1"},
		"${a_b}$c_d.txt": {"a_b", "c_d"},
		"$é":             nil,
	}
	for in, want := range cases {
		if got := runVars(in); !slices.Equal(got, want) {
			t.Errorf("runVars(%q) = %q, want %q", in, got, want)
		}
	}
	if got := runVars(strings.Repeat("${", 1000)); got != nil {
		t.Errorf("got %q", got)
	}
}

func TestRunFiles(t *testing.T) {
	exists := map[string]bool{"skills/hard/wl/handle.py": true, "skills/hard/wl/scripts": true, "skills/hard/wl/scripts/x.sh": true, "skills/hard/wl/loose.py": true}
	cases := []struct {
		name     string
		includes string
		run      string
		want     []want
		inMsg    string
	}{
		{"included file", "includes: handle.py", "run: uv run handle.py", nil, ""},
		{"under included directory", "includes: scripts/", "run: bash scripts/x.sh", nil, ""},
		{"uv run --script", "includes: scripts", "run: uv run --script scripts/x.sh", nil, ""},
		{"not included, absent", "includes: handle.py", "run: node y.js", []want{E("hard-skill-run-not-included", 8)}, "not in the skill folder"},
		{"not included, present", "includes: handle.py", "run: python loose.py", nil, ""},
		{"./ path", "includes: handle.py", "run: ./bin/tool", []want{E("hard-skill-run-not-included", 8)}, "bin/tool"},
		{"no includes: claims nothing", "description: d", "run: node y.js", nil, ""},
		{"program on PATH", "includes: handle.py", "run: gh pr list", nil, ""},
		{"param, url, absolute are not files", "includes: handle.py", "run: curl https://x.test/a.sh /opt/b.py $p.py", nil, ""},
		{"data argument", "includes: handle.py", "run: codespell --dictionary rules.txt", nil, ""},
		{"one finding per file", "includes: handle.py", "run: bash a.sh a.sh", []want{E("hard-skill-run-not-included", 8)}, "a.sh"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := Parse("skills/hard/wl/SKILL.md", md("---", "skill: wl", c.includes, "---", "# WL", "```tool", "id: a", c.run, "```"),
				Options{Exists: func(rel string) bool { return exists[rel] }})
			var fs []record.Finding
			for _, fi := range f.Findings {
				if fi.Code != record.CodeHardSkillUndeclaredVar {
					fs = append(fs, fi)
				}
			}
			f.Findings = fs
			checkFindings(t, f, c.want...)
			if c.inMsg != "" && (len(fs) == 0 || !strings.Contains(fs[0].Message, c.inMsg)) {
				t.Errorf("findings %+v, want a message with %q", fs, c.inMsg)
			}
		})
	}
}

// TestIncludesCapBeforeWork (issue #28 row 12): a list of includes over
// ynode.MaxItems is dropped with one finding that says how many entries
// it had, before any entry is checked (no stat, no finding per entry); at
// the bound every entry is read and checked. 300 000 entries made 300 000
// findings, 90 s and 5.46 GB before.
func TestIncludesCapBeforeWork(t *testing.T) {
	list := func(n int) string {
		var b strings.Builder
		b.WriteString("includes:")
		for i := range n {
			fmt.Fprintf(&b, "\n  - f%d.py", i)
		}
		return b.String()
	}
	comma := func(n int) string {
		parts := make([]string, n)
		for i := range parts {
			parts[i] = fmt.Sprintf("f%d.py", i)
		}
		return "includes: " + strings.Join(parts, ",")
	}
	for _, c := range []struct {
		name     string
		includes string
		n        int
	}{
		{"list at the bound", list(ynode.MaxItems), ynode.MaxItems},
		{"list past the bound", list(ynode.MaxItems + 1), ynode.MaxItems + 1},
		{"list of 300 000", list(300_000), 300_000},
		{"commas at the bound", comma(ynode.MaxItems), ynode.MaxItems},
		{"commas of 300 000", comma(300_000), 300_000},
	} {
		t.Run(c.name, func(t *testing.T) {
			checks := 0
			opt := Options{Exists: func(string) bool { checks++; return false }}
			f := Parse("skills/hard/wl/SKILL.md", md("---", "skill: wl", c.includes, "---"), opt)
			s := only(t, f)
			if c.n <= ynode.MaxItems {
				if len(s.Includes) != c.n || checks != c.n || len(f.Findings) != c.n {
					t.Fatalf("at the bound: %d includes, %d checks, %d findings; want %d of each", len(s.Includes), checks, len(f.Findings), c.n)
				}
				return
			}
			if s.Includes != nil || checks != 0 || len(f.Findings) != 1 {
				t.Fatalf("past the bound: %d includes, %d checks, %d findings; want none, none and one", len(s.Includes), checks, len(f.Findings))
			}
			if fd := f.Findings[0]; fd.Code != record.CodeParseError || fd.Line != 3 || !strings.Contains(fd.Message, fmt.Sprintf("%d includes", c.n)) {
				t.Fatalf("finding %+v", fd)
			}
		})
	}
}
