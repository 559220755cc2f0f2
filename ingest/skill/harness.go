package skill

import (
	"fmt"
	"github.com/skillgraph/skillgraph/ingest/internal/idcheck"
	"strings"

	yaml "go.yaml.in/yaml/v3"

	"github.com/skillgraph/skillgraph/ingest/record"
)

// harness builds a harness skill (SPEC §2.1a). Unknown keys are not reported:
// real corpora carry many.
func (p *parser) harness() record.Skill {
	s := p.base(p.stem, FlavourHarness)
	if !idcheck.Name.MatchString(p.stem) {
		p.add(record.CodeSkillIDInvalid, 1, "", fmt.Sprintf("harness skill id %q (the file stem) does not match %s", p.stem, idcheck.Name))
	}
	s.Input, s.InputLine = scalarOf(p.fm.Root, "input")
	s.Output, s.OutputLine = scalarOf(p.fm.Root, "output")
	if s.Input == "" {
		s.InputLine = 0
	}
	if s.Output == "" {
		s.OutputLine = 0
	}
	if e, ok := p.fm.Root.Get("allowed-tools"); ok {
		s.AllowedTools = allowedTools(e.Val)
	}
	title(&s, p.body.Title)
	return s
}

// allowedTools reads allowed-tools: a string of patterns separated by
// whitespace or commas outside parentheses ("Bash(git add:*) Read"), or a
// YAML list of patterns.
func allowedTools(n *yaml.Node) []string {
	n = deref(n)
	if n == nil {
		return nil
	}
	switch n.Kind {
	case yaml.ScalarNode:
		if s, ok := scalar(n); ok {
			return splitPatterns(s)
		}
	case yaml.SequenceNode:
		var out []string
		for _, c := range n.Content {
			if s, ok := scalar(c); ok {
				if s = strings.TrimSpace(s); s != "" {
					out = append(out, s)
				}
			}
		}
		return out
	}
	return nil
}

// splitPatterns splits on whitespace and commas at parenthesis depth 0.
func splitPatterns(s string) []string {
	var out []string
	var cur strings.Builder
	depth := 0
	flush := func() {
		if t := strings.TrimSpace(cur.String()); t != "" {
			out = append(out, t)
		}
		cur.Reset()
	}
	for _, r := range s {
		switch {
		case r == '(':
			depth++
		case r == ')' && depth > 0:
			depth--
		case depth == 0 && (r == ',' || r == ' ' || r == '\t' || r == '\n' || r == '\r'):
			flush()
			continue
		}
		cur.WriteRune(r)
	}
	flush()
	return out
}
