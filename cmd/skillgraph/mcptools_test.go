package main

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestExportMCPTools: `export --format mcp-tools --server github` prints
// the parity corpus's github Tools as a tools/list result; --server
// without that format is a usage error (exit 2).
func TestExportMCPTools(t *testing.T) {
	out, errs, code := runCLI(t, "export", "--corpus", "../../queries/testdata/parity", "--format", "mcp-tools", "--server", "github")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var got struct {
		Tools []struct {
			Name        string `json:"name"`
			InputSchema struct {
				Type     string   `json:"type"`
				Required []string `json:"required"`
			} `json:"inputSchema"`
		} `json:"tools"`
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, out)
	}
	var names []string
	for _, tl := range got.Tools {
		names = append(names, tl.Name)
		if tl.InputSchema.Type != "object" {
			t.Errorf("%s: inputSchema type %q", tl.Name, tl.InputSchema.Type)
		}
	}
	if strings.Join(names, ",") != "create_pr,delete_repo,list_issues,publish_page" {
		t.Errorf("tools %v", names)
	}
	if _, errs, code := runCLI(t, "export", "--corpus", "../../queries/testdata/parity", "--server", "github"); code != 2 || !strings.Contains(errs, "--server goes with --format mcp-tools") {
		t.Errorf("--server alone: exit %d, %q", code, errs)
	}
}
