package mcpserve_test

import (
	"context"
	"encoding/json"
	"errors"
	"github.com/skillgraph/skillgraph/queries/querytest"
	"os"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/skillgraph/skillgraph/api"
	"github.com/skillgraph/skillgraph/api/mcpserve"
	"github.com/skillgraph/skillgraph/queries"
	"github.com/skillgraph/skillgraph/queries/diff"
)

func snapshotOf(t *testing.T, root string) *queries.Snapshot { return querytest.Build(t, root) }

// connect serves snap over in-memory transports and returns a client
// session and the schema the server runs on.
func connect(t *testing.T, snap *queries.Snapshot) (*mcp.ClientSession, *api.Schema) {
	return connectWith(t, snap, nil)
}

// connectWith is connect with the options changed by with (nil: none).
func connectWith(t *testing.T, snap *queries.Snapshot, with func(*mcpserve.Options)) (*mcp.ClientSession, *api.Schema) {
	t.Helper()
	ctx := context.Background()
	schema, err := api.NewSchema()
	if err != nil {
		t.Fatal(err)
	}
	// A Differ that reads no repository, so that the diff tool is listed
	// (and documented) as `skillgraph mcp --corpus` lists it.
	noRepo := func(context.Context, string, *queries.Snapshot) (*diff.Report, error) {
		return nil, errors.New("this test reads no repository")
	}
	opt := mcpserve.Options{Snapshot: func() *queries.Snapshot { return snap }, Schema: schema, Limits: api.DefaultLimits(), Version: "test", Diff: noRepo}
	if with != nil {
		with(&opt)
	}
	srv := mcpserve.New(opt)
	st, ct := mcp.NewInMemoryTransports()
	ss, err := srv.Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = ss.Close() })
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cs.Close() })
	return cs, schema
}

// call calls a tool and decodes its structured content into out; it
// fails on a tool error.
func call(t *testing.T, cs *mcp.ClientSession, name string, args map[string]any, out any) {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	if res.IsError {
		t.Fatalf("%s: tool error %v", name, res.Content)
	}
	b, _ := json.Marshal(res.StructuredContent)
	if err := json.Unmarshal(b, out); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
}

// gql runs a query on the schema directly (the /graphql answer).
func gql(t *testing.T, schema *api.Schema, snap *queries.Snapshot, q string, vars map[string]any, out any) {
	t.Helper()
	res := schema.Execute(context.Background(), snap, api.Request{Query: q, Variables: vars}, api.DefaultLimits())
	if len(res.Errors) > 0 {
		t.Fatal(res.Errors)
	}
	b, _ := json.Marshal(res.Data)
	if err := json.Unmarshal(b, out); err != nil {
		t.Fatal(err)
	}
}

