package api

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/graphql-go/graphql"

	"github.com/skillgraph/skillgraph/queries"
	"github.com/skillgraph/skillgraph/queries/diff"
	"github.com/skillgraph/skillgraph/queries/history"
)

// HistoryReader reads the tally records the store keeps per committed
// graph version. The server implements it; api only shows them.
type HistoryReader interface {
	// History returns the records of the versions up to snap's, oldest
	// first, ending with snap's own (computed from snap when the store has
	// no record of it yet: a replica ahead of the writer's record, or the
	// moment between a commit and its record).
	History(ctx context.Context, snap *queries.Snapshot) ([]history.Version, error)
}

type historyKey struct{}

// historyCtx is what WithHistory puts in a request's context: the reader
// and what the request read of it, so that the coveredSince of a list of
// skills reads the history once.
type historyCtx struct {
	r  HistoryReader
	mu sync.Mutex
	// of the snapshot last asked for
	snap *queries.Snapshot
	all  []history.Version
	err  error
	keys map[*queries.Skill]string // the skills' names in a change list
}

// WithHistory returns a context whose history and trend fields (and
// Skill.coveredSince and reachableSince) read r, once per request and
// snapshot. Without one they answer the snapshot's own version alone.
func WithHistory(ctx context.Context, r HistoryReader) context.Context {
	return context.WithValue(ctx, historyKey{}, &historyCtx{r: r})
}

// read is the history up to s, read once.
func (h *historyCtx) read(ctx context.Context, s *queries.Snapshot) ([]history.Version, map[*queries.Skill]string, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.snap != s {
		h.snap, h.keys = s, nil
		h.all, h.err = h.r.History(ctx, s)
	}
	if h.keys == nil && h.err == nil {
		h.keys = map[*queries.Skill]string{}
		for k, sk := range diff.SkillKeys(s) {
			h.keys[sk] = k
		}
	}
	return h.all, h.keys, h.err
}

// versionsOf reads the history for a resolver, narrowed to since.
func versionsOf(p graphql.ResolveParams) ([]history.Version, error) {
	s := snap(p)
	var all []history.Version
	if h, ok := p.Context.Value(historyKey{}).(*historyCtx); ok {
		var err error
		if all, _, err = h.read(p.Context, s); err != nil {
			return nil, fmt.Errorf("history: %w", err)
		}
	} else {
		all = []history.Version{{Version: s.Version, Record: history.Record{Tallies: history.Of(s)}}}
	}
	since, ok := p.Args["since"].(string)
	if !ok || since == "" {
		return all, nil
	}
	t, err := parseSince(since)
	if err != nil {
		return nil, err
	}
	return slices.DeleteFunc(slices.Clone(all), func(v history.Version) bool { return v.At.Before(t) }), nil
}

// parseSince reads a since argument: a date or an RFC 3339 time.
func parseSince(s string) (time.Time, error) {
	for _, layout := range []string{time.RFC3339Nano, time.DateOnly} {
		if t, err := time.Parse(layout, s); err == nil {
			return t, nil
		}
	}
	return time.Time{}, fmt.Errorf("since %q: want a date (2026-12-01) or an RFC 3339 time", s)
}

// A history cursor names a version, not an offset: a page read while new
// versions are recorded (or old ones pruned) goes on where it stopped.
func versionCursor(v int64) string {
	return base64.StdEncoding.EncodeToString([]byte("v:" + strconv.FormatInt(v, 10)))
}

func decodeVersionCursor(c string) (int64, error) {
	b, err := base64.StdEncoding.DecodeString(c)
	if err != nil || !strings.HasPrefix(string(b), "v:") {
		return 0, errors.New("invalid history cursor")
	}
	v, err := strconv.ParseInt(string(b[2:]), 10, 64)
	if err != nil || v < 0 {
		return 0, errors.New("invalid history cursor")
	}
	return v, nil
}

