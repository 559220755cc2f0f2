// Package history computes the tallies of a corpus at each commit of its
// git history (coverage, findings, reachability, alternatives, workflows),
// read from the repository's objects: one in-memory store is brought from
// commit to commit by ingesting only the files each commit changed.
package history

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"time"

	"github.com/skillgraph/skillgraph/graph"
	"github.com/skillgraph/skillgraph/graph/ingest"
	"github.com/skillgraph/skillgraph/ingest/discover"
	"github.com/skillgraph/skillgraph/ingest/gitsource"
	"github.com/skillgraph/skillgraph/ingest/record"
	"github.com/skillgraph/skillgraph/queries"
	"github.com/skillgraph/skillgraph/queries/diff"
)

// Tallies are the headline numbers of one graph version: fixed in size but
// for the finding codes, and the same numbers `coverage --format json` and
// `check --format json` give.
type Tallies struct {
	Coverage     Coverage     `json:"coverage"`
	Findings     Findings     `json:"findings"`
	Reachability Reachability `json:"reachability"`
	Alternatives Alternatives `json:"alternatives"`
	Workflows    Workflows    `json:"workflows"`
	// Packages are the skill counts per package and plugin, largest
	// first; a stored record keeps MaxPackages and one KindOther entry
	// (see Bounded). nil (JSON null) when not known: a record written
	// before they were kept.
	Packages []PackageTally `json:"packages"`
}

// Coverage is the skill coverage: totals and the tiers of the uncovered.
type Coverage struct {
	Total        int            `json:"total"`
	Covered      int            `json:"covered"`
	Contradicted int            `json:"contradicted"`
	Uncovered    int            `json:"uncovered"`
	Tiers        map[string]int `json:"tiers"` // A, B, C, D, always all four
}

// Findings counts the findings per severity and per code.
type Findings struct {
	Error   int            `json:"error"`
	Warning int            `json:"warning"`
	Info    int            `json:"info"`
	ByCode  map[string]int `json:"byCode"`
	// Other counts the findings of codes left out of ByCode: a stored
	// Record keeps only the most frequent codes (see Bounded); 0 in the
	// tallies of a snapshot, which name every code.
	Other int `json:"otherCodes,omitempty"`
}

// Reachability counts what the dispatch graph reaches.
type Reachability struct {
	Roots                int `json:"roots"`
	Skills               int `json:"skills"`
	ReachableSkills      int `json:"reachableSkills"`
	CoveredNotReachable  int `json:"coveredNotReachable"`
	Tools                int `json:"tools"`
	ReachableTools       int `json:"reachableTools"`
	UnreachableTools     int `json:"unreachableTools"`
	UnreachableProcesses int `json:"unreachableProcesses"`
}

// Alternatives counts the substitutable-Tool groups.
type Alternatives struct {
	Groups           int `json:"groups"`
	MissingSelection int `json:"missingSelection"`
}

// Workflows sums the workflow coverage of every process.
type Workflows struct {
	Processes int `json:"processes"`
	Complete  int `json:"complete"` // processes without a gap
	Steps     int `json:"steps"`
	Performed int `json:"performed"`
	Manual    int `json:"manual"`
	Gap       int `json:"gap"`
}

// Of tallies a snapshot.
func Of(s *queries.Snapshot) Tallies {
	c := s.Coverage
	t := Tallies{
		Coverage: Coverage{Total: c.Total, Covered: len(c.Covered), Contradicted: len(c.Contradicted), Uncovered: len(c.Uncovered),
			Tiers: map[string]int{"A": 0, "B": 0, "C": 0, "D": 0}},
		Findings: Findings{ByCode: map[string]int{}},
		Reachability: Reachability{Roots: len(s.Reach.Roots), Skills: len(s.Skills), CoveredNotReachable: len(s.Reach.CoveredNotReachable),
			Tools: len(s.Tools), UnreachableTools: len(s.Reach.UnreachableTools), UnreachableProcesses: len(s.Reach.UnreachableProcesses)},
		Alternatives: Alternatives{Groups: len(s.Alternatives.Groups), MissingSelection: len(s.Alternatives.MissingSelection)},
		Packages:     packagesOf(s),
	}
	for _, tier := range c.Tiers {
		t.Coverage.Tiers[tier.Tier] = len(tier.Skills)
	}
	for _, f := range s.Findings {
		switch f.Severity {
		case record.Error:
			t.Findings.Error++
		case record.Warning:
			t.Findings.Warning++
		default:
			t.Findings.Info++
		}
		t.Findings.ByCode[f.Code]++
	}
	for _, sk := range s.Skills {
		if sk.Reachable {
			t.Reachability.ReachableSkills++
		}
	}
	for _, tool := range s.Tools {
		if tool.Reachable {
			t.Reachability.ReachableTools++
		}
	}
	for _, w := range s.Workflows {
		t.Workflows.Processes++
		t.Workflows.Steps += w.Total()
		t.Workflows.Performed += w.Performed
		t.Workflows.Manual += w.Manual
		t.Workflows.Gap += w.Gap
		if w.Gap == 0 {
			t.Workflows.Complete++
		}
	}
	return t
}

