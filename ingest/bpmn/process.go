package bpmn

import (
	"encoding/xml"
	"fmt"
	"github.com/skillgraph/skillgraph/ingest/internal/idcheck"
	"strings"

	"github.com/skillgraph/skillgraph/ingest/record"
)

// activityElements are the BPMN flow nodes read as activities; the value is
// true for containers whose children are activities too.
var activityElements = map[string]bool{
	"task": false, "serviceTask": false, "scriptTask": false, "sendTask": false,
	"userTask": false, "manualTask": false, "receiveTask": false,
	"businessRuleTask": false, "callActivity": false,
	"subProcess": true, "adHocSubProcess": true, "transaction": true,
	"startEvent": false, "endEvent": false, "boundaryEvent": false,
	"intermediateCatchEvent": false, "intermediateThrowEvent": false,
	"implicitThrowEvent": false,
	"exclusiveGateway":   false, "inclusiveGateway": false, "parallelGateway": false,
	"eventBasedGateway": false, "complexGateway": false,
}

// cur is the process being read.
func (p *parser) cur() *record.Process { return &p.procs[len(p.procs)-1] }

func (p *parser) openProcess(t xml.StartElement, line int) *parseError {
	id := strings.TrimSpace(attr(t, "id"))
	if id == "" {
		return &parseError{line: line, msg: "process without an id"}
	}
	p.checkID("process", id, line)
	p.claimID("process", id, line)
	if first, dup := p.seen[id]; dup {
		p.findings = append(p.findings, record.Finding{
			Code:     record.CodeProcessDuplicateID,
			Severity: record.SeverityOf(record.CodeProcessDuplicateID),
			Message:  fmt.Sprintf("process id %q is already used by the process on line %d of this file", id, first),
			File:     p.path,
			Line:     line,
		})
	} else {
		p.seen[id] = line
	}
	p.procs = append(p.procs, record.Process{ID: id, Stem: p.stem, Name: attr(t, "name"), Line: line})
	p.extras = p.extras[:0]
	p.laneOf = map[string]laneHit{}
	p.dyn = p.dyn[:0]
	return p.push(frame{kind: kProc})
}

// claimID reports a second element of this file with an id another one
// already has (SPEC §4, bpmn-duplicate-id): BPMN ids are unique within a
// document (xsd:ID), and two elements of one id would merge into one node
// of the graph. Both lines are named; both elements are kept. Two processes
// of one id are process-duplicate-id instead (openProcess).
func (p *parser) claimID(element, id string, line int) {
	if id == "" {
		return
	}
	first, dup := p.ids[id]
	if !dup {
		p.ids[id] = idUse{element: element, line: line}
		return
	}
	if first.element == "process" && element == "process" {
		return
	}
	p.findings = append(p.findings, record.New(record.CodeBPMNDuplicateID, p.path, line, id,
		fmt.Sprintf("%s id %q (line %d) is already the id of the %s on line %d: BPMN ids are unique within a file", element, id, line, first.element, first.line)))
}

// checkID reports an id that is no BPMN id (xsd:ID) and that no IRI,
// witness key or page could carry as written: quotes, angle brackets,
// whitespace, control or bidi formatting characters (issue #16.5). The
// element is kept; its IRI is percent-escaped.
func (p *parser) checkID(element, id string, line int) {
	if why := idcheck.Unsafe(id); why != "" {
		p.findings = append(p.findings, record.Finding{Code: record.CodeBPMNInvalid, Severity: record.SeverityOf(record.CodeBPMNInvalid),
			Message: fmt.Sprintf("%s id %q holds %s, which no BPMN id may", element, id, why), File: p.path, Line: line})
	}
}

func (p *parser) closeProcess() {
	pr := p.cur()
	for i := range pr.Activities {
		if hit, ok := p.laneOf[pr.Activities[i].ID]; ok && pr.Activities[i].ID != "" {
			pr.Activities[i].Lane = hit.lane
		}
	}
	p.findings = append(p.findings, p.dyn...)
}

// flowElement handles a child of a process or sub-process.
func (p *parser) flowElement(t xml.StartElement, line int, parent string) *parseError {
	if t.Name.Space != Namespace {
		return p.skip()
	}
	pr := p.cur()
	local := t.Name.Local
	if container, ok := activityElements[local]; ok {
		a := record.Activity{
			ID:      strings.TrimSpace(attr(t, "id")),
			Name:    attr(t, "name"),
			Element: local,
			Line:    line,
			Parent:  parent,
		}
		p.checkID(local, a.ID, line)
		p.claimID(local, a.ID, line)
		x := extra{calledAttr: strings.TrimSpace(attr(t, "calledElement")), calledLine: p.attrLine("calledElement", line)}
		for _, at := range t.Attr {
			if at.Name.Local == "topic" && (at.Name.Space == CamundaNamespace || at.Name.Space == "camunda") {
				x.topic = strings.TrimSpace(at.Value)
			}
		}
		pr.Activities = append(pr.Activities, a)
		p.extras = append(p.extras, x)
		return p.push(frame{kind: kAct, act: len(pr.Activities) - 1, container: container})
	}
	switch local {
	case "laneSet":
		return p.push(frame{kind: kLaneSet})
	case "sequenceFlow":
		p.claimID(local, strings.TrimSpace(attr(t, "id")), line)
		pr.Flows = append(pr.Flows, record.Flow{
			ID:     strings.TrimSpace(attr(t, "id")),
			Source: strings.TrimSpace(attr(t, "sourceRef")),
			Target: strings.TrimSpace(attr(t, "targetRef")),
		})
	}
	return p.skip()
}

