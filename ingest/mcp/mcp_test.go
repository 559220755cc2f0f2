package mcp

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/skillgraph/skillgraph/ingest/record"
)

type got struct {
	Code string
	Sev  record.Severity
	Line int
}

func summary(fs []record.Finding) []got {
	out := []got{}
	for _, f := range fs {
		out = append(out, got{f.Code, f.Severity, f.Line})
	}
	return out
}

func TestParseFindings(t *testing.T) {
	cases := []struct {
		name, data string
		want       []got
		tools      int
		server     string
	}{
		{"valid", `{"tools": [{"name": "a", "inputSchema": {"type": "object"}}]}`, nil, 1, "snap"},
		{"not json", "{\n\"tools\": [,]}", []got{{record.CodeParseError, record.Error, 2}}, 0, ""},
		{"empty", "", []got{{record.CodeParseError, record.Error, 1}}, 0, ""},
		{"yaml is not json", "tools: []", []got{{record.CodeParseError, record.Error, 1}}, 0, ""},
		{"array", "[]", []got{{record.CodeMCPInvalid, record.Error, 1}}, 0, ""},
		{"no tools", "{\n \"resources\": []}", []got{{record.CodeMCPInvalid, record.Error, 1}}, 0, ""},
		{"tools not list", `{"tools": {}}`, []got{{record.CodeMCPInvalid, record.Error, 1}}, 0, ""},
		{"rpc error", `{"jsonrpc": "2.0", "id": 1, "error": {"code": -1}}`, []got{{record.CodeMCPInvalid, record.Error, 1}}, 0, ""},
		{"rpc envelope", `{"jsonrpc": "2.0", "id": 1, "result": {"tools": [{"name": "a", "inputSchema": {}}]}}`, nil, 1, "snap"},
		{"server name", `{"server": {"name": "gh"}, "tools": []}`, nil, 0, "gh"},
		{"blank server name", `{"server": {"name": " "}, "tools": []}`, nil, 0, "snap"},
		{"nameless entry", "{\"tools\": [\n{\"title\": \"x\"},\n 3]}", []got{{record.CodeMCPInvalid, record.Error, 2}, {record.CodeMCPInvalid, record.Error, 3}}, 0, "snap"},
		{"no inputSchema", "{\"tools\": [\n{\"name\": \"a\"}]}", []got{{record.CodeMCPInvalid, record.Error, 2}}, 1, "snap"},
		{"duplicate", "{\"tools\": [\n{\"name\": \"a\", \"inputSchema\": {}},\n{\"name\": \"a\", \"inputSchema\": {}}]}",
			[]got{{record.CodeMCPToolDuplicate, record.Warning, 3}}, 2, "snap"},
		{"trailing data", `{"tools": []} {}`, []got{{record.CodeParseError, record.Error, 1}}, 0, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := Parse("mcp/snap.json", []byte(c.data))
			want := c.want
			if want == nil {
				want = []got{}
			}
			if g := summary(f.Findings); !reflect.DeepEqual(g, want) {
				t.Errorf("findings = %v, want %v", g, want)
				for _, fi := range f.Findings {
					t.Logf("  %d %s %s", fi.Line, fi.Code, fi.Message)
				}
			}
			if len(f.Tools) != c.tools {
				t.Errorf("%d tools, want %d", len(f.Tools), c.tools)
			}
			if c.server == "" {
				if len(f.Servers) != 0 {
					t.Errorf("servers = %+v", f.Servers)
				}
			} else if len(f.Servers) != 1 || f.Servers[0].Name != c.server {
				t.Errorf("servers = %+v, want %s", f.Servers, c.server)
			}
			if f.Parser != ParserName {
				t.Errorf("parser %q", f.Parser)
			}
		})
	}
}

