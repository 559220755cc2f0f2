package bpmn

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/skillgraph/skillgraph/ingest/record"
)

// doc wraps process XML in a definitions element bound to the bpmn prefix.
func doc(body string) string {
	return `<?xml version="1.0" encoding="UTF-8"?>
<bpmn:definitions xmlns:bpmn="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:x="urn:x" xmlns:zeebe="http://camunda.org/schema/zeebe/1.0" xmlns:camunda="http://camunda.org/schema/1.0/bpmn" id="D">
` + body + `
</bpmn:definitions>
`
}

func readFixture(t *testing.T, name string) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return data
}

type wantFinding struct {
	code string
	sev  record.Severity
	line int
}

func TestFindings(t *testing.T) {
	billion := `<?xml version="1.0"?>
<!DOCTYPE lolz [
 <!ENTITY lol "lol">
 <!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
]>
<bpmn:definitions xmlns:bpmn="http://www.omg.org/spec/BPMN/20100524/MODEL"><bpmn:process id="P">&lol2;</bpmn:process></bpmn:definitions>`
	tests := []struct {
		name  string
		input string
		want  []wantFinding
		procs int
	}{
		{"valid", doc(`<bpmn:process id="P"><bpmn:task id="T"/></bpmn:process>`), nil, 1},
		{"broken fixture", string(readFixture(t, "broken.bpmn")), []wantFinding{{record.CodeBPMNInvalid, record.Error, 5}}, 0},
		{"truncated", doc(`<bpmn:process id="P">
<bpmn:task id="T">`)[:150], []wantFinding{{record.CodeBPMNInvalid, record.Error, 2}}, 0},
		{"unclosed at EOF", "<bpmn:definitions xmlns:bpmn=\"" + Namespace + "\">\n<bpmn:process id=\"P\">\n", []wantFinding{{record.CodeBPMNInvalid, record.Error, 3}}, 0},
		{"billion laughs", billion, []wantFinding{{record.CodeBPMNInvalid, record.Error, 2}}, 0},
		{"doctype inside element", doc("<bpmn:process id=\"P\">\n<x:a><!DOCTYPE x></x:a></bpmn:process>"), []wantFinding{{record.CodeBPMNInvalid, record.Error, 4}}, 0},
		{"undefined entity", doc(`<bpmn:process id="P" name="&foo;"/>`), []wantFinding{{record.CodeBPMNInvalid, record.Error, 3}}, 0},
		{"empty file", "", []wantFinding{{record.CodeBPMNInvalid, record.Error, 1}}, 0},
		{"only a declaration", `<?xml version="1.0"?>`, []wantFinding{{record.CodeBPMNInvalid, record.Error, 1}}, 0},
		{"not BPMN", "<?xml version=\"1.0\"?>\n\n<project/>", []wantFinding{{record.CodeBPMNInvalid, record.Error, 3}}, 0},
		{"definitions in another namespace", `<definitions xmlns="urn:other"><process id="P"/></definitions>`, []wantFinding{{record.CodeBPMNInvalid, record.Error, 1}}, 0},
		{"JSON", `{"process": "x"}`, []wantFinding{{record.CodeBPMNInvalid, record.Error, 1}}, 0},
		{"text after root", doc(`<bpmn:process id="P"/>`) + "\ntrailing", []wantFinding{{record.CodeBPMNInvalid, record.Error, 6}}, 0},
		{"second root", doc(`<bpmn:process id="P"/>`) + "<bpmn:definitions xmlns:bpmn=\"" + Namespace + "\"/>", []wantFinding{{record.CodeBPMNInvalid, record.Error, 5}}, 0},
		{"process without id", doc("<bpmn:process id=\"A\"/>\n<bpmn:process name=\"no id\"/>"), []wantFinding{{record.CodeBPMNInvalid, record.Error, 4}}, 0},
		{"invalid UTF-8", doc("<bpmn:process id=\"P\" name=\"\xff\xfe\"/>"), []wantFinding{{record.CodeBPMNInvalid, record.Error, 3}}, 0},
		{"NUL byte", doc("<bpmn:process id=\"P\">\x00</bpmn:process>"), []wantFinding{{record.CodeBPMNInvalid, record.Error, 3}}, 0},
		{"UTF-16", "\xff\xfe<\x00?\x00", []wantFinding{{record.CodeBPMNInvalid, record.Error, 1}}, 0},
		{"unknown encoding", `<?xml version="1.0" encoding="EBCDIC"?><x/>`, []wantFinding{{record.CodeBPMNInvalid, record.Error, 1}}, 0},
		{"mismatched tag", doc("<bpmn:process id=\"P\">\n\n<bpmn:task id=\"T\"></bpmn:userTask></bpmn:process>"), []wantFinding{{record.CodeBPMNInvalid, record.Error, 5}}, 0},
		{"duplicate process id", doc("<bpmn:process id=\"P\"/>\n<bpmn:process id=\"Q\"/>\n<bpmn:process id=\"P\"/>"), []wantFinding{{record.CodeProcessDuplicateID, record.Error, 5}}, 3},
		{"duplicate task ids", doc("<bpmn:process id=\"P\">\n<bpmn:userTask id=\"Task_A\"/>\n<bpmn:serviceTask id=\"Task_A\"/>\n</bpmn:process>"), []wantFinding{{record.CodeBPMNDuplicateID, record.Error, 5}}, 1},
		{"task id equal to a process id", doc("<bpmn:process id=\"P\">\n<bpmn:task id=\"Q\"/></bpmn:process>\n<bpmn:process id=\"Q\"/>"), []wantFinding{{record.CodeBPMNDuplicateID, record.Error, 5}}, 2},
		{"flow and lane ids collide", doc("<bpmn:process id=\"P\">\n<bpmn:laneSet><bpmn:lane id=\"L\"/></bpmn:laneSet>\n<bpmn:sequenceFlow id=\"L\" sourceRef=\"a\" targetRef=\"b\"/>\n<bpmn:subProcess id=\"S\"><bpmn:task id=\"S\"/></bpmn:subProcess></bpmn:process>"), []wantFinding{{record.CodeBPMNDuplicateID, record.Error, 5}, {record.CodeBPMNDuplicateID, record.Error, 6}}, 1},
		{"dynamic call ${}", doc("<bpmn:process id=\"P\">\n<bpmn:callActivity id=\"C\" calledElement=\"${hook}\"/></bpmn:process>"), []wantFinding{{record.CodeCallDynamic, record.Info, 4}}, 1},
		{"dynamic call FEEL", doc(`<bpmn:process id="P"><bpmn:callActivity id="C" calledElement="= x"/></bpmn:process>`), []wantFinding{{record.CodeCallDynamic, record.Info, 3}}, 1},
		{"dynamic zeebe call", doc("<bpmn:process id=\"P\"><bpmn:callActivity id=\"C\"><bpmn:extensionElements>\n\n<zeebe:calledElement processId=\"=procId\"/></bpmn:extensionElements></bpmn:callActivity></bpmn:process>"), []wantFinding{{record.CodeCallDynamic, record.Info, 5}}, 1},
		{"static call", doc(`<bpmn:process id="P"><bpmn:callActivity id="C" calledElement="Q"/></bpmn:process>`), nil, 1},
		{"release fixture", string(readFixture(t, "release.bpmn")), []wantFinding{{record.CodeCallDynamic, record.Info, 41}}, 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := Parse("processes/x.bpmn", []byte(tc.input))
			if got.Parser != "bpmn" || got.Path != "processes/x.bpmn" {
				t.Errorf("Parser, Path = %q, %q", got.Parser, got.Path)
			}
			var have []wantFinding
			for _, f := range got.Findings {
				have = append(have, wantFinding{f.Code, f.Severity, f.Line})
				if f.File != "processes/x.bpmn" || f.Message == "" {
					t.Errorf("finding %+v: want File and Message", f)
				}
			}
			if !slices.Equal(have, tc.want) {
				t.Errorf("findings = %v, want %v (%+v)", have, tc.want, got.Findings)
			}
			for _, f := range got.Findings {
				// bpmn-duplicate-id names both lines (SPEC §4).
				if f.Code == record.CodeBPMNDuplicateID && strings.Count(f.Message, "line ") != 2 {
					t.Errorf("%s does not name both lines: %s", f.Code, f.Message)
				}
			}
			if len(got.Processes) != tc.procs {
				t.Errorf("got %d processes, want %d", len(got.Processes), tc.procs)
			}
		})
	}
}

