package gen

import (
	"fmt"
	"strings"
)

// xmlEscaper escapes attribute and text content.
var xmlEscaper = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&quot;", "'", "&apos;")

func (g *generator) writeProcesses() error {
	for i := range g.procs {
		p := &g.procs[i]
		b := &g.buf
		b.Reset()
		b.WriteString(`<?xml version="1.0" encoding="UTF-8"?>` + "\n")
		fmt.Fprintf(b, `<bpmn:definitions xmlns:bpmn="http://www.omg.org/spec/BPMN/20100524/MODEL"
                  xmlns:x="https://synth.example/harness/processes/ns#"
                  id="Definitions_%s" targetNamespace="https://synth.example/harness/processes">
  <bpmn:process id="%s" name="%s" isExecutable="false">
`, camel(p.stem), p.id, xmlEscaper.Replace(p.name))
		if p.lanes > 0 {
			fmt.Fprintf(b, "    <bpmn:laneSet id=\"LaneSet_%d\">\n", i)
			for l := range p.lanes {
				ln := laneNames[0] // machine steps
				if l == 1 {
					ln = laneNames[1+i%(len(laneNames)-1)] // person steps
				}
				fmt.Fprintf(b, "      <bpmn:lane id=\"Lane_%s\" name=\"%s\">\n", ln[0], ln[1])
				for _, st := range p.steps {
					if st.lane == l {
						fmt.Fprintf(b, "        <bpmn:flowNodeRef>%s</bpmn:flowNodeRef>\n", st.id)
					}
				}
				b.WriteString("      </bpmn:lane>\n")
			}
			b.WriteString("    </bpmn:laneSet>\n")
		}
		b.WriteString("    <bpmn:startEvent id=\"Start\" name=\"Requested\"/>\n")
		for _, st := range p.steps {
			if st.element == "callActivity" {
				fmt.Fprintf(b, "    <bpmn:callActivity id=\"%s\" name=\"%s\" calledElement=\"%s\"/>\n", st.id, xmlEscaper.Replace(st.name), st.calls)
				continue
			}
			fmt.Fprintf(b, "    <bpmn:%s id=\"%s\" name=\"%s\">\n", st.element, st.id, xmlEscaper.Replace(st.name))
			if st.doc != "" {
				fmt.Fprintf(b, "      <bpmn:documentation>%s</bpmn:documentation>\n", xmlEscaper.Replace(st.doc))
			}
			b.WriteString("      <bpmn:extensionElements>")
			for _, s := range st.skills {
				fmt.Fprintf(b, "<x:skill ref=\"%s\"/>", s)
			}
			if st.noSkill != "" {
				fmt.Fprintf(b, "<x:no-skill reason=\"%s\"/>", xmlEscaper.Replace(st.noSkill))
			}
			b.WriteString("</bpmn:extensionElements>\n")
			fmt.Fprintf(b, "    </bpmn:%s>\n", st.element)
		}
		b.WriteString("    <bpmn:endEvent id=\"End\" name=\"Done\"/>\n")
		prev := "Start"
		for k, st := range p.steps {
			fmt.Fprintf(b, "    <bpmn:sequenceFlow id=\"F%d\" sourceRef=\"%s\" targetRef=\"%s\"/>\n", k+1, prev, st.id)
			prev = st.id
		}
		fmt.Fprintf(b, "    <bpmn:sequenceFlow id=\"F%d\" sourceRef=\"%s\" targetRef=\"End\"/>\n", len(p.steps)+1, prev)
		b.WriteString("  </bpmn:process>\n</bpmn:definitions>\n")
		if err := g.file("processes/"+p.stem+".bpmn", b.Bytes()); err != nil {
			return err
		}
	}
	return nil
}
