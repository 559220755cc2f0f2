// Package diff compares two analysis snapshots, a base and a change, and
// says what the change does to the answers (SPEC §6.4 `skillgraph diff`):
// skills newly covered or uncovered, contradicted, covered-not-reachable;
// Tools newly unreachable; alternative groups gained or lost; new and fixed
// findings; workflow coverage per process. It is the pull-request gate's
// logic; rendering lives in render.go, the command in cmd/skillgraph.
package diff

import (
	"fmt"
	"sort"
	"strings"

	"github.com/skillgraph/skillgraph/ingest/record"
	"github.com/skillgraph/skillgraph/queries"
)

// Category names one kind of change that can make a corpus worse; --fail-on
// lists them.
type Category string

// The categories, in report order.
const (
	Uncovered       Category = "uncovered"     // a skill lost its last valid Tool
	Contradicted    Category = "contradicted"  // a skill's Tool is newly contradicted by its contract
	NotReachable    Category = "not-reachable" // a covered skill no root reaches any more
	Unreachable     Category = "unreachable"   // a Tool no root reaches any more
	AlternativesCat Category = "alternatives"  // an alternative group was lost
	Findings        Category = "findings"      // a new finding at or above the severity threshold
	Workflows       Category = "workflows"     // a process's workflow coverage went down
)

// Categories is every category, in report order.
func Categories() []Category {
	return []Category{Uncovered, Contradicted, NotReachable, Unreachable, AlternativesCat, Findings, Workflows}
}

// Finding is a finding as the diff names it: no line, because a finding that
// only moved is neither new nor fixed.
type Finding struct {
	Code     string `json:"code"`
	Severity string `json:"severity"`
	File     string `json:"file"`
	Line     int    `json:"line"` // in the snapshot it comes from
	Message  string `json:"message"`
	Instance string `json:"instance,omitempty"`
}

// Group is an alternative group: Tools substitutable for one skill.
type Group struct {
	Skill string   `json:"skill"`
	Tools []string `json:"tools"`
}

// Workflow is one process's workflow coverage before and after.
type Workflow struct {
	Process string  `json:"process"`
	File    string  `json:"file"`   // the BPMN file, relative to its corpus root
	Before  *Ratio  `json:"before"` // nil: the process is new
	After   *Ratio  `json:"after"`  // nil: the process is gone
	Change  string  `json:"change"` // up, down, new, removed
	Delta   float64 `json:"delta"`  // after - before ratio (0 for new and removed)
}

// Ratio is performed / skill-naming steps.
type Ratio struct {
	Performed int     `json:"performed"`
	Total     int     `json:"total"`
	Ratio     float64 `json:"ratio"`
}

// Totals are the headline numbers of one snapshot.
type Totals struct {
	Skills              int `json:"skills"`
	Covered             int `json:"covered"`
	Contradicted        int `json:"contradicted"`
	CoveredNotReachable int `json:"coveredNotReachable"`
	Tools               int `json:"tools"`
	UnreachableTools    int `json:"unreachableTools"`
	AlternativeGroups   int `json:"alternativeGroups"`
	Errors              int `json:"errors"`
	Warnings            int `json:"warnings"`
	Info                int `json:"info"`
}

// Report is what the change does. Lists are sorted; skills are named
// package/id, Tools and processes by id.
type Report struct {
	Before Totals `json:"before"`
	After  Totals `json:"after"`

	NewlyCovered             []string `json:"newlyCovered"`
	NewlyUncovered           []string `json:"newlyUncovered"`
	NewlyContradicted        []string `json:"newlyContradicted"`
	NoLongerContradicted     []string `json:"noLongerContradicted"`
	NewlyCoveredNotReachable []string `json:"newlyCoveredNotReachable"`
	NowReachableSkills       []string `json:"nowReachableSkills"`
	AddedSkills              []string `json:"addedSkills"`
	RemovedSkills            []string `json:"removedSkills"`

	NewlyUnreachableTools []string `json:"newlyUnreachableTools"`
	NowReachableTools     []string `json:"nowReachableTools"`
	AddedTools            []string `json:"addedTools"`
	RemovedTools          []string `json:"removedTools"`

	AlternativesGained []Group `json:"alternativesGained"`
	AlternativesLost   []Group `json:"alternativesLost"`

	NewFindings   []Finding `json:"newFindings"`
	FixedFindings []Finding `json:"fixedFindings"`

	Workflows []Workflow `json:"workflows"` // only processes whose coverage changed, worst first
}

