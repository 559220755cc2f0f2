package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/skillgraph/skillgraph/queries"
)

var coverageCommand = &command{
	name:    "coverage",
	args:    "--corpus DIR [--format text|json] [--workflows] [--profile NAME]",
	summary: "The skill tiers (tier C, the triage queue, first), or with --workflows the coverage per process.",
	values:  map[string][]string{"format": {"text", "json"}},
	setup:   setupCoverage,
}

// setupCoverage registers the flags of `skillgraph coverage`.
func setupCoverage(fs *flag.FlagSet) runFunc {
	var c common
	c.register(fs)
	format := fs.String("format", "text", "text or json")
	workflows := fs.Bool("workflows", false, "report workflow coverage per process instead of skill tiers")
	profile := fs.String("profile", "", "count only the Tools an exposure profile exposes")
	return func(ctx context.Context, pos []string, stdout, stderr io.Writer) error {
		c.finish()
		if *format != "text" && *format != "json" {
			return usageError{"coverage", fmt.Sprintf("--format must be text or json, not %q", *format)}
		}
		s, err := c.snapshot(ctx, "memory", stderr, false)
		if err != nil {
			return err
		}
		if s, err = s.WithProfile(*profile); err != nil {
			return err
		}
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		switch {
		case *format == "json" && *workflows:
			return enc.Encode(workflowsJSON(s))
		case *format == "json":
			return enc.Encode(coverageJSON(s))
		case *format == "text" && *workflows:
			writeWorkflowsText(stdout, s)
			return nil
		default:
			writeCoverageText(stdout, s)
			return nil
		}
	}
}

func workflowsJSON(s *queries.Snapshot) map[string]any {
	var ws []any
	for _, w := range s.Workflows {
		var steps []any
		for _, st := range w.Steps() {
			steps = append(steps, map[string]any{"step": st.Step.Key(), "skill": st.SkillRef, "state": st.State})
		}
		m := map[string]any{"process": w.Process.ID, "ratio": w.Ratio(), "total": w.Total(), "performed": w.Performed,
			"manual": w.Manual, "gap": w.Gap, "steps": steps}
		if w.FirstGap != nil {
			m["firstGap"] = map[string]any{"step": w.FirstGap.Step.Key(), "skill": w.FirstGap.SkillRef}
		}
		ws = append(ws, m)
	}
	return map[string]any{"graphVersion": s.Version, "profile": s.Profile, "workflows": ws}
}

func writeWorkflowsText(w io.Writer, s *queries.Snapshot) {
	prof := "all Tools"
	if s.Profile != "" {
		prof = "profile " + s.Profile
	}
	fmt.Fprintf(w, "workflow coverage under %s, worst first (graph version %d)\n\n", prof, s.Version)
	for _, wf := range s.Workflows {
		fmt.Fprintf(w, "%-32s %3.0f%%  %d/%d performed, %d manual, %d gap", wf.Process.ID, 100*wf.Ratio(), wf.Performed, wf.Total(), wf.Manual, wf.Gap)
		if wf.FirstGap != nil {
			fmt.Fprintf(w, "  first gap: %s (%s)", wf.FirstGap.Step.Key(), wf.FirstGap.SkillRef)
		}
		fmt.Fprintln(w)
	}
}

func ids[T interface{ *queries.Skill | *queries.Tool }](xs []T) []string {
	out := []string{}
	for _, x := range xs {
		switch v := any(x).(type) {
		case *queries.Skill:
			out = append(out, v.Label()) // package/id when the id is not unique
		case *queries.Tool:
			out = append(out, v.ID)
		}
	}
	return out
}

func coverageJSON(s *queries.Snapshot) map[string]any {
	c := s.Coverage
	tiers := []any{}
	for _, t := range c.Tiers {
		var sk []any
		for _, x := range t.Skills {
			sk = append(sk, map[string]any{"skill": x.ID, "package": x.Package, "file": srcPath(x), "evidence": x.Evidence})
		}
		if sk == nil {
			sk = []any{}
		}
		tiers = append(tiers, map[string]any{"tier": t.Tier, "count": len(t.Skills), "skills": sk})
	}
	return map[string]any{
		"graphVersion": s.Version, "total": c.Total, "covered": ids(c.Covered), "contradicted": ids(c.Contradicted),
		"uncovered": len(c.Uncovered), "tiers": tiers, "bothHalves": ids(c.BothHalves), "exempt": ids(c.Exempt),
	}
}

func srcPath(sk *queries.Skill) string {
	if sk.Source == nil {
		return ""
	}
	return sk.Source.Path
}

// tierMeaning explains each tier in the text report.
var tierMeaning = map[string]string{
	"A": "automation evidence (an automated step or an I/O contract)",
	"B": "a person performs it",
	"C": "ambiguous: needs a human read",
	"D": "no evidence at all",
}

func writeCoverageText(w io.Writer, s *queries.Snapshot) {
	c := s.Coverage
	counts := map[string]int{}
	for _, t := range c.Tiers {
		counts[t.Tier] = len(t.Skills)
	}
	fmt.Fprintf(w, "skills: %d  covered: %d  contradicted: %d  uncovered: %d  (A %d, B %d, C %d, D %d)  graph version %d\n\n",
		c.Total, len(c.Covered), len(c.Contradicted), len(c.Uncovered), counts["A"], counts["B"], counts["C"], counts["D"], s.Version)
	// Tier C first: it is the triage queue.
	for _, name := range []string{"C", "A", "B", "D"} {
		for _, t := range c.Tiers {
			if t.Tier != name {
				continue
			}
			fmt.Fprintf(w, "tier %s — %s: %d\n", t.Tier, tierMeaning[t.Tier], len(t.Skills))
			for _, sk := range t.Skills {
				flags := ""
				if sk.IsContradict {
					flags += " [contradicted]"
				}
				if sk.Exempt {
					flags += " [exempt]"
				}
				ev := strings.Join(sk.Evidence, ", ")
				if ev == "" {
					ev = "no evidence"
				}
				fmt.Fprintf(w, "  %-28s %s%s\n      %s\n", sk.Label(), srcPath(sk), flags, ev)
			}
			fmt.Fprintln(w)
		}
	}
	if len(c.Contradicted) > 0 {
		fmt.Fprintln(w, "contradicted (a Tool claims it, its contract says no):")
		for _, sk := range c.Contradicted {
			fmt.Fprintf(w, "  %-28s by %s\n", sk.Label(), strings.Join(ids(sk.Contradicted), ", "))
		}
		fmt.Fprintln(w)
	}
	if len(c.BothHalves) > 0 {
		fmt.Fprintf(w, "both halves (mechanism + judgement): %s\n", strings.Join(ids(c.BothHalves), ", "))
	}
	if len(c.Exempt) > 0 {
		fmt.Fprintf(w, "exempt: %s\n", strings.Join(ids(c.Exempt), ", "))
	}
	if len(c.Covered) > 0 {
		fmt.Fprintf(w, "covered: %s\n", strings.Join(ids(c.Covered), ", "))
	}
}
