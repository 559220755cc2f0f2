package api_test

import (
	"context"
	"encoding/json"
	"github.com/skillgraph/skillgraph/queries/querytest"
	"testing"

	"github.com/skillgraph/skillgraph/api"
)

// TestHostConnections: the agent-host connections of the example
// marketplace over GraphQL (SPEC §1.3, §6.1): counts, each node's source
// relative to the corpus folder, plugin(name:), and Skill.plugin and
// Skill.resources.
func TestHostConnections(t *testing.T) {
	ctx := context.Background()
	snap := querytest.Build(t, "../examples/marketplace")
	schema, err := api.NewSchema()
	if err != nil {
		t.Fatal(err)
	}
	res := schema.Execute(ctx, snap, api.Request{Query: `{
  plugins { totalCount } commands { totalCount nodes { name source } } agents { totalCount }
  hooks { totalCount } mcpServers { totalCount nodes { name tools } }
  plugin(name: "review") { folder hosts listed skills { id plugin { name } resources } }
  missing: plugin(name: "review", folder: "elsewhere") { name } }`}, api.DefaultLimits())
	if len(res.Errors) > 0 {
		t.Fatal(res.Errors)
	}
	b, _ := json.Marshal(res.Data)
	var d struct {
		Plugins, Agents, Hooks struct{ TotalCount int }
		Commands               struct {
			TotalCount int
			Nodes      []struct{ Name, Source string }
		}
		McpServers struct {
			TotalCount int
			Nodes      []struct {
				Name  string
				Tools []string
			}
		}
		Plugin struct {
			Folder string
			Hosts  []string
			Listed bool
			Skills []struct {
				ID        string
				Plugin    struct{ Name string }
				Resources []string
			}
		}
		Missing *struct{ Name string }
	}
	if err := json.Unmarshal(b, &d); err != nil {
		t.Fatal(err)
	}
	if d.Plugins.TotalCount != 3 || d.Commands.TotalCount != 1 || d.Agents.TotalCount != 2 || d.Hooks.TotalCount != 3 || d.McpServers.TotalCount != 2 {
		t.Fatalf("counts: %s", b)
	}
	if c := d.Commands.Nodes[0]; c.Name != "/review:review" || c.Source != "plugins/review/commands/review.md" {
		t.Errorf("command %+v", c)
	}
	if d.McpServers.Nodes[0].Name != "github" || len(d.McpServers.Nodes[0].Tools) != 2 || d.McpServers.Nodes[1].Tools != nil {
		t.Errorf("servers %+v: github's snapshot lists 2 tools, tracker has none", d.McpServers.Nodes)
	}
	p := d.Plugin
	if p.Folder != "plugins/review" || !p.Listed || len(p.Skills) != 1 || p.Skills[0].Plugin.Name != "review" ||
		len(p.Skills[0].Resources) != 1 || p.Skills[0].Resources[0] != "plugins/review/skills/review-pr/references/checklist.md" {
		t.Errorf("plugin review: %+v", p)
	}
	if d.Missing != nil {
		t.Errorf("plugin of another folder: %+v, want null", d.Missing)
	}
}
