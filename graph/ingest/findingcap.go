package ingest

import (
	"fmt"

	"github.com/skillgraph/skillgraph/ingest/record"
)

// capRunFindings bounds the findings of the files one ingest converts
// (issue #28 row 14): every finding becomes a node of its file's graph,
// held from the conversion to the store and by every snapshot, so a
// corpus that is mostly findings (30 listings of 999 invalid MCP tools:
// 10 s, 1.16 GB) must not cost in proportion to them. Each file keeps at
// most MaxFindingsPerFile; once the run has kept MaxFindingsPerRun, each
// further file with findings keeps only the one that says how many of its
// own were dropped, so the run's findings grow with its files, not with
// what they report. Files are taken in the order they were read; a file
// left unchanged keeps what was stored when it was read.
func capRunFindings(units []*unit) {
	c := newFindingCap()
	for _, u := range units {
		c.apply(u)
	}
}

// findingCap is capRunFindings one file at a time, in the order read (a
// first ingest caps each file as it is parsed).
type findingCap struct{ budget int }

func newFindingCap() *findingCap { return &findingCap{budget: record.MaxFindingsPerRun} }

// apply caps u's findings and takes what it keeps from the run's budget.
func (c *findingCap) apply(u *unit) {
	limit, why := record.MaxFindingsPerFile, fmt.Sprintf("one file keeps at most %d", record.MaxFindingsPerFile)
	if c.budget < limit {
		limit, why = c.budget, fmt.Sprintf("the files read by one ingest keep at most %d", record.MaxFindingsPerRun)
	}
	u.file.Findings = record.CapFindings(u.file.Findings, u.file.Path, limit, why)
	c.budget -= min(len(u.file.Findings), limit)
}
