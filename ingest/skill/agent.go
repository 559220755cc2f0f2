package skill

import (
	"fmt"
	"net/url"
	"path"
	"path/filepath"
	"regexp"
	"strings"
	"unicode/utf8"

	yaml "go.yaml.in/yaml/v3"

	"github.com/skillgraph/skillgraph/ingest/record"
)

// Agent Skill limits (agentskills.io specification, SPEC §2.1b).
const (
	agentNameMax   = 64
	agentDescMax   = 1024
	agentCompatMax = 500
)

var agentNameRE = regexp.MustCompile(`^[a-z0-9]+(-[a-z0-9]+)*$`)

// agentKeys are the front-matter keys an Agent Skill may carry.
var agentKeys = map[string]bool{
	"name": true, "description": true, "license": true,
	"compatibility": true, "metadata": true, "allowed-tools": true,
}

// agent builds an Agent Skill (SPEC §2.1b). Id = name, falling back to the
// folder name (then the file stem) when name is missing.
func (p *parser) agent() record.Skill {
	name, nameLine := scalarOf(p.fm.Root, "name")
	id := name
	if id == "" {
		id = p.folder
	}
	if id == "" {
		id = p.stem
	}
	s := p.base(id, FlavourAgent)
	s.License, _ = scalarOf(p.fm.Root, "license")
	if e, ok := p.fm.Root.Get("allowed-tools"); ok {
		s.AllowedTools = allowedTools(e.Val)
	}
	title(&s, p.body.Title)
	if !p.fmOK() {
		return s // the parse-error says it all; key rules would only add noise
	}
	p.resourceLinks(id)
	p.agentName(id, name, nameLine)
	p.agentDescription(id)
	s.Compat = p.agentCompat(id)
	s.Metadata = p.agentMetadata(id)
	for _, e := range p.fm.Root.Entries {
		if !agentKeys[e.Name] {
			p.add(record.CodeSkillUnknownKey, e.Line, id,
				fmt.Sprintf("unknown Agent Skill front-matter key %q", e.Name))
		}
	}
	return s
}

// agentName checks name: present, 1–64 chars, lower-case hyphenated, equal
// to the folder name.
func (p *parser) agentName(id, name string, line int) {
	e, ok := p.fm.Root.Get("name")
	switch {
	case !ok:
		p.add(record.CodeAgentSkillNameInvalid, 1, id, "Agent Skill has no name in its front matter")
		return
	case !isScalar(e.Val):
		p.add(record.CodeAgentSkillNameInvalid, e.Line, id, "Agent Skill name must be a string")
		return
	}
	n := utf8.RuneCountInString(name)
	switch {
	case n == 0 || n > agentNameMax:
		p.add(record.CodeAgentSkillNameInvalid, line, id,
			fmt.Sprintf("Agent Skill name must be 1–%d characters, has %d", agentNameMax, n))
	case !agentNameRE.MatchString(name):
		p.add(record.CodeAgentSkillNameInvalid, line, id,
			fmt.Sprintf("Agent Skill name %q must be lower-case letters and digits separated by single hyphens", name))
	}
	if p.folder != "" && name != "" && name != p.folder {
		p.add(record.CodeAgentSkillNameMismatch, line, id,
			fmt.Sprintf("Agent Skill name %q differs from its folder name %q", name, p.folder))
	}
}

// agentDescription checks description: present, a string of 1–1024 chars.
func (p *parser) agentDescription(id string) {
	e, ok := p.fm.Root.Get("description")
	if !ok {
		p.add(record.CodeAgentSkillDescriptionInvalid, 1, id, "Agent Skill has no description in its front matter")
		return
	}
	d, isStr := scalar(e.Val)
	if !isStr && !isNull(e.Val) {
		p.add(record.CodeAgentSkillDescriptionInvalid, e.Line, id, "Agent Skill description must be a string")
		return
	}
	if n := utf8.RuneCountInString(d); n == 0 || n > agentDescMax {
		p.add(record.CodeAgentSkillDescriptionInvalid, e.Line, id,
			fmt.Sprintf("Agent Skill description must be 1–%d characters, has %d", agentDescMax, n))
	}
}

