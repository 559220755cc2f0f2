package bpmn

import (
	"slices"
	"strings"
	"testing"

	"github.com/skillgraph/skillgraph/ingest/record"
)

func activities(t *testing.T, input string) map[string]record.Activity {
	t.Helper()
	got := Parse("p.bpmn", []byte(input))
	if len(got.Processes) == 0 {
		t.Fatalf("no process; findings %+v", got.Findings)
	}
	m := map[string]record.Activity{}
	for _, p := range got.Processes {
		for _, a := range p.Activities {
			m[a.ID] = a
		}
	}
	return m
}

func TestExtensions(t *testing.T) {
	m := activities(t, doc(`<bpmn:process id="P">
<bpmn:serviceTask id="Multi">
  <bpmn:documentation> First. </bpmn:documentation>
  <bpmn:documentation>Second.</bpmn:documentation>
  <bpmn:extensionElements>
    <x:skill ref="a"/>
    <x:wrap><other:skill xmlns:other="urn:other" ref="b"/></x:wrap>
    <x:skill ref=""/>
    <x:bean ref="acme-a1b2"/><x:bean id="acme-c3d4"/><x:bean op="note"/>
    <zeebe:taskDefinition type="ignored-when-skills"/>
  </bpmn:extensionElements>
</bpmn:serviceTask>
<bpmn:userTask id="NoSkill"><bpmn:extensionElements><x:no-skill reason="a person decides"/></bpmn:extensionElements></bpmn:userTask>
<bpmn:serviceTask id="Zeebe"><bpmn:extensionElements>
<zeebe:taskDefinition type="render-graph" retries="3"/></bpmn:extensionElements></bpmn:serviceTask>
<bpmn:serviceTask id="ZeebeExpr"><bpmn:extensionElements><zeebe:taskDefinition type="=kind"/></bpmn:extensionElements></bpmn:serviceTask>
<bpmn:serviceTask id="Topic" camunda:type="external" camunda:topic="publish-site"/>
<bpmn:callActivity id="ZCall"><bpmn:extensionElements><zeebe:calledElement processId="Process_Triage"/></bpmn:extensionElements></bpmn:callActivity>
<bpmn:callActivity id="Both" calledElement="Attr"><bpmn:extensionElements><zeebe:calledElement processId="Ext"/></bpmn:extensionElements></bpmn:callActivity>
<bpmn:task id="Foreign"><x:skill ref="not-in-extension-elements"/></bpmn:task>
</bpmn:process>`))
	multi := m["Multi"]
	if !slices.Equal(multi.Skills, []record.SkillRef{{Ref: "a", Line: 8}, {Ref: "b", Line: 9}}) {
		t.Errorf("skills = %+v", multi.Skills)
	}
	if !slices.Equal(multi.Beans, []string{"acme-a1b2", "acme-c3d4"}) {
		t.Errorf("beans = %v", multi.Beans)
	}
	if multi.Documentation != "First.\n\nSecond." {
		t.Errorf("documentation = %q", multi.Documentation)
	}
	if m["NoSkill"].NoSkillReason != "a person decides" || len(m["NoSkill"].Skills) != 0 {
		t.Errorf("NoSkill = %+v", m["NoSkill"])
	}
	if s := m["Zeebe"].Skills; !slices.Equal(s, []record.SkillRef{{Ref: "render-graph", Line: 17, Implicit: true}}) {
		t.Errorf("zeebe skills = %+v", s)
	}
	if s := m["ZeebeExpr"].Skills; len(s) != 0 {
		t.Errorf("expression task type named a skill: %+v", s)
	}
	if s := m["Topic"].Skills; !slices.Equal(s, []record.SkillRef{{Ref: "publish-site", Line: 19, Implicit: true}}) {
		t.Errorf("topic skills = %+v", s)
	}
	if c := m["ZCall"]; c.Called != "Process_Triage" || c.CalledDynamic {
		t.Errorf("ZCall = %+v", c)
	}
	if c := m["Both"]; c.Called != "Attr" {
		t.Errorf("Both = %+v", c)
	}
	if s := m["Foreign"].Skills; len(s) != 0 {
		t.Errorf("Foreign = %+v", s)
	}
}