// Options tune what counts as worse.
type Options struct {
	// FindingSeverity is the least severity a new finding must have to
	// count as worse (default error, as `check --fail-on`).
	FindingSeverity record.Severity
	// Rename maps a base instance name to the changed corpus's, for a base
	// checked out under another folder name (the default instance name is
	// the folder's).
	Rename map[string]string
}

// Compare computes the report of base → head.
func Compare(base, head *queries.Snapshot, opt Options) *Report {
	r := &Report{Before: totals(base), After: totals(head)}
	bk := keyer{rename: opt.Rename}
	hk := keyer{}

	bs, hs := skillsByKey(base, bk), skillsByKey(head, hk)
	r.AddedSkills, r.RemovedSkills = added(bs, hs), added(hs, bs)
	for k, h := range hs {
		b, ok := bs[k]
		if !ok {
			// A new skill: new trouble on it counts, its coverage is news.
			if h.IsContradict {
				r.NewlyContradicted = append(r.NewlyContradicted, k)
			}
			if h.Covered && !h.Reachable && !h.Exempt {
				r.NewlyCoveredNotReachable = append(r.NewlyCoveredNotReachable, k)
			}
			continue
		}
		switch {
		case h.Covered && !b.Covered:
			r.NewlyCovered = append(r.NewlyCovered, k)
		case !h.Covered && b.Covered:
			r.NewlyUncovered = append(r.NewlyUncovered, k)
		}
		switch {
		case h.IsContradict && !b.IsContradict:
			r.NewlyContradicted = append(r.NewlyContradicted, k)
		case !h.IsContradict && b.IsContradict:
			r.NoLongerContradicted = append(r.NoLongerContradicted, k)
		}
		switch hcnr, bcnr := coveredNotReachable(h), coveredNotReachable(b); {
		case hcnr && !bcnr:
			r.NewlyCoveredNotReachable = append(r.NewlyCoveredNotReachable, k)
		case !hcnr && bcnr && h.Covered:
			r.NowReachableSkills = append(r.NowReachableSkills, k)
		}
	}

	bt, ht := toolsByKey(base, bk), toolsByKey(head, hk)
	r.AddedTools, r.RemovedTools = added(bt, ht), added(ht, bt)
	for k, h := range ht {
		b, ok := bt[k]
		switch {
		case !h.Reachable && (!ok || b.Reachable):
			r.NewlyUnreachableTools = append(r.NewlyUnreachableTools, k)
		case ok && h.Reachable && !b.Reachable:
			r.NowReachableTools = append(r.NowReachableTools, k)
		}
	}

	bg, hg := groups(base, bk), groups(head, hk)
	for _, k := range added(bg, hg) {
		r.AlternativesGained = append(r.AlternativesGained, hg[k])
	}
	for _, k := range added(hg, bg) {
		r.AlternativesLost = append(r.AlternativesLost, bg[k])
	}

	r.NewFindings, r.FixedFindings = findingChanges(base, head, bk, hk)
	r.Workflows = workflowChanges(base, head)

	for _, l := range []*[]string{&r.NewlyCovered, &r.NewlyUncovered, &r.NewlyContradicted, &r.NoLongerContradicted,
		&r.NewlyCoveredNotReachable, &r.NowReachableSkills, &r.NewlyUnreachableTools, &r.NowReachableTools} {
		if *l == nil {
			*l = []string{}
		}
		sort.Strings(*l)
	}
	return r
}

// coveredNotReachable is SPEC §5.3's covered-not-reachable, as the analysis
// decides it.
func coveredNotReachable(s *queries.Skill) bool { return s.Covered && !s.Reachable }

// keyer names nodes the same way on both sides. A node's IRI carries its
// instance's document IRI, which differs when the base is checked out under
// another folder name, so identity is the instance name (renamed) and the
// node's own id.
type keyer struct{ rename map[string]string }

func (k keyer) instance(in *queries.Instance) string {
	if in == nil {
		return ""
	}
	if n, ok := k.rename[in.Name]; ok {
		return n
	}
	return in.Name
}

func (k keyer) name(name string) string {
	if n, ok := k.rename[name]; ok {
		return n
	}
	return name
}

