package queries

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/skillgraph/skillgraph/ingest/record"
)

// projectionCorpora are the corpora the projection is tried on: the
// repository's own and every real corpus beside the repository
// (../shared/realworld, when present) that holds Tools.
func projectionCorpora(t *testing.T) []string {
	t.Helper()
	roots := []string{"../examples/harness", "testdata/parity", "../ingest/testdata/mini"}
	real, _ := filepath.Glob("../../shared/realworld/*")
	for _, r := range real {
		if fi, err := os.Stat(r); err == nil && fi.IsDir() {
			roots = append(roots, r)
		}
	}
	return roots
}

// toolsListSchema compiles testdata/mcp/tools-list-result.schema.json.
func toolsListSchema(t *testing.T) *jsonschema.Schema {
	t.Helper()
	data, err := os.ReadFile("testdata/mcp/tools-list-result.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource("tools-list-result.schema.json", doc); err != nil {
		t.Fatal(err)
	}
	sch, err := c.Compile("tools-list-result.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	return sch
}

func validateToolsList(t *testing.T, sch *jsonschema.Schema, data []byte) error {
	t.Helper()
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		return err
	}
	return sch.Validate(v)
}

// TestToolsListSchemaRejects: the shape test can fail — a result without
// tools, a tool without inputSchema, a misspelt member, a non-object
// inputSchema and a non-boolean hint are each refused; the spec's own
// example is accepted.
func TestToolsListSchemaRejects(t *testing.T) {
	sch := toolsListSchema(t)
	for name, c := range map[string]struct {
		doc string
		ok  bool
	}{
		"spec example":       {`{"tools":[{"name":"get_weather","title":"Weather","description":"d","inputSchema":{"type":"object","properties":{"location":{"type":"string","description":"City"}},"required":["location"]}}],"nextCursor":"c"}`, true},
		"no tools":           {`{}`, false},
		"no inputSchema":     {`{"tools":[{"name":"a"}]}`, false},
		"misspelt member":    {`{"tools":[{"name":"a","input_schema":{"type":"object"},"inputSchema":{"type":"object"}}]}`, false},
		"array inputSchema":  {`{"tools":[{"name":"a","inputSchema":{"type":"array"}}]}`, false},
		"string hint":        {`{"tools":[{"name":"a","inputSchema":{"type":"object"},"annotations":{"readOnlyHint":"yes"}}]}`, false},
		"name with a space":  {`{"tools":[{"name":"a b","inputSchema":{"type":"object"}}]}`, false},
		"required not names": {`{"tools":[{"name":"a","inputSchema":{"type":"object","required":[1]}}]}`, false},
	} {
		if err := validateToolsList(t, sch, []byte(c.doc)); (err == nil) != c.ok {
			t.Errorf("%s: valid = %v, want %v (%v)", name, err == nil, c.ok, err)
		}
	}
}

// TestMCPToolsProjection: on the parity corpus the projection is exactly
// the Tools' names, descriptions, ports and stated hints.
func TestMCPToolsProjection(t *testing.T) {
	s := build(t, "memory", "testdata/parity")
	got, err := json.Marshal(s.MCPTools("github"))
	if err != nil {
		t.Fatal(err)
	}
	want := `{"tools":[` +
		`{"name":"create_pr","title":"Create a pull request","description":"Opens a pull request for the current branch.","inputSchema":{"type":"object","properties":{"heading":{"type":"string"},"title":{"type":"integer"}},"required":["heading"]}},` +
		`{"name":"delete_repo","title":"Delete a repository","description":"Deletes a repository.","inputSchema":{"type":"object","properties":{}}},` +
		`{"name":"list_issues","title":"List issues","description":"List the open issues of a repository.","inputSchema":{"type":"object","properties":{"labels":{"type":"array","items":{"type":"string"}},"limit":{"type":"integer"},"repo":{"type":"string"}},"required":["repo"]},"annotations":{"readOnlyHint":true}},` +
		`{"name":"publish_page","title":"Publish a page","description":"Publish a page.","inputSchema":{"type":"object","properties":{"page":{"type":"string"}},"required":["page"]},"outputSchema":{"type":"object","properties":{"etag":{"type":"string"},"revision":{"type":"string"},"url":{"type":"string"}}}}]}`
	if string(got) != want {
		t.Errorf("projection =\n%s\nwant\n%s", got, want)
	}
	if all := s.MCPTools(""); len(all.Tools) != 5 {
		t.Errorf("without a server: %d tools, want the 5 authored ones", len(all.Tools))
	}
}