// TestAnswersEqualGraphQL: on cat-harness-ts (and the example corpus when
// the real corpora are absent) each MCP tool's answer is the GraphQL
// answer to the same question: coverage and its tiers, the Tools of every
// skill, reachability of every Tool, the findings of one file.
func TestAnswersEqualGraphQL(t *testing.T) {
	root := "../../../shared/realworld/cat-harness-ts"
	if _, err := os.Stat(root); err != nil {
		t.Logf("%s absent: the example corpus instead", root)
		root = "../../examples/harness"
	}
	snap := snapshotOf(t, root)
	cs, schema := connect(t, snap)

	var cov mcpserve.CoverageOut
	call(t, cs, "coverage", nil, &cov)
	var g struct{ Coverage mcpserve.CoverageOut }
	gql(t, schema, snap, `{ coverage { total uncovered tiers { tier count } } }`, nil, &g)
	if !reflect.DeepEqual(cov, g.Coverage) || cov.Total == 0 {
		t.Errorf("coverage over MCP %+v, GraphQL %+v", cov, g.Coverage)
	}

	var skills struct {
		Skills struct {
			Nodes []struct {
				ID, Package, Tier string
				Covered           bool
				Tools             []struct{ ID string }
			}
		}
	}
	gql(t, schema, snap, `{ skills(first: 500) { nodes { id package tier covered tools { id } } } }`, nil, &skills)
	if len(skills.Skills.Nodes) == 0 {
		t.Fatal("no skills")
	}
	withTools := 0
	for _, sk := range skills.Skills.Nodes {
		// package/id: a bare id names one skill only when no other
		// package has a skill of that id (the example has two "glossary").
		ref := sk.ID
		if sk.Package != "" {
			ref = sk.Package + "/" + sk.ID
		}
		var out mcpserve.FindToolOut
		call(t, cs, "find_tool_for_skill", map[string]any{"skill": ref}, &out)
		var ids []string
		for _, tl := range out.Tools {
			ids = append(ids, tl.ID)
		}
		var want []string
		for _, tl := range sk.Tools {
			want = append(want, tl.ID)
		}
		if strings.Join(ids, ",") != strings.Join(want, ",") || out.Covered != sk.Covered || out.Tier != sk.Tier {
			t.Errorf("skill %s: MCP %v covered=%v tier=%q, GraphQL %v covered=%v tier=%q", sk.ID, ids, out.Covered, out.Tier, want, sk.Covered, sk.Tier)
		}
		if len(ids) > 0 {
			withTools++
		}
		var one mcpserve.GetSkillOut
		call(t, cs, "get_skill", map[string]any{"skill": ref}, &one)
		if strings.Join(one.Tools, ",") != strings.Join(want, ",") || one.Tier != sk.Tier || one.Covered != sk.Covered {
			t.Errorf("get_skill %s: tools %v tier %q, GraphQL %v %q", sk.ID, one.Tools, one.Tier, want, sk.Tier)
		}
	}
	var listed mcpserve.ListSkillsOut
	call(t, cs, "list_skills", map[string]any{"first": 500}, &listed)
	if listed.TotalCount != len(skills.Skills.Nodes) || len(listed.Skills) != len(skills.Skills.Nodes) {
		t.Errorf("list_skills: %d of %d, GraphQL %d", len(listed.Skills), listed.TotalCount, len(skills.Skills.Nodes))
	}
	if withTools == 0 {
		t.Error("no skill has Tools: the comparison compared nothing")
	}

	var tools struct {
		Tools struct {
			Nodes []struct {
				ID        string
				Reachable bool
				Witness   []string
			}
		}
	}
	gql(t, schema, snap, `{ tools(first: 500) { nodes { id reachable witness } } }`, nil, &tools)
	for _, tl := range tools.Tools.Nodes {
		var out mcpserve.ReachOut
		call(t, cs, "reachability", map[string]any{"kind": "tool", "id": tl.ID}, &out)
		w := tl.Witness
		if w == nil {
			w = []string{}
		}
		if out.Reachable != tl.Reachable || !reflect.DeepEqual(out.Witness, w) {
			t.Errorf("tool %s: MCP reachable=%v %v, GraphQL %v %v", tl.ID, out.Reachable, out.Witness, tl.Reachable, w)
		}
	}

	var all mcpserve.FindingsOut
	call(t, cs, "findings", map[string]any{"first": 500}, &all)
	if all.TotalCount == 0 {
		t.Skip("no findings to compare")
	}
	file := all.Findings[0].File
	var byFile mcpserve.FindingsOut
	call(t, cs, "findings", map[string]any{"file": file, "first": 500}, &byFile)
	var gf struct {
		Findings struct {
			TotalCount int
			Nodes      []mcpserve.Finding
		}
	}
	gql(t, schema, snap, `query($f: String) { findings(file: $f, first: 500) { totalCount nodes { code severity file line message } } }`, map[string]any{"f": file}, &gf)
	if byFile.TotalCount != gf.Findings.TotalCount || !reflect.DeepEqual(byFile.Findings, gf.Findings.Nodes) {
		t.Errorf("findings of %s: MCP %d, GraphQL %d", file, byFile.TotalCount, gf.Findings.TotalCount)
	}
}

