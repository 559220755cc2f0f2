// Package skill parses markdown skill files (SPEC §2.1): harness skills,
// Agent Skills (SKILL.md), hard skills with ```tool fences, and tool skills
// (guidance keyed by a trigger). Parsing never executes anything and never
// panics; every problem becomes a record.Finding with the file and line.
package skill

import (
	"fmt"
	"path"
	"strings"

	"github.com/skillgraph/skillgraph/ingest/internal/ynode"
	"github.com/skillgraph/skillgraph/ingest/record"
)

// Options carry what the parser needs from its instance.
type Options struct {
	// Package is the package decided by discovery (parent folder or
	// package-manifest name).
	Package string
	// Variables are the instance's declared skillVariables (nil: none declared).
	Variables map[string]bool
	// Exists reports whether a slash path relative to the corpus root exists
	// (for includes:); nil means every include is assumed missing.
	Exists func(rel string) bool
	// Plugin is the plugin folder that holds the skill, "" outside one;
	// Resources are an Agent Skill's other files (SPEC §1.3).
	Plugin    string
	Resources []string
}

// Flavours of a skill file, as recorded in record.Skill.Flavour.
const (
	FlavourHarness = "harness"
	FlavourAgent   = "agent"
	FlavourHard    = "hard"
)

// Parser names set in record.File.Parser.
const (
	ParserSkill = "skill"
	ParserOther = "other"
)

// parser holds the state of parsing one file.
type parser struct {
	path   string
	opt    Options
	lines  []string
	fm     frontMatter
	body   body
	stem   string
	folder string
	out    *record.File
	// trigNodes counts trigger nodes visited (bounded by maxTriggerNodes).
	trigNodes int
	// trigCut is set once a too-large trigger has been reported.
	trigCut bool
	// trigRefs are the lines of the trigger leaves read so far.
	trigRefs record.RefLines
}

// Parse parses one markdown file at path (slash path relative to the corpus
// root) and returns its records and findings. README.md and files whose front
// matter has $schema are not skills: they come back with Parser "other" and
// no records.
func Parse(path string, data []byte, opt Options) record.File {
	out := record.File{Path: path, Parser: ParserSkill}
	p := newParser(path, data, opt, &out)
	if p.notASkill() {
		return record.File{Path: path, Parser: ParserOther}
	}
	p.reportFrontMatter()
	switch p.classify() {
	case "tool-skill":
		out.ToolSkills = append(out.ToolSkills, p.toolSkill())
	case FlavourHard:
		p.hard()
	case FlavourAgent:
		out.Skills = append(out.Skills, p.agent())
	default:
		out.Skills = append(out.Skills, p.harness())
	}
	p.boundLists()
	return out
}

// boundLists drops, with a parse-error finding, a list of a record that
// holds more than ynode.MaxItems entries: each entry is a value of one
// graph node, and the conversion merges them in quadratic time (issue
// #16.6). includes: is bounded where it is read, before its entries are
// checked.
func (p *parser) boundLists() {
	over := func(n int, what, subject string) bool {
		if !ynode.OverItems(n) {
			return false
		}
		p.add(record.CodeParseError, 1, subject, fmt.Sprintf("%d %s, over the limit of %d one record may hold; none of them is read", n, what, ynode.MaxItems))
		return true
	}
	for i := range p.out.Skills {
		s := &p.out.Skills[i]
		if over(len(s.AllowedTools), "allowed-tools entries", s.ID) {
			s.AllowedTools = nil
		}
		if over(len(s.ShellBlocks), "shell blocks", s.ID) {
			s.ShellBlocks = nil
		}
		if over(len(s.Commands), "prose commands", s.ID) {
			s.Commands = nil
		}
	}
	for i := range p.out.Tools {
		t := &p.out.Tools[i]
		if over(len(t.Inputs), "params", t.ID) {
			t.Inputs = nil
		}
	}
}