// Codes is the finding codes of t in order.
func (t Tallies) Codes() []string {
	out := make([]string, 0, len(t.Findings.ByCode))
	for c := range t.Findings.ByCode {
		out = append(out, c)
	}
	sort.Strings(out)
	return out
}

// Point is the corpus at one commit.
type Point struct {
	Commit  string    `json:"commit"`
	Time    time.Time `json:"time"`
	Subject string    `json:"subject"`
	// Files is how many files of the corpus the commit (or, with Every,
	// the commits since the last point) wrote or removed.
	Files   int     `json:"files"`
	Tallies Tallies `json:"tallies"`
	// Changes is what changed since the previous point, with Options.Changes
	// (nil for the first point).
	Changes *Changes `json:"changes,omitempty"`
}

// Changes is the change list between two points: the report `diff`
// gives with the earlier point's files as --base and the later's as
// --corpus (which skills became uncovered, which Tools lost reachability,
// new and fixed findings …), and the categories it counts as worse (at
// `diff`'s default --findings error).
type Changes struct {
	*diff.Report
	Worse []diff.Category `json:"worse"`
}

// Options choose the commits and tune the ingests.
type Options struct {
	// Since is a revision (its commit is the first one considered) or a
	// date (YYYY-MM-DD or RFC 3339: commits at or after it); "" for all.
	Since string
	// Until is the last revision considered; "" for HEAD.
	Until string
	// Every keeps one point in N of the commits that touched the corpus
	// (the first, then each Nth, and always the last); 0 or 1: all.
	Every int
	// Changes computes each point's change list since the point before
	// (Point.Changes): a diff of the two snapshots per point.
	Changes     bool
	MaxFileSize int64
	Logger      *slog.Logger
}

// Walk computes the tallies of the corpus folder corpus (in a git work
// tree) at each first-parent commit that changed it, oldest first, and
// calls emit with each. Each commit's files are read from the
// repository's objects into a mirror directory, writing only what changed,
// and the in-memory store is re-ingested for those files only.
func Walk(ctx context.Context, corpus string, opt Options, emit func(Point) error) error {
	repo, err := gitsource.Open(corpus)
	if err != nil {
		return err
	}
	commits, err := Commits(ctx, repo, opt)
	if err != nil {
		return err
	}
	if len(commits) == 0 {
		return nil
	}
	tmp, err := os.MkdirTemp("", "skillgraph-history-")
	if err != nil {
		return fmt.Errorf("history: %w", err)
	}
	defer os.RemoveAll(tmp)
	// The mirror has the corpus folder's own name: the default instance
	// name is the folder's, and it keys the skills and findings.
	mirror, err := repo.NewMirror(filepath.Join(tmp, repo.FolderName()))
	if err != nil {
		return err
	}
	mirror.Cap = opt.MaxFileSize
	if mirror.Cap <= 0 {
		mirror.Cap = discover.DefaultMaxFileSize
	}
	st, err := graph.Open(ctx, "memory")
	if err != nil {
		return err
	}
	defer st.Close()
	w := walker{st: st, mirror: mirror, disc: &ingest.Discovery{}, opt: opt}
	for _, c := range commits {
		p, err := w.at(ctx, c)
		if err != nil {
			return fmt.Errorf("commit %s: %w", c.Hash[:12], err)
		}
		if err := emit(p); err != nil {
			return err
		}
	}
	return nil
}

