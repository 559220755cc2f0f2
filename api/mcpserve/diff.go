package mcpserve

import (
	"context"
	"fmt"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/skillgraph/skillgraph/ingest/record"
	"github.com/skillgraph/skillgraph/queries"
	"github.com/skillgraph/skillgraph/queries/diff"
)

// Differ compares the served snapshot (head) with the corpora as of a git
// revision; the command that reads the corpus provides it (a store-only
// server has none, and offers no diff tool).
type Differ func(ctx context.Context, rev string, head *queries.Snapshot) (*diff.Report, error)

// DiffIn are the arguments of the diff tool.
type DiffIn struct {
	Base  string `json:"base" jsonschema:"a git revision of the repository holding the corpus (commit, branch, tag, HEAD~3): the base the served graph is compared with"`
	Limit int    `json:"limit,omitempty" jsonschema:"at most this many entries per list (default 100, at most 1000); truncated says what was cut"`
}

// DiffOut is the diff tool's answer: `skillgraph diff --base REV --format
// json`, its lists cut to the limit.
type DiffOut struct {
	diff.Report
	Worse     []diff.Category `json:"worse" jsonschema:"what got worse (a new error finding counts), as the diff command's exit 1 would say"`
	Truncated map[string]int  `json:"truncated,omitempty" jsonschema:"list name → its full length, for each list cut to the limit"`
}

// DefaultDiffLimit and MaxDiffLimit bound the lists of one diff answer.
const (
	DefaultDiffLimit = 100
	MaxDiffLimit     = 1000
)

func (h *handler) diff(ctx context.Context, _ *mcp.CallToolRequest, in DiffIn) (*mcp.CallToolResult, DiffOut, error) {
	snap := h.snapshot()
	if snap == nil {
		return nil, DiffOut{}, errNoSnapshot
	}
	limit := in.Limit
	switch {
	case limit == 0:
		limit = DefaultDiffLimit
	case limit < 0 || limit > MaxDiffLimit:
		return nil, DiffOut{}, fmt.Errorf("limit must be 1 to %d, not %d", MaxDiffLimit, in.Limit)
	}
	r, err := h.o.Diff(ctx, in.Base, snap)
	if err != nil {
		return nil, DiffOut{}, err
	}
	out := DiffOut{Report: *r, Worse: r.Worse(record.Error)}
	if out.Worse == nil {
		out.Worse = []diff.Category{}
	}
	out.Truncated = cutLists(&out.Report, limit)
	return nil, out, nil
}

// cutLists cuts every list of r to limit entries and returns the full
// length of each list it cut.
func cutLists(r *diff.Report, limit int) map[string]int {
	cut := map[string]int{}
	strs := map[string]*[]string{"newlyCovered": &r.NewlyCovered, "newlyUncovered": &r.NewlyUncovered, "newlyContradicted": &r.NewlyContradicted,
		"noLongerContradicted": &r.NoLongerContradicted, "newlyCoveredNotReachable": &r.NewlyCoveredNotReachable, "nowReachableSkills": &r.NowReachableSkills,
		"addedSkills": &r.AddedSkills, "removedSkills": &r.RemovedSkills, "newlyUnreachableTools": &r.NewlyUnreachableTools,
		"nowReachableTools": &r.NowReachableTools, "addedTools": &r.AddedTools, "removedTools": &r.RemovedTools}
	for name, xs := range strs {
		cutList(cut, name, xs, limit)
	}
	cutList(cut, "alternativesGained", &r.AlternativesGained, limit)
	cutList(cut, "alternativesLost", &r.AlternativesLost, limit)
	cutList(cut, "newFindings", &r.NewFindings, limit)
	cutList(cut, "fixedFindings", &r.FixedFindings, limit)
	cutList(cut, "movedFindings", &r.MovedFindings, limit)
	cutList(cut, "workflows", &r.Workflows, limit)
	if len(cut) == 0 {
		return nil
	}
	return cut
}

func cutList[T any](cut map[string]int, name string, xs *[]T, limit int) {
	if len(*xs) > limit {
		cut[name] = len(*xs)
		*xs = (*xs)[:limit]
	}
}