func TestSubProcessesAndLanes(t *testing.T) {
	input := `<definitions xmlns="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:x="urn:x">
<process id="P" name="Outer">
  <laneSet id="LS">
    <lane id="Outer"><flowNodeRef>Sub</flowNodeRef><flowNodeRef> Inner </flowNodeRef>
      <childLaneSet><lane id="Child"><flowNodeRef>Inner</flowNodeRef></lane></childLaneSet>
    </lane>
  </laneSet>
  <subProcess id="Sub">
    <extensionElements><x:skill ref="outer-skill"/></extensionElements>
    <startEvent id="SubStart"/>
    <adHocSubProcess id="AdHoc"><task id="Deep"/></adHocSubProcess>
    <transaction id="Tx"><task id="InTx"/></transaction>
    <serviceTask id="Inner"><extensionElements><x:skill ref="inner-skill"/></extensionElements></serviceTask>
    <sequenceFlow id="SF" sourceRef="SubStart" targetRef="Inner"/>
  </subProcess>
  <exclusiveGateway id="G"/>
  <intermediateCatchEvent id="Timer"><timerEventDefinition/></intermediateCatchEvent>
  <boundaryEvent id="B" attachedToRef="Sub"/>
  <dataObject id="Ignored"/>
</process>
<process id="Q"><task id="QTask"/></process>
</definitions>`
	got := Parse("p.bpmn", []byte(input))
	if len(got.Findings) != 0 || len(got.Processes) != 2 {
		t.Fatalf("findings %+v, %d processes", got.Findings, len(got.Processes))
	}
	p := got.Processes[0]
	var ids []string
	parent := map[string]string{}
	lane := map[string]string{}
	for _, a := range p.Activities {
		ids = append(ids, a.ID+":"+a.Element)
		parent[a.ID], lane[a.ID] = a.Parent, a.Lane
	}
	want := []string{"Sub:subProcess", "SubStart:startEvent", "AdHoc:adHocSubProcess", "Deep:task",
		"Tx:transaction", "InTx:task", "Inner:serviceTask", "G:exclusiveGateway",
		"Timer:intermediateCatchEvent", "B:boundaryEvent"}
	if !slices.Equal(ids, want) {
		t.Errorf("activities = %v", ids)
	}
	if parent["Inner"] != "Sub" || parent["Deep"] != "AdHoc" || parent["Sub"] != "" || parent["InTx"] != "Tx" {
		t.Errorf("parents = %v", parent)
	}
	if lane["Sub"] != "Outer" || lane["Inner"] != "Child" || lane["G"] != "" {
		t.Errorf("lanes = %v", lane)
	}
	if len(p.Lanes) != 2 || p.Lanes[0].ID != "Outer" || !slices.Equal(p.Lanes[0].Nodes, []string{"Sub", "Inner"}) {
		t.Errorf("Lanes = %+v", p.Lanes)
	}
	if len(p.Flows) != 1 || p.Flows[0].ID != "SF" {
		t.Errorf("flows = %+v", p.Flows)
	}
	if got.Processes[1].ID != "Q" || got.Processes[1].Activities[0].Parent != "" {
		t.Errorf("second process = %+v", got.Processes[1])
	}
}

func TestEncodings(t *testing.T) {
	body := "<bpmn:definitions xmlns:bpmn=\"" + Namespace + "\">\n<bpmn:process id=\"P\" name=\"Caf\xe9\">\n<bpmn:task id=\"T\"/></bpmn:process></bpmn:definitions>"
	got := Parse("p.bpmn", []byte("<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?>\n"+body))
	if len(got.Processes) != 1 || got.Processes[0].Name != "Café" || got.Processes[0].Activities[0].Line != 4 {
		t.Errorf("latin-1: %+v", got)
	}
	bom := "\xef\xbb\xbf" + strings.ReplaceAll(doc(`<bpmn:process id="P"/>`), "\n", "\r\n")
	got = Parse("p.bpmn", []byte(bom))
	if len(got.Processes) != 1 || got.Processes[0].Line != 3 {
		t.Errorf("BOM+CRLF: %+v", got)
	}
}

