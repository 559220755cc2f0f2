package queries

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// corpus writes files into a temp corpus root.
func corpus(t *testing.T, files map[string]string) string {
	t.Helper()
	root := t.TempDir()
	for p, body := range files {
		full := filepath.Join(root, p)
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

func skillMD(name, extra string) string {
	return "---\nname: " + name + "\ndescription: does " + name + "\n" + extra + "---\n\n# " + name + "\n"
}

func toolJSON(id, skill, inputs string) string {
	return `{"id": "` + id + `", "title": "T", "description": "D", "satisfies": ["` + skill + `"],
 "install": {"none": true}, "invoke": {"shell": "bin/` + id + `"},
 "io": {"inputs": [` + inputs + `], "outputs": []}}`
}

func codes(s *Snapshot) []string {
	var out []string
	for _, f := range s.Findings {
		out = append(out, f.Code)
	}
	sort.Strings(out)
	return out
}

func has(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

func TestContractCheck(t *testing.T) {
	// mode and size are typed through anyOf and allOf (issue 23.6): they
	// are checked like an inline type, not agreement with any port.
	contract := `{"type": "object", "required": ["targetPath"], "properties": {"targetPath": {"type": "string"}, "limit": {"type": "number"},
	  "mode": {"anyOf": [{"type": "string"}, {"type": "boolean"}]}, "size": {"allOf": [{"$ref": "#/$defs/N"}, {"minimum": 1}]}},
	  "$defs": {"N": {"type": "integer"}}}`
	cases := []struct {
		name         string
		inputs       string
		covered      bool
		wantCodes    []string
		notWantCodes []string
	}{
		{"passes", `{"name": "targetPath", "type": "RepoPath", "required": true, "arg": {"flag": "--p"}}`, true, nil,
			[]string{"contract-required-missing", "contract-type-mismatch"}},
		{"integer serves number", `{"name": "targetPath", "type": "RepoPath", "required": true, "arg": {"flag": "--p"}},
		  {"name": "limit", "type": "Count", "required": false, "arg": {"flag": "--l"}}`, true, nil, []string{"contract-type-mismatch"}},
		{"required missing, near miss", `{"name": "path", "type": "RepoPath", "required": true, "arg": {"flag": "--p"}}`, false,
			[]string{"contract-required-missing", "contract-name-near-miss"}, nil},
		{"type mismatch", `{"name": "targetPath", "type": "RepoPath", "required": true, "arg": {"flag": "--p"}},
		  {"name": "limit", "type": "Slug", "required": false, "arg": {"flag": "--l"}}`, false, []string{"contract-type-mismatch"}, nil},
		{"anyOf agrees", `{"name": "targetPath", "type": "RepoPath", "required": true, "arg": {"flag": "--p"}},
		  {"name": "mode", "type": "Slug", "required": false, "arg": {"flag": "--m"}}`, true, nil, []string{"contract-type-mismatch"}},
		{"anyOf mismatch", `{"name": "targetPath", "type": "RepoPath", "required": true, "arg": {"flag": "--p"}},
		  {"name": "mode", "type": "Count", "required": false, "arg": {"flag": "--m"}}`, false, []string{"contract-type-mismatch"}, nil},
		{"allOf mismatch", `{"name": "targetPath", "type": "RepoPath", "required": true, "arg": {"flag": "--p"}},
		  {"name": "size", "type": "Slug", "required": false, "arg": {"flag": "--s"}}`, false, []string{"contract-type-mismatch"}, nil},
		{"allOf agrees", `{"name": "targetPath", "type": "RepoPath", "required": true, "arg": {"flag": "--p"}},
		  {"name": "size", "type": "Count", "required": false, "arg": {"flag": "--s"}}`, true, nil, []string{"contract-type-mismatch"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			root := corpus(t, map[string]string{
				"skills/core/validate.md":                   skillMD("validate", "input: schemas/skills/validate/input.schema.json\n"),
				"schemas/skills/validate/input.schema.json": contract,
				"tools/v.json":                              toolJSON("v", "validate", c.inputs),
			})
			s := build(t, "memory", root)
			sk := s.Skill("validate")
			if sk.Covered != c.covered || sk.IsContradict == c.covered {
				t.Fatalf("covered=%v contradicted=%v, want covered=%v", sk.Covered, sk.IsContradict, c.covered)
			}
			got := codes(s)
			for _, w := range c.wantCodes {
				if !has(got, w) {
					t.Errorf("missing finding %s in %v", w, got)
				}
			}
			for _, w := range c.notWantCodes {
				if has(got, w) {
					t.Errorf("unexpected finding %s", w)
				}
			}
		})
	}
}

func TestContractStates(t *testing.T) {
	root := corpus(t, map[string]string{
		"skills/core/ext.md":                     skillMD("ext", "input: https://contracts.example.org/x.json\n"),
		"skills/core/missing.md":                 skillMD("missing", "input: schemas/skills/missing/input.schema.json\n"),
		"skills/core/empty.md":                   skillMD("empty", "input: schemas/skills/empty/input.schema.json\n"),
		"schemas/skills/empty/input.schema.json": `{"type": "object"}`,
		"tools/a.json":                           toolJSON("a", "ext", ""),
		"tools/b.json":                           toolJSON("b", "missing", ""),
		"tools/c.json":                           toolJSON("c", "empty", ""),
	})
	s := build(t, "memory", root)
	if !s.Skill("ext").Covered {
		t.Error("an external contract is not fetched and contradicts nothing")
	}
	if s.Skill("missing").Covered || !s.Skill("missing").IsContradict {
		t.Error("an unreadable contract contradicts the edge")
	}
	if !s.Skill("empty").Covered {
		t.Error("a contract requiring nothing passes")
	}
	got := codes(s)
	for _, w := range []string{"contract-external", "contract-unreadable"} {
		if !has(got, w) {
			t.Errorf("missing %s in %v", w, got)
		}
	}
}

func TestTiersAndEvidence(t *testing.T) {
	bpmn := `<?xml version="1.0"?>
<bpmn:definitions xmlns:bpmn="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:x="urn:x" id="D">
 <bpmn:process id="P">
  <bpmn:scriptTask id="S1"><bpmn:extensionElements><x:skill ref="auto"/></bpmn:extensionElements></bpmn:scriptTask>
  <bpmn:manualTask id="M1"><bpmn:extensionElements><x:skill ref="person"/><x:skill ref="auto"/></bpmn:extensionElements></bpmn:manualTask>
  <bpmn:task id="T1"><bpmn:extensionElements><x:skill ref="plain"/></bpmn:extensionElements></bpmn:task>
 </bpmn:process>
</bpmn:definitions>`
	root := corpus(t, map[string]string{
		"skills/core/auto.md":   skillMD("auto", ""),
		"skills/core/person.md": skillMD("person", ""),
		"skills/core/shell.md":  skillMD("shell", "") + "\n```console\n$ make docs\n```\n",
		"skills/core/plain.md":  skillMD("plain", ""),
		"processes/p.bpmn":      bpmn,
	})
	s := build(t, "memory", root)
	want := map[string]string{"auto": "A", "person": "B", "shell": "C", "plain": "D"}
	for id, tier := range want {
		if got := s.Skill(id).Tier; got != tier {
			t.Errorf("%s: tier %s, want %s (evidence %v)", id, got, tier, s.Skill(id).Evidence)
		}
	}
	if ev := strings.Join(s.Skill("auto").Evidence, " "); ev != "manualTask:P/M1 scriptTask:P/S1" {
		t.Errorf("auto evidence %q: all evidence, not only the deciding piece", ev)
	}
	if len(s.Coverage.BothHalves) != 1 || s.Coverage.BothHalves[0].ID != "auto" {
		t.Errorf("both halves = %v", s.Coverage.BothHalves)
	}
	if !strings.HasPrefix(strings.Join(s.Skill("shell").Evidence, " "), "shell-block:") {
		t.Errorf("shell evidence %v", s.Skill("shell").Evidence)
	}
}

func TestReachabilityRootsAndCycles(t *testing.T) {
	call := func(id, target string) string {
		return `<?xml version="1.0"?><definitions xmlns="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:x="urn:x" id="D">
<process id="` + id + `"><callActivity id="C" calledElement="` + target + `"/>
<serviceTask id="S"><extensionElements><x:skill ref="work"/></extensionElements></serviceTask></process></definitions>`
	}
	root := corpus(t, map[string]string{
		"skills/core/work.md": skillMD("work", ""),
		"skills/core/idle.md": skillMD("idle", ""),
		"tools/w.json":        toolJSON("w", "work", ""),
		"tools/i.json":        toolJSON("i", "idle", ""),
		"processes/a.bpmn":    call("A", "B"),
		"processes/b.bpmn":    call("B", "A"),
		"processes/top.bpmn":  call("Top", "A"),
	})
	s := build(t, "memory", root)
	// Without declared entry processes, roots are the processes no one calls.
	if strings.Join(s.Reach.Roots, ",") != "process:Top" {
		t.Fatalf("roots %v", s.Reach.Roots)
	}
	if w := strings.Join(s.Skill("work").Witness, " "); w != "process:Top activity:Top/S skill:work" {
		t.Errorf("witness %q", w)
	}
	if s.Skill("idle").Reachable || s.Tool("i").Reachable {
		t.Error("idle is reached by nothing")
	}
	n := 0
	for _, f := range s.Findings {
		if f.Code == "call-cycle" {
			n++
		}
	}
	if n != 1 {
		t.Errorf("want the A↔B cycle reported once, got %d", n)
	}
	got := codes(s)
	for _, w := range []string{"covered-not-reachable", "tool-unreachable"} {
		if !has(got, w) {
			t.Errorf("missing %s", w)
		}
	}
}

func TestTriageOrder(t *testing.T) {
	if got := strings.Join(TriageOrder(), ""); got != "CABD" {
		t.Errorf("TriageOrder = %s", got)
	}
	for tier, want := range map[string]int{"C": 0, "A": 1, "B": 2, "D": 3, "": 4, "Z": 4} {
		if got := TriageRank(tier); got != want {
			t.Errorf("TriageRank(%q) = %d, want %d", tier, got, want)
		}
	}
}
