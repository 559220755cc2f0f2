package ingest_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/skillgraph/skillgraph/ingest/corpustest"
	"github.com/skillgraph/skillgraph/ingest/record"
)

// TestFindingsCapped (issue #28 row 14): a file keeps at most
// MaxFindingsPerFile findings and one findings-truncated that says how
// many were dropped; the files of one ingest keep at most
// MaxFindingsPerRun, and each file past it only its summary. At the bound
// nothing is dropped. Before, 30 listings of 999 invalid MCP tools stored
// all 29 970 findings (10 s, 1.16 GB).
func TestFindingsCapped(t *testing.T) {
	for _, c := range []struct {
		name  string
		files int
		tools int
		named bool // tools kept: the snapshot adds a finding per tool
		// per file, in path order: findings kept and whether a summary
		// is among them
		want func(i int) (kept int, summary bool)
	}{
		{"at the file bound", 1, record.MaxFindingsPerFile, false, func(int) (int, bool) { return record.MaxFindingsPerFile, false }},
		{"past the file bound", 1, record.MaxFindingsPerFile + 1, false, func(int) (int, bool) { return record.MaxFindingsPerFile, true }},
		{"999 invalid tools", 1, 999, false, func(int) (int, bool) { return record.MaxFindingsPerFile, true }},
		{"999 kept invalid tools", 1, 999, true, func(int) (int, bool) { return record.MaxFindingsPerFile, true }},
		{"30 files of 999", 30, 999, false, func(i int) (int, bool) {
			// 20 files fill the run's 10 000; the other 10 keep only
			// their summary.
			if i < record.MaxFindingsPerRun/record.MaxFindingsPerFile {
				return record.MaxFindingsPerFile, true
			}
			return 0, true
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			root := t.TempDir()
			files := map[string]string{"skills/s/SKILL.md": "---\nname: s\ndescription: d\n---\n"}
			for i := range c.files {
				files[fmt.Sprintf("mcp/m%02d.json", i)] = invalidMCP(c.tools, c.named)
			}
			corpustest.WriteInto(t, root, files)
			st := ingestMemory(t, root)
			// What ingest stored: each file's graph holds its findings
			// (one sg:code each) and, past a bound, one summary.
			stored := map[string]int{}
			summaries := map[string]string{}
			for g, quads := range dump(t, st) {
				_, file, ok := strings.Cut(strings.TrimSuffix(g, ">"), "#source/")
				if !ok || !strings.HasPrefix(file, "mcp/") {
					continue
				}
				for _, q := range quads {
					switch {
					case strings.Contains(q, "ns#code> \"findings-truncated\""):
						summaries[file] = ""
					case strings.Contains(q, "ns#code> "):
						stored[file]++
					case strings.Contains(q, "ns#message> ") && strings.Contains(q, "findings are not listed"):
						summaries[file] = q
					}
				}
			}
			for i := range c.files {
				file := fmt.Sprintf("mcp/m%02d.json", i)
				kept, summary := c.want(i)
				if stored[file] != kept {
					t.Errorf("%s: %d findings stored, want %d", file, stored[file], kept)
				}
				msg, ok := summaries[file]
				if ok != summary {
					t.Fatalf("%s: summary %q, want one: %v", file, msg, summary)
				}
				if summary && !strings.Contains(msg, fmt.Sprintf("%d of its %d findings are not listed", c.tools-kept, c.tools)) {
					t.Errorf("%s: summary %q does not say how many were dropped", file, msg)
				}
			}
			// What the snapshot lists, the analyses' findings added (here
			// mcp-tool-unauthored per listed tool): the same bounds.
			snap := snapshotOf(t, st)
			listed, total := map[string]int{}, 0
			truncated := map[string]int{}
			for _, f := range snap.Findings {
				if f.Code == record.CodeFindingsTruncated {
					truncated[f.File]++
					continue
				}
				listed[f.File]++
				total++
			}
			if total > record.MaxFindingsPerRun {
				t.Errorf("the snapshot lists %d findings, over %d", total, record.MaxFindingsPerRun)
			}
			for i := range c.files {
				file := fmt.Sprintf("mcp/m%02d.json", i)
				if listed[file] > record.MaxFindingsPerFile {
					t.Errorf("%s: the snapshot lists %d findings, over %d", file, listed[file], record.MaxFindingsPerFile)
				}
				// A file over the bound says so in the snapshot too.
				if _, over := c.want(i); over && truncated[file] == 0 {
					t.Errorf("%s: no findings-truncated in the snapshot", file)
				}
				// Kept tools each add an analysis finding: the snapshot
				// adds its own summary of those.
				if c.named && truncated[file] != 2 {
					t.Errorf("%s: %d findings-truncated in the snapshot, want ingest's and the snapshot's", file, truncated[file])
				}
			}
		})
	}
}