func TestHostileInputs(t *testing.T) {
	deep := doc(`<bpmn:process id="P">` + strings.Repeat(`<bpmn:subProcess id="S">`, 20000) +
		strings.Repeat(`</bpmn:subProcess>`, 20000) + `</bpmn:process>`)
	if got := Parse("p.bpmn", []byte(deep)); len(got.Processes) != 1 || len(got.Processes[0].Activities) != 20000 {
		t.Errorf("deep sub-processes: %d processes, findings %+v", len(got.Processes), got.Findings)
	}
	deepExt := doc(`<bpmn:process id="P"><bpmn:task id="T"><bpmn:extensionElements>` + strings.Repeat(`<x:a>`, 50000) +
		`<x:skill ref="s"/>` + strings.Repeat(`</x:a>`, 50000) + `</bpmn:extensionElements></bpmn:task></bpmn:process>`)
	if got := Parse("p.bpmn", []byte(deepExt)); len(got.Processes) != 1 || len(got.Processes[0].Activities[0].Skills) != 1 {
		t.Errorf("deep extension: findings %+v", got.Findings)
	}
	huge := doc(`<bpmn:process id="P" name="` + strings.Repeat("x", 1<<20) + `"/>`)
	if got := Parse("p.bpmn", []byte(huge)); len(got.Processes) != 1 {
		t.Errorf("huge attribute: %+v", got.Findings)
	}
	unclosed := doc(`<bpmn:process id="P">` + strings.Repeat(`<x:a>`, 50000))
	if got := Parse("p.bpmn", []byte(unclosed)); len(got.Findings) != 1 || got.Findings[0].Code != record.CodeBPMNInvalid {
		t.Errorf("unclosed deep: %+v", got.Findings)
	}
}

func TestStemAndDynamic(t *testing.T) {
	for in, want := range map[string]string{"a/b/release.bpmn": "release", "x": "x", "a.b.bpmn": "a.b", ".bpmn": ".bpmn"} {
		if got := Stem(in); got != want {
			t.Errorf("Stem(%q) = %q, want %q", in, got, want)
		}
	}
	for in, want := range map[string]bool{"${x}": true, " =a": true, "#{b}": true, "Process_A": false, "": false, "$x": false} {
		if got := Dynamic(in); got != want {
			t.Errorf("Dynamic(%q) = %v", in, got)
		}
	}
}

// TestReferenceLines: a call target and each skill ref keep the line they
// are written on, also in a start tag spread over several lines (SPEC §4).
func TestReferenceLines(t *testing.T) {
	m := activities(t, doc(`<bpmn:process id="P">
<bpmn:callActivity id="Call"
    name="a call"
    calledElement="other"/>
<bpmn:serviceTask id="Step">
  <bpmn:extensionElements>
    <x:skill ref="a"/>

    <x:skill
      ref="b"/>
  </bpmn:extensionElements>
</bpmn:serviceTask>
<bpmn:callActivity id="Z"><bpmn:extensionElements>
  <zeebe:calledElement processId="zp"/>
</bpmn:extensionElements></bpmn:callActivity>
</bpmn:process>`))
	for _, tc := range []struct {
		act, field, ref string
		line            int
	}{
		{"Call", "calledElement", "other", 6},
		{"Step", "skill", "a", 9},
		{"Step", "skill", "b", 12},
		{"Z", "calledElement", "zp", 16},
	} {
		if got := m[tc.act].Refs.Line(tc.field, tc.ref); got != tc.line {
			t.Errorf("%s %s %q: line %d, want %d", tc.act, tc.field, tc.ref, got, tc.line)
		}
	}
}
