package api_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/skillgraph/skillgraph/api"
)

// TestToolParity: Tool.parity over GraphQL on the example corpus: the
// authored feedback-digest disagrees with cms.summarize_feedback on its
// description only, the listed cms.list-pages is unauthored, and a Tool
// with no MCP side has none.
func TestToolParity(t *testing.T) {
	ctx := context.Background()
	snap := harnessSnapshot(t)
	_, schema := miniSnapshot(t)
	q := `{
	  digest: tool(id: "feedback-digest") { parity { state against { id } findings { code line } ports { name output codes } } }
	  listed: tool(id: "cms.summarize-feedback") { parity { state against { id } findings { code } } }
	  pages: tool(id: "cms.list-pages") { parity { state against { id } findings { code file line } } }
	  plain: tool(id: "pages-deploy") { parity { state } }
	}`
	res := schema.Execute(ctx, snap, api.Request{Query: q}, api.DefaultLimits())
	if len(res.Errors) > 0 {
		t.Fatal(res.Errors)
	}
	got, _ := json.Marshal(res.Data)
	want := `{"digest":{"parity":{"against":[{"id":"cms.summarize-feedback"}],"findings":[{"code":"mcp-parity-description","line":28}],"ports":[{"codes":[],"name":"since","output":false}],"state":"disagrees"}},` +
		`"listed":{"parity":{"against":[{"id":"feedback-digest"}],"findings":[{"code":"mcp-parity-description"}],"state":"disagrees"}},` +
		`"pages":{"parity":{"against":[],"findings":[{"code":"mcp-tool-unauthored","file":"mcp/cms.json","line":4}],"state":"unauthored"}},` +
		`"plain":{"parity":null}}`
	if string(got) != want {
		t.Errorf("parity =\n%s\nwant\n%s", got, want)
	}
}
