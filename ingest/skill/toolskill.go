package skill

import (
	"fmt"
	"github.com/skillgraph/skillgraph/ingest/internal/idcheck"
	"strings"

	yaml "go.yaml.in/yaml/v3"

	"github.com/skillgraph/skillgraph/ingest/record"
)

// Tool-skill caps (SPEC §2.1d).
const (
	SummaryCap = 240       // bytes of UTF-8
	BodyCap    = 32 * 1024 // bytes of UTF-8
	// maxTriggerDepth bounds any_of/all_of nesting.
	maxTriggerDepth = 64
	// maxTriggerNodes bounds the trigger nodes visited (aliases can make a
	// small document into a huge or cyclic tree).
	maxTriggerNodes = 4096
)

// toolPhases are the phases a tool skill may be catalogued in.
var toolPhases = map[string]bool{"plan": true, "execute": true, "review": true, "subagent": true}

// triggerKinds are the keys of a trigger node; exactly one must be set.
var triggerKinds = map[string]bool{"tool": true, "mcp_server": true, "any_of": true, "all_of": true}

// toolSkill builds a tool skill (SPEC §2.1d). Cross-file trigger checks
// (trigger-dangling-tools, trigger-inert) are done later on the whole graph.
func (p *parser) toolSkill() record.ToolSkill {
	body := strings.TrimSpace(strings.Join(p.bodyLines(), "\n"))
	t := record.ToolSkill{
		Line:      1,
		Required:  true,
		BodyBytes: len(body),
		BodyLines: countLines(p.bodyLines()),
	}
	if !p.fmOK() {
		// Classified by a line scan; keep what that scan shows.
		t.Key = sniffKeys(p.fm.Raw)["key"]
		t.Title = p.body.Title
		if t.Title == "" {
			t.Title = t.Key
		}
	} else {
		p.toolSkillFront(&t)
	}
	if t.BodyBytes > BodyCap {
		p.add(record.CodeBodyOverCap, p.fm.BodyIdx+1, t.Key,
			fmt.Sprintf("tool-skill body is %d bytes, over the %d-byte cap", t.BodyBytes, BodyCap))
	}
	p.unresolvedVars(t.Key)
	return t
}

// toolSkillFront reads and checks the front-matter keys of a tool skill.
func (p *parser) toolSkillFront(t *record.ToolSkill) {
	m := p.fm.Root
	ke, _ := m.Get("key")
	key, ok := scalar(ke.Val)
	key = strings.TrimSpace(key)
	if !ok || key == "" {
		p.add(record.CodeToolSkillInvalid, ke.Line, "", "tool skill key must be a non-empty string")
	}
	if why := idcheck.Unsafe(key); why != "" {
		p.add(record.CodeToolSkillInvalid, ke.Line, "", fmt.Sprintf("tool skill key %q holds %s", key, why))
	}
	t.Key = key
	// SPEC §2.1d: phases, title and summary are part of a tool skill;
	// one missing is tool-skill-invalid, reported on the key's line.
	for _, k := range []string{"phases", "title", "summary"} {
		if e, ok := m.Get(k); !ok || isNull(e.Val) {
			p.add(record.CodeToolSkillInvalid, ke.Line, key, fmt.Sprintf("tool skill %s has no %s", key, k))
		}
	}
	t.Title, _ = scalarOf(m, "title")
	t.Title = strings.TrimSpace(t.Title)
	if t.Title == "" {
		t.Title = p.body.Title
	}
	if t.Title == "" {
		t.Title = key
	}
	var sumLine int
	t.Summary, sumLine = scalarOf(m, "summary")
	t.Summary = strings.TrimSpace(t.Summary)
	if len(t.Summary) > SummaryCap {
		p.add(record.CodeSummaryOverCap, sumLine, key,
			fmt.Sprintf("tool-skill summary is %d bytes, over the %d-byte cap", len(t.Summary), SummaryCap))
	}
	t.Phases = p.phases(key)
	if e, ok := m.Get("required"); ok && !isNull(e.Val) {
		var b bool
		v := deref(e.Val)
		if v == nil || v.Kind != yaml.ScalarNode || v.Tag != "!!bool" || v.Decode(&b) != nil {
			p.add(record.CodeToolSkillInvalid, e.Line, key, "tool skill required must be true or false")
		} else {
			t.Required = b
		}
	}
	te, _ := m.Get("trigger")
	t.Trigger, _ = p.trigger(key, te.Val, te.Line, 0)
	t.Refs = p.trigRefs
}

