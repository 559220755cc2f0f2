package skill

import (
	"fmt"
	"strings"

	yaml "go.yaml.in/yaml/v3"

	"github.com/skillgraph/skillgraph/ingest/internal/idcheck"
	"github.com/skillgraph/skillgraph/ingest/internal/ynode"
	"github.com/skillgraph/skillgraph/ingest/record"
)

// Tool origin of tools defined by hard-skill fences.
const OriginHardSkill = "hard-skill"

// fenceKeys are the keys a ```tool fence may carry.
var fenceKeys = map[string]bool{"id": true, "description": true, "params": true, "run": true}

// paramKeys are the keys a hard-skill param may carry (flat JSON Schema).
var paramKeys = map[string]bool{"type": true, "format": true, "enum": true, "description": true, "default": true}

// jsonTypes are the param types a hard skill may declare.
var jsonTypes = map[string]bool{
	"string": true, "number": true, "integer": true, "boolean": true, "object": true, "array": true,
}

// hard builds a hard skill (SPEC §2.1c) and one Tool per ```tool fence.
// Every hard-skill finding is an error.
func (p *parser) hard() {
	id, _ := scalarOf(p.fm.Root, "skill")
	if id == "" {
		id = p.folder
	}
	if id == "" {
		id = p.stem
	}
	if why := idcheck.Unsafe(id); why != "" {
		line := 1
		if e, ok := p.fm.Root.Get("skill"); ok {
			line = e.Line
		}
		p.add(record.CodeSkillIDInvalid, line, "", fmt.Sprintf("hard skill id %q holds %s", id, why))
	}
	s := p.base(id, FlavourHard)
	if s.Name == "" {
		s.Name, _ = scalarOf(p.fm.Root, "skill")
	}
	title(&s, p.body.Title)
	s.Includes = p.includes(id)
	seen := map[string]int{}
	for _, f := range p.body.Fences {
		if !f.isTool() {
			continue
		}
		if !f.Closed {
			p.add(record.CodeHardSkillUnterminatedFence, f.Line, id,
				"```tool fence is not closed; its tool is ignored")
			continue
		}
		t, ok := p.toolFence(id, s.Includes, f)
		if !ok {
			continue
		}
		if first, dup := seen[t.ID]; dup {
			p.add(record.CodeHardSkillDuplicateTool, f.Line, t.ID,
				fmt.Sprintf("tool %q is already defined by the fence at line %d; this one is ignored", t.Title, first))
			continue
		}
		seen[t.ID] = f.Line
		p.out.Tools = append(p.out.Tools, t)
	}
	p.out.Skills = append(p.out.Skills, s)
}

// toolFence parses one closed ```tool fence; includes are the skill's, which
// the files its run line names must be among. ok is false when no tool can be
// built (no id, or the YAML does not parse).
func (p *parser) toolFence(skillID string, includes []string, f fence) (record.Tool, bool) {
	text := strings.Join(f.Content, "\n")
	off := newLineMap(text, f.Line+1) // content starts on the line after the fence
	root, err := parseYAML(text)
	if err != nil {
		p.add(ynode.Code(err, record.CodeParseError), errLine(err, off), skillID, "```tool fence: "+yamlErrText(err))
		return record.Tool{}, false
	}
	if root == nil {
		p.add(record.CodeHardSkillMissingIDOrRun, f.Line, skillID, "```tool fence is empty: it needs id and run")
		return record.Tool{}, false
	}
	if root.Kind != yaml.MappingNode {
		p.add(record.CodeParseError, f.Line, skillID,
			fmt.Sprintf("```tool fence must be a YAML mapping, is a %s", kindName(root.Kind)))
		return record.Tool{}, false
	}
	m, dups := entries(root, off)
	for _, d := range dups {
		p.add(record.CodeParseError, d.Line, skillID, fmt.Sprintf("```tool fence: duplicate key %q", d.Name))
	}
	fid, _ := scalarOf(m, "id")
	subject := skillID + "." + fid
	if fid == "" {
		subject = skillID
	}
	for _, e := range m.Entries {
		if !fenceKeys[e.Name] {
			p.add(record.CodeHardSkillUnknownKey, e.Line, subject,
				fmt.Sprintf("```tool fence key %q is not one of id, description, params, run", e.Name))
		}
	}
	words, runLines, hasRun := runWords(m, off)
	if fid == "" || !hasRun {
		var miss []string
		if fid == "" {
			miss = append(miss, "id")
		}
		if !hasRun {
			miss = append(miss, "run")
		}
		p.add(record.CodeHardSkillMissingIDOrRun, f.Line, subject,
			"```tool fence has no "+strings.Join(miss, " and "))
	}
	t := record.Tool{
		ID:        subject,
		Origin:    OriginHardSkill,
		Title:     fid,
		Line:      f.Line,
		Satisfies: []string{p.qualified(skillID)},
		Invoke:    record.Invoke{Shell: words},
	}
	t.Description, _ = scalarOf(m, "description")
	t.Inputs = p.params(subject, m, off)
	p.checkVars(subject, t.Inputs, words, runLines)
	p.checkRunFiles(subject, includes, words, runLines)
	return t, fid != ""
}

// qualified is the package/name reference of a skill of this file: a fence
// Tool satisfies exactly the skill it sits in, even when another package
// defines the same name.
func (p *parser) qualified(id string) string {
	if p.opt.Package == "" {
		return id
	}
	return p.opt.Package + "/" + id
}