// skillKey is package/id, prefixed with the instance in a multi-instance
// graph.
func (k keyer) skill(s *queries.Skill, multi bool) string {
	key := s.ID
	if s.Package != "" {
		key = s.Package + "/" + s.ID
	}
	if multi {
		key = k.instance(s.Instance) + ":" + key
	}
	return key
}

func (k keyer) tool(t *queries.Tool, multi bool) string {
	if multi {
		return k.instance(t.Instance) + ":" + t.ID
	}
	return t.ID
}

func skillsByKey(s *queries.Snapshot, k keyer) map[string]*queries.Skill {
	m := map[string]*queries.Skill{}
	multi := len(s.Instances) > 1
	for _, sk := range s.Skills {
		key := k.skill(sk, multi)
		if _, dup := m[key]; !dup { // first wins: duplicate-node reports the rest
			m[key] = sk
		}
	}
	return m
}

func toolsByKey(s *queries.Snapshot, k keyer) map[string]*queries.Tool {
	m := map[string]*queries.Tool{}
	multi := len(s.Instances) > 1
	for _, t := range s.Tools {
		key := k.tool(t, multi)
		if _, dup := m[key]; !dup {
			m[key] = t
		}
	}
	return m
}

// groups keys each alternative group by its skill and its sorted Tools, so
// a group that gains or loses a member is one lost and one gained.
func groups(s *queries.Snapshot, k keyer) map[string]Group {
	m := map[string]Group{}
	multi := len(s.Instances) > 1
	for _, g := range s.Alternatives.Groups {
		if g.Skill == nil {
			continue
		}
		out := Group{Skill: k.skill(g.Skill, multi)}
		for _, t := range g.Tools {
			out.Tools = append(out.Tools, k.tool(t, multi))
		}
		sort.Strings(out.Tools)
		m[out.Skill+"\x00"+strings.Join(out.Tools, "\x00")] = out
	}
	return m
}

// added is the keys of b missing from a, sorted.
func added[V any](a, b map[string]V) []string {
	out := []string{}
	for k := range b {
		if _, ok := a[k]; !ok {
			out = append(out, k)
		}
	}
	sort.Strings(out)
	return out
}

// findingChanges matches findings as multisets by instance, code, file and
// message: an unrelated edit that moves a finding to another line changes
// nothing, and two equal findings fixed to one is one fixed.
func findingChanges(base, head *queries.Snapshot, bk, hk keyer) (news, fixed []Finding) {
	key := func(k keyer, f queries.Finding) string {
		return strings.Join([]string{k.name(f.Instance), f.Code, f.File, f.Message}, "\x00")
	}
	conv := func(k keyer, f queries.Finding) Finding {
		return Finding{Code: f.Code, Severity: string(f.Severity), File: f.File, Line: f.Line, Message: f.Message, Instance: k.name(f.Instance)}
	}
	left := map[string]int{}
	for _, f := range base.Findings {
		left[key(bk, f)]++
	}
	news, fixed = []Finding{}, []Finding{}
	for _, f := range head.Findings {
		k := key(hk, f)
		if left[k] > 0 {
			left[k]--
			continue
		}
		news = append(news, conv(hk, f))
	}
	right := map[string]int{}
	for _, f := range head.Findings {
		right[key(hk, f)]++
	}
	for _, f := range base.Findings {
		k := key(bk, f)
		if right[k] > 0 {
			right[k]--
			continue
		}
		fixed = append(fixed, conv(bk, f))
	}
	return news, fixed
}

