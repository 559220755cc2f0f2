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
		"Markdown is a pull-request comment.",
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
		base := common{corpora: bases, maxSize: head.maxSize, verbose: head.verbose}
		before, err := base.snapshot(ctx, "memory", stderr, false)
		if err != nil {
			return fmt.Errorf("base: %w", err)
		}
		after, err := head.snapshot(ctx, "memory", stderr, false)
		if err != nil {
			return err
		}
		rename := map[string]string{}
		for i, b := range base.found {
			if b.Instance != head.found[i].Instance {
				rename[b.Instance] = head.found[i].Instance
			}
		}
		r := diff.Compare(before, after, diff.Options{Rename: rename})
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
