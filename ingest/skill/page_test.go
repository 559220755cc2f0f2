package skill

import (
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/skillgraph/skillgraph/ingest/record"
)

// TestPages: a tool skill read from a Confluence storage-format export
// (the yaml code macro) and from a Plane page export (a leading yaml
// <pre><code> block of description_html), with lines in the export
// (issue 23.11).
func TestPages(t *testing.T) {
	read := func(name string) []byte {
		b, err := os.ReadFile("testdata/pages/" + name)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	cf := ParseConfluencePage("skills/pages/github.xhtml", read("github.xhtml"), Options{})
	checkFindings(t, cf)
	ts := onlyTS(t, cf)
	if cf.Parser != ParserConfluencePage || ts.Key != "mcp:github" || ts.Title != "GitHub" || !slices.Equal(ts.Phases, []string{"plan", "execute"}) ||
		ts.Summary != "Read and review code, issues and PRs." || !ts.Required || ts.Trigger.AnyOf == nil || len(ts.Trigger.AnyOf) != 2 {
		t.Errorf("confluence tool skill %+v", ts)
	}
	if ts.Line != 5 || ts.Refs.Line("trigger.tool", "create_pull_request") != 12 || ts.Refs.Line("trigger.mcp_server", "github") != 11 {
		t.Errorf("confluence lines: skill %d, leaves %v", ts.Line, ts.Refs)
	}
	if ts.BodyBytes == 0 {
		t.Errorf("confluence body not read")
	}
	pl := ParsePlanePage("skills/pages/comment.plane.json", read("comment.plane.json"), Options{})
	checkFindings(t, pl)
	ps := onlyTS(t, pl)
	if pl.Parser != ParserPlanePage || ps.Key != "tool:plane_comment" || ps.Required || ps.Trigger.Tool != "create_work_item_comment" || ps.Line != 4 || ps.Refs.Line("trigger.tool", "create_work_item_comment") != 4 {
		t.Errorf("plane tool skill %+v", ps)
	}
	cases := []struct {
		name  string
		parse func() record.File
		want  []want
	}{
		{"confluence page without a yaml macro", func() record.File {
			return ParseConfluencePage("a.xhtml", []byte(`<ac:structured-macro ac:name="code"><ac:parameter ac:name="language">js</ac:parameter><ac:plain-text-body><![CDATA[x]]></ac:plain-text-body></ac:structured-macro>`), Options{})
		}, []want{{record.CodeFileNotRead, record.Info, 1}}},
		{"yaml macro that is not a tool skill", func() record.File {
			return ParseConfluencePage("a.xhtml", []byte("<p/>\n<ac:structured-macro ac:name=\"code\"><ac:parameter ac:name=\"language\">yaml</ac:parameter><ac:plain-text-body><![CDATA[name: x\ndescription: d]]></ac:plain-text-body></ac:structured-macro>"), Options{})
		}, []want{E(record.CodeToolSkillInvalid, 2)}},
		{"yaml error on its export line", func() record.File {
			return ParseConfluencePage("a.xhtml", []byte("<p/>\n<ac:structured-macro ac:name=\"code\"><ac:parameter ac:name=\"language\">yaml</ac:parameter><ac:plain-text-body><![CDATA[key: k\ntrigger:\n  tool: [a\n]]></ac:plain-text-body></ac:structured-macro>"), Options{})
		}, nil},
		{"plane page not JSON", func() record.File { return ParsePlanePage("a.plane.json", []byte("{"), Options{}) }, []want{E(record.CodeParseError, 1)}},
		{"plane page without a leading yaml block", func() record.File {
			return ParsePlanePage("a.plane.json", []byte(`{"description_html": "<p>hello</p><pre><code class=\"language-yaml\">key: k</code></pre>"}`), Options{})
		}, []want{{record.CodeFileNotRead, record.Info, 1}}},
		{"plane export without description_html", func() record.File { return ParsePlanePage("a.plane.json", []byte(`{"name": "x"}`), Options{}) },
			[]want{{record.CodeFileNotRead, record.Info, 1}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := c.parse()
			if c.want == nil {
				// Some finding, on a line of the YAML in the export (2–5).
				if len(f.Findings) == 0 || f.Findings[0].Line < 2 || f.Findings[0].Line > 5 {
					t.Errorf("findings %+v", f.Findings)
				}
				return
			}
			checkFindings(t, f, c.want...)
			if len(f.ToolSkills)+len(f.Skills) != 0 && !strings.Contains(c.name, "tool skill") {
				t.Errorf("records from %s: %+v", c.name, f)
			}
		})
	}
}

// FuzzPages: neither page parser panics, and every finding is on a line of
// the export.
func FuzzPages(f *testing.F) {
	for _, name := range []string{"github.xhtml", "comment.plane.json"} {
		b, err := os.ReadFile("testdata/pages/" + name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		lines := strings.Count(string(data), "\n") + 1
		for _, out := range []record.File{ParseConfluencePage("p.xhtml", data, Options{}), ParsePlanePage("p.plane.json", data, Options{})} {
			for _, fi := range out.Findings {
				if fi.Line < 1 || fi.Line > lines {
					t.Fatalf("%s: finding %s on line %d of %d", out.Parser, fi.Code, fi.Line, lines)
				}
			}
		}
	})
}