// newParser normalises the text (BOM, CRLF, CR) and splits front matter and body.
func newParser(p string, data []byte, opt Options, out *record.File) *parser {
	lines := ynode.Lines(data) // BOM dropped; CRLF and a lone CR end a line (YAML, CommonMark)
	fm := splitFrontMatter(lines)
	base := path.Base(p)
	ps := &parser{
		path:  p,
		opt:   opt,
		lines: lines,
		fm:    fm,
		body:  scanBody(lines, fm.BodyIdx),
		stem:  strings.TrimSuffix(base, path.Ext(base)),
		out:   out,
	}
	if dir := path.Dir(p); dir != "." && dir != "/" && dir != "" {
		ps.folder = path.Base(dir)
	}
	return ps
}

// hasKey reports whether the front matter has a top-level key, using a line
// scan when the YAML did not parse.
func (p *parser) hasKey(name string) bool {
	if p.fm.Err != nil && p.fm.Closed && !p.fm.NotMap {
		_, ok := sniffKeys(p.fm.Raw)[name]
		return ok
	}
	return p.fm.Root.Has(name)
}

// notASkill reports README.md and front matter with $schema.
func (p *parser) notASkill() bool {
	return strings.EqualFold(path.Base(p.path), "README.md") || p.hasKey("$schema")
}

// classify picks the flavour: the first of tool skill, hard skill, Agent
// Skill, harness skill that matches (SPEC §2.1).
func (p *parser) classify() string {
	base := path.Base(p.path)
	switch {
	case p.hasKey("key") && p.hasKey("trigger"):
		return "tool-skill"
	case p.hasKey("skill") || p.body.hasToolFence():
		return FlavourHard
	case base == "SKILL.md" || base == "skill.md":
		return FlavourAgent
	}
	return FlavourHarness
}

// reportFrontMatter turns front-matter syntax problems into parse-error
// findings.
func (p *parser) reportFrontMatter() {
	if p.fm.Err != nil {
		msg := "front matter: " + yamlErrText(p.fm.Err)
		p.add(ynode.Code(p.fm.Err, record.CodeParseError), p.fm.ErrLine, "", msg)
	}
	for _, d := range p.fm.Dups {
		first, _ := p.fm.Root.Get(d.Name)
		p.add(record.CodeParseError, d.Line, "",
			fmt.Sprintf("front matter: duplicate key %q (first at line %d, which is used)", d.Name, first.Line))
	}
}

// fmOK reports whether the front matter parsed (or is absent), so that
// flavour rules about missing keys are meaningful.
func (p *parser) fmOK() bool { return p.fm.Err == nil }

// add appends a finding of a registered code; its severity comes from the
// finding registry.
func (p *parser) add(code string, line int, subject, msg string) {
	p.out.Findings = append(p.out.Findings, record.New(code, p.path, line, subject, msg))
}

// bodyLines returns the body lines.
func (p *parser) bodyLines() []string {
	if p.fm.BodyIdx >= len(p.lines) {
		return nil
	}
	return p.lines[p.fm.BodyIdx:]
}

// base fills the fields every skill flavour records.
func (p *parser) base(id, flavour string) record.Skill {
	s := record.Skill{
		ID:          id,
		Flavour:     flavour,
		Package:     p.opt.Package,
		Line:        1,
		BodyLines:   countLines(p.bodyLines()),
		ShellBlocks: p.body.shellLines(),
		Commands:    p.proseCommands(),
		Plugin:      p.opt.Plugin,
		Resources:   p.opt.Resources,
	}
	s.Name, _ = scalarOf(p.fm.Root, "name")
	s.Description, _ = scalarOf(p.fm.Root, "description")
	return s
}

// title sets the title: first "# " heading, else name, else id.
func title(s *record.Skill, heading string) {
	switch {
	case heading != "":
		s.Title = heading
	case s.Name != "":
		s.Title = s.Name
	default:
		s.Title = s.ID
	}
}