// TestToolsListAndErrors: the listing names every tool with input and
// output schemas and honest read-only hints; an unknown tool is a protocol
// error, bad arguments and unknown entities are tool errors, a mutation is
// refused, and findings page with cursors.
func TestToolsListAndErrors(t *testing.T) {
	snap := snapshotOf(t, "../../examples/harness")
	cs, _ := connect(t, snap)
	ctx := context.Background()
	list, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tl := range list.Tools {
		names = append(names, tl.Name)
		if tl.Annotations == nil || !tl.Annotations.ReadOnlyHint || tl.Annotations.DestructiveHint != nil && *tl.Annotations.DestructiveHint {
			t.Errorf("%s: annotations %+v, want readOnlyHint", tl.Name, tl.Annotations)
		}
		if tl.InputSchema == nil || tl.OutputSchema == nil || tl.Description == "" {
			t.Errorf("%s: input %v output %v description %q", tl.Name, tl.InputSchema, tl.OutputSchema, tl.Description)
		}
	}
	sort.Strings(names)
	if strings.Join(names, ",") != "coverage,diff,find_tool_for_skill,findings,get_skill,graphql,list_skills,reachability" {
		t.Errorf("tools %v", names)
	}
	if _, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "no_such_tool"}); err == nil {
		t.Error("an unknown tool is no error")
	}
	for name, args := range map[string]map[string]any{
		"find_tool_for_skill": {"skill": 3},
		"reachability":        {"kind": "skill", "id": "no-such-skill"},
		"graphql":             {"query": "# refused\nmutation { reingest { graphVersion } }"},
	} {
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args})
		if err != nil || !res.IsError {
			t.Errorf("%s %v: err %v, result %+v; want a tool error", name, args, err, res)
		}
	}
	var page1, page2 mcpserve.FindingsOut
	call(t, cs, "findings", map[string]any{"first": 2}, &page1)
	if len(page1.Findings) != 2 || !page1.HasNextPage || page1.EndCursor == "" {
		t.Fatalf("page 1 %+v", page1)
	}
	call(t, cs, "findings", map[string]any{"first": 2, "after": page1.EndCursor}, &page2)
	if len(page2.Findings) == 0 || reflect.DeepEqual(page1.Findings, page2.Findings) {
		t.Errorf("page 2 %+v repeats or is empty", page2)
	}
	// A skill is also a resource, with the tool's text.
	tr, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "get_skill", Arguments: map[string]any{"skill": "site/announce-release"}})
	if err != nil || tr.IsError || len(tr.Content) != 1 {
		t.Fatalf("get_skill: %v %+v", err, tr)
	}
	rr, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "skill://site/announce-release"})
	if err != nil || len(rr.Contents) != 1 {
		t.Fatalf("resources/read: %v %+v", err, rr)
	}
	if text := tr.Content[0].(*mcp.TextContent).Text; rr.Contents[0].Text != text || !strings.Contains(text, `"id": "announce-release"`) {
		t.Errorf("resource text\n%s\nis not the tool's\n%s", rr.Contents[0].Text, text)
	}
	for _, uri := range []string{"skill://other/announce-release", "skill://site/no-such-skill", "skill://site"} {
		if _, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: uri}); err == nil {
			t.Errorf("%s: no error", uri)
		}
	}
	templates, err := cs.ListResourceTemplates(ctx, nil)
	if err != nil || len(templates.ResourceTemplates) != 1 || templates.ResourceTemplates[0].URITemplate != mcpserve.SkillURITemplate {
		t.Errorf("resource templates: %v %+v", err, templates)
	}
	var q mcpserve.GraphQLOut
	call(t, cs, "graphql", map[string]any{"query": `{ tool(id: "feedback-digest") { parity { state } } }`}, &q)
	if b, _ := json.Marshal(q.Data); string(b) != `{"tool":{"parity":{"state":"disagrees"}}}` {
		t.Errorf("graphql data %s", b)
	}
}