// runWords returns the argv words of run (a string split on whitespace, or a
// list of words as written), the file line of each word, and whether run is
// present and non-empty.
func runWords(m mapping, lm lineMap) (words []string, lines []int, ok bool) {
	e, has := m.Get("run")
	if !has {
		return nil, nil, false
	}
	v := deref(e.Val)
	if v == nil {
		return nil, nil, false
	}
	switch v.Kind {
	case yaml.ScalarNode:
		s, _ := scalar(v)
		for _, w := range strings.Fields(s) {
			words = append(words, w)
			lines = append(lines, e.Line)
		}
	case yaml.SequenceNode:
		for _, c := range v.Content {
			if w, isStr := scalar(c); isStr && w != "" {
				words = append(words, w)
				lines = append(lines, lm.At(c.Line))
			}
		}
	}
	return words, lines, len(words) > 0
}

// params builds one input port per declared param and reports the param
// rules (unknown keys, types, enum/default, duplicates).
func (p *parser) params(subject string, m mapping, off lineMap) []record.Port {
	e, ok := m.Get("params")
	if !ok || isNull(e.Val) {
		return nil
	}
	v := deref(e.Val)
	if v == nil || v.Kind != yaml.MappingNode {
		p.add(record.CodeParseError, e.Line, subject, "```tool fence params must be a mapping of param names")
		return nil
	}
	pm, dups := entries(v, off)
	for _, d := range dups {
		first, _ := pm.Get(d.Name)
		p.add(record.CodeHardSkillDuplicateParam, d.Line, subject,
			fmt.Sprintf("param %q is already declared at line %d", d.Name, first.Line))
	}
	ports := make([]record.Port, 0, len(pm.Entries))
	for _, pe := range pm.Entries {
		ports = append(ports, p.param(subject, pe, off))
	}
	return ports
}

// param builds the port of one param.
func (p *parser) param(subject string, pe entry, off lineMap) record.Port {
	port := record.Port{Name: pe.Name, TypeIRI: "json:string", JSONType: "string", Required: true, Line: pe.Line}
	if isNull(pe.Val) {
		return port
	}
	v := deref(pe.Val)
	if v == nil || v.Kind != yaml.MappingNode {
		p.add(record.CodeParseError, pe.Line, subject,
			fmt.Sprintf("param %q must be a mapping of type/format/enum/description/default", pe.Name))
		return port
	}
	km, dups := entries(v, off)
	for _, d := range dups {
		p.add(record.CodeParseError, d.Line, subject, fmt.Sprintf("param %q: duplicate key %q", pe.Name, d.Name))
	}
	for _, k := range km.Entries {
		if !paramKeys[k.Name] {
			p.add(record.CodeHardSkillUnknownKey, k.Line, subject,
				fmt.Sprintf("param %q key %q is not one of type, format, enum, description, default", pe.Name, k.Name))
		}
	}
	if te, ok := km.Get("type"); ok && !isNull(te.Val) {
		typ, _ := scalar(te.Val)
		if jsonTypes[typ] {
			port.TypeIRI, port.JSONType = "json:"+typ, typ
		} else {
			port.TypeIRI, port.JSONType = "", ""
			p.add(record.CodeParseError, te.Line, subject,
				fmt.Sprintf("param %q has type %q; allowed: string, number, integer, boolean, object, array", pe.Name, typ))
		}
	}
	port.Description, _ = scalarOf(km, "description")
	de, hasDefault := km.Get("default")
	port.Required = !hasDefault
	if ee, ok := km.Get("enum"); ok && hasDefault && !isNull(de.Val) {
		enum := enumValues(ee.Val)
		d, isStr := scalar(de.Val)
		if len(enum) > 0 && (!isStr || !contains(enum, d)) {
			p.add(record.CodeHardSkillDefaultNotInEnum, de.Line, subject,
				fmt.Sprintf("param %q default %q is not one of its enum values %s", pe.Name, d, strings.Join(enum, ", ")))
		}
	}
	return port
}

// enumValues reads an enum: a YAML list or a comma-separated string.
func enumValues(n *yaml.Node) []string {
	n = deref(n)
	if n == nil {
		return nil
	}
	var out []string
	switch n.Kind {
	case yaml.ScalarNode:
		s, _ := scalar(n)
		for _, v := range strings.Split(s, ",") {
			if v = strings.TrimSpace(v); v != "" {
				out = append(out, v)
			}
		}
	case yaml.SequenceNode:
		for _, c := range n.Content {
			if v, ok := scalar(c); ok {
				out = append(out, v)
			}
		}
	}
	return out
}

// contains reports whether list holds s.
func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

// checkVars reports params missing from run and $names in run that no
// param declares.
func (p *parser) checkVars(subject string, ports []record.Port, words []string, lines []int) {
	declared := map[string]bool{}
	for _, pt := range ports {
		declared[pt.Name] = true
	}
	used := map[string]bool{}
	for i, w := range words {
		for _, name := range runVars(w) {
			if !declared[name] && !used[name] {
				p.add(record.CodeHardSkillUndeclaredVar, lines[i], subject,
					fmt.Sprintf("run uses $%s but no param declares it", name))
			}
			used[name] = true
		}
	}
	for _, pt := range ports {
		if !used[pt.Name] {
			p.add(record.CodeHardSkillParamUnused, pt.Line, subject,
				fmt.Sprintf("param %q is declared but never used in run", pt.Name))
		}
	}
}