// workflowChanges lists every process whose workflow coverage (SPEC §5.5)
// changed, appeared or disappeared, worst change first. A process is its
// file and id: two files may define one id (process-duplicate-id), and each
// keeps its own workflow.
func workflowChanges(base, head *queries.Snapshot) []Workflow {
	ratio := func(w *queries.Workflow) *Ratio {
		return &Ratio{Performed: w.Performed, Total: w.Total(), Ratio: w.Ratio()}
	}
	key := func(w *queries.Workflow) string {
		file := ""
		if w.Process.Source != nil {
			file = w.Process.Source.Path
		}
		return file + "#" + w.Process.ID
	}
	file := func(w *queries.Workflow) string {
		if w.Process.Source == nil {
			return ""
		}
		return w.Process.Source.Path
	}
	before := map[string]*queries.Workflow{}
	for _, w := range base.Workflows {
		before[key(w)] = w
	}
	out := []Workflow{}
	seen := map[string]bool{}
	for _, w := range head.Workflows {
		k := key(w)
		seen[k] = true
		b, ok := before[k]
		switch {
		case !ok:
			out = append(out, Workflow{Process: w.Process.ID, File: file(w), After: ratio(w), Change: "new"})
		case b.Performed != w.Performed || b.Total() != w.Total():
			d := w.Ratio() - b.Ratio()
			change := "up"
			if d < 0 || (d == 0 && w.Performed < b.Performed) {
				change = "down"
			}
			out = append(out, Workflow{Process: w.Process.ID, File: file(w), Before: ratio(b), After: ratio(w), Change: change, Delta: d})
		}
	}
	for _, w := range base.Workflows {
		if !seen[key(w)] {
			out = append(out, Workflow{Process: w.Process.ID, File: file(w), Before: ratio(w), Change: "removed"})
		}
	}
	rank := map[string]int{"down": 0, "removed": 1, "new": 2, "up": 3}
	sort.SliceStable(out, func(i, j int) bool {
		if rank[out[i].Change] != rank[out[j].Change] {
			return rank[out[i].Change] < rank[out[j].Change]
		}
		if out[i].Delta != out[j].Delta {
			return out[i].Delta < out[j].Delta
		}
		if out[i].Process != out[j].Process {
			return out[i].Process < out[j].Process
		}
		return out[i].File < out[j].File
	})
	return out
}

func totals(s *queries.Snapshot) Totals {
	t := Totals{Skills: s.Coverage.Total, Covered: len(s.Coverage.Covered), Contradicted: len(s.Coverage.Contradicted),
		CoveredNotReachable: len(s.Reach.CoveredNotReachable), Tools: len(s.Tools), UnreachableTools: len(s.Reach.UnreachableTools),
		AlternativeGroups: len(s.Alternatives.Groups)}
	for _, f := range s.Findings {
		switch f.Severity {
		case record.Error:
			t.Errors++
		case record.Warning:
			t.Warnings++
		default:
			t.Info++
		}
	}
	return t
}

// Worse is the categories in which the change makes things worse, in
// report order, given the least severity of a new finding that counts.
func (r *Report) Worse(minSeverity record.Severity) []Category {
	if minSeverity == "" {
		minSeverity = record.Error
	}
	var out []Category
	add := func(c Category, bad bool) {
		if bad {
			out = append(out, c)
		}
	}
	add(Uncovered, len(r.NewlyUncovered) > 0)
	add(Contradicted, len(r.NewlyContradicted) > 0)
	add(NotReachable, len(r.NewlyCoveredNotReachable) > 0)
	add(Unreachable, len(r.NewlyUnreachableTools) > 0)
	add(AlternativesCat, len(r.AlternativesLost) > 0)
	add(Findings, len(r.NewFindingsAtLeast(minSeverity)) > 0)
	down := false
	for _, w := range r.Workflows {
		down = down || w.Change == "down"
	}
	add(Workflows, down)
	return out
}

// NewFindingsAtLeast is the new findings at or above a severity.
func (r *Report) NewFindingsAtLeast(sev record.Severity) []Finding {
	var out []Finding
	for _, f := range r.NewFindings {
		if record.Severity(f.Severity).Rank() >= sev.Rank() {
			out = append(out, f)
		}
	}
	return out
}

// ParseCategories reads a --fail-on list: comma-separated categories, "all"
// or "none".
func ParseCategories(s string) (map[Category]bool, error) {
	out := map[Category]bool{}
	for _, part := range strings.Split(s, ",") {
		part = strings.TrimSpace(part)
		switch part {
		case "", "none":
			continue
		case "all":
			for _, c := range Categories() {
				out[c] = true
			}
			continue
		}
		ok := false
		for _, c := range Categories() {
			if string(c) == part {
				out[c], ok = true, true
			}
		}
		if !ok {
			return nil, fmt.Errorf("unknown category %q (want all, none or a comma-separated list of %s)", part, joinCategories())
		}
	}
	return out, nil
}

func joinCategories() string {
	var s []string
	for _, c := range Categories() {
		s = append(s, string(c))
	}
	return strings.Join(s, ", ")
}
