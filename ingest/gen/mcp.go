package gen

import (
	"encoding/json"
	"fmt"
	"strings"
)

// writeServers writes one tools/list snapshot per server and one tool skill
// guiding some of its tools.
func (g *generator) writeServers() error {
	type schema struct {
		Type       string                       `json:"type"`
		Properties map[string]map[string]string `json:"properties"`
		Required   []string                     `json:"required,omitempty"`
	}
	type mcpTool struct {
		Name        string          `json:"name"`
		Description string          `json:"description"`
		InputSchema schema          `json:"inputSchema"`
		Annotations map[string]bool `json:"annotations,omitempty"`
	}
	type snapshot struct {
		Server struct {
			Name    string `json:"name"`
			Version string `json:"version"`
		} `json:"server"`
		Tools []mcpTool `json:"tools"`
	}
	for i, srv := range g.srvs {
		var snap snapshot
		snap.Server.Name, snap.Server.Version = srv.name, fmt.Sprintf("1.%d.0", i%10)
		for _, t := range srv.tools {
			mt := mcpTool{Name: t.name, Description: t.desc, InputSchema: schema{Type: "object", Properties: map[string]map[string]string{}}}
			for _, p := range t.params {
				mt.InputSchema.Properties[p.name] = map[string]string{"type": p.t.json}
				if p.required {
					mt.InputSchema.Required = append(mt.InputSchema.Required, p.name)
				}
			}
			if t.readOnly > 0 {
				mt.Annotations = map[string]bool{"readOnlyHint": t.readOnly == 2}
				if t.readOnly == 1 {
					mt.Annotations["destructiveHint"] = strings.HasPrefix(t.name, "prune") || strings.HasPrefix(t.name, "rollback")
				}
			}
			snap.Tools = append(snap.Tools, mt)
		}
		data, err := json.MarshalIndent(snap, "", "  ")
		if err != nil {
			return err
		}
		if err := g.file("mcp/"+srv.name+".json", append(data, '\n')); err != nil {
			return err
		}
		g.stats.McpServers++
		g.stats.McpTools += len(srv.tools)
		// A tool skill guiding two of the server's tools, or the whole server.
		b := &g.buf
		b.Reset()
		fmt.Fprintf(b, "---\nkey: mcp:%s\ntrigger:\n", srv.name)
		if len(srv.tools) >= 2 && i%3 != 2 {
			fmt.Fprintf(b, "  any_of:\n    - tool: %s\n    - tool: %s\n", srv.tools[0].name, srv.tools[1].name)
		} else {
			fmt.Fprintf(b, "  mcp_server: %s\n", srv.name)
		}
		fmt.Fprintf(b, "phases: [plan, execute]\ntitle: Working with %s\nsummary: Use the %s tools for their own domain only.\nrequired: %t\n---\n\n%s\n",
			srv.name, srv.name, i%2 == 0, g.pick(sentences))
		if err := g.file("skills/tool-skills/"+srv.name+".md", b.Bytes()); err != nil {
			return err
		}
		g.stats.ToolSkills++
	}
	return nil
}