// phases reads phases ⊆ {plan, execute, review, subagent}.
func (p *parser) phases(key string) []string {
	e, ok := p.fm.Root.Get("phases")
	if !ok || isNull(e.Val) {
		return nil
	}
	v := deref(e.Val)
	if v == nil || v.Kind != yaml.SequenceNode {
		p.add(record.CodeToolSkillInvalid, e.Line, key, "tool skill phases must be a list")
		return nil
	}
	var out []string
	seen := map[string]bool{}
	for _, c := range v.Content {
		ph, isStr := scalar(c)
		if !isStr || !toolPhases[ph] {
			p.add(record.CodeToolSkillInvalid, p.fm.Lines.At(c.Line), key,
				fmt.Sprintf("tool skill phase %q is not one of plan, execute, review, subagent", ph))
			continue
		}
		if !seen[ph] {
			seen[ph] = true
			out = append(out, ph)
		}
	}
	return out
}

// trigger parses a trigger tree. line is the file line of n's key (used when
// n is null). ok is false when the tree (or any subtree) is malformed; what
// could be read is returned anyway.
func (p *parser) trigger(key string, n *yaml.Node, line, depth int) (record.Trigger, bool) {
	bad := func(l int, format string, a ...any) (record.Trigger, bool) {
		p.add(record.CodeToolSkillInvalid, l, key, "trigger: "+fmt.Sprintf(format, a...))
		return record.Trigger{}, false
	}
	v := deref(n)
	if v != nil && v.Line > 0 {
		line = p.fm.Lines.At(v.Line)
	}
	switch {
	case isNull(v):
		return bad(line, "is empty; it must be one of tool, mcp_server, any_of, all_of")
	case depth >= maxTriggerDepth || p.trigNodes >= maxTriggerNodes:
		if p.trigCut {
			return record.Trigger{}, false // reported once already
		}
		p.trigCut = true
		return bad(line, "is too large (deeper than %d levels or more than %d nodes)", maxTriggerDepth, maxTriggerNodes)
	case v.Kind != yaml.MappingNode:
		return bad(line, "must be a mapping with exactly one of tool, mcp_server, any_of, all_of; is a %s", kindName(v.Kind))
	}
	p.trigNodes++
	m, dups := entries(v, p.fm.Lines)
	var kinds []entry
	ok := true
	for _, d := range dups {
		p.add(record.CodeToolSkillInvalid, d.Line, key, fmt.Sprintf("trigger: duplicate key %q", d.Name))
		ok = false
	}
	for _, e := range m.Entries {
		if triggerKinds[e.Name] {
			kinds = append(kinds, e)
			continue
		}
		p.add(record.CodeToolSkillInvalid, e.Line, key,
			fmt.Sprintf("trigger: unknown key %q; expected one of tool, mcp_server, any_of, all_of", e.Name))
		ok = false
	}
	if len(kinds) != 1 {
		names := make([]string, len(kinds))
		for i, k := range kinds {
			names[i] = k.Name
		}
		p.add(record.CodeToolSkillInvalid, line, key,
			fmt.Sprintf("trigger: must set exactly one of tool, mcp_server, any_of, all_of; sets %d (%s)", len(kinds), strings.Join(names, ", ")))
		return record.Trigger{}, false
	}
	k := kinds[0]
	var t record.Trigger
	switch k.Name {
	case "tool", "mcp_server":
		s, isStr := scalar(k.Val)
		s = strings.TrimSpace(s)
		if !isStr || s == "" {
			p.add(record.CodeToolSkillInvalid, k.Line, key, fmt.Sprintf("trigger: %s must be a non-empty name", k.Name))
			return t, false
		}
		if k.Name == "tool" {
			t.Tool = s
		} else {
			t.McpServer = s
		}
		// The leaf's own line, for trigger-dangling-tools and
		// trigger-inert (issue 23.7: they sat on the key's line).
		p.trigRefs.Set("trigger."+k.Name, s, k.Line)
	default:
		seq := deref(k.Val)
		if seq == nil || seq.Kind != yaml.SequenceNode || len(seq.Content) == 0 {
			p.add(record.CodeToolSkillInvalid, k.Line, key, fmt.Sprintf("trigger: %s must be a non-empty list of triggers", k.Name))
			return t, false
		}
		subs := make([]record.Trigger, 0, len(seq.Content))
		for _, c := range seq.Content {
			sub, subOK := p.trigger(key, c, k.Line, depth+1)
			ok = ok && subOK
			if subOK {
				subs = append(subs, sub)
			}
		}
		if k.Name == "any_of" {
			t.AnyOf = subs
		} else {
			t.AllOf = subs
		}
	}
	return t, ok
}

// unresolvedVars reports each ${name} (front matter or body) that is not a
// declared skill variable, once per name at its first line.
func (p *parser) unresolvedVars(key string) {
	seen := map[string]bool{}
	for _, r := range skillVars(p.lines, 1) {
		if seen[r.Name] || p.opt.Variables[r.Name] {
			continue
		}
		seen[r.Name] = true
		p.add(record.CodeSkillVariableUnresolved, r.Line, key,
			fmt.Sprintf("${%s} is not a declared skill variable", r.Name))
	}
}