// historyField is Query.history: the versions as a Relay connection,
// oldest first.
func historyField(point *graphql.Object) *graphql.Field {
	edge := graphql.NewObject(graphql.ObjectConfig{Name: "GraphVersionEdge", Fields: graphql.Fields{
		"node":   {Type: nn(point)},
		"cursor": {Type: nn(graphql.String)},
	}})
	conn := graphql.NewObject(graphql.ObjectConfig{Name: "GraphVersionConnection", Fields: graphql.Fields{
		"totalCount": {Type: nn(graphql.Int), Description: "versions since the since argument"},
		"edges":      {Type: list(edge)},
		"nodes":      {Type: list(point)},
		"pageInfo":   {Type: nn(pageInfoType)},
	}})
	return &graphql.Field{
		Type: nn(conn),
		Description: "The committed graph versions the store keeps tallies of (pruned as docs/decisions.md says: every version of the last 7 days, " +
			"then one a day), oldest first; the last is the version served.",
		Args: graphql.FieldConfigArgument{
			"first": {Type: graphql.Int, Description: "at most this many versions (default 50, at most 500)"},
			"after": {Type: graphql.String, Description: "versions after this cursor"},
			"since": {Type: graphql.String, Description: "versions recorded at or after this date or RFC 3339 time"},
		},
		Resolve: func(p graphql.ResolveParams) (any, error) {
			all, err := versionsOf(p)
			if err != nil {
				return nil, err
			}
			first, err := pageSize(p.Args, "first")
			if err != nil {
				return nil, err
			}
			if first < 0 {
				first = defaultPage
			}
			start := 0
			if a, ok := p.Args["after"].(string); ok && a != "" {
				v, err := decodeVersionCursor(a)
				if err != nil {
					return nil, err
				}
				start = len(all)
				if i, found := slices.BinarySearchFunc(all, v, func(x history.Version, v int64) int { return int(x.Version - v) }); found {
					start = i + 1
				} else {
					start = i
				}
			}
			end := min(len(all), start+first)
			edges := make([]map[string]any, 0, end-start)
			for _, v := range all[start:end] {
				edges = append(edges, map[string]any{"node": v, "cursor": versionCursor(v.Version)})
			}
			pi := map[string]any{"hasNextPage": end < len(all), "hasPreviousPage": start > 0, "startCursor": nil, "endCursor": nil}
			if end > start {
				pi["startCursor"] = versionCursor(all[start].Version)
				pi["endCursor"] = versionCursor(all[end-1].Version)
			}
			return map[string]any{"totalCount": len(all), "edges": edges, "nodes": all[start:end], "pageInfo": pi}, nil
		},
	}
}

// trendMetrics are the series trend draws, by enum name: each reads one
// number of a version's tallies.
var trendMetrics = []struct {
	name, desc string
	of         func(t history.Tallies) float64
	// ofPackage reads it of one package or plugin; nil: not counted per package.
	ofPackage func(p history.PackageTally) float64
}{
	{"COVERAGE", "covered skills as a share of all skills, 0 to 1 (0 without skills)", func(t history.Tallies) float64 {
		if t.Coverage.Total == 0 {
			return 0
		}
		return float64(t.Coverage.Covered) / float64(t.Coverage.Total)
	}, func(p history.PackageTally) float64 {
		if p.Skills == 0 {
			return 0
		}
		return float64(p.Covered) / float64(p.Skills)
	}},
	{"SKILLS", "skills", func(t history.Tallies) float64 { return float64(t.Coverage.Total) },
		func(p history.PackageTally) float64 { return float64(p.Skills) }},
	{"COVERED", "covered skills", func(t history.Tallies) float64 { return float64(t.Coverage.Covered) },
		func(p history.PackageTally) float64 { return float64(p.Covered) }},
	{"UNCOVERED", "uncovered skills", func(t history.Tallies) float64 { return float64(t.Coverage.Uncovered) },
		func(p history.PackageTally) float64 { return float64(p.Uncovered) }},
	{"CONTRADICTED", "contradicted skills", func(t history.Tallies) float64 { return float64(t.Coverage.Contradicted) }, nil},
	{"FINDINGS", "findings of every severity", func(t history.Tallies) float64 {
		return float64(t.Findings.Error + t.Findings.Warning + t.Findings.Info)
	}, nil},
	{"ERRORS", "error findings", func(t history.Tallies) float64 { return float64(t.Findings.Error) },
		func(p history.PackageTally) float64 { return float64(p.Errors) }},
	{"WARNINGS", "warning findings", func(t history.Tallies) float64 { return float64(t.Findings.Warning) }, nil},
	{"INFOS", "info findings", func(t history.Tallies) float64 { return float64(t.Findings.Info) }, nil},
	{"TOOLS", "Tools", func(t history.Tallies) float64 { return float64(t.Reachability.Tools) }, nil},
	{"REACHABLE_SKILLS", "skills the dispatch graph reaches", func(t history.Tallies) float64 { return float64(t.Reachability.ReachableSkills) },
		func(p history.PackageTally) float64 { return float64(p.Reachable) }},
	{"REACHABLE_TOOLS", "Tools the dispatch graph reaches", func(t history.Tallies) float64 { return float64(t.Reachability.ReachableTools) }, nil},
	{"UNREACHABLE_TOOLS", "Tools nothing reaches", func(t history.Tallies) float64 { return float64(t.Reachability.UnreachableTools) }, nil},
	{"COVERED_NOT_REACHABLE", "covered skills nothing reaches", func(t history.Tallies) float64 { return float64(t.Reachability.CoveredNotReachable) }, nil},
	{"MISSING_SELECTION", "alternative groups without a selection", func(t history.Tallies) float64 { return float64(t.Alternatives.MissingSelection) }, nil},
	{"WORKFLOW_GAPS", "process steps nothing performs", func(t history.Tallies) float64 { return float64(t.Workflows.Gap) }, nil},
}

