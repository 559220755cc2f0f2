package skill

import (
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/skillgraph/skillgraph/ingest/record"
)

// tsFile builds a tool skill whose front matter holds key, then the given
// lines, then the body.
// phases, title and summary (required, SPEC §2.1d) are added unless front
// sets them.
func tsFile(front []string, body ...string) []byte {
	lines := append([]string{"---", "key: mcp:x"}, front...)
	for _, k := range []string{"phases: [plan]", "title: T", "summary: S"} {
		name := k[:strings.IndexByte(k, ':')+1]
		if !slices.ContainsFunc(front, func(l string) bool { return strings.HasPrefix(l, name) }) {
			lines = append(lines, k)
		}
	}
	lines = append(lines, "---")
	return md(append(lines, body...)...)
}

func TestToolSkill(t *testing.T) {
	f := Parse("skills/tool-skills/github.md", tsFile([]string{
		"trigger:",
		"  any_of:",
		"    - tool: create_pull_request",
		"    - all_of:",
		"        - mcp_server: github",
		"        - tool: merge",
		"phases: [plan, execute, plan]",
		"title: Pull requests",
		"summary: |",
		"  Open PRs; link ${base_url}.",
		"required: false",
	}, "", "# Heading", "Body $${not_a_var} ${base_url} ${HOME-x}"), Options{Variables: map[string]bool{"base_url": true}})
	checkFindings(t, f)
	ts := onlyTS(t, f)
	wantTrig := record.Trigger{AnyOf: []record.Trigger{
		{Tool: "create_pull_request"},
		{AllOf: []record.Trigger{{McpServer: "github"}, {Tool: "merge"}}},
	}}
	if !reflect.DeepEqual(ts.Trigger, wantTrig) {
		t.Errorf("trigger %+v", ts.Trigger)
	}
	if ts.Key != "mcp:x" || ts.Title != "Pull requests" || ts.Summary != "Open PRs; link ${base_url}." || ts.Required || ts.Line != 1 {
		t.Errorf("%+v", ts)
	}
	if !slices.Equal(ts.Phases, []string{"plan", "execute"}) || ts.BodyLines != 3 || ts.BodyBytes != len("# Heading\nBody $${not_a_var} ${base_url} ${HOME-x}") {
		t.Errorf("phases %v lines %d bytes %d", ts.Phases, ts.BodyLines, ts.BodyBytes)
	}
	if len(f.Skills) != 0 || len(f.Tools) != 0 {
		t.Errorf("a tool skill is not a skill: %+v", f)
	}
}

func TestToolSkillDefaults(t *testing.T) {
	f := Parse("ts/x.md", md("---", "key: mcp:x", "trigger: {tool: t}", "---", "# Body title"), Options{})
	// phases, title and summary are part of a tool skill (SPEC §2.1d).
	checkFindings(t, f, E("tool-skill-invalid", 2), E("tool-skill-invalid", 2), E("tool-skill-invalid", 2))
	ts := onlyTS(t, f)
	if !ts.Required || ts.Title != "Body title" || ts.Phases != nil || ts.Trigger.Tool != "t" {
		t.Errorf("%+v", ts)
	}
	f = Parse("ts/x.md", md("---", "key: mcp:x", "trigger: {tool: t}", "---"), Options{})
	if ts := onlyTS(t, f); ts.Title != "mcp:x" || ts.BodyLines != 0 || ts.BodyBytes != 0 {
		t.Errorf("%+v", ts)
	}
}

