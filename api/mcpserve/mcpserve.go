// Package mcpserve is skillgraph's MCP server (issue #22): read-only MCP
// tools that let an agent ask the graph, built on the official Go SDK.
// Each tool answers by running one fixed GraphQL document through
// api.Schema against the served snapshot, so an MCP answer is the GraphQL
// answer to the same question (one implementation per question), under
// the same limits; the mutations stay GraphQL-only behind the token.
package mcpserve

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"runtime/debug"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/skillgraph/skillgraph/api"
	"github.com/skillgraph/skillgraph/queries"
)

// Options configure a server.
type Options struct {
	// Snapshot returns the snapshot to answer from (the server's current
	// one under `serve`; a fixed one under `skillgraph mcp`). Nil means
	// none yet: every call is then a tool error.
	Snapshot func() *queries.Snapshot
	// Schema is the GraphQL schema the tools run their documents on.
	Schema *api.Schema
	// Limits bound each GraphQL document, as on /graphql.
	Limits api.Limits
	// Timeout bounds each tool call (0: 15 s, the HTTP request deadline).
	Timeout time.Duration
	// Version is the skillgraph version named in initialize ("": the
	// module version of the binary).
	Version string
	// Files reads the corpus files back for a skill's text (nil: no text,
	// as on a store-only replica).
	Files api.Files
	// Diff, if set, offers the diff tool: the served graph compared with
	// the corpus as of a git revision.
	Diff Differ
}

// DefaultTimeout is a tool call's deadline when Options.Timeout is 0:
// the /graphql request deadline.
const DefaultTimeout = 15 * time.Second

// MaxMessageBytes caps one JSON-RPC message on stdio: the /graphql
// request body cap.
const MaxMessageBytes = 1 << 20

// New builds the MCP server with its tools.
func New(o Options) *mcp.Server {
	if o.Timeout <= 0 {
		o.Timeout = DefaultTimeout
	}
	if o.Version == "" {
		o.Version = "(devel)"
		if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" {
			o.Version = bi.Main.Version
		}
	}
	h := &handler{o: o}
	s := mcp.NewServer(&mcp.Implementation{Name: "skillgraph", Title: "skillgraph", Version: o.Version}, &mcp.ServerOptions{
		CompletionHandler: h.complete,
		Instructions: "Read-only questions to a skillgraph knowledge graph of skills, Tools, BPMN processes and MCP listings: " +
			"skills, coverage, which Tools perform a skill (with when to pick each), why something is not reachable, findings, " +
			"and any GraphQL query (docs/schema.graphql). Mutations are not offered here.",
	})
	// Honest hints: every tool reads the snapshot and changes nothing, and
	// the graph is a closed world (no call leaves the process).
	readOnly := func(title string) *mcp.ToolAnnotations {
		no := false
		return &mcp.ToolAnnotations{Title: title, ReadOnlyHint: true, IdempotentHint: true, OpenWorldHint: &no}
	}
	mcp.AddTool(s, &mcp.Tool{Name: "coverage", Title: "Coverage and tiers",
		Description: "How many skills the graph holds, how many no Tool really performs, and the count of each tier (A, B, C, D; SPEC §5.1). " +
			"Optionally under an exposure profile.",
		Annotations: readOnly("Coverage and tiers")}, h.coverage)
	mcp.AddTool(s, &mcp.Tool{Name: "find_tool_for_skill", Title: "Tools for a skill",
		Description: "The Tools that really perform a skill (contract-checked satisfies edges), each with its selection guidance " +
			"(when, limits, cost), transports, derived alternatives and MCP parity; and the skill's tier when no Tool covers it.",
		Annotations: readOnly("Tools for a skill")}, h.findTool)
	mcp.AddTool(s, &mcp.Tool{Name: "reachability", Title: "Why (not) reachable",
		Description: "Whether a skill, Tool or process is reached from a root (process entry point, MCP transport or trigger; SPEC §5.3), " +
			"with the witness path when it is; an empty witness means no root reaches it.",
		Annotations: readOnly("Why (not) reachable")}, h.reachability)
	mcp.AddTool(s, &mcp.Tool{Name: "findings", Title: "Findings",
		Description: "The integrity findings (stable code, severity, file, line, message), optionally of one file, severity or code; " +
			"paged: pass endCursor back as after.",
		Annotations: readOnly("Findings")}, h.findings)
	mcp.AddTool(s, &mcp.Tool{Name: "list_skills", Title: "List skills",
		Description: "The skills of the graph, optionally matching a text, of one package or of one tier, each with its coverage, tier and reachability; " +
			"paged: pass endCursor back as after.",
		Annotations: readOnly("List skills")}, h.listSkills)
	mcp.AddTool(s, &mcp.Tool{Name: "get_skill", Title: "One skill",
		Description: "One skill: its description, flavour, coverage and tier evidence, the Tools that really perform it, " +
			"its reachability witness, its file and line, and its findings.",
		Annotations: readOnly("One skill")}, h.getSkill)
	s.AddResourceTemplate(&mcp.ResourceTemplate{URITemplate: SkillURITemplate, Name: "skill", Title: "A skill",
		Description: "One skill as get_skill answers it (the same text).", MIMEType: "application/json"}, h.readSkill)
	if o.Diff != nil {
		mcp.AddTool(s, &mcp.Tool{Name: "diff", Title: "What a change did",
			Description: "The served graph compared with the same corpus as of a git revision (read from the repository's objects, no checkout): " +
				"skills that became covered or uncovered, contradicted, not reachable; Tools added, removed or unreachable; alternative groups; " +
				"new, fixed and moved findings; workflow coverage; and what got worse, as `skillgraph diff --base REV` reports it.",
			Annotations: readOnly("What a change did")}, h.diff)
	}
	mcp.AddTool(s, &mcp.Tool{Name: "graphql", Title: "GraphQL query",
		Description: "Run one read-only GraphQL query on the graph (schema: docs/schema.graphql; the same depth, cost and time limits as /graphql). " +
			"Mutations are refused.",
		Annotations: readOnly("GraphQL query")}, h.graphql)
	return s
}

// handler holds the options the tool handlers share.
type handler struct{ o Options }

// errNoSnapshot is the answer while there is nothing to ask.
var errNoSnapshot = errors.New("no snapshot yet: the first ingest is running")

// run executes one GraphQL document and decodes its data into out. A
// GraphQL error is a tool error (the caller sees it, not a protocol
// failure), as the MCP spec asks for errors of the tool itself.
func (h *handler) run(ctx context.Context, query string, vars map[string]any, out any) error {
	snap := h.snapshot()
	if snap == nil {
		return errNoSnapshot
	}
	ctx, cancel := context.WithTimeout(api.WithFiles(ctx, h.o.Files), h.o.Timeout)
	defer cancel()
	res := h.o.Schema.Execute(ctx, snap, api.Request{Query: query, Variables: vars}, h.o.Limits)
	if len(res.Errors) > 0 {
		msgs := make([]string, 0, len(res.Errors))
		for _, e := range res.Errors {
			msgs = append(msgs, e.Message)
		}
		return fmt.Errorf("graphql: %s", strings.Join(msgs, "; "))
	}
	data, err := res.EncodeData()
	if err != nil {
		return fmt.Errorf("encode the answer: %w", err)
	}
	if err := json.Unmarshal(data, out); err != nil {
		return fmt.Errorf("decode the answer: %w", err)
	}
	return nil
}

func (h *handler) snapshot() *queries.Snapshot {
	if h.o.Snapshot == nil {
		return nil
	}
	return h.o.Snapshot()
}
