package skill

import (
	"strings"
	"testing"

	"github.com/skillgraph/skillgraph/ingest/record"
)

// checkInvariants asserts what holds for any input: one record per skill
// file, none for other files, and well-formed findings.
func checkInvariants(t *testing.T, p string, data []byte, f record.File) {
	t.Helper()
	if f.Path != p {
		t.Fatalf("path %q, want %q", f.Path, p)
	}
	text := strings.TrimPrefix(string(data), "\uFEFF")
	maxLine := strings.Count(strings.ReplaceAll(text, "\r\n", "\n"), "\n") + strings.Count(strings.ReplaceAll(text, "\r\n", ""), "\r") + 1
	switch f.Parser {
	case ParserOther:
		if len(f.Skills)+len(f.ToolSkills)+len(f.Tools)+len(f.Findings) != 0 {
			t.Fatalf("other file with data: %+v", f)
		}
	case ParserSkill:
		if len(f.Skills)+len(f.ToolSkills) != 1 {
			t.Fatalf("want exactly one record, got %d skills %d tool skills", len(f.Skills), len(f.ToolSkills))
		}
	default:
		t.Fatalf("parser %q", f.Parser)
	}
	for _, fi := range f.Findings {
		if fi.File != p || fi.Line < 1 || fi.Line > maxLine || fi.Code == "" || fi.Message == "" || fi.Severity.Rank() == 0 {
			t.Fatalf("bad finding %+v (max line %d)", fi, maxLine)
		}
	}
	for _, tl := range f.Tools {
		if tl.Line < 1 || tl.Line > maxLine || tl.ID == "" || len(tl.Satisfies) != 1 {
			t.Fatalf("bad tool %+v", tl)
		}
	}
}

func FuzzParse(f *testing.F) {
	seeds := []struct {
		path string
		data string
	}{
		{"skills/core/x.md", "---\nname: x\ndescription: d\ninput: a.json\n---\n# X\n```bash\nls\n```\n"},
		{"skills/a/SKILL.md", "---\nname: a\ndescription: d\nmetadata: {k: v}\nfoo: 1\n---\n"},
		{"skills/h/SKILL.md", "---\nskill: h\nincludes: a, ../b\n---\n```tool\nid: t\nparams:\n  p: {type: string, enum: [a], default: b}\nrun: echo $p $q $$ ${p}\n```\n"},
		{"ts/x.md", "---\nkey: k\ntrigger:\n  any_of:\n    - tool: a\n    - all_of: [{mcp_server: b}]\nphases: [plan]\nsummary: ${v}\nrequired: false\n---\nbody ${w}\n"},
		{"ts/y.md", "---\nkey: k\ntrigger: &a {any_of: [*a, *a]}\n---\n"},
		{"x.md", "\uFEFF---\r\nname: [\r\n---\r\n"},
		{"x.md", "---\n\x00\xff\n---\n~~~~tool\n~~~\n"},
		{"README.md", "---\nskill: x\n---\n"},
	}
	for _, s := range seeds {
		f.Add(s.path, []byte(s.data))
	}
	opt := Options{Package: "p", Variables: map[string]bool{"v": true}, Exists: func(r string) bool { return len(r)%2 == 0 }}
	f.Fuzz(func(t *testing.T, p string, data []byte) {
		checkInvariants(t, p, data, Parse(p, data, opt))
		// Wrap the input so that it also reaches each flavour's YAML rules.
		for _, w := range [][2]string{
			{"---\n", "\n---\n"},                         // front matter
			{"---\nkey: k\ntrigger:\n", "\n---\n"},       // tool-skill trigger
			{"---\nskill: s\n---\n```tool\n", "\n```\n"}, // tool fence
		} {
			wrapped := append(append([]byte(w[0]), data...), w[1]...)
			checkInvariants(t, p, wrapped, Parse(p, wrapped, opt))
		}
	})
}

func TestRobustness(t *testing.T) {
	deepYAML := "---\nkey: k\ntrigger: " + strings.Repeat("[", 20000) + "\n---\n"
	deepBlock := "---\n"
	for i := range 300 {
		deepBlock += strings.Repeat(" ", i) + "a:\n"
	}
	deepBlock += "---\n"
	cases := map[string]string{
		"huge line":               "---\nname: " + strings.Repeat("x", 1<<20) + "\n---\n" + strings.Repeat("$", 1<<20),
		"many vars":               "---\nkey: k\ntrigger: {tool: t}\n---\n" + strings.Repeat("${", 1<<19),
		"many fences":             strings.Repeat("```\n", 10000),
		"deep flow":               deepYAML,
		"deep block":              deepBlock,
		"billion laughs":          "---\nskill: s\na: &a [x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]\nc: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b]\nd: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c]\nincludes: *d\n---\n",
		"nul and cr":              "---\r\nname: x\r\n---\r\n\x00\r```bash\r\n```\r\n",
		"lone cr":                 "---\rname: x\r---\r",
		"only dashes":             "---",
		"bom only":                "\uFEFF",
		"alias key":               "---\n&a k: v\n*a : w\n---\n",
		"merge key":               "---\nbase: &b {name: n}\n<<: *b\n---\n",
		"tool fence alias params": "```tool\nid: a\nparams: &p {x: *p}\nrun: echo $x\n```\n",
	}
	for name, data := range cases {
		t.Run(name, func(t *testing.T) {
			for _, p := range []string{"skills/a/x.md", "skills/a/SKILL.md"} {
				out := Parse(p, []byte(data), Options{})
				checkInvariants(t, p, []byte(data), out)
			}
		})
	}
}