func TestToolSkillFindings(t *testing.T) {
	big := strings.Repeat("x", BodyCap) + "y"
	cases := []struct {
		name  string
		front []string
		body  []string
		vars  map[string]bool
		want  []want
	}{
		{"empty key", []string{"trigger: {tool: t}"}, nil, nil, nil}, // key set by tsFile
		{"trigger null", []string{"trigger:"}, nil, nil, []want{E("tool-skill-invalid", 3)}},
		{"trigger scalar", []string{"trigger: github"}, nil, nil, []want{E("tool-skill-invalid", 3)}},
		{"trigger two kinds", []string{"trigger:", "  tool: a", "  mcp_server: b"}, nil, nil, []want{E("tool-skill-invalid", 4)}},
		{"trigger unknown kind", []string{"trigger:", "  skill: a"}, nil, nil, []want{E("tool-skill-invalid", 4), E("tool-skill-invalid", 4)}},
		{"trigger empty tool", []string{"trigger:", "  tool: ''"}, nil, nil, []want{E("tool-skill-invalid", 4)}},
		{"trigger tool list", []string{"trigger:", "  tool: [a]"}, nil, nil, []want{E("tool-skill-invalid", 4)}},
		{"trigger empty any_of", []string{"trigger:", "  any_of: []"}, nil, nil, []want{E("tool-skill-invalid", 4)}},
		{"trigger any_of scalar", []string{"trigger:", "  any_of: a"}, nil, nil, []want{E("tool-skill-invalid", 4)}},
		{"trigger nested bad", []string{"trigger:", "  all_of:", "    - tool: a", "    - nope", "    - any_of:", "        - {}"}, nil, nil,
			[]want{E("tool-skill-invalid", 6), E("tool-skill-invalid", 8)}},
		{"trigger dup key", []string{"trigger:", "  tool: a", "  tool: b"}, nil, nil, []want{E("tool-skill-invalid", 5)}},
		{"phases bad", []string{"trigger: {tool: t}", "phases: [plan, deploy]"}, nil, nil, []want{E("tool-skill-invalid", 4)}},
		{"phases block", []string{"trigger: {tool: t}", "phases:", "  - review", "  - Plan"}, nil, nil, []want{E("tool-skill-invalid", 6)}},
		{"phases scalar", []string{"trigger: {tool: t}", "phases: plan"}, nil, nil, []want{E("tool-skill-invalid", 4)}},
		{"required string", []string{"trigger: {tool: t}", "required: yes"}, nil, nil, []want{E("tool-skill-invalid", 4)}},
		{"summary at cap", []string{"trigger: {tool: t}", "summary: " + strings.Repeat("é", 120)}, nil, nil, nil},
		{"summary over cap", []string{"trigger: {tool: t}", "summary: " + strings.Repeat("é", 120) + "x"}, nil, nil, []want{E("summary-over-cap", 4)}},
		{"body at cap", []string{"trigger: {tool: t}"}, []string{big[1:]}, nil, nil},
		{"body over cap", []string{"trigger: {tool: t}"}, []string{big}, nil, []want{E("body-over-cap", 8)}},
		{"var unresolved", []string{"trigger: {tool: t}", "summary: see ${base}"}, []string{"${base} ${other}", "${base}"}, map[string]bool{"x": true},
			[]want{W("skill-variable-unresolved", 4), W("skill-variable-unresolved", 8)}},
		{"var nil map", []string{"trigger: {tool: t}"}, []string{"", "${a}"}, nil, []want{W("skill-variable-unresolved", 9)}},
		{"var resolved", []string{"trigger: {tool: t}"}, []string{"${a} $a $${b} ${1x} ${a-b}"}, map[string]bool{"a": true}, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := Parse("ts/x.md", tsFile(c.front, c.body...), Options{Variables: c.vars})
			checkFindings(t, f, c.want...)
			onlyTS(t, f)
		})
	}
}

func TestToolSkillKey(t *testing.T) {
	for _, data := range [][]byte{
		md("---", "key:", "trigger: {tool: t}", "phases: [plan]", "title: T", "summary: S", "---"),
		md("---", "key: [a]", "trigger: {tool: t}", "phases: [plan]", "title: T", "summary: S", "---"),
		md("---", "key: '  '", "trigger: {tool: t}", "phases: [plan]", "title: T", "summary: S", "---"),
	} {
		f := Parse("ts/x.md", data, Options{})
		checkFindings(t, f, E("tool-skill-invalid", 2))
		onlyTS(t, f)
	}
}

func TestTriggerDepth(t *testing.T) {
	var b strings.Builder
	b.WriteString("---\nkey: k\nphases: [plan]\ntitle: T\nsummary: S\ntrigger: ")
	for range 200 {
		b.WriteString("{any_of: [")
	}
	b.WriteString("{tool: t}")
	for range 200 {
		b.WriteString("]}")
	}
	b.WriteString("\n---\n")
	f := Parse("ts/x.md", []byte(b.String()), Options{})
	checkFindings(t, f, E("tool-skill-invalid", 6))
	onlyTS(t, f)

	// A self-referencing alias must not loop.
	f = Parse("ts/x.md", md("---", "key: k", "trigger: &a {any_of: [*a]}", "---"), Options{})
	onlyTS(t, f)
	if len(f.Findings) == 0 {
		t.Errorf("want findings for a cyclic trigger")
	}

	// A fan-out cycle would be exponential without the node budget.
	f = Parse("ts/x.md", md("---", "key: k", "trigger: &a {any_of: [*a, *a, *a]}", "---"), Options{})
	onlyTS(t, f)
	if len(f.Findings) == 0 || len(f.Findings) > 100 {
		t.Errorf("want a few findings for a cyclic trigger, got %d", len(f.Findings))
	}
}
