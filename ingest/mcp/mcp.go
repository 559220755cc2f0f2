// Package mcp parses MCP tools/list snapshots (SPEC §2.5) into one
// record.McpServer and one record.Tool per listed MCP tool.
package mcp

import (
	"fmt"
	"path"
	"strings"

	yaml "go.yaml.in/yaml/v3"

	"github.com/skillgraph/skillgraph/ingest/internal/ynode"
	"github.com/skillgraph/skillgraph/ingest/record"
)

// ParserName is the record.File.Parser value of this package.
const ParserName = "mcp"

// Parse reads one snapshot: {"tools": [...]}, optionally with
// "server": {"name": ...}, or a JSON-RPC envelope {"result": {"tools": [...]}}.
// The server name defaults to the file stem. Parse never panics.
func Parse(p string, data []byte) (out record.File) {
	out = record.File{Path: p, Parser: ParserName}
	defer func() {
		if r := recover(); r != nil {
			out.Findings = append(out.Findings, finding(p, record.CodeParseError, 1,
				fmt.Sprintf("%s: internal error while reading the MCP snapshot: %v", p, r)))
		}
	}()
	root, err := ynode.ParseJSON(data)
	if err != nil {
		line, msg := 1, err.Error()
		if pe, ok := err.(*ynode.Error); ok {
			line, msg = pe.Line, pe.Msg
		}
		out.Findings = append(out.Findings, finding(p, record.CodeParseError, line,
			fmt.Sprintf("%s is not valid JSON (line %d): %s", p, line, msg)))
		return out
	}
	for _, pr := range ynode.Problems(root) {
		out.Findings = append(out.Findings, finding(p, record.CodeParseError, pr.Line, p+": "+pr.Msg))
	}
	list, serverNode := toolsList(root)
	if list == nil {
		out.Findings = append(out.Findings, finding(p, record.CodeMCPInvalid, ynode.Line(root),
			fmt.Sprintf("%s is not an MCP tools/list result (expected an object with a \"tools\" list)", p)))
		return out
	}
	if count, over := ynode.TooMany(list); over {
		// One server node with every tool as a value: the conversion's work
		// would grow with the square of the list (issue #16.6).
		out.Findings = append(out.Findings, finding(p, record.CodeMCPInvalid, ynode.Line(list),
			fmt.Sprintf("%s lists %d tools, over the limit of %d one MCP server may hold; the snapshot is not read", p, count, ynode.MaxItems)))
		return out
	}
	s := &snapshot{path: p, server: serverName(p, serverNode), ids: map[string]bool{}, next: map[string]int{}, names: map[string]int{}}
	srv := record.McpServer{Name: s.server, Line: ynode.Line(root)}
	if serverNode != nil {
		srv.Line = ynode.Line(serverNode)
	}
	for i, tn := range ynode.Items(list) {
		t, ok := s.tool(i, tn)
		if !ok {
			continue
		}
		srv.Tools = append(srv.Tools, t.McpName)
		out.Tools = append(out.Tools, t)
	}
	out.Servers = []record.McpServer{srv}
	out.Findings = append(out.Findings, s.findings...)
	return out
}

// toolsList finds the tools list and the server object, unwrapping a
// JSON-RPC envelope. It returns a nil list when there is none.
func toolsList(root *yaml.Node) (list, server *yaml.Node) {
	if !ynode.IsMap(root) {
		return nil, nil
	}
	server = ynode.Get(root, "server")
	body := root
	if ynode.Get(root, "tools") == nil && ynode.IsMap(ynode.Get(root, "result")) {
		body = ynode.Get(root, "result")
		if s := ynode.Get(body, "server"); s != nil {
			server = s
		}
	}
	list = ynode.Get(body, "tools")
	if !ynode.IsSeq(list) {
		return nil, nil
	}
	if !ynode.IsMap(server) {
		server = nil
	}
	return list, server
}

// serverName is server.name, or the file stem.
func serverName(p string, server *yaml.Node) string {
	if n := strings.TrimSpace(ynode.Str(ynode.Get(server, "name"))); n != "" {
		return n
	}
	base := path.Base(strings.ReplaceAll(p, "\\", "/"))
	return strings.TrimSuffix(base, path.Ext(base))
}

// finding is a finding of a registered code on file p; its severity comes
// from the finding registry.
func finding(p, code string, line int, msg string) record.Finding {
	return record.New(code, p, line, "", msg)
}