func TestMapping(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("testdata", "github.json"))
	if err != nil {
		t.Fatal(err)
	}
	f := Parse("mcp/github.json", data)
	if len(f.Findings) != 0 || len(f.Tools) != 2 {
		t.Fatalf("findings %+v, %d tools", f.Findings, len(f.Tools))
	}
	no, yes := false, true
	want := record.Tool{
		ID: "github.create-pull-request", Origin: "mcp", Title: "Create pull request",
		Description: "Create a new pull request in a repository.", Line: 4,
		Invoke: record.Invoke{McpServer: "github", McpTool: "create_pull_request"},
		Inputs: []record.Port{
			{Name: "title", TypeIRI: "json:string", JSONType: "string", Required: true, Line: 11},
			{Name: "head", TypeIRI: "json:string", JSONType: "string", Required: true, Line: 12},
			{Name: "draft", TypeIRI: "json:boolean", JSONType: "boolean", Line: 13},
		},
		ReadOnly:    &no,
		Annotations: map[string]bool{"readOnlyHint": false, "destructiveHint": false},
		Server:      "github", McpName: "create_pull_request",
	}
	if !reflect.DeepEqual(f.Tools[0], want) {
		t.Errorf("tool =\n%+v\nwant\n%+v", f.Tools[0], want)
	}
	second := f.Tools[1]
	if second.Title != "list_issues" || *second.ReadOnly != yes || len(second.Annotations) != 1 {
		t.Errorf("second tool = %+v", second)
	}
	if srv := f.Servers[0]; srv.Name != "github" || srv.Line != 2 ||
		!reflect.DeepEqual(srv.Tools, []string{"create_pull_request", "list_issues"}) {
		t.Errorf("server = %+v", srv)
	}
}

func TestTriStateAndTitles(t *testing.T) {
	f := Parse("s.json", []byte(`{"tools": [
		{"name": "a", "inputSchema": {}},
		{"name": "b", "inputSchema": {}, "annotations": {"title": "B title", "openWorldHint": true, "readOnlyHint": "yes"}},
		{"name": "c", "title": "C", "inputSchema": {"properties": {"x": {"type": ["null", "integer"]}, "y": {}, "z": 1}},
		 "outputSchema": {"type": "object", "properties": {"r": {"type": "string"}}, "required": ["r"]}}]}`))
	a, b, c := f.Tools[0], f.Tools[1], f.Tools[2]
	if a.Annotations != nil || a.ReadOnly != nil || a.Title != "a" {
		t.Errorf("a = %+v", a)
	}
	if b.Title != "B title" || !reflect.DeepEqual(b.Annotations, map[string]bool{"openWorldHint": true}) || b.ReadOnly != nil {
		t.Errorf("b = %+v", b)
	}
	wantIn := []record.Port{
		{Name: "x", TypeIRI: "json:integer", JSONType: "integer", Line: 4},
		{Name: "y", Line: 4},
		{Name: "z", Line: 4},
	}
	if a.OutputSchema || b.OutputSchema || !c.OutputSchema {
		t.Errorf("outputSchema stated: a %v b %v c %v, want only c", a.OutputSchema, b.OutputSchema, c.OutputSchema)
	}
	if c.Title != "C" || !reflect.DeepEqual(c.Inputs, wantIn) {
		t.Errorf("c inputs = %+v", c.Inputs)
	}
	if !reflect.DeepEqual(c.Outputs, []record.Port{{Name: "r", TypeIRI: "json:string", JSONType: "string", Required: true, Line: 5}}) {
		t.Errorf("c outputs = %+v", c.Outputs)
	}
}

func TestSpecExamples(t *testing.T) {
	for name, w := range map[string]struct {
		server string
		ids    []string
		dups   int
	}{
		"spec-examples.json": {"spec-examples", []string{"spec-examples.list-users", "spec-examples.find-resource",
			"spec-examples.calculate-sum", "spec-examples.calculate-sum-2", "spec-examples.get-current-time",
			"spec-examples.get-weather-data"}, 1},
		"tools-list-with-cursor-and-ttl.json": {"tools-list-with-cursor-and-ttl", []string{"tools-list-with-cursor-and-ttl.get-weather"}, 0},
	} {
		data, err := os.ReadFile(filepath.Join("testdata", name))
		if err != nil {
			t.Fatal(err)
		}
		f := Parse("mcp/"+name, data)
		var ids []string
		for _, tl := range f.Tools {
			ids = append(ids, tl.ID)
		}
		if !reflect.DeepEqual(ids, w.ids) || f.Servers[0].Name != w.server || len(f.Findings) != w.dups {
			t.Errorf("%s: ids %v server %+v findings %+v", name, ids, f.Servers, f.Findings)
		}
	}
}

