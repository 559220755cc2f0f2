package queries

import (
	"strconv"
	"strings"
	"testing"

	"github.com/skillgraph/skillgraph/ingest/record"
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

// TestDuplicateProcessIDKeepsCycleUnreached: a second process with the id of
// a root process does not borrow the root's reachability, so a call cycle
// behind it stays unreached (issue #11); a Tool naming one process by stem
// and by id lists it once.
func TestDuplicateProcessIDKeepsCycleUnreached(t *testing.T) {
	bpmn := func(body string) string {
		return `<?xml version="1.0"?>
<definitions xmlns="http://www.omg.org/spec/BPMN/20100524/MODEL">` + body + `</definitions>`
	}
	root := corpus(t, map[string]string{
		"harness.json": `{"name": "dup", "directories": [{"id": "p", "path": "processes", "graphTypologies": ["processes"]},
  {"id": "t", "path": "tools", "graphTypologies": ["tools"]}, {"id": "s", "path": "skills", "graphTypologies": ["skills"]}],
  "entrypoints": {"processes": ["root"]}}`,
		"processes/root.bpmn":  bpmn(`<process id="P"><task id="Start"/></process>`),
		"processes/cycle.bpmn": bpmn(`<process id="P"><callActivity id="ToQ" calledElement="Q"/></process><process id="Q"><callActivity id="ToP" calledElement="P"/></process>`),
		"skills/x/s.md":        skillMD("s", ""),
		"tools/t.json": `{"id": "t", "title": "T", "description": "D", "satisfies": ["s"], "install": {"none": true},
  "invoke": {"shell": "bin/t"}, "subprocesses": ["sub", "Sub_Id"]}`,
		"processes/sub.bpmn": bpmn(`<process id="Sub_Id"><task id="A"/></process>`),
	})
	s := build(t, "memory", root)
	for _, p := range s.Processes {
		if p.ID == "Q" && p.Reachable {
			t.Errorf("Q is reachable through the other file's P: witness %v", p.Witness)
		}
		if p.ID == "P" && p.Stem == "cycle" && p.Reachable {
			t.Errorf("cycle.bpmn's P is reachable: witness %v", p.Witness)
		}
		if p.ID == "P" && p.Stem == "root" && !p.Reachable {
			t.Errorf("root.bpmn's P (the entry point) is not reachable")
		}
	}
	if tl := s.Tool("t"); tl == nil || len(tl.Subprocesses) != 1 {
		t.Errorf("subprocesses named by stem and id: %v, want one", tl.Subprocesses)
	}
	// Naming it twice is not naming nothing.
	for _, f := range s.Findings {
		if f.Code == record.CodeSubprocessUnknownProcess {
			t.Errorf("unexpected %s: %s", f.Code, f.Message)
		}
	}
}