// TestMCPToolsRoundTrip: on every corpus with Tools the projection is a
// valid tools/list result, and read back as an MCP snapshot (parser →
// JSON-LD → store → snapshot) each projected tool agrees with its Tool on
// every parity rule.
func TestMCPToolsRoundTrip(t *testing.T) {
	sch := toolsListSchema(t)
	tried := 0
	for _, root := range projectionCorpora(t) {
		t.Run(filepath.Base(root), func(t *testing.T) {
			s := build(t, "memory", root)
			list := s.MCPTools("")
			if len(list.Tools) == 0 {
				t.Skip("no Tools")
			}
			tried++
			data, err := json.MarshalIndent(list, "", "  ")
			if err != nil {
				t.Fatal(err)
			}
			if err := validateToolsList(t, sch, data); err != nil {
				t.Fatalf("not a tools/list result: %v", err)
			}
			dir := t.TempDir()
			if err := os.MkdirAll(filepath.Join(dir, "mcp"), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(dir, "mcp", "projected.json"), data, 0o644); err != nil {
				t.Fatal(err)
			}
			back := build(t, "memory", dir)
			for _, f := range back.Findings {
				if f.Code != record.CodeMCPToolUnauthored {
					t.Errorf("reading the projection back: %s:%d %s %s", f.File, f.Line, f.Code, f.Message)
				}
			}
			listed := map[string]*Tool{}
			for _, m := range back.Tools {
				listed[m.McpName] = m
			}
			if len(listed) != len(list.Tools) {
				t.Errorf("%d tools read back, %d projected", len(listed), len(list.Tools))
			}
			kept := map[string]string{} // name → the Tool id projected under it
			for _, p := range list.Tools {
				kept[p.Name] = ""
			}
			compared := 0
			for _, a := range s.Tools {
				name := MCPName(a)
				if a.Origin == "mcp" || kept[name] != "" {
					continue // a listed tool, or a second Tool of the name (not projected)
				}
				kept[name] = a.ID
				m := listed[name]
				if m == nil {
					t.Errorf("Tool %s: %q not read back", a.ID, name)
					continue
				}
				compared++
				for _, f := range s.comparePair(a, m, nil) {
					t.Errorf("round trip of %s: %s %s", a.ID, f.Code, f.Message)
				}
			}
			if compared != len(list.Tools) {
				t.Errorf("compared %d Tools, projected %d", compared, len(list.Tools))
			}
		})
	}
	if tried < 3 {
		t.Errorf("only %d corpora with Tools", tried)
	}
}

// TestProjectionNamesOnce: two Tools served under one name give one tool.
func TestProjectionNamesOnce(t *testing.T) {
	s := &Snapshot{Tools: []*Tool{
		{ID: "b", McpTool: "x", Description: "second"},
		{ID: "a", McpTool: "x", Description: "first"},
		{ID: "c", Origin: "mcp", McpName: "x"},
		{ID: "d", McpTool: "mcp__github__*"},
	}}
	got := s.MCPTools("")
	if len(got.Tools) != 2 || got.Tools[1].Description != "first" || got.Tools[1].Name != "x" || got.Tools[0].Name != "d" {
		t.Errorf("tools = %+v, want d (its invoke.mcp is a pattern) and one x from Tool a", got.Tools)
	}
}