// trendField is Query.trend: one metric per version, oldest first.
func trendField() *graphql.Field {
	values := graphql.EnumValueConfigMap{}
	for i, m := range trendMetrics {
		values[m.name] = &graphql.EnumValueConfig{Value: i, Description: m.desc}
	}
	metric := graphql.NewEnum(graphql.EnumConfig{Name: "TrendMetric", Description: "a number of a version's tallies", Values: values})
	point := graphql.NewObject(graphql.ObjectConfig{Name: "TrendPoint", Fields: graphql.Fields{
		"version": field[trendPoint](nn(graphql.Int), "", func(p trendPoint) any { return int(p.v.Version) }),
		"time":    field[trendPoint](graphql.String, "when the version was recorded (RFC 3339)", func(p trendPoint) any { return rfc3339(p.v.At) }),
		"commit":  field[trendPoint](graphql.String, "the corpus's git commit, if known", func(p trendPoint) any { return optString(p.v.Commit) }),
		"value":   field[trendPoint](nn(graphql.Float), "", func(p trendPoint) any { return p.value }),
	}})
	return &graphql.Field{
		Type:        list(point),
		Description: "One number of the tallies at each version history lists, oldest first (at most 500 points: the newest).",
		Args: graphql.FieldConfigArgument{
			"metric": {Type: nn(metric)},
			"since":  {Type: graphql.String, Description: "versions recorded at or after this date or RFC 3339 time"},
			"package": {Type: graphql.String, Description: "the metric of this package's skills alone (SKILLS, COVERED, UNCOVERED, COVERAGE, " +
				"REACHABLE_SKILLS, ERRORS); a version that does not know it (recorded before per-package counts were kept, or counting it " +
				"in its other entry) is left out"},
			"plugin": {Type: graphql.String, Description: "the same for this plugin's skills"},
		},
		Resolve: func(p graphql.ResolveParams) (any, error) {
			all, err := versionsOf(p)
			if err != nil {
				return nil, err
			}
			m, ok := p.Args["metric"].(int)
			if !ok || m < 0 || m >= len(trendMetrics) {
				return nil, errors.New("trend: unknown metric")
			}
			kind, name := "", ""
			for _, k := range []string{history.KindPackage, history.KindPlugin} {
				if n, _ := p.Args[k].(string); n != "" {
					if kind != "" {
						return nil, errors.New("trend: give package or plugin, not both")
					}
					kind, name = k, n
				}
			}
			if kind != "" && trendMetrics[m].ofPackage == nil {
				return nil, fmt.Errorf("trend: %s is not counted per %s", trendMetrics[m].name, kind)
			}
			all = all[max(0, len(all)-MaxPage):]
			out := make([]trendPoint, 0, len(all))
			for _, v := range all {
				if kind == "" {
					out = append(out, trendPoint{v: v, value: trendMetrics[m].of(v.Tallies)})
				} else if pt, known := packageOf(v.Tallies, kind, name); known {
					out = append(out, trendPoint{v: v, value: trendMetrics[m].ofPackage(pt)})
				}
			}
			return out, nil
		},
	}
}

// packageOf is the counts of the package or plugin kind/name in t;
// known is false when t has no per-package counts or may count it in its
// other entry. One t does not list is known to have no skill (zero).
func packageOf(t history.Tallies, kind, name string) (p history.PackageTally, known bool) {
	if t.Packages == nil {
		return p, false
	}
	for _, x := range t.Packages {
		switch {
		case x.Kind == kind && x.Name == name:
			return x, true
		case x.Kind == history.KindOther:
			return p, false
		}
	}
	return history.PackageTally{Kind: kind, Name: name}, true
}