func TestSlug(t *testing.T) {
	for in, want := range map[string]string{
		"create_pull_request": "create-pull-request", "Get  Weather!!": "get-weather", "__x__": "x",
		"": "tool", "日本": "tool", "a.b/c": "a-b-c", "ABC123": "abc123",
	} {
		if got := Slug(in); got != want {
			t.Errorf("Slug(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestSlugCollisionStaysUnique(t *testing.T) {
	f := Parse("s.json", []byte(`{"tools": [{"name": "a_b", "inputSchema": {}}, {"name": "a-b", "inputSchema": {}}, {"name": "a-b-2", "inputSchema": {}}]}`))
	seen := map[string]bool{}
	for _, tl := range f.Tools {
		if seen[tl.ID] {
			t.Errorf("duplicate id %s", tl.ID)
		}
		seen[tl.ID] = true
	}
	if len(f.Findings) != 0 {
		t.Errorf("different names are not mcp-tool-duplicate: %+v", f.Findings)
	}
}

func FuzzParse(f *testing.F) {
	for _, name := range []string{"github.json", "spec-examples.json", "tools-list-with-cursor-and-ttl.json"} {
		if data, err := os.ReadFile(filepath.Join("testdata", name)); err == nil {
			f.Add(data)
		}
	}
	f.Add([]byte(`{"result": {"tools": [{"name": "a", "inputSchema": {"properties": {"x": {"type": ["null"]}}}}]}}`))
	f.Add([]byte(`{"tools": [{"name": "a"}, {"name": "a"}, {"name": "a-2"}]}`))
	f.Add([]byte(`{"tools": [1, null, {"name": 5}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		out := Parse("mcp/f.json", data)
		seen := map[string]bool{}
		for _, tl := range out.Tools {
			if seen[tl.ID] {
				t.Fatalf("duplicate id %q", tl.ID)
			}
			seen[tl.ID] = true
			if tl.Origin != "mcp" || tl.Server == "" {
				t.Fatalf("tool %+v", tl)
			}
		}
		for _, fi := range out.Findings {
			if fi.Line < 1 || fi.Code == "" {
				t.Fatalf("finding %+v", fi)
			}
		}
	})
}

// TestManyToolsOfOneName: every tool of one name gets its own id, in work
// linear in the number of tools (the suffix search resumes where it
// stopped), and a server over ynode.MaxItems tools is refused with a
// finding instead of costing quadratic conversion time (issue #16.6).
func TestManyToolsOfOneName(t *testing.T) {
	list := func(n int) []byte {
		var b strings.Builder
		b.WriteString(`{"tools": [`)
		for i := range n {
			if i > 0 {
				b.WriteString(",")
			}
			b.WriteString(`{"name": "x", "inputSchema": {"type": "object"}}`)
		}
		b.WriteString("]}")
		return []byte(b.String())
	}
	out := Parse("mcp/s.json", list(1000))
	ids := map[string]bool{}
	for _, tl := range out.Tools {
		ids[tl.ID] = true
	}
	if len(out.Tools) != 1000 || len(ids) != 1000 || !ids["s.x"] || !ids["s.x-1000"] {
		t.Fatalf("%d tools, %d ids", len(out.Tools), len(ids))
	}
	out = Parse("mcp/s.json", list(1001))
	if len(out.Tools) != 0 || len(out.Findings) != 1 || out.Findings[0].Code != record.CodeMCPInvalid {
		t.Fatalf("over the limit: %d tools, findings %+v", len(out.Tools), out.Findings)
	}
}
