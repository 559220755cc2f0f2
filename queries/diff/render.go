package diff

import (
	"fmt"
	"io"
	"strings"
)

// section is one list of the report as the text and markdown forms show it.
type section struct {
	title string
	worse Category // "" for news that is not worse
	items []string
}

// sections is the report's lists in display order, worse first.
func (r *Report) sections() []section {
	findings := func(fs []Finding) []string {
		out := []string{}
		for _, f := range fs {
			out = append(out, fmt.Sprintf("%s:%d: %s %s: %s", f.File, f.Line, f.Severity, f.Code, f.Message))
		}
		return out
	}
	moves := func(ms []Move) []string {
		out := []string{}
		for _, m := range ms {
			out = append(out, fmt.Sprintf("%s:%d → %s:%d: %s %s: %s", m.FromFile, m.FromLine, m.File, m.Line, m.Severity, m.Code, m.Message))
		}
		return out
	}
	groups := func(gs []Group) []string {
		out := []string{}
		for _, g := range gs {
			out = append(out, fmt.Sprintf("%s: %s", g.Skill, strings.Join(g.Tools, ", ")))
		}
		return out
	}
	var down, up []string
	for _, w := range r.Workflows {
		name := w.Process
		if w.File != "" {
			name += " (" + w.File + ")"
		}
		switch w.Change {
		case "down":
			down = append(down, fmt.Sprintf("%s: %s → %s", name, w.Before, w.After))
		case "up":
			up = append(up, fmt.Sprintf("%s: %s → %s", name, w.Before, w.After))
		case "new":
			up = append(up, fmt.Sprintf("%s: new, %s", name, w.After))
		case "removed":
			down = append(down, fmt.Sprintf("%s: removed (was %s)", name, w.Before))
		}
	}
	return []section{
		{"Skills newly uncovered", Uncovered, r.NewlyUncovered},
		{"Skills newly contradicted", Contradicted, r.NewlyContradicted},
		{"Skills newly covered but not reachable", NotReachable, r.NewlyCoveredNotReachable},
		{"Tools newly unreachable", Unreachable, r.NewlyUnreachableTools},
		{"Alternative groups lost", AlternativesCat, groups(r.AlternativesLost)},
		{"Workflow coverage down", Workflows, down},
		{"New findings", Findings, findings(r.NewFindings)},
		{"Skills newly covered", "", r.NewlyCovered},
		{"Skills no longer contradicted", "", r.NoLongerContradicted},
		{"Skills reachable again", "", r.NowReachableSkills},
		{"Tools reachable again", "", r.NowReachableTools},
		{"Alternative groups gained", "", groups(r.AlternativesGained)},
		{"Workflow coverage up", "", up},
		{"Fixed findings", "", findings(r.FixedFindings)},
		{"Moved findings", "", moves(r.MovedFindings)},
		{"Skills added", "", r.AddedSkills},
		{"Skills removed", "", r.RemovedSkills},
		{"Tools added", "", r.AddedTools},
		{"Tools removed", "", r.RemovedTools},
	}
}

// String is "3/4 (75%)".
func (r *Ratio) String() string {
	if r == nil {
		return "—"
	}
	return fmt.Sprintf("%d/%d (%.0f%%)", r.Performed, r.Total, 100*r.Ratio)
}

// Verdict is the one-line summary: which failing categories got worse.
func Verdict(failing []Category) string {
	if len(failing) == 0 {
		return "no answer got worse"
	}
	var s []string
	for _, c := range failing {
		s = append(s, string(c))
	}
	return "worse: " + strings.Join(s, ", ")
}

// WriteText prints the report for a terminal or a CI log.
func (r *Report) WriteText(w io.Writer, failing []Category) {
	fmt.Fprintf(w, "skillgraph diff: %s\n\n", Verdict(failing))
	fmt.Fprintf(w, "%-24s %8s %8s\n", "", "before", "after")
	for _, row := range r.totalsRows() {
		fmt.Fprintf(w, "%-24s %8d %8d\n", row.name, row.before, row.after)
	}
	for _, s := range r.sections() {
		if len(s.items) == 0 {
			continue
		}
		fmt.Fprintf(w, "\n%s (%d):\n", s.title, len(s.items))
		for _, it := range s.items {
			fmt.Fprintf(w, "  %s\n", it)
		}
	}
}

type totalsRow struct {
	name          string
	before, after int
	higherIsWorse bool
}

func (r *Report) totalsRows() []totalsRow {
	b, a := r.Before, r.After
	return []totalsRow{
		{"skills", b.Skills, a.Skills, false},
		{"covered", b.Covered, a.Covered, false},
		{"contradicted", b.Contradicted, a.Contradicted, true},
		{"covered, not reachable", b.CoveredNotReachable, a.CoveredNotReachable, true},
		{"Tools", b.Tools, a.Tools, false},
		{"unreachable Tools", b.UnreachableTools, a.UnreachableTools, true},
		{"alternative groups", b.AlternativeGroups, a.AlternativeGroups, false},
		{"errors", b.Errors, a.Errors, true},
		{"warnings", b.Warnings, a.Warnings, true},
		{"info", b.Info, a.Info, false},
	}
}

// WriteMarkdown prints the report as a pull-request comment: the verdict,
// the totals table, then each non-empty list; long lists fold.
func (r *Report) WriteMarkdown(w io.Writer, failing []Category) {
	icon := "✅"
	if len(failing) > 0 {
		icon = "❌"
	}
	fmt.Fprintf(w, "### %s skillgraph diff: %s\n\n", icon, Verdict(failing))
	fmt.Fprint(w, "| | before | after | |\n|---|---:|---:|---|\n")
	for _, row := range r.totalsRows() {
		mark := ""
		switch {
		case row.after == row.before:
		case (row.after > row.before) == row.higherIsWorse:
			mark = "▼ worse"
		default:
			mark = "▲ better"
		}
		if row.name == "skills" || row.name == "Tools" || row.name == "info" {
			mark = "" // more or fewer is neither
		}
		fmt.Fprintf(w, "| %s | %d | %d | %s |\n", row.name, row.before, row.after, mark)
	}
	fail := map[Category]bool{}
	for _, c := range failing {
		fail[c] = true
	}
	for _, s := range r.sections() {
		if len(s.items) == 0 {
			continue
		}
		title := s.title
		if fail[s.worse] {
			title = "❌ " + title
		}
		open := ""
		if len(s.items) <= 10 {
			open = " open"
		}
		fmt.Fprintf(w, "\n<details%s><summary><b>%s</b> (%d)</summary>\n\n", open, title, len(s.items))
		for _, it := range s.items {
			fmt.Fprintf(w, "- `%s`\n", strings.NewReplacer("`", "'", "\n", " ").Replace(it)) // a code span shows < > | as they are
		}
		fmt.Fprint(w, "\n</details>\n")
	}
	fmt.Fprint(w, "\n<sub>`skillgraph diff` compares the analyses of the base and this change; see docs/ci.md.</sub>\n")
}