// trendPoint is one point of a trend.
type trendPoint struct {
	v     history.Version
	value float64
}

func rfc3339(t time.Time) any {
	if t.IsZero() {
		return nil
	}
	return t.UTC().Format(time.RFC3339)
}

func optString(s string) any {
	if s == "" {
		return nil
	}
	return s
}

// count is one named count (a tier, a finding code).
type count struct {
	name string
	n    int
}

// graphVersionType is GraphVersion with the Tallies types under it.
func graphVersionType() *graphql.Object {
	countType := graphql.NewObject(graphql.ObjectConfig{Name: "TallyCount", Description: "a count of one tier or finding code", Fields: graphql.Fields{
		"name":  field[count](nn(graphql.String), "", func(c count) any { return c.name }),
		"count": field[count](nn(graphql.Int), "", func(c count) any { return c.n }),
	}})
	ints := func(name, desc string, of func(history.Tallies) map[string]int, order []string) *graphql.Object {
		fs := graphql.Fields{}
		for _, k := range order {
			fs[k] = field[history.Tallies](nn(graphql.Int), "", func(t history.Tallies) any { return of(t)[k] })
		}
		return graphql.NewObject(graphql.ObjectConfig{Name: name, Description: desc, Fields: fs})
	}
	coverage := ints("CoverageTallies", "skill coverage", func(t history.Tallies) map[string]int {
		c := t.Coverage
		return map[string]int{"total": c.Total, "covered": c.Covered, "contradicted": c.Contradicted, "uncovered": c.Uncovered}
	}, []string{"total", "covered", "contradicted", "uncovered"})
	coverage.AddFieldConfig("tiers", field[history.Tallies](list(countType), "the uncovered skills per tier, A, B, C, D in order", func(t history.Tallies) any {
		var out []count
		for _, tier := range []string{"A", "B", "C", "D"} {
			out = append(out, count{tier, t.Coverage.Tiers[tier]})
		}
		return out
	}))
	findings := ints("FindingTallies", "findings per severity", func(t history.Tallies) map[string]int {
		f := t.Findings
		return map[string]int{"error": f.Error, "warning": f.Warning, "info": f.Info, "otherCodes": f.Other}
	}, []string{"error", "warning", "info", "otherCodes"})
	findings.AddFieldConfig("byCode", field[history.Tallies](list(countType),
		"the most frequent codes (a stored version keeps 16; the findings of the rest are otherCodes), most frequent first", func(t history.Tallies) any {
			var out []count
			for _, c := range t.Codes() {
				out = append(out, count{c, t.Findings.ByCode[c]})
			}
			slices.SortStableFunc(out, func(a, b count) int { return b.n - a.n })
			return out
		}))
	reach := ints("ReachabilityTallies", "what the dispatch graph reaches", func(t history.Tallies) map[string]int {
		r := t.Reachability
		return map[string]int{"roots": r.Roots, "skills": r.Skills, "reachableSkills": r.ReachableSkills, "coveredNotReachable": r.CoveredNotReachable,
			"tools": r.Tools, "reachableTools": r.ReachableTools, "unreachableTools": r.UnreachableTools, "unreachableProcesses": r.UnreachableProcesses}
	}, []string{"roots", "skills", "reachableSkills", "coveredNotReachable", "tools", "reachableTools", "unreachableTools", "unreachableProcesses"})
	alts := ints("AlternativeTallies", "substitutable-Tool groups", func(t history.Tallies) map[string]int {
		return map[string]int{"groups": t.Alternatives.Groups, "missingSelection": t.Alternatives.MissingSelection}
	}, []string{"groups", "missingSelection"})
	flows := ints("WorkflowTallies", "the workflow coverage of every process, summed", func(t history.Tallies) map[string]int {
		w := t.Workflows
		return map[string]int{"processes": w.Processes, "complete": w.Complete, "steps": w.Steps, "performed": w.Performed, "manual": w.Manual, "gap": w.Gap}
	}, []string{"processes", "complete", "steps", "performed", "manual", "gap"})
	self := func(t history.Tallies) any { return t }
	pkgInt := func(desc string, of func(history.PackageTally) int) *graphql.Field {
		return field[history.PackageTally](nn(graphql.Int), desc, func(p history.PackageTally) any { return of(p) })
	}
	pkg := graphql.NewObject(graphql.ObjectConfig{Name: "PackageTallies", Description: "the skill counts of one package or plugin " +
		"(a skill in both is counted in each), or of the rest a stored version leaves out", Fields: graphql.Fields{
		"kind": field[history.PackageTally](nn(graphql.String), "package, plugin, or other: the sum of those a stored version leaves out",
			func(p history.PackageTally) any { return p.Kind }),
		"name":      field[history.PackageTally](graphql.String, "null for other", func(p history.PackageTally) any { return optString(p.Name) }),
		"skills":    pkgInt("", func(p history.PackageTally) int { return p.Skills }),
		"covered":   pkgInt("", func(p history.PackageTally) int { return p.Covered }),
		"uncovered": pkgInt("", func(p history.PackageTally) int { return p.Uncovered }),
		"reachable": pkgInt("skills the dispatch graph reaches", func(p history.PackageTally) int { return p.Reachable }),
		"errors":    pkgInt("error findings about its skills", func(p history.PackageTally) int { return p.Errors }),
	}})
	tallies := graphql.NewObject(graphql.ObjectConfig{Name: "Tallies", Description: "the headline numbers of one graph version", Fields: graphql.Fields{
		"coverage":     field[history.Tallies](nn(coverage), "", self),
		"findings":     field[history.Tallies](nn(findings), "", self),
		"reachability": field[history.Tallies](nn(reach), "", self),
		"alternatives": field[history.Tallies](nn(alts), "", self),
		"workflows":    field[history.Tallies](nn(flows), "", self),
		"packages": field[history.Tallies](graphql.NewList(nn(pkg)), fmt.Sprintf("the counts per package and plugin, most skills first "+
			"(a stored version keeps %d and one other entry summing the rest); null when not known: a version recorded before they were kept",
			history.MaxPackages), func(t history.Tallies) any {
			if t.Packages == nil {
				return nil
			}
			return t.Packages
		}),
	}})
	return graphql.NewObject(graphql.ObjectConfig{Name: "GraphVersion", Description: "one committed graph version and its tallies", Fields: graphql.Fields{
		"version":    field[history.Version](nn(graphql.Int), "", func(v history.Version) any { return int(v.Version) }),
		"time":       field[history.Version](graphql.String, "when the version was recorded (RFC 3339)", func(v history.Version) any { return rfc3339(v.At) }),
		"commit":     field[history.Version](graphql.String, "the corpus's git HEAD when it was ingested, if it is a git work tree", func(v history.Version) any { return optString(v.Commit) }),
		"commitTime": field[history.Version](graphql.String, "that commit's time (RFC 3339)", func(v history.Version) any { return rfc3339(v.Time) }),
		"tallies":    field[history.Version](nn(tallies), "", func(v history.Version) any { return v.Tallies }),
		"changes": field[history.Version](changesType(), "what changed state in this version against the version listed before it "+
			"(the records pruning drops are merged into the next one kept); null when not known: the record was written without "+
			"the snapshot before it (a first ingest, a triage decision, check --store), or merged with one that was",
			func(v history.Version) any {
				if v.Changes == nil {
					return nil
				}
				return v.Changes
			}),
	}})
}

