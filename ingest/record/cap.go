package record

import (
	"fmt"
	"slices"
	"sort"
	"strings"
)

// MaxFindingsPerFile is how many findings of one file are kept: each is
// stored as a node of its file's graph and held by every snapshot, so a
// file that is mostly findings (999 invalid MCP tools) must not cost in
// proportion to them (issue #28 row 14). The most in a real corpus file
// is 233 (a marketplace of many plugins).
const MaxFindingsPerFile = 500

// MaxFindingsPerRun is how many findings the files read by one ingest
// keep in all: past it each further file keeps only the summary that says
// how many of its findings were dropped.
const MaxFindingsPerRun = 10_000

// CapFindings keeps at most limit of the findings fs of one file and, when
// any are dropped, adds one findings-truncated finding on file saying how
// many, by severity and code. The first finding of each code is kept,
// then the most severe (an error is dropped only when every kept finding
// is an error or the first of its code), in their order; why says which
// limit was reached. fs is not modified; with nothing to drop
// it is returned as is.
func CapFindings(fs []Finding, file string, limit int, why string) []Finding {
	if len(fs) <= limit {
		return fs
	}
	limit = max(limit, 0)
	// The first finding of each code comes first, so every kind of
	// problem in the file stays visible; then the most severe.
	order := make([]int, len(fs))
	first := make([]bool, len(fs))
	seen := map[string]bool{}
	for i := range order {
		order[i] = i
		if !seen[fs[i].Code] {
			seen[fs[i].Code], first[i] = true, true
		}
	}
	sort.SliceStable(order, func(a, b int) bool {
		if first[order[a]] != first[order[b]] {
			return first[order[a]]
		}
		return fs[order[a]].Severity.Rank() > fs[order[b]].Severity.Rank()
	})
	keep := order[:limit]
	slices.Sort(keep)
	out := make([]Finding, 0, limit+1)
	for _, i := range keep {
		out = append(out, fs[i])
	}
	dropped := map[string]int{}
	var bySeverity [4]int
	for _, i := range order[limit:] {
		dropped[string(fs[i].Severity)+" "+fs[i].Code]++
		bySeverity[fs[i].Severity.Rank()]++
	}
	keys := make([]string, 0, len(dropped))
	for k := range dropped {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(a, b int) bool {
		if dropped[keys[a]] != dropped[keys[b]] {
			return dropped[keys[a]] > dropped[keys[b]]
		}
		return keys[a] < keys[b]
	})
	var codes []string
	for i, k := range keys {
		if i == 8 {
			codes = append(codes, fmt.Sprintf("%d more codes", len(keys)-i))
			break
		}
		_, code, _ := strings.Cut(k, " ")
		codes = append(codes, fmt.Sprintf("%d %s", dropped[k], code))
	}
	n := len(fs) - limit
	msg := fmt.Sprintf("%s: %d of its %d findings are not listed (%s): %d errors, %d warnings, %d info (%s)",
		file, n, len(fs), why, bySeverity[3], bySeverity[2], bySeverity[1], strings.Join(codes, ", "))
	return append(out, New(CodeFindingsTruncated, file, 1, "", msg))
}
