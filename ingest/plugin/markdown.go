package plugin

import (
	"fmt"
	"path"
	"regexp"
	"strconv"
	"strings"

	yaml "go.yaml.in/yaml/v3"

	"github.com/skillgraph/skillgraph/ingest/internal/ynode"
	"github.com/skillgraph/skillgraph/ingest/record"
)

// frontMatter is a command's or an agent's front matter: its keys with
// their text and lines.
type frontMatter struct {
	vals  map[string]*yaml.Node // parsed YAML values (nil when read line by line)
	text  map[string]string     // every key's text
	lines map[string]int
	order []string
}

func (f frontMatter) str(k string) string { return f.text[k] }
func (f frontMatter) has(k string) bool   { _, ok := f.lines[k]; return ok }

// list reads a value that is a YAML list or a comma-separated string.
func (f frontMatter) list(k string) []string {
	if v := f.vals[k]; v != nil && ynode.IsSeq(v) {
		return ynode.Strings(v)
	}
	return splitList(f.text[k])
}

// splitList splits "Read, Grep, Bash(git add:*)" on the commas outside
// parentheses; blanks are dropped.
func splitList(s string) []string {
	var out []string
	depth, start := 0, 0
	flush := func(end int) {
		if t := strings.TrimSpace(s[start:end]); t != "" {
			out = append(out, t)
		}
	}
	for i, r := range s {
		switch r {
		case '(':
			depth++
		case ')':
			depth = max(0, depth-1)
		case ',':
			if depth == 0 {
				flush(i)
				start = i + 1
			}
		}
	}
	flush(len(s))
	return out
}

// readFrontMatter reads the front matter of a host markdown file. The
// hosts read a front matter that is not valid YAML (an unquoted colon in a
// one-line description is the usual cause) line by line, key: value; so
// does this reader, with a warning (frontmatter-not-yaml), so the
// component is still read.
func readFrontMatter(out *record.File, p string, data []byte, subject string) frontMatter {
	fm := frontMatter{vals: map[string]*yaml.Node{}, text: map[string]string{}, lines: map[string]int{}}
	lines := ynode.Lines(data)
	sp := ynode.SplitFrontMatter(lines)
	if !sp.Present {
		return fm
	}
	if !sp.Closed {
		out.Findings = append(out.Findings, record.New(record.CodeParseError, p, 1, subject, "front matter is not closed by a --- line"))
		return fm
	}
	var root yaml.Node
	err := yaml.Unmarshal([]byte(sp.YAML), &root)
	if err == nil && len(root.Content) == 1 && ynode.IsMap(root.Content[0]) {
		m := ynode.Entries(root.Content[0], sp.Lines)
		for _, e := range m.Entries {
			fm.vals[e.Name] = e.Val
			fm.lines[e.Name] = e.Line
			fm.order = append(fm.order, e.Name)
			if s, ok := ynode.Scalar(e.Val); ok {
				fm.text[e.Name] = s
			} else if ynode.IsSeq(e.Val) {
				fm.text[e.Name] = strings.Join(ynode.Strings(e.Val), ", ")
			}
		}
		return fm
	}
	if err == nil && (len(root.Content) == 0 || ynode.IsNull(root.Content[0])) {
		return fm // an empty front matter
	}
	msg, at := "front matter is not a YAML mapping", 2
	if err != nil {
		why := firstLine(err.Error())
		if m := yamlLineRE.FindStringSubmatch(why); m != nil {
			n, _ := strconv.Atoi(m[1])
			at, why = sp.Lines.At(n), m[2]
		}
		msg = "front matter is not valid YAML (" + why + ")"
	}
	out.Findings = append(out.Findings, record.New(record.CodeFrontMatterNotYAML, p, at, subject,
		msg+"; read line by line as key: value, as the hosts do"))
	for i, l := range strings.Split(sp.YAML, "\n") {
		if l == "" || l[0] == ' ' || l[0] == '\t' || l[0] == '#' || l[0] == '-' {
			continue
		}
		k, v, ok := strings.Cut(l, ":")
		k = strings.TrimSpace(k)
		if !ok || k == "" || strings.ContainsAny(k, " \"'") {
			continue
		}
		if _, seen := fm.lines[k]; seen {
			continue
		}
		fm.lines[k] = sp.Lines.At(i + 1)
		fm.text[k] = strings.Trim(strings.TrimSpace(v), `"'`)
		fm.order = append(fm.order, k)
	}
	return fm
}

