package gen

import (
	"fmt"
	"strings"
)

func (g *generator) writeSkills() error {
	for i := range g.skills {
		s := &g.skills[i]
		b := &g.buf
		b.Reset()
		words := strings.ReplaceAll(s.name, "-", " ")
		desc := yamlScalar(sentenceCase(words) + " for the " + s.pkg + " package. " + g.pick(sentences))
		var rel string
		switch s.flavour {
		case "agent":
			rel = "skills/" + s.pkg + "/" + s.name + "/SKILL.md"
			fmt.Fprintf(b, "---\nname: %s\ndescription: %s\n", s.name, desc)
			if g.chance(0.5) {
				b.WriteString("license: Apache-2.0\n")
			}
		case "hard":
			rel = "skills/" + s.pkg + "/" + s.name + ".md"
			fmt.Fprintf(b, "---\nskill: %s\ndescription: %s\n", s.name, desc)
		default:
			rel = "skills/" + s.pkg + "/" + s.name + ".md"
			fmt.Fprintf(b, "---\nname: %s\ndescription: %s\n", s.name, desc)
			if s.input != nil {
				fmt.Fprintf(b, "input: schemas/skills/%s/input.schema.json\n", s.name)
			}
			if s.output {
				fmt.Fprintf(b, "output: schemas/skills/%s/output.schema.json\n", s.name)
			}
		}
		if s.allowed {
			fmt.Fprintf(b, "allowed-tools: Read Bash(%s:*)\n", g.pick(programs))
		}
		fmt.Fprintf(b, "---\n\n# %s\n\n", sentenceCase(words))
		for range 1 + g.rng.IntN(4) {
			b.WriteString(g.pick(sentences))
			b.WriteByte('\n')
		}
		if s.shell {
			fmt.Fprintf(b, "\nToday this is done by hand:\n\n```sh\n./scripts/%s --all\n```\n", s.name)
		}
		if s.flavour == "hard" {
			// A program on PATH, not a script: a script the run line names
			// would have to be in includes: (hard-skill-run-not-included).
			script := s.pkg + "-" + s.name
			fmt.Fprintf(b, "\n```tool\nid: run\ndescription: run the %s\nparams:\n", words)
			b.WriteString("  target:\n    type: string\n    description: what to work on\n")
			b.WriteString("  mode:\n    type: string\n    enum: fast, full\n    default: fast\n")
			fmt.Fprintf(b, "run: %s --mode $mode $target\n```\n", script)
			g.stats.HardTools++
			if g.chance(0.5) {
				// A second fence with another signature: a step, not a choice.
				fmt.Fprintf(b, "\n```tool\nid: report\ndescription: report on the %s\nparams:\n", words)
				b.WriteString("  format:\n    type: string\n    enum: csv, json\n    default: csv\n")
				fmt.Fprintf(b, "run: %s-report --format $format\n```\n", script)
				g.stats.HardTools++
			}
		}
		if err := g.file(rel, b.Bytes()); err != nil {
			return err
		}
		g.stats.Skills++
		if s.input != nil {
			if err := g.writeContract(s.name, "input", s.input); err != nil {
				return err
			}
		}
		if s.output {
			if err := g.writeContract(s.name, "output", []prop{{name: "report", t: typeNamed("Text"), required: true}}); err != nil {
				return err
			}
		}
	}
	return nil
}

func (g *generator) writeContract(skill, which string, props []prop) error {
	b := &g.buf
	b.Reset()
	b.WriteString("{\n  \"$schema\": \"http://json-schema.org/draft-07/schema#\",\n  \"type\": \"object\",\n  \"required\": [")
	n := 0
	for _, p := range props {
		if p.required {
			if n > 0 {
				b.WriteString(", ")
			}
			fmt.Fprintf(b, "%q", p.name)
			n++
		}
	}
	b.WriteString("],\n  \"properties\": {\n")
	for i, p := range props {
		fmt.Fprintf(b, "    %q: {\"type\": %q}", p.name, p.t.json)
		if i < len(props)-1 {
			b.WriteByte(',')
		}
		b.WriteByte('\n')
	}
	b.WriteString("  }\n}\n")
	g.stats.Contracts++
	return g.file("schemas/skills/"+skill+"/"+which+".schema.json", b.Bytes())
}