func TestFixtures(t *testing.T) {
	tests := []struct {
		file, id, name string
		acts, flows    int
	}{
		{"release.bpmn", "Process_Release", "Release", 12, 11},
		{"triage.bpmn", "Process_Triage", "Triage", 3, 2},
		{"publish-pages.bpmn", "Process_PublishPages", "Publish to static pages", 3, 2},
		{"legacy.bpmn", "Process_Legacy", "Legacy drafting", 1, 0},
	}
	for _, tc := range tests {
		t.Run(tc.file, func(t *testing.T) {
			got := Parse("processes/"+tc.file, readFixture(t, tc.file))
			if len(got.Processes) != 1 {
				t.Fatalf("processes = %d, findings %+v", len(got.Processes), got.Findings)
			}
			p := got.Processes[0]
			if p.ID != tc.id || p.Name != tc.name || p.Stem != strings.TrimSuffix(tc.file, ".bpmn") {
				t.Errorf("process = %q %q %q", p.ID, p.Name, p.Stem)
			}
			if len(p.Activities) != tc.acts || len(p.Flows) != tc.flows {
				t.Errorf("activities, flows = %d, %d; want %d, %d", len(p.Activities), len(p.Flows), tc.acts, tc.flows)
			}
		})
	}
}

func TestRelease(t *testing.T) {
	p := Parse("processes/release.bpmn", readFixture(t, "release.bpmn")).Processes[0]
	byID := map[string]record.Activity{}
	for _, a := range p.Activities {
		byID[a.ID] = a
	}
	if a := byID["Task_Open"]; a.Element != "serviceTask" || a.Line != 18 || a.Lane != "Lane_Bot" ||
		!slices.Equal(a.Skills, []record.SkillRef{{Ref: "open-change", Line: 19}}) {
		t.Errorf("Task_Open = %+v", a)
	}
	if a := byID["Task_Review"]; a.Lane != "Lane_Editor" || a.Element != "userTask" {
		t.Errorf("Task_Review = %+v", a)
	}
	if a := byID["Call_Triage"]; a.Called != "Process_Triage" || a.CalledDynamic {
		t.Errorf("Call_Triage = %+v", a)
	}
	if a := byID["Call_Dynamic"]; a.Called != "${releaseHook}" || !a.CalledDynamic {
		t.Errorf("Call_Dynamic = %+v", a)
	}
	if a := byID["Start_Release"]; a.Element != "startEvent" || a.Line != 17 {
		t.Errorf("Start_Release = %+v", a)
	}
	if len(p.Lanes) != 2 || !slices.Equal(p.Lanes[0].Nodes, []string{"Task_Open", "Task_Validate", "Task_Publish"}) {
		t.Errorf("lanes = %+v", p.Lanes)
	}
	if p.Flows[0] != (record.Flow{ID: "F1", Source: "Start_Release", Target: "Task_Open"}) {
		t.Errorf("flow = %+v", p.Flows[0])
	}
}