// changesType is VersionChanges, a history.StateChanges.
func changesType() *graphql.Object {
	ids := graphql.NewObject(graphql.ObjectConfig{Name: "ChangedIDs", Description: fmt.Sprintf("a bounded list of skill (package/id) or Tool names: "+
		"at most %d, by name, and a count of the rest", history.MaxChangedIDs), Fields: graphql.Fields{
		"ids":  field[history.IDs](strList(), "", func(l history.IDs) any { return l.IDs }),
		"more": field[history.IDs](nn(graphql.Int), "names left out (after a merge, an upper bound)", func(l history.IDs) any { return l.More }),
	}})
	l := func(desc string, of func(*history.StateChanges) history.IDs) *graphql.Field {
		return field[*history.StateChanges](nn(ids), desc, func(c *history.StateChanges) any { return of(c) })
	}
	return graphql.NewObject(graphql.ObjectConfig{Name: "VersionChanges", Description: "what changed state in one graph version (issue 24): the ids, bounded", Fields: graphql.Fields{
		"newlyCovered":      l("skills covered now, not before", func(c *history.StateChanges) history.IDs { return c.NewlyCovered }),
		"newlyUncovered":    l("skills covered before, not now", func(c *history.StateChanges) history.IDs { return c.NewlyUncovered }),
		"reachableSkills":   l("skills the dispatch graph reaches now, not before", func(c *history.StateChanges) history.IDs { return c.ReachableSkills }),
		"unreachableSkills": l("skills it reached before, not now", func(c *history.StateChanges) history.IDs { return c.UnreachableSkill }),
		"addedSkills":       l("", func(c *history.StateChanges) history.IDs { return c.AddedSkills }),
		"removedSkills":     l("", func(c *history.StateChanges) history.IDs { return c.RemovedSkills }),
		"reachableTools":    l("Tools reached now, not before", func(c *history.StateChanges) history.IDs { return c.ReachableTools }),
		"unreachableTools":  l("Tools reached before (or new), not now", func(c *history.StateChanges) history.IDs { return c.UnreachableTools }),
		"addedTools":        l("", func(c *history.StateChanges) history.IDs { return c.AddedTools }),
		"removedTools":      l("", func(c *history.StateChanges) history.IDs { return c.RemovedTools }),
		"newErrors": field[*history.StateChanges](nn(graphql.Int), "error findings new in the version (after a merge, an upper bound)",
			func(c *history.StateChanges) any { return c.NewErrors }),
	}})
}

