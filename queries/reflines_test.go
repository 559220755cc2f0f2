package queries

import (
	"strconv"
	"strings"
	"testing"
)

// TestReferenceFindingsOnTheirLine: every dangling reference is reported on
// the line the reference is written on, in JSON, YAML, front matter and
// XML alike (SPEC §4, issue #11), and blocked_by naming no bean is checked.
func TestReferenceFindingsOnTheirLine(t *testing.T) {
	root := corpus(t, map[string]string{
		"skills/p/real.md": skillMD("real", ""),
		"tools/a.json": `{
  "id": "a", "title": "A", "description": "D",
  "install": {"none": true}, "invoke": {"shell": "bin/a"},
  "satisfies": [
    "real",
    "ghost"
  ],
  "remedies": [
    {"host": "h", "tool": "nope"}
  ]
}`,
		"tools/b.yaml": "id: b\ntitle: B\ndescription: D\ninstall: {none: true}\ninvoke: {shell: bin/b}\nsatisfies: [real]\nsubprocesses:\n  - missing-proc\n",
		"processes/p.bpmn": `<?xml version="1.0"?>
<definitions xmlns="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:x="urn:x">
<process id="P">
<serviceTask id="S">
  <extensionElements>
    <x:skill ref="real"/>
    <x:skill ref="phantom"/>
  </extensionElements>
</serviceTask>
<callActivity id="C"
  calledElement="Nowhere"/>
</process>
</definitions>`,
		"beans/b1--one.md": "---\ntitle: one\nstatus: todo\ntype: task\nparent: no-such\nblocking:\n  - b2\n  - not-there\nblocked_by: [absent]\n---\n",
		"beans/b2--two.md": "---\ntitle: two\nstatus: todo\ntype: task\n---\n",
	})
	s := build(t, "memory", root)
	want := map[string]int{
		"satisfies-unknown-skill tools/a.json":     6,
		"remedy-unknown-tool tools/a.json":         9,
		"subprocess-unknown-process tools/b.yaml":  8,
		"skill-ref-unknown processes/p.bpmn":       7,
		"call-unknown-process processes/p.bpmn":    11,
		"bean-parent-unknown beans/b1--one.md":     5,
		"bean-blocking-unknown beans/b1--one.md":   8,
		"bean-blocked-by-unknown beans/b1--one.md": 9,
	}
	got := map[string]int{}
	for _, f := range s.Findings {
		k := f.Code + " " + f.File
		if f.Code == "bean-blocking-unknown" && f.Line == 9 {
			k = "bean-blocked-by-unknown " + f.File
		}
		if _, ok := want[k]; ok {
			if got[k] != 0 {
				t.Errorf("%s reported twice (lines %d and %d)", k, got[k], f.Line)
			}
			got[k] = f.Line
		}
	}
	for k, line := range want {
		if got[k] != line {
			t.Errorf("%s: line %d, want %d", k, got[k], line)
		}
	}
}

// TestEntrypointUnknown: an entry point naming nothing is an error on its
// own line of the declaration; entry points that resolve are not reported
// (SPEC §4, §5.3; issue #11).
func TestEntrypointUnknown(t *testing.T) {
	s := build(t, "memory", "testdata/entrypoint-unknown")
	var got []string
	for _, f := range s.Findings {
		if f.Code == "entrypoint-unknown" {
			got = append(got, f.File+":"+itoa(f.Line)+" "+f.Message)
		}
	}
	want := []string{
		`harness.json:9 entry point process "relaese" names no process (by file stem or process/@id)`,
		`harness.json:10 entry point tool "deployr" names no Tool`,
		`harness.json:13 trigger "typo" names skill "deplyo", which is no skill`,
		`harness.json:14 trigger "watch" names Tool "no-such-tool", which is no Tool`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("entrypoint-unknown:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func itoa(n int) string { return strconv.Itoa(n) }
