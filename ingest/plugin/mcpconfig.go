package plugin

import (
	"fmt"

	yaml "go.yaml.in/yaml/v3"

	"github.com/skillgraph/skillgraph/ingest/internal/ynode"
	"github.com/skillgraph/skillgraph/ingest/record"
)

// ParseMcpConfig reads an MCP server declaration file (.mcp.json): either
// {"mcpServers": {name: server}} or the flat map {name: server}. A server
// is a stdio transport (command, args, env) or a remote one (type http or
// sse, url).
func ParseMcpConfig(p string, data []byte, c Context) (out record.File) {
	out = record.File{Path: p, Parser: ParserMcpConfig}
	defer recoverInto(&out, p)
	root, ok := parseJSON(&out, p, data, record.CodeMcpConfigInvalid, "MCP server declarations")
	if !ok {
		return out
	}
	if inner := ynode.Get(root, "mcpServers"); inner != nil {
		if !ynode.IsMap(inner) {
			out.Findings = append(out.Findings, record.New(record.CodeMcpConfigInvalid, p, ynode.Line(inner), "", "mcpServers must be an object of servers"))
			return out
		}
		root = inner
	}
	out.McpConfigs = mcpServers(&out, p, root, c)
	return out
}

// mcpServers reads a map of server name → server.
func mcpServers(out *record.File, p string, n *yaml.Node, c Context) []record.McpConfig {
	if cnt, over := ynode.TooMany(n); over {
		out.Findings = append(out.Findings, record.New(record.CodeMcpConfigInvalid, p, ynode.Line(n), "",
			fmt.Sprintf("%d MCP servers, over the limit of %d one file may hold; none is read", cnt, ynode.MaxItems)))
		return nil
	}
	var list []record.McpConfig
	for _, pr := range ynode.Pairs(n) {
		name := ynode.Str(pr.Key)
		if !ynode.IsMap(pr.Value) {
			out.Findings = append(out.Findings, record.New(record.CodeMcpConfigInvalid, p, ynode.Line(pr.Key), name,
				fmt.Sprintf("MCP server %q must be an object", name)))
			continue
		}
		s := record.McpConfig{Name: name, Plugin: c.Plugin, Package: c.Name, Line: ynode.Line(pr.Key),
			Command: ynode.Str(ynode.Get(pr.Value, "command")), URL: ynode.Str(ynode.Get(pr.Value, "url")),
			Transport: ynode.Str(ynode.Get(pr.Value, "type"))}
		s.Args = ynode.Strings(ynode.Get(pr.Value, "args"))
		if len(s.Args) > ynode.MaxItems {
			s.Args = s.Args[:ynode.MaxItems]
		}
		switch {
		case s.Transport == "" && s.Command != "":
			s.Transport = "stdio"
		case s.Transport == "" && s.URL != "":
			s.Transport = "http"
		}
		switch {
		case s.Command == "" && s.URL == "":
			out.Findings = append(out.Findings, record.New(record.CodeMcpConfigInvalid, p, s.Line, name,
				fmt.Sprintf("MCP server %q has neither a command nor a url: the host cannot start or reach it", name)))
		case (s.Transport == "http" || s.Transport == "sse") && s.URL == "":
			out.Findings = append(out.Findings, record.New(record.CodeMcpConfigInvalid, p, s.Line, name,
				fmt.Sprintf("MCP server %q is of type %s but has no url", name, s.Transport)))
		}
		list = append(list, s)
	}
	return list
}