// sinceType is StateSince: the version from which a state holds.
var sinceType = graphql.NewObject(graphql.ObjectConfig{Name: "StateSince", Description: "the graph version since which a state holds", Fields: graphql.Fields{
	"version": field[history.Version](nn(graphql.Int), "", func(v history.Version) any { return int(v.Version) }),
	"time":    field[history.Version](graphql.String, "when the version was recorded (RFC 3339)", func(v history.Version) any { return rfc3339(v.At) }),
	"commit":  field[history.Version](graphql.String, "the corpus's git commit then, if known", func(v history.Version) any { return optString(v.Commit) }),
}})

// sinceField is Skill.coveredSince or reachableSince: the version since
// which the skill's coverage (reachable false) or reachability holds.
func sinceField(reachable bool) *graphql.Field {
	what := "coverage (covered or not)"
	if reachable {
		what = "reachability (reachable or not)"
	}
	return &graphql.Field{Type: sinceType, Description: "the version since which its current " + what + " holds: the newest kept version whose " +
		"changes name it as moving into that state, or as added; null when not known within the kept history (see docs/decisions.md)",
		Resolve: func(p graphql.ResolveParams) (any, error) {
			h, ok := p.Context.Value(historyKey{}).(*historyCtx)
			if !ok {
				return nil, nil
			}
			all, keys, err := h.read(p.Context, snap(p))
			if err != nil {
				return nil, fmt.Errorf("history: %w", err)
			}
			sk := p.Source.(*queries.Skill)
			key, ok := keys[sk]
			if !ok {
				return nil, nil // a duplicate the change lists do not name
			}
			if v, ok := stateSince(all, key, reachable, sk); ok {
				return v, nil
			}
			return nil, nil
		}}
}

// stateSince walks the history newest first for the version since which
// the skill named key is in its state: the first whose changes list it as
// moving into it, or as added. It gives up (not known) at a version whose
// changes are not known, or whose lists may hold it among the names they
// left out, or list it moving out of the state it is in (a history that
// contradicts the present), and when the kept history ends first.
func stateSince(all []history.Version, key string, reachable bool, sk *queries.Skill) (history.Version, bool) {
	for i := len(all) - 1; i >= 0; i-- {
		c := all[i].Changes
		if c == nil {
			return history.Version{}, false
		}
		into, out := c.NewlyCovered, c.NewlyUncovered
		if reachable {
			into, out = c.ReachableSkills, c.UnreachableSkill
		}
		state := sk.Covered
		if reachable {
			state = sk.Reachable
		}
		if !state {
			into, out = out, into
		}
		hasInto, knownInto := into.Has(key)
		hasAdded, knownAdded := c.AddedSkills.Has(key)
		if hasInto || hasAdded {
			return all[i], true
		}
		if hasOut, _ := out.Has(key); hasOut || !knownInto || !knownAdded {
			return history.Version{}, false
		}
	}
	return history.Version{}, false
}

// historyFields are the Query fields of the stored history.
func historyFields() graphql.Fields {
	return graphql.Fields{"history": historyField(graphVersionType()), "trend": trendField()}
}
