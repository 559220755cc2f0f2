package gen

import (
	"encoding/json"
	"fmt"
	"strings"

	yaml "go.yaml.in/yaml/v3"
)

// Tool file shapes, in the field order authors write them.
type (
	jsonPort struct {
		Name     string         `json:"name" yaml:"name"`
		Type     string         `json:"type" yaml:"type"`
		Required *bool          `json:"required,omitempty" yaml:"required,omitempty"`
		Repeated bool           `json:"repeated,omitempty" yaml:"repeated,omitempty"`
		Arg      map[string]any `json:"arg,omitempty" yaml:"arg,omitempty"`
	}
	jsonIO struct {
		Inputs  []jsonPort `json:"inputs" yaml:"inputs"`
		Outputs []jsonPort `json:"outputs" yaml:"outputs"`
	}
	jsonSelection struct {
		When   string `json:"when" yaml:"when"`
		Limits string `json:"limits" yaml:"limits"`
		Cost   string `json:"cost" yaml:"cost"`
	}
	jsonRequires struct {
		OS      []string `json:"os,omitempty" yaml:"os,omitempty"`
		Runtime []string `json:"runtime,omitempty" yaml:"runtime,omitempty"`
		Network bool     `json:"network,omitempty" yaml:"network,omitempty"`
	}
	jsonRemedy struct {
		Host string `json:"host" yaml:"host"`
		Tool string `json:"tool,omitempty" yaml:"tool,omitempty"`
		None any    `json:"none,omitempty" yaml:"none,omitempty"`
	}
	jsonTool struct {
		ID           string         `json:"id" yaml:"id"`
		Title        string         `json:"title" yaml:"title"`
		Description  string         `json:"description" yaml:"description"`
		Satisfies    []string       `json:"satisfies" yaml:"satisfies"`
		Install      map[string]any `json:"install" yaml:"install"`
		Invoke       map[string]any `json:"invoke" yaml:"invoke"`
		IO           jsonIO         `json:"io" yaml:"io"`
		Selection    *jsonSelection `json:"selection,omitempty" yaml:"selection,omitempty"`
		Requires     *jsonRequires  `json:"requires,omitempty" yaml:"requires,omitempty"`
		Remedies     []jsonRemedy   `json:"remedies,omitempty" yaml:"remedies,omitempty"`
		Subprocesses []string       `json:"subprocesses,omitempty" yaml:"subprocesses,omitempty"`
	}
)

func (g *generator) writeTools() error {
	for i := range g.tools {
		t := &g.tools[i]
		jt := jsonTool{ID: t.id, Title: t.title, Description: t.desc, Install: map[string]any{}, Invoke: map[string]any{}}
		for _, si := range t.skills {
			jt.Satisfies = append(jt.Satisfies, g.skills[si].name)
		}
		for _, p := range t.inputs {
			req := p.required
			jp := jsonPort{Name: p.name, Type: p.t.name, Required: &req, Repeated: p.repeated}
			switch p.arg {
			case "stdin":
				jp.Arg = map[string]any{"stdin": true}
			case "positional":
				jp.Arg = map[string]any{"positional": p.pos}
			default:
				jp.Arg = map[string]any{"flag": "--" + p.name}
			}
			jt.IO.Inputs = append(jt.IO.Inputs, jp)
		}
		jt.IO.Outputs = []jsonPort{}
		for _, p := range t.outputs {
			jt.IO.Outputs = append(jt.IO.Outputs, jsonPort{Name: p.name, Type: p.t.name})
		}
		script := "scripts/" + t.id
		switch t.invoke {
		case "shell":
			jt.Invoke["shell"] = t.program + " " + strings.ReplaceAll(t.id, "-", " ")
		case "argv":
			jt.Invoke["shell"] = []string{t.program, script}
		case "container":
			jt.Invoke["container"] = "ghcr.io/synth/" + t.id + ":1"
			jt.Install["container"] = "docker pull ghcr.io/synth/" + t.id + ":1"
		case "inProcess":
			jt.Invoke["inProcess"] = map[string]any{"module": "internal/" + strings.ReplaceAll(t.id, "-", "/")}
		case "manual":
			jt.Invoke["manual"] = true
		}
		if t.mcp > 0 {
			jt.Invoke["mcp"] = map[string]any{"server": g.srvs[t.mcp-1].name, "tool": strings.ReplaceAll(t.id, "-", "_")}
		}
		if len(jt.Install) == 0 {
			if (t.invoke == "shell" || t.invoke == "argv") && !strings.Contains(t.program, "/") && i%2 == 0 {
				jt.Install["cli"] = "apt-get install " + t.program
			} else {
				jt.Install["none"] = true
			}
		}
		if t.selection {
			jt.Selection = &jsonSelection{
				When:   "the " + t.id + " mechanism is available on this host",
				Limits: "only for " + strings.ReplaceAll(g.skills[t.skills[0]].name, "-", " ") + " requests",
				Cost:   []string{"one process start", "a network round trip", "a container pull", "a person's time"}[i%4],
			}
		}
		if t.network || t.invoke == "argv" && i%3 == 0 {
			jt.Requires = &jsonRequires{Network: t.network}
			if t.invoke == "argv" {
				jt.Requires.OS = []string{"linux", "darwin"}
				if t.program == "python3" || t.program == "uv" {
					jt.Requires.Runtime = []string{"python3"}
				}
			}
		}
		if t.network {
			r := jsonRemedy{Host: hosts[i%len(hosts)]}
			if t.remedyTool != "" {
				r.Tool = t.remedyTool
			} else {
				r.None = true
			}
			jt.Remedies = []jsonRemedy{r}
		}
		if t.subprocess != "" {
			jt.Subprocesses = []string{t.subprocess}
		}
		var (
			data []byte
			err  error
			rel  string
		)
		if t.yaml {
			rel = "tools/" + t.id + ".yaml"
			data, err = yaml.Marshal(jt)
		} else {
			rel = "tools/" + t.id + ".json"
			data, err = json.MarshalIndent(jt, "", "  ")
			data = append(data, '\n')
		}
		if err != nil {
			return fmt.Errorf("gen: tool %s: %w", t.id, err)
		}
		if err := g.file(rel, data); err != nil {
			return err
		}
	}
	return nil
}
