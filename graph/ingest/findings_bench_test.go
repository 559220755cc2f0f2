package ingest_test

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// invalidMCP is an MCP listing of n invalid tools: one mcp-invalid
// finding each. Named, each lacks an inputSchema and is kept (and the
// snapshot adds an mcp-tool-unauthored for it); nameless, it is dropped,
// so the file is only findings.
func invalidMCP(n int, named bool) string {
	var ts []string
	for i := range n {
		if named {
			ts = append(ts, fmt.Sprintf("{\"name\": \"tool_%d\", \"description\": \"d\"}", i))
		} else {
			ts = append(ts, fmt.Sprintf("{\"title\": \"tool_%d\", \"description\": \"d\"}", i))
		}
	}
	return "{\"tools\": [\n" + strings.Join(ts, ",\n") + "]}"
}

// findingsCorpus is files MCP listings of 999 invalid tools each: the
// attack of issue #28 row 14 at files = 30.
func findingsCorpus(files int) map[string]string {
	m := map[string]string{}
	for i := range files {
		m[fmt.Sprintf("mcp/m%d.json", i)] = invalidMCP(999, false)
	}
	return m
}

// BenchmarkFindingsInBulk: the cost of a corpus that is mostly findings
// (issue #28 row 14). Run:
// go test ./ingest -run '^$' -bench FindingsInBulk -benchtime 1x -benchmem
func BenchmarkFindingsInBulk(b *testing.B) {
	for _, files := range []int{1, 30} {
		b.Run(fmt.Sprint(files), func(b *testing.B) {
			benchShape(b, findingsCorpus(files))
		})
	}
}

// BenchmarkFindingCost: what one more finding costs, all kept (one file of
// n nameless invalid tools, n under the per-file cap; issue #28 row 14).
// B/op over n is the footprint per finding plus the file's share; the
// difference between two n is the finding's own. Run:
// go test ./graph/ingest -run '^$' -bench FindingCost -benchtime 3x -benchmem
func BenchmarkFindingCost(b *testing.B) {
	for _, n := range []int{100, 450} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			benchShape(b, map[string]string{"mcp/m.json": invalidMCP(n, false)})
		})
	}
}

// findingsDir, when set, is where TestWriteFindingsCorpus writes the
// 30 × 999 corpus (about 2 MB), to measure `skillgraph check` on it (its
// RSS: issue #28 row 14) without a fixture checked in:
//
//	go test ./graph/ingest -run TestWriteFindingsCorpus -findings-corpus /tmp/findings30
//	/usr/bin/time -v skillgraph check --corpus /tmp/findings30 --format json > /dev/null
var findingsDir = flag.String("findings-corpus", "", "write the 30 × 999 invalid MCP tools corpus into this folder")

// findingsKept names the tools of that corpus, so each is kept (as data,
// with its findings) instead of dropped: the 851 MB case of issue #28 row 14.
var findingsKept = flag.Bool("findings-kept", false, "with -findings-corpus: named tools, kept with their findings")

func TestWriteFindingsCorpus(t *testing.T) {
	if *findingsDir == "" {
		t.Skip("no -findings-corpus folder given")
	}
	for i := range 30 {
		p := filepath.Join(*findingsDir, "mcp", fmt.Sprintf("m%d.json", i))
		body := invalidMCP(999, *findingsKept)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
