package api_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/skillgraph/skillgraph/api"
)

// TestToolJSONUsesFileKeys: Tool.remedies and Tool.maintains are JSON
// with the keys of the Tool file (SPEC §2.2), not Go field names.
func TestToolJSONUsesFileKeys(t *testing.T) {
	ctx := context.Background()
	snap := harnessSnapshot(t)
	_, schema := miniSnapshot(t)
	res := schema.Execute(ctx, snap, api.Request{Query: `{ publish: tool(id: "pages-deploy") { remedies } build: tool(id: "hugo-build") { maintains } }`}, api.DefaultLimits())
	if len(res.Errors) > 0 {
		t.Fatal(res.Errors)
	}
	data := res.Data.(map[string]any)
	var remedies []map[string]any
	if err := json.Unmarshal([]byte(data["publish"].(map[string]any)["remedies"].(string)), &remedies); err != nil {
		t.Fatal(err)
	}
	if len(remedies) != 1 || remedies[0]["host"] != "github.com" || remedies[0]["tool"] != "s3-sync-legacy" || len(remedies[0]) != 2 {
		t.Errorf("remedies %v, want [{host: github.com, tool: s3-sync-legacy}]", remedies)
	}
	var m map[string]any
	ms := data["build"].(map[string]any)["maintains"].([]any)
	if len(ms) != 1 || json.Unmarshal([]byte(ms[0].(string)), &m) != nil || m["source"] != "content/" || m["artefact"] != "public/" || m["format"] != "html" {
		t.Errorf("maintains %v, want [{source: content/, artefact: public/, format: html}]", ms)
	}
}
