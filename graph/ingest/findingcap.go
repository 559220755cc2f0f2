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
	budget := record.MaxFindingsPerRun
	for _, u := range units {
		limit, why := record.MaxFindingsPerFile, fmt.Sprintf("one file keeps at most %d", record.MaxFindingsPerFile)
		if budget < limit {
			limit, why = budget, fmt.Sprintf("the files read by one ingest keep at most %d", record.MaxFindingsPerRun)
		}
		u.file.Findings = record.CapFindings(u.file.Findings, u.file.Path, limit, why)
		budget -= min(len(u.file.Findings), limit)
	}
}
