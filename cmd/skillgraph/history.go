package main

import (
	"context"
	"encoding/csv"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/skillgraph/skillgraph/queries/history"
)

var historyCommand = &command{
	name:    "history",
	args:    "--corpus DIR [--since REV|DATE] [--until REV] [--every N] [--format text|json|csv]",
	summary: "The tallies (coverage, findings, reachability, alternatives, workflows) at each commit that changed the corpus, read from git.",
	about: "Reads the corpus folder's git repository (the one holding DIR) from its objects: no checkout, no git binary, no network. " +
		"Walks the first-parent commits from --until (default HEAD) that changed the folder, oldest first, and computes at each the " +
		"numbers `coverage --format json` and `check --format json` give on a checkout of it; each commit re-reads only the files it changed. " +
		"--since takes a revision (its commit is the first considered) or a date (YYYY-MM-DD or RFC 3339, by committer time); " +
		"--every N keeps the first, every Nth and the last of those commits. " +
		"json is one object per commit with the tallies (per package and plugin too: tallies.packages) and, from the second on, its changes since the one before: the report " +
		"`diff --format json` gives between the two (skills newly uncovered, Tools newly unreachable, new and fixed findings …, and the worse categories); csv one row per commit, finding codes as code=count;….",
	values: map[string][]string{"format": {"text", "json", "csv"}},
	setup:  setupHistory,
}

// setupHistory registers the flags of `skillgraph history`.
func setupHistory(fs *flag.FlagSet) runFunc {
	var c common
	c.register(fs)
	since := fs.String("since", "", "the first revision, or a date (YYYY-MM-DD or RFC 3339)")
	until := fs.String("until", "", "the last revision (default HEAD)")
	every := fs.Int("every", 1, "keep one commit in N (the first and the last always)")
	format := fs.String("format", "text", "text, json or csv")
	return func(ctx context.Context, _ []string, stdout, stderr io.Writer) error {
		c.finish()
		if len(c.corpora) != 1 {
			return usageError{"history", "needs exactly one --corpus DIR (a folder in a git work tree)"}
		}
		if c.store != "" {
			return usageError{"history", "reads git into an in-memory store; --store does not apply"}
		}
		if *every < 1 {
			return usageError{"history", fmt.Sprintf("--every must be 1 or more, not %d", *every)}
		}
		switch *format {
		case "text", "json", "csv":
		default:
			return usageError{"history", fmt.Sprintf("--format must be text, json or csv, not %q", *format)}
		}
		opt := history.Options{Since: *since, Until: *until, Every: *every, Changes: *format == "json", MaxFileSize: c.maxSize, Logger: c.logger(stderr)}
		var out pointWriter
		switch *format {
		case "json":
			out = &jsonPoints{w: stdout}
		case "csv":
			out = &csvPoints{w: csv.NewWriter(stdout)}
		default:
			out = &textPoints{w: stdout}
		}
		if err := history.Walk(ctx, c.corpora[0], opt, out.write); err != nil {
			return err
		}
		return out.close()
	}
}

// pointWriter prints the points as they are computed (a long history shows
// its first rows at once).
type pointWriter interface {
	write(history.Point) error
	close() error
}

// jsonPoints is a JSON array, one element per point.
type jsonPoints struct {
	w io.Writer
	n int
}

func (j *jsonPoints) write(p history.Point) error {
	b, err := json.MarshalIndent(p, "  ", "  ")
	if err != nil {
		return err
	}
	sep := "[\n  "
	if j.n > 0 {
		sep = ",\n  "
	}
	j.n++
	_, err = fmt.Fprintf(j.w, "%s%s", sep, b)
	return err
}

func (j *jsonPoints) close() error {
	if j.n == 0 {
		_, err := io.WriteString(j.w, "[]\n")
		return err
	}
	_, err := io.WriteString(j.w, "\n]\n")
	return err
}

// csvHeader is the fixed columns of the CSV, then the finding codes.
var csvHeader = []string{"commit", "time", "subject", "files", "skills", "covered", "contradicted", "uncovered", "tierA", "tierB", "tierC", "tierD",
	"errors", "warnings", "info", "roots", "reachableSkills", "coveredNotReachable", "tools", "reachableTools", "unreachableTools",
	"unreachableProcesses", "alternativeGroups", "missingSelection", "processes", "completeProcesses", "steps", "performed", "manual", "gap", "codes"}