func (p *parser) openLane(t xml.StartElement, line, depth int) *parseError {
	p.claimID("lane", strings.TrimSpace(attr(t, "id")), line)
	pr := p.cur()
	pr.Lanes = append(pr.Lanes, record.Lane{ID: strings.TrimSpace(attr(t, "id")), Name: attr(t, "name")})
	return p.push(frame{kind: kLane, lane: len(pr.Lanes) - 1, depth: depth})
}

// placeNode records that node is in the given lane; the innermost lane wins.
func (p *parser) placeNode(node string, lane, depth int) {
	if node == "" {
		return
	}
	l := &p.cur().Lanes[lane]
	l.Nodes = append(l.Nodes, node)
	if hit, ok := p.laneOf[node]; !ok || depth > hit.depth {
		p.laneOf[node] = laneHit{lane: l.ID, depth: depth}
	}
}

// extension reads one element anywhere under an activity's extensionElements.
func (p *parser) extension(t xml.StartElement, line, act int) {
	a := &p.cur().Activities[act]
	x := &p.extras[act]
	switch t.Name.Local {
	case "skill":
		if ref := strings.TrimSpace(attr(t, "ref")); ref != "" {
			a.Skills = append(a.Skills, record.SkillRef{Ref: ref, Line: p.attrLine("ref", line)})
		}
	case "no-skill":
		if r := strings.TrimSpace(attr(t, "reason")); r != "" && a.NoSkillReason == "" {
			a.NoSkillReason = r
		}
	case "bean":
		ref := strings.TrimSpace(attr(t, "ref"))
		if ref == "" {
			ref = strings.TrimSpace(attr(t, "id"))
		}
		if ref != "" {
			a.Beans = append(a.Beans, ref)
		}
	case "taskDefinition":
		if isZeebe(t.Name.Space) && x.taskType == "" {
			x.taskType, x.taskLine = strings.TrimSpace(attr(t, "type")), line
		}
	case "calledElement":
		if isZeebe(t.Name.Space) && x.zeebeCall == "" {
			x.zeebeCall, x.zeebeLine = strings.TrimSpace(attr(t, "processId")), line
		}
	}
}

func isZeebe(space string) bool { return space == ZeebeNamespace || space == "zeebe" }

// closeActivity applies what the activity collected: documentation, the
// Camunda skill fall-backs and the call target.
func (p *parser) closeActivity(act int) {
	a := &p.cur().Activities[act]
	x := &p.extras[act]
	a.Documentation = strings.Join(x.docs, "\n\n")
	if len(a.Skills) == 0 {
		switch {
		case x.taskType != "" && !Dynamic(x.taskType):
			a.Skills = append(a.Skills, record.SkillRef{Ref: x.taskType, Line: x.taskLine, Implicit: true})
		case x.topic != "" && !Dynamic(x.topic):
			a.Skills = append(a.Skills, record.SkillRef{Ref: x.topic, Line: a.Line, Implicit: true})
		}
	}
	line := x.calledLine
	a.Called = x.calledAttr
	if a.Called == "" {
		a.Called, line = x.zeebeCall, x.zeebeLine
	}
	a.Refs.Set("calledElement", a.Called, line)
	for _, s := range a.Skills {
		a.Refs.Set("skill", s.Ref, s.Line)
	}
	if a.Called != "" && Dynamic(a.Called) {
		a.CalledDynamic = true
		p.dyn = append(p.dyn, record.Finding{
			Code:     record.CodeCallDynamic,
			Severity: record.SeverityOf(record.CodeCallDynamic),
			Message:  fmt.Sprintf("%s %q calls %q, which is only known at run time", a.Element, a.ID, truncate(a.Called, 200)),
			File:     p.path,
			Line:     line,
		})
	}
}

// Dynamic reports whether a call target or task type is an expression
// evaluated at run time: ${…} or #{…} (JUEL, Camunda 7) or =… (FEEL, Camunda 8).
func Dynamic(s string) bool {
	s = strings.TrimSpace(s)
	return strings.HasPrefix(s, "=") || strings.HasPrefix(s, "${") || strings.HasPrefix(s, "#{")
}