// Commits is the commits Walk visits for opt.
func Commits(ctx context.Context, repo *gitsource.Repo, opt Options) ([]gitsource.Commit, error) {
	until := opt.Until
	if until == "" {
		until = "HEAD"
	}
	head, err := repo.Resolve(until)
	if err != nil {
		return nil, fmt.Errorf("--until: %w", err)
	}
	line, err := repo.FirstParents(ctx, head)
	if err != nil {
		return nil, err
	}
	var cutoff time.Time
	if opt.Since != "" {
		if t, ok := parseDate(opt.Since); ok {
			cutoff = t
		} else {
			since, err := repo.Resolve(opt.Since)
			if err != nil {
				return nil, fmt.Errorf("--since: neither a date (YYYY-MM-DD, RFC 3339) nor a %w", err)
			}
			at := slices.IndexFunc(line, func(c gitsource.Commit) bool { return c.Hash == since.Hash.String() })
			if at < 0 {
				return nil, fmt.Errorf("--since %s is not on the first-parent line of %s", opt.Since, until)
			}
			line = line[at:]
		}
	}
	var kept []gitsource.Commit
	for _, c := range line {
		if c.Touched && (cutoff.IsZero() || !c.Time.Before(cutoff)) {
			kept = append(kept, c)
		}
	}
	if opt.Every > 1 && len(kept) > 0 {
		var every []gitsource.Commit
		for i, c := range kept {
			if i%opt.Every == 0 || i == len(kept)-1 {
				every = append(every, c)
			}
		}
		kept = every
	}
	return kept, nil
}

// parseDate reads a --since date.
func parseDate(s string) (time.Time, bool) {
	for _, layout := range []string{time.RFC3339, "2006-01-02T15:04:05", "2006-01-02"} {
		if t, err := time.Parse(layout, s); err == nil {
			return t, true
		}
	}
	return time.Time{}, false
}

// walker carries the store and the snapshot from one commit to the next.
type walker struct {
	st     *graph.Store
	mirror *gitsource.Mirror
	disc   *ingest.Discovery
	opt    Options
	snap   *queries.Snapshot
	docs   []string // the instances the last ingest ingested
}

// at brings the mirror, the store and the snapshot to commit c.
func (w *walker) at(ctx context.Context, c gitsource.Commit) (Point, error) {
	changed, err := w.mirror.Checkout(ctx, c.Tree)
	if err != nil {
		return Point{}, err
	}
	p := Point{Commit: c.Hash, Time: c.Time, Subject: c.Subject, Files: len(changed)}
	if w.snap != nil && len(changed) == 0 {
		p.Tallies = Of(w.snap)
		w.changes(&p, w.snap)
		return p, nil
	}
	prev := w.snap // immutable: still the previous point's after the update
	opt := ingest.Options{MaxFileSize: w.opt.MaxFileSize, Logger: w.opt.Logger, Discovery: w.disc}
	if w.snap != nil {
		opt.Only = changed
	}
	res, err := ingest.Run(ctx, w.st, []string{w.mirror.Dir()}, opt)
	if err != nil {
		return Point{}, err
	}
	dropped, err := w.dropInstances(ctx, res.Docs)
	if err != nil {
		return Point{}, err
	}
	switch {
	case dropped:
		// The store changed twice; this rare step (a declaration renamed
		// or removed the instance) reads it back whole.
		if w.snap, err = queries.Build(ctx, w.st); err != nil {
			return Point{}, err
		}
	case w.snap != nil && res.Changed+res.Removed == 0:
		// Nothing the graph holds changed (a file no parser reads).
	case w.snap != nil && len(res.Changes) > 0 && res.Version == w.snap.Version+1:
		w.snap = w.snap.Update(res.Changes, res.Version)
	default:
		if w.snap, err = queries.Build(ctx, w.st); err != nil {
			return Point{}, err
		}
	}
	p.Tallies = Of(w.snap)
	w.changes(&p, prev)
	return p, nil
}

// changes sets p's change list from prev, the previous point's snapshot,
// to the current one, when asked for and there is a previous point.
func (w *walker) changes(p *Point, prev *queries.Snapshot) {
	if !w.opt.Changes || prev == nil {
		return
	}
	r := diff.Compare(prev, w.snap, diff.Options{})
	worse := r.Worse(record.Error)
	if worse == nil {
		worse = []diff.Category{}
	}
	p.Changes = &Changes{Report: r, Worse: worse}
}

// dropInstances removes the graphs of the instances the previous ingest
// ingested and this one (docs) did not: a checkout of the commit holds no
// such instance, while ingest keeps the graphs of an instance it did not
// see (other corpora may share a store). It reports whether it removed any.
func (w *walker) dropInstances(ctx context.Context, docs []string) (bool, error) {
	var changes []graph.Change
	for _, d := range w.docs {
		if slices.Contains(docs, d) {
			continue
		}
		labels, err := w.st.SourcesOf(ctx, d)
		if err != nil {
			return false, err
		}
		for _, l := range labels {
			changes = append(changes, graph.Change{Graph: l, Delete: true})
		}
	}
	w.docs = docs
	if len(changes) == 0 {
		return false, nil
	}
	if _, err := w.st.Apply(ctx, changes); err != nil {
		return false, fmt.Errorf("removing the graphs of an instance no longer declared: %w", err)
	}
	return true, nil
}
