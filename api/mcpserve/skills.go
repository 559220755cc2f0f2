package mcpserve

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// ListSkillsIn are the arguments of list_skills.
type ListSkillsIn struct {
	Text    string `json:"text,omitempty" jsonschema:"substring of id, name, title or description"`
	Package string `json:"package,omitempty" jsonschema:"only the skills of this package"`
	Tier    string `json:"tier,omitempty" jsonschema:"only this tier: A, B, C or D"`
	First   int    `json:"first,omitempty" jsonschema:"page size (default 50, at most 500)"`
	After   string `json:"after,omitempty" jsonschema:"the endCursor of the previous page"`
}

// ListSkillsOut is one page of skills.
type ListSkillsOut struct {
	TotalCount  int            `json:"totalCount"`
	Skills      []SkillSummary `json:"skills"`
	EndCursor   string         `json:"endCursor,omitempty"`
	HasNextPage bool           `json:"hasNextPage"`
}

// SkillSummary is one skill of a list.
type SkillSummary struct {
	ID          string `json:"id"`
	Title       string `json:"title,omitempty"`
	Description string `json:"description,omitempty"`
	Package     string `json:"package,omitempty"`
	Covered     bool   `json:"covered"`
	Tier        string `json:"tier,omitempty" jsonschema:"A, B, C or D when no Tool covers it"`
	Reachable   bool   `json:"reachable"`
}

const listSkillsQuery = `query($text: String, $package: String, $tier: String, $first: Int, $after: String) {
  skills(text: $text, package: $package, tier: $tier, first: $first, after: $after) {
    totalCount nodes { id title description package covered tier reachable } pageInfo { endCursor hasNextPage } } }`

func (h *handler) listSkills(ctx context.Context, _ *mcp.CallToolRequest, in ListSkillsIn) (*mcp.CallToolResult, ListSkillsOut, error) {
	vars := map[string]any{}
	for k, v := range map[string]string{"text": in.Text, "package": in.Package, "tier": strings.ToUpper(in.Tier), "after": in.After} {
		if v != "" {
			vars[k] = v
		}
	}
	if in.First != 0 {
		vars["first"] = in.First
	}
	var d struct {
		Skills struct {
			TotalCount int
			Nodes      []SkillSummary
			PageInfo   struct {
				EndCursor   string
				HasNextPage bool
			}
		}
	}
	if err := h.run(ctx, listSkillsQuery, vars, &d); err != nil {
		return nil, ListSkillsOut{}, err
	}
	out := ListSkillsOut{TotalCount: d.Skills.TotalCount, Skills: d.Skills.Nodes, EndCursor: d.Skills.PageInfo.EndCursor, HasNextPage: d.Skills.PageInfo.HasNextPage}
	if out.Skills == nil {
		out.Skills = []SkillSummary{}
	}
	return nil, out, nil
}

// GetSkillIn are the arguments of get_skill.
type GetSkillIn struct {
	Skill string `json:"skill" jsonschema:"a skill id: its name, or package/name"`
}

// GetSkillOut is one skill with its evidence, Tools and findings.
type GetSkillOut struct {
	SkillSummary
	Flavour  string    `json:"flavour" jsonschema:"core, agent, hard, …"`
	Evidence []string  `json:"evidence" jsonschema:"the tier evidence (steps, scripts, prose)"`
	Witness  []string  `json:"witness" jsonschema:"the path from a root when reachable"`
	Tools    []string  `json:"tools" jsonschema:"ids of the Tools that really perform it"`
	Source   string    `json:"source,omitempty" jsonschema:"its file, relative to its corpus"`
	Line     int       `json:"line,omitempty"`
	Findings []Finding `json:"findings"`
	// Text and Resources are what an agent loads to use the skill.
	Text      string   `json:"text,omitempty" jsonschema:"the skill file as ingested (Markdown with front matter); absent when the server reads no corpus folder or the file changed since"`
	Resources []string `json:"resources" jsonschema:"the skill's other files (references, scripts, assets), relative to the corpus folder"`
}

const getSkillQuery = `query($id: ID!) { skill(id: $id) { id title description package covered tier reachable
  flavour evidence witness tools { id } source line findings { code severity file line message } text resources } }`

func (h *handler) getSkill(ctx context.Context, _ *mcp.CallToolRequest, in GetSkillIn) (*mcp.CallToolResult, GetSkillOut, error) {
	if strings.TrimSpace(in.Skill) == "" {
		return nil, GetSkillOut{}, fmt.Errorf("skill is empty: name a skill id")
	}
	var d struct {
		Skill *struct {
			SkillSummary
			Flavour   string
			Evidence  []string
			Witness   []string
			Tools     []struct{ ID string }
			Source    string
			Line      int
			Findings  []Finding
			Text      *string
			Resources []string
		}
	}
	if err := h.run(ctx, getSkillQuery, map[string]any{"id": in.Skill}, &d); err != nil {
		return nil, GetSkillOut{}, err
	}
	s := d.Skill
	if s == nil {
		return nil, GetSkillOut{}, fmt.Errorf("no skill %q in the graph", in.Skill)
	}
	out := GetSkillOut{SkillSummary: s.SkillSummary, Flavour: s.Flavour, Evidence: nonNil(s.Evidence), Witness: nonNil(s.Witness),
		Tools: []string{}, Source: s.Source, Line: s.Line, Findings: s.Findings, Resources: nonNil(s.Resources)}
	if s.Text != nil {
		out.Text = *s.Text
	}
	for _, t := range s.Tools {
		out.Tools = append(out.Tools, t.ID)
	}
	if out.Findings == nil {
		out.Findings = []Finding{}
	}
	// The text is set here so that the skill resource can return the same.
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: skillText(out)}}}, out, nil
}

func nonNil(xs []string) []string {
	if xs == nil {
		return []string{}
	}
	return xs
}

// SkillURITemplate is the URI template of the skill resources: a skill is
// also readable as skill://<package>/<id>, with the text of get_skill.
const SkillURITemplate = "skill://{package}/{id}"

// skillText is the text of a skill, the same for the get_skill tool's
// content and the skill resource: its answer as indented JSON.
func skillText(out GetSkillOut) string {
	b, err := json.MarshalIndent(out, "", "  ")
	if err != nil {
		return fmt.Sprintf("encode the skill: %v", err)
	}
	return string(b)
}

// readSkill answers resources/read of skill://<package>/<id>.
func (h *handler) readSkill(ctx context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
	uri := req.Params.URI
	rest, ok := strings.CutPrefix(uri, "skill://")
	pkg, id, ok2 := strings.Cut(rest, "/")
	if !ok || !ok2 || pkg == "" || id == "" || strings.Contains(id, "/") {
		return nil, mcp.ResourceNotFoundError(uri)
	}
	_, out, err := h.getSkill(ctx, nil, GetSkillIn{Skill: pkg + "/" + id})
	if err != nil || out.Package != pkg {
		return nil, mcp.ResourceNotFoundError(uri)
	}
	return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: uri, MIMEType: "application/json", Text: skillText(out)}}}, nil
}