// agentCompat reads compatibility (≤500 chars). The spec names no code for
// this rule, so a violation is a parse-error.
func (p *parser) agentCompat(id string) string {
	e, ok := p.fm.Root.Get("compatibility")
	if !ok || isNull(e.Val) {
		return ""
	}
	c, isStr := scalar(e.Val)
	if !isStr {
		p.add(record.CodeParseError, e.Line, id, "Agent Skill compatibility must be a string")
		return ""
	}
	if n := utf8.RuneCountInString(c); n > agentCompatMax {
		p.add(record.CodeParseError, e.Line, id,
			fmt.Sprintf("Agent Skill compatibility must be at most %d characters, has %d", agentCompatMax, n))
	}
	return c
}

// agentMetadata reads metadata as a string map; entries whose value is not a
// scalar are reported (parse-error) and skipped.
func (p *parser) agentMetadata(id string) map[string]string {
	e, ok := p.fm.Root.Get("metadata")
	if !ok || isNull(e.Val) {
		return nil
	}
	v := deref(e.Val)
	if v == nil || v.Kind != yaml.MappingNode {
		p.add(record.CodeSkillMetadataInvalid, e.Line, id, "Agent Skill metadata must be a map of strings; it is not read")
		return nil
	}
	m, dups := entries(v, p.fm.Lines)
	out := make(map[string]string, len(m.Entries))
	for _, me := range m.Entries {
		s, isStr := scalar(me.Val)
		if !isStr && !isNull(me.Val) {
			// A spec violation the hosts tolerate: a warning on the key,
			// the skill is read (issue #21).
			p.add(record.CodeSkillMetadataInvalid, me.Line, id,
				fmt.Sprintf("Agent Skill metadata %q must be a string (the Agent Skills specification says string map); the key is not read", me.Name))
			continue
		}
		out[me.Name] = s
	}
	for _, d := range dups {
		p.add(record.CodeParseError, d.Line, id, fmt.Sprintf("duplicate metadata key %q", d.Name))
	}
	return out
}

// isScalar reports whether n is a scalar (null included).
func isScalar(n *yaml.Node) bool {
	n = deref(n)
	return n != nil && n.Kind == yaml.ScalarNode
}

// linkRE finds markdown link targets: [text](target).
var linkRE = regexp.MustCompile(`\]\(<?([^)\s>]+)>?(?:\s+"[^"]*")?\)`)

// resourceLinks reports each relative link of the body that names a file
// missing from the corpus (skill-resource-missing, SPEC §1.3): the agent
// follows it when it loads the skill. Links inside code fences, absolute
// URLs, anchors and paths that leave the corpus are not checked.
func (p *parser) resourceLinks(id string) {
	if p.opt.Exists == nil {
		return
	}
	dir := path.Dir(p.path)
	inFence := false
	reported := 0
	for i, line := range p.bodyLines() {
		t := strings.TrimSpace(line)
		if strings.HasPrefix(t, "```") || strings.HasPrefix(t, "~~~") {
			inFence = !inFence
			continue
		}
		if inFence || !strings.Contains(line, "](") {
			continue
		}
		for _, m := range linkRE.FindAllStringSubmatch(line, -1) {
			// The hosts' variables name the skill's and the plugin's folder.
			target := strings.ReplaceAll(m[1], "${CLAUDE_SKILL_DIR}", ".")
			if p.opt.Plugin != "" {
				if rel, err := relPath(dir, p.opt.Plugin); err == nil {
					target = strings.ReplaceAll(target, "${CLAUDE_PLUGIN_ROOT}", rel)
				}
			}
			if strings.Contains(target, "${") || strings.Contains(target, ":") || strings.HasPrefix(target, "#") || strings.HasPrefix(target, "/") {
				continue // a URL, mailto:, an anchor, or host-absolute
			}
			target, _, _ = strings.Cut(target, "#")
			target, _, _ = strings.Cut(target, "?")
			if u, err := url.PathUnescape(target); err == nil {
				target = u
			}
			rel := path.Join(dir, target)
			if target == "" || rel == ".." || strings.HasPrefix(rel, "../") || p.opt.Exists(rel) {
				continue
			}
			if reported++; reported > 100 {
				return // a bound on one file's findings
			}
			p.add(record.CodeSkillResourceMissing, p.fm.BodyIdx+i+1, id,
				fmt.Sprintf("%s links %s, which is not in the corpus (looked for %s)", id, target, rel))
		}
	}
}

// relPath is the slash path from folder dir to folder to (both relative
// to the corpus root).
func relPath(dir, to string) (string, error) {
	r, err := filepath.Rel(filepath.FromSlash(dir), filepath.FromSlash(to))
	return filepath.ToSlash(r), err
}