// csvPoints is one CSV row per point.
type csvPoints struct {
	w      *csv.Writer
	header bool
}

func (c *csvPoints) write(p history.Point) error {
	if !c.header {
		c.header = true
		if err := c.w.Write(csvHeader); err != nil {
			return err
		}
	}
	t := p.Tallies
	var codes []string
	for _, code := range t.Codes() {
		codes = append(codes, code+"="+strconv.Itoa(t.Findings.ByCode[code]))
	}
	row := []string{p.Commit, p.Time.UTC().Format(time.RFC3339), p.Subject}
	for _, n := range []int{p.Files, t.Coverage.Total, t.Coverage.Covered, t.Coverage.Contradicted, t.Coverage.Uncovered,
		t.Coverage.Tiers["A"], t.Coverage.Tiers["B"], t.Coverage.Tiers["C"], t.Coverage.Tiers["D"],
		t.Findings.Error, t.Findings.Warning, t.Findings.Info, t.Reachability.Roots, t.Reachability.ReachableSkills,
		t.Reachability.CoveredNotReachable, t.Reachability.Tools, t.Reachability.ReachableTools, t.Reachability.UnreachableTools,
		t.Reachability.UnreachableProcesses, t.Alternatives.Groups, t.Alternatives.MissingSelection, t.Workflows.Processes,
		t.Workflows.Complete, t.Workflows.Steps, t.Workflows.Performed, t.Workflows.Manual, t.Workflows.Gap} {
		row = append(row, strconv.Itoa(n))
	}
	row = append(row, strings.Join(codes, ";"))
	if err := c.w.Write(row); err != nil {
		return err
	}
	c.w.Flush()
	return c.w.Error()
}

func (c *csvPoints) close() error {
	if !c.header {
		if err := c.w.Write(csvHeader); err != nil {
			return err
		}
	}
	c.w.Flush()
	return c.w.Error()
}

// textPoints is a table for people, with what changed since the row before.
type textPoints struct {
	w    io.Writer
	n    int
	prev *history.Tallies
}

func (x *textPoints) write(p history.Point) error {
	if x.n == 0 {
		fmt.Fprintln(x.w, "(unreach: Tools no entry point reaches; alt: alternative groups; gaps: workflow steps nothing performs)")
		fmt.Fprintf(x.w, "%-12s %-10s %6s %7s %6s %-15s %6s %6s %7s %4s %5s  %s\n", "commit", "date", "skills", "covered", "contra",
			"A/B/C/D", "errors", "warn", "unreach", "alt", "gaps", "subject")
	}
	x.n++
	t := p.Tallies
	tiers := fmt.Sprintf("%d/%d/%d/%d", t.Coverage.Tiers["A"], t.Coverage.Tiers["B"], t.Coverage.Tiers["C"], t.Coverage.Tiers["D"])
	fmt.Fprintf(x.w, "%-12s %-10s %6d %7d %6d %-15s %6d %6d %7d %4d %5d  %s\n", p.Commit[:12], p.Time.UTC().Format("2006-01-02"),
		t.Coverage.Total, t.Coverage.Covered, t.Coverage.Contradicted, tiers, t.Findings.Error, t.Findings.Warning,
		t.Reachability.UnreachableTools, t.Alternatives.Groups, t.Workflows.Gap, p.Subject)
	if x.prev != nil {
		if d := codeDelta(*x.prev, t); d != "" {
			fmt.Fprintf(x.w, "%12s findings %s\n", "", d)
		}
	}
	x.prev = &t
	return nil
}

func (x *textPoints) close() error {
	if x.n == 0 {
		_, err := fmt.Fprintln(x.w, "no commit changed the corpus")
		return err
	}
	return nil
}

// codeDelta says which finding codes went up or down, e.g. "+2 tool-unreachable, -1 contract-required-missing".
func codeDelta(a, b history.Tallies) string {
	seen := map[string]bool{}
	var codes []string
	for _, t := range []history.Tallies{a, b} {
		for c := range t.Findings.ByCode {
			if !seen[c] {
				seen[c] = true
				codes = append(codes, c)
			}
		}
	}
	sort.Strings(codes)
	var out []string
	for _, c := range codes {
		if d := b.Findings.ByCode[c] - a.Findings.ByCode[c]; d != 0 {
			out = append(out, fmt.Sprintf("%+d %s", d, c))
		}
	}
	return strings.Join(out, ", ")
}
