package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"

	"github.com/skillgraph/skillgraph/ingest/record"
	"github.com/skillgraph/skillgraph/queries/diff"
)

var diffCommand = &command{
	name:    "diff",
	args:    "--base DIR --corpus DIR [--format text|json|markdown] [--fail-on all|none|LIST] [--findings error|warning|info]",
	summary: "The pull-request gate: what a change does to the answers, compared with a base checkout; exit 1 when it makes one worse.",
	about: "Both corpora are ingested into memory stores; no git is needed (check the base out with " +
		"`git worktree add ../base origin/main`, see docs/ci.md). --base and --corpus repeat in pairs, in order.\n" +
		"--fail-on lists what makes the exit 1: uncovered (a skill lost its Tools), contradicted, not-reachable " +
		"(a covered skill nothing reaches), unreachable (Tools), alternatives (a group lost), findings (new ones at " +
		"--findings or worse), workflows (a process's workflow coverage down); all (default) or none. " +
		"Findings match by code, subject and the references they name, not file and line: one found in another file is listed as moved, never worse. " +
		"A --base folder that holds nothing means everything is new. Markdown is a pull-request comment.",
	values: map[string][]string{"format": {"text", "json", "markdown"}, "fail-on": {"all", "none", "uncovered", "contradicted", "not-reachable", "unreachable", "alternatives", "findings", "workflows"},
		"findings": {"error", "warning", "info"}},
	setup: setupDiff,
}

// setupDiff registers the flags of `skillgraph diff`.
func setupDiff(fs *flag.FlagSet) runFunc {
	var head common
	head.register(fs)
	var bases corpusFlag
	fs.Var(&bases, "base", "the base corpus root: the same corpus before the change (repeatable, paired with --corpus in order)")
	format := fs.String("format", "text", "text, json or markdown")
	failOn := fs.String("fail-on", "all", "what makes the exit 1, comma-separated: uncovered, contradicted, not-reachable, unreachable, alternatives, findings, workflows; all or none")
	minSev := fs.String("findings", "error", "the least severity of a new finding that counts as worse: error, warning or info")
	return func(ctx context.Context, _ []string, stdout, stderr io.Writer) error {
		head.finish()
		if len(bases) == 0 || len(head.corpora) == 0 {
			return usageError{"diff", "needs --base DIR and --corpus DIR"}
		}
		if len(bases) != len(head.corpora) {
			return usageError{"diff", fmt.Sprintf("--base and --corpus come in pairs: %d --base, %d --corpus", len(bases), len(head.corpora))}
		}
		if head.store != "" {
			return usageError{"diff", "compares two in-memory ingests; --store does not apply"}
		}
		switch *format {
		case "text", "json", "markdown":
		default:
			return usageError{"diff", fmt.Sprintf("--format must be text, json or markdown, not %q", *format)}
		}
		failing, err := diff.ParseCategories(*failOn)
		if err != nil {
			return usageError{"diff", "--fail-on: " + err.Error()}
		}
		sev := record.Severity(*minSev)
		if sev.Rank() == 0 {
			return usageError{"diff", fmt.Sprintf("--findings must be error, warning or info, not %q", *minSev)}
		}
		// A base folder that holds nothing is a corpus that did not exist
		// before the change: everything in the change is new.
		base := common{corpora: bases, maxSize: head.maxSize, verbose: head.verbose, allowEmpty: true}
		before, err := base.snapshot(ctx, "memory", stderr, false)
		if err != nil {
			return fmt.Errorf("base: %w", err)
		}
		after, err := head.snapshot(ctx, "memory", stderr, false)
		if err != nil {
			return err
		}
		r := diff.Compare(before, after, diff.Options{Rename: renames(base.found, head.found)})
		var worse []diff.Category
		for _, c := range r.Worse(sev) {
			if failing[c] {
				worse = append(worse, c)
			}
		}
		switch *format {
		case "json":
			enc := json.NewEncoder(stdout)
			enc.SetIndent("", "  ")
			all := r.Worse(sev)
			if all == nil {
				all = []diff.Category{}
			}
			if worse == nil {
				worse = []diff.Category{}
			}
			if err := enc.Encode(struct {
				*diff.Report
				Worse   []diff.Category `json:"worse"`
				Failing []diff.Category `json:"failing"`
			}{r, all, worse}); err != nil {
				return err
			}
		case "markdown":
			r.WriteMarkdown(stdout, worse)
		default:
			r.WriteText(stdout, worse)
		}
		if len(worse) > 0 {
			return exitError{1}
		}
		return nil
	}
}

// renames maps each base instance onto the change's instance found in the
// same place: the same --base/--corpus pair, the same position among that
// corpus's instances. A base checked out under another folder name has
// another default instance name; an empty base (left out) maps nothing.
func renames(base, head []sarifCorpus) map[string]string {
	type place struct{ arg, n int }
	at := func(found []sarifCorpus) map[place]string {
		m, n := map[place]string{}, map[int]int{}
		for _, f := range found {
			m[place{f.Arg, n[f.Arg]}] = f.Instance
			n[f.Arg]++
		}
		return m
	}
	heads := at(head)
	out := map[string]string{}
	for p, b := range at(base) {
		if h, ok := heads[p]; ok && h != b {
			out[b] = h
		}
	}
	return out
}
