// Package diff compares two analysis snapshots, a base and a change, and
// says what the change does to the answers (SPEC §6.4 `skillgraph diff`):
// skills newly covered or uncovered, contradicted, covered-not-reachable;
// Tools newly unreachable; alternative groups gained or lost; new and fixed
// findings; workflow coverage per process. It is the pull-request gate's
// logic; rendering lives in render.go, the command in cmd/skillgraph.
package diff

import (
	"fmt"
	"regexp"
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

// Finding is a finding as the diff reports it, where the snapshot it comes
// from has it. Its file and line are not its identity (findingKey is): a
// finding that only moved is neither new nor fixed.
type Finding struct {
	Code     string `json:"code"`
	Severity string `json:"severity"`
	File     string `json:"file"`
	Line     int    `json:"line"` // in the snapshot it comes from
	Message  string `json:"message"`
	Subject  string `json:"subject,omitempty"`
	Instance string `json:"instance,omitempty"`
}

// Move is a finding of the base that the change has in another file: the
// finding as the change has it, and where (and how worded) the base had it.
type Move struct {
	Finding
	FromFile    string `json:"fromFile"`
	FromLine    int    `json:"fromLine"`
	FromMessage string `json:"fromMessage,omitempty"` // the base's wording, when it differs
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
	// MovedFindings are findings of the base found again in another file
	// of the change (a Tool moved to another file, a JSON Tool rewritten as
	// a TypeScript module): neither new nor fixed, and never worse.
	MovedFindings []Move `json:"movedFindings"`

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
	r.compareStates(base, head, bk, hk, nil)

	bg, hg := groups(base, bk), groups(head, hk)
	for _, k := range added(bg, hg) {
		r.AlternativesGained = append(r.AlternativesGained, hg[k])
	}
	for _, k := range added(hg, bg) {
		r.AlternativesLost = append(r.AlternativesLost, bg[k])
	}

	r.NewFindings, r.FixedFindings, r.MovedFindings = findingChanges(base, head, bk, hk)
	r.Workflows = workflowChanges(base, head)
	return r
}

// CompareStates is Compare's skill and Tool lists alone (no totals,
// alternative groups, findings or workflows): what a version's record of
// changes needs (queries/history), without Compare's other passes over
// the whole model. each, when not nil, is called too for every skill name
// base or head has, as Compare pairs them, with the skill each side has
// under it (nil: that side has none): the record's reachability of every
// skill, not only Compare's covered ones, is made with it.
func CompareStates(base, head *queries.Snapshot, each func(n Name, b, h *queries.Skill)) *Report {
	r := &Report{}
	r.compareStates(base, head, keyer{}, keyer{}, each)
	return r
}

// compareStates sets r's skill and Tool lists, sorted, calling each (when
// not nil) for every pair of skills.
func (r *Report) compareStates(base, head *queries.Snapshot, bk, hk keyer, each func(n Name, b, h *queries.Skill)) {
	eachSkill(base, head, bk, hk, func(n name, b, h *queries.Skill) {
		if each != nil {
			each(Name{n}, b, h)
		}
		switch {
		case h == nil:
			r.RemovedSkills = append(r.RemovedSkills, n.key())
			return
		case b == nil:
			// A new skill: new trouble on it counts, its coverage is news.
			r.AddedSkills = append(r.AddedSkills, n.key())
			if h.IsContradict {
				r.NewlyContradicted = append(r.NewlyContradicted, n.key())
			}
			if h.Covered && !h.Reachable && !h.Exempt {
				r.NewlyCoveredNotReachable = append(r.NewlyCoveredNotReachable, n.key())
			}
			return
		}
		switch {
		case h.Covered && !b.Covered:
			r.NewlyCovered = append(r.NewlyCovered, n.key())
		case !h.Covered && b.Covered:
			r.NewlyUncovered = append(r.NewlyUncovered, n.key())
		}
		switch {
		case h.IsContradict && !b.IsContradict:
			r.NewlyContradicted = append(r.NewlyContradicted, n.key())
		case !h.IsContradict && b.IsContradict:
			r.NoLongerContradicted = append(r.NoLongerContradicted, n.key())
		}
		switch hcnr, bcnr := coveredNotReachable(h), coveredNotReachable(b); {
		case hcnr && !bcnr:
			r.NewlyCoveredNotReachable = append(r.NewlyCoveredNotReachable, n.key())
		case !hcnr && bcnr && h.Covered:
			r.NowReachableSkills = append(r.NowReachableSkills, n.key())
		}
	})
	eachTool(base, head, bk, hk, func(n name, b, h *queries.Tool) {
		switch {
		case h == nil:
			r.RemovedTools = append(r.RemovedTools, n.key())
		case b == nil:
			r.AddedTools = append(r.AddedTools, n.key())
			if !h.Reachable {
				r.NewlyUnreachableTools = append(r.NewlyUnreachableTools, n.key())
			}
		case !h.Reachable && b.Reachable:
			r.NewlyUnreachableTools = append(r.NewlyUnreachableTools, n.key())
		case h.Reachable && !b.Reachable:
			r.NowReachableTools = append(r.NowReachableTools, n.key())
		}
	})
	for _, l := range []*[]string{&r.NewlyCovered, &r.NewlyUncovered, &r.NewlyContradicted, &r.NoLongerContradicted,
		&r.NewlyCoveredNotReachable, &r.NowReachableSkills, &r.AddedSkills, &r.RemovedSkills,
		&r.NewlyUnreachableTools, &r.NowReachableTools, &r.AddedTools, &r.RemovedTools} {
		if *l == nil {
			*l = []string{}
		}
		sort.Strings(*l)
	}
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

// skill is the skill's key (package/id, prefixed with the instance in a
// multi-instance graph).
func (k keyer) skill(s *queries.Skill, multi bool) string { return k.skillName(s, multi).key() }

// tool is the Tool's key (its id, prefixed with the instance in a
// multi-instance graph).
func (k keyer) tool(t *queries.Tool, multi bool) string { return k.toolName(t, multi).key() }

// SkillKeys are s's skills by the name Report gives them (package/id,
// instance-prefixed in a multi-instance graph; the first of a duplicate).
func SkillKeys(s *queries.Snapshot) map[string]*queries.Skill { return skillsByKey(s, keyer{}) }

// ToolKeys are s's Tools by the name Report gives them.
func ToolKeys(s *queries.Snapshot) map[string]*queries.Tool { return toolsByKey(s, keyer{}) }

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

// quoted is a quoted string of a finding's message: the references a
// finding names ("foo" in `satisfies "foo", which is no skill`).
var quoted = regexp.MustCompile(`"(?:[^"\\]|\\.)*"`)

// findingKey is a finding's identity across the base and the change (see
// docs/decisions.md, "diff matches findings by what they are about"): the
// instance, code and severity, then what the finding is about. A finding on
// a node is its subject (the IRI's fragment, so a base checked out under
// another folder name, whose document IRI differs, still matches) and the
// references its message quotes; not its file or line, so moving a Tool to
// another file, or a JSON file to a TypeScript module, moves its findings.
// A finding on no node (a file or a folder: file-not-read,
// directory-missing) is its file and message.
func findingKey(k keyer, f queries.Finding) string {
	parts := []string{k.name(f.Instance), f.Code, string(f.Severity)}
	if f.Subject == "" {
		return strings.Join(append(parts, "file", f.File, f.Message), "\x00")
	}
	subject := f.Subject
	if i := strings.LastIndexByte(subject, '#'); i >= 0 {
		subject = subject[i+1:]
	}
	parts = append(parts, "subject", subject)
	parts = append(parts, quoted.FindAllString(f.Message, -1)...)
	return strings.Join(parts, "\x00")
}

// findingChanges matches findings as multisets by findingKey: two equal
// findings fixed to one is one fixed. Among the findings of one key, those
// in the same file pair first (an edit that shifts lines changes nothing);
// the rest pair in order, each a move from its base file to its file in
// the change.
func findingChanges(base, head *queries.Snapshot, bk, hk keyer) (news, fixed []Finding, moved []Move) {
	conv := func(k keyer, f queries.Finding) Finding {
		return Finding{Code: f.Code, Severity: string(f.Severity), File: f.File, Line: f.Line, Message: f.Message,
			Subject: f.Subject, Instance: k.name(f.Instance)}
	}
	byKey := func(k keyer, fs []queries.Finding) map[string][]int {
		m := map[string][]int{}
		for i, f := range fs {
			key := findingKey(k, f)
			m[key] = append(m[key], i)
		}
		return m
	}
	bi := byKey(bk, base.Findings)
	pairedBase := make([]bool, len(base.Findings))
	pairOf := make([]int, len(head.Findings)) // base index, or -1 for a new finding
	for i := range pairOf {
		pairOf[i] = -1
	}
	for key, hs := range byKey(hk, head.Findings) {
		bs := bi[key]
		sameFile := func(h, b int) bool { return head.Findings[h].File == base.Findings[b].File }
		anyFile := func(int, int) bool { return true }
		for _, ok := range []func(h, b int) bool{sameFile, anyFile} {
			for _, h := range hs {
				if pairOf[h] >= 0 {
					continue
				}
				for _, b := range bs {
					if !pairedBase[b] && ok(h, b) {
						pairOf[h], pairedBase[b] = b, true
						break
					}
				}
			}
		}
	}
	news, fixed, moved = []Finding{}, []Finding{}, []Move{}
	for h, b := range pairOf {
		switch {
		case b < 0:
			news = append(news, conv(hk, head.Findings[h]))
		case base.Findings[b].File != head.Findings[h].File:
			from, to := base.Findings[b], head.Findings[h]
			m := Move{Finding: conv(hk, to), FromFile: from.File, FromLine: from.Line}
			if from.Message != to.Message {
				m.FromMessage = from.Message
			}
			moved = append(moved, m)
		}
	}
	for b, ok := range pairedBase {
		if !ok {
			fixed = append(fixed, conv(bk, base.Findings[b]))
		}
	}
	return news, fixed, moved
}

// CountNewFindings is how many of Compare's NewFindings (no renames) have
// exactly severity sev, without pairing the others: the severity is part
// of findingKey, so findings of sev pair only among themselves, and the
// findings of one key left unpaired in head are as many as head has more
// of them than base.
func CountNewFindings(base, head *queries.Snapshot, sev record.Severity) int {
	k := keyer{}
	left := map[string]int{}
	for _, f := range base.Findings {
		if f.Severity == sev {
			left[findingKey(k, f)]++
		}
	}
	n := 0
	for _, f := range head.Findings {
		if f.Severity != sev {
			continue
		}
		if key := findingKey(k, f); left[key] > 0 {
			left[key]--
		} else {
			n++
		}
	}
	return n
}

// workflowChanges lists every process whose workflow coverage (SPEC §5.5)
// changed, appeared or disappeared, worst change first. A process is its
// id: a process of the base pairs first with the change's process of the
// same file and id (two files may define one id, process-duplicate-id, and
// each keeps its own workflow), then with one of the same id in another
// file, so a moved or renamed BPMN file is the same process.
func workflowChanges(base, head *queries.Snapshot) []Workflow {
	ratio := func(w *queries.Workflow) *Ratio {
		return &Ratio{Performed: w.Performed, Total: w.Total(), Ratio: w.Ratio()}
	}
	file := func(w *queries.Workflow) string {
		if w.Process.Source == nil {
			return ""
		}
		return w.Process.Source.Path
	}
	pairOf := make([]int, len(head.Workflows)) // base index, or -1 for a new process
	paired := make([]bool, len(base.Workflows))
	for i := range pairOf {
		pairOf[i] = -1
	}
	byID := map[string][]int{}
	for b, w := range base.Workflows {
		byID[w.Process.ID] = append(byID[w.Process.ID], b)
	}
	for _, sameFile := range []bool{true, false} {
		for h, hw := range head.Workflows {
			if pairOf[h] >= 0 {
				continue
			}
			for _, b := range byID[hw.Process.ID] {
				if !paired[b] && (!sameFile || file(base.Workflows[b]) == file(hw)) {
					pairOf[h], paired[b] = b, true
					break
				}
			}
		}
	}
	out := []Workflow{}
	for h, w := range head.Workflows {
		if pairOf[h] < 0 {
			out = append(out, Workflow{Process: w.Process.ID, File: file(w), After: ratio(w), Change: "new"})
			continue
		}
		b := base.Workflows[pairOf[h]]
		if b.Performed != w.Performed || b.Total() != w.Total() {
			d := w.Ratio() - b.Ratio()
			change := "up"
			if d < 0 || (d == 0 && w.Performed < b.Performed) {
				change = "down"
			}
			out = append(out, Workflow{Process: w.Process.ID, File: file(w), Before: ratio(b), After: ratio(w), Change: change, Delta: d})
		}
	}
	for b, w := range base.Workflows {
		if !paired[b] {
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