// yamlLineRE splits "line N: why" of a YAML error.
var yamlLineRE = regexp.MustCompile(`^line (\d+): (.*)$`)

func firstLine(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	return strings.TrimPrefix(s, "yaml: ")
}

// stem is a file's name without its extension.
func stem(p string) string {
	b := path.Base(p)
	return strings.TrimSuffix(b, path.Ext(b))
}

// ParseCommand reads a slash command (commands/**/*.md): /<plugin>:<name>
// in a plugin, /<name> in a project, where name is the path below the
// commands folder with ':' for '/' (a nested command "git/commit.md" is
// "git:commit"). dir is the commands folder the file was found under.
func ParseCommand(p string, data []byte, c Context, dir string) (out record.File) {
	out = record.File{Path: p, Parser: ParserCommand}
	defer recoverInto(&out, p)
	rel := strings.TrimSuffix(strings.TrimPrefix(p, dir+"/"), path.Ext(p))
	if rel == p || dir == "" {
		rel = stem(p)
	}
	name := "/" + strings.ReplaceAll(rel, "/", ":")
	if c.Name != "" {
		name = "/" + c.Name + ":" + strings.ReplaceAll(rel, "/", ":")
	}
	fm := readFrontMatter(&out, p, data, name)
	const line = 1 // a component is its whole file
	cmd := record.Command{Name: name, Plugin: c.Plugin, Package: c.Name, Line: line, Description: fm.str("description"),
		ArgumentHint: fm.str("argument-hint"), Model: fm.str("model")}
	cmd.AllowedTools = fm.list("allowed-tools")
	for _, t := range cmd.AllowedTools {
		cmd.Refs.Set("allowedTools", t, fm.lines["allowed-tools"])
	}
	out.Commands = append(out.Commands, cmd)
	return out
}

// ParseAgent reads a subagent (agents/*.md): name and description are
// required (agent-invalid); tools is comma-separated (absent: every tool);
// skills names the skills it preloads.
func ParseAgent(p string, data []byte, c Context) (out record.File) {
	out = record.File{Path: p, Parser: ParserAgent}
	defer recoverInto(&out, p)
	fm := readFrontMatter(&out, p, data, stem(p))
	const line = 1 // a component is its whole file
	a := record.Agent{Name: fm.str("name"), Plugin: c.Plugin, Package: c.Name, Line: line, Description: fm.str("description"), Model: fm.str("model")}
	if len(fm.lines) == 0 {
		// No front matter at all: one finding says it, not one per key.
		out.Findings = append(out.Findings, record.New(record.CodeAgentInvalid, p, 1, stem(p),
			"subagent has no front matter (name and description): the host does not load it"))
		a.Name = stem(p)
	} else {
		if a.Name == "" {
			out.Findings = append(out.Findings, record.New(record.CodeAgentInvalid, p, line, stem(p),
				"subagent has no name in its front matter; the host does not load it"))
			a.Name = stem(p)
		}
		if a.Description == "" {
			out.Findings = append(out.Findings, record.New(record.CodeAgentInvalid, p, max(line, fm.lines["description"]), a.Name,
				"subagent has no description: the host delegates to an agent by its description"))
		}
	}
	a.Tools = fm.list("tools")
	a.AllTools = !fm.has("tools")
	a.Skills = fm.list("skills")
	for _, t := range a.Tools {
		a.Refs.Set("tools", t, fm.lines["tools"])
	}
	for _, s := range a.Skills {
		a.Refs.Set("skills", s, fm.lines["skills"])
	}
	if n := len(a.Tools) + len(a.Skills); ynode.OverItems(n) {
		out.Findings = append(out.Findings, record.New(record.CodeAgentInvalid, p, line, a.Name,
			fmt.Sprintf("%d tools and skills, over the limit of %d one record may hold; none of them is read", n, ynode.MaxItems)))
		a.Tools, a.Skills, a.Refs = nil, nil, nil
	}
	out.Agents = append(out.Agents, a)
	return out
}
