package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"

	"github.com/skillgraph/skillgraph/ingest/discover"
	"github.com/skillgraph/skillgraph/ingest/gitsource"
	"github.com/skillgraph/skillgraph/ingest/record"
	"github.com/skillgraph/skillgraph/queries/diff"
)

var diffCommand = &command{
	name:    "diff",
	args:    "--base DIR|REV --corpus DIR [--format text|json|markdown] [--fail-on all|none|LIST] [--findings error|warning|info]",
	summary: "The pull-request gate: what a change does to the answers, compared with a base checkout; exit 1 when it makes one worse.",
	about: "Both corpora are read into memory; no store is written. --base is a folder (a checkout of the base, e.g. " +
		"`git worktree add ../base origin/main`, see docs/ci.md) or, when no such folder exists, a git revision (origin/main, a tag, a hash): " +
		"the corpus folder as of that revision is then read from the objects of the repository holding --corpus, with no checkout and no git binary. " +
		"--base and --corpus repeat in pairs, in order.\n" +
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
	fs.Var(&bases, "base", "the base: the same corpus before the change, as a folder or a git revision (repeatable, paired with --corpus in order)")
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
		tmp, err := os.MkdirTemp("", "skillgraph-diff-")
		if err != nil {
			return err
		}
		defer os.RemoveAll(tmp)
		for i := range bases {
			if bases[i], err = baseFolder(ctx, bases[i], head.corpora[i], filepath.Join(tmp, strconv.Itoa(i)), head.maxSize); err != nil {
				return err
			}
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

// baseFolder is the folder to read a --base from: base itself when it is
// a folder (or anything but a missing path: requireContent words the
// error), else the corpus folder as of revision base, read from the
// repository that holds corpus into a folder under tmp named as the corpus
// folder is (its default instance name). A revision without the folder is
// an empty base: everything in the change is new.
func baseFolder(ctx context.Context, base, corpus, tmp string, maxSize int64) (string, error) {
	if _, err := os.Stat(base); !errors.Is(err, fs.ErrNotExist) {
		return base, nil
	}
	repo, err := gitsource.Open(corpus)
	if err != nil {
		return "", usageError{"diff", fmt.Sprintf("--base %s: no such folder, and no revision can be read: %v", base, err)}
	}
	c, err := repo.Resolve(base)
	if err != nil {
		return "", usageError{"diff", fmt.Sprintf("--base %s: no such folder, nor a revision of the repository at %s", base, repo.Top)}
	}
	tree, err := repo.SubTree(c)
	if err != nil {
		return "", err
	}
	m, err := repo.NewMirror(filepath.Join(tmp, repo.FolderName()))
	if err != nil {
		return "", err
	}
	if m.Cap = maxSize; m.Cap <= 0 {
		m.Cap = discover.DefaultMaxFileSize
	}
	if _, err := m.Checkout(ctx, tree); err != nil {
		return "", fmt.Errorf("--base %s: %w", base, err)
	}
	return m.Dir(), nil
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
