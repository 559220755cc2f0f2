package bpmn

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/skillgraph/skillgraph/ingest/record"
)

func FuzzParse(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("testdata", "*.bpmn"))
	for _, name := range files {
		if data, err := os.ReadFile(name); err == nil {
			f.Add(data)
		}
	}
	f.Add([]byte(doc(`<bpmn:process id="P"><bpmn:subProcess id="S"><bpmn:callActivity id="C" calledElement="=x"/></bpmn:subProcess>
<bpmn:laneSet><bpmn:lane id="L"><bpmn:flowNodeRef>S</bpmn:flowNodeRef><bpmn:childLaneSet><bpmn:lane id="M"><bpmn:flowNodeRef>C</bpmn:flowNodeRef></bpmn:lane></bpmn:childLaneSet></bpmn:lane></bpmn:laneSet>
<bpmn:serviceTask id="Z" camunda:topic="t"><bpmn:documentation>d</bpmn:documentation><bpmn:extensionElements><zeebe:taskDefinition type="k"/><zeebe:calledElement processId="q"/><x:bean ref="b"/><x:no-skill reason="r"/></bpmn:extensionElements></bpmn:serviceTask>
</bpmn:process><bpmn:process id="P"/>`)))
	f.Add([]byte("<?xml version=\"1.0\" encoding=\"latin1\"?><definitions xmlns=\"" + Namespace + "\"><process id=\"\xe9\"/></definitions>"))
	f.Add([]byte("<!DOCTYPE x [<!ENTITY a \"b\">]><x>&a;</x>"))
	f.Fuzz(func(t *testing.T, data []byte) {
		got := Parse("p/x.bpmn", data)
		if got.Parser != Parser || got.Path != "p/x.bpmn" {
			t.Fatalf("Parser, Path = %q, %q", got.Parser, got.Path)
		}
		invalid := false
		for _, fi := range got.Findings {
			if fi.File != "p/x.bpmn" || fi.Line < 1 || fi.Code == "" || fi.Message == "" || fi.Severity.Rank() == 0 {
				t.Fatalf("bad finding %+v", fi)
			}
			if fi.Code == record.CodeBPMNInvalid {
				invalid = true
			}
		}
		if invalid && (len(got.Processes) > 0 || len(got.Findings) != 1) {
			t.Fatalf("bpmn-invalid with %d processes, %d findings", len(got.Processes), len(got.Findings))
		}
		checkProcesses(t, got.Processes)
	})
}

func checkProcesses(t *testing.T, procs []record.Process) {
	for _, p := range procs {
		if p.ID == "" || p.Line < 1 || p.Stem != "x" {
			t.Fatalf("bad process %q line %d stem %q", p.ID, p.Line, p.Stem)
		}
		for _, a := range p.Activities {
			if a.Line < p.Line || a.Element == "" {
				t.Fatalf("bad activity %+v in process on line %d", a, p.Line)
			}
			for _, s := range a.Skills {
				if s.Ref == "" || s.Line < a.Line {
					t.Fatalf("bad skill ref %+v on activity line %d", s, a.Line)
				}
			}
		}
	}
}
