package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/skillgraph/skillgraph/api"
	"github.com/skillgraph/skillgraph/graph"
	"github.com/skillgraph/skillgraph/ingest"
	"github.com/skillgraph/skillgraph/ingest/record"
	"github.com/skillgraph/skillgraph/queries"
)

func cmdIngest(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	var c common
	fs := newFlagSet("ingest", stderr)
	c.register(fs)
	if _, err := parseArgs(fs, args); err != nil {
		return err
	}
	c.finish()
	if len(c.corpora) == 0 {
		return fmt.Errorf("ingest needs --corpus DIR")
	}
	url := c.storeURL(graph.DefaultStore)
	st, err := graph.Open(ctx, url)
	if err != nil {
		return err
	}
	defer st.Close()
	res, err := ingest.Run(ctx, st, c.corpora, ingest.Options{MaxFileSize: c.maxSize, Logger: c.logger(stderr), Progress: progressBar(stderr)})
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "ingested %d files into %s: %d changed, %d unchanged, %d removed, %d quads written; graph version %d (%s)\n",
		res.Files, url, res.Changed, res.Skipped, res.Removed, res.Quads, res.Version, res.Duration.Round(1e6))
	return nil
}

// jsonFinding is the stable machine shape of a finding (SPEC §9).
type jsonFinding struct {
	Code     string `json:"code"`
	Severity string `json:"severity"`
	Message  string `json:"message"`
	File     string `json:"file"`
	Line     int    `json:"line"`
	Subject  string `json:"subject,omitempty"`
	Instance string `json:"instance,omitempty"`
}

func cmdCheck(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	var c common
	fs := newFlagSet("check", stderr)
	c.register(fs)
	format := fs.String("format", "text", "text, json or sarif")
	failOn := fs.String("fail-on", "error", "exit 1 when a finding is at least this severe: error, warning or info")
	if _, err := parseArgs(fs, args); err != nil {
		return err
	}
	c.finish()
	threshold := record.Severity(*failOn).Rank()
	if threshold == 0 {
		return fmt.Errorf("--fail-on must be error, warning or info, not %q", *failOn)
	}
	s, err := c.snapshot(ctx, "memory", stderr, false)
	if err != nil {
		return err
	}
	counts := map[string]int{"error": 0, "warning": 0, "info": 0}
	fail := false
	out := make([]jsonFinding, 0, len(s.Findings))
	for _, f := range s.Findings {
		counts[string(f.Severity)]++
		if f.Severity.Rank() >= threshold {
			fail = true
		}
		out = append(out, jsonFinding{Code: f.Code, Severity: string(f.Severity), Message: f.Message, File: f.File,
			Line: f.Line, Subject: f.Subject, Instance: f.Instance})
	}
	switch *format {
	case "json":
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(map[string]any{"findings": out, "counts": counts}); err != nil {
			return err
		}
	case "sarif":
		if err := writeSARIF(stdout, out); err != nil {
			return err
		}
	case "text":
		for _, f := range out {
			loc := f.File
			if loc != "" {
				loc = fmt.Sprintf("%s:%d: ", f.File, f.Line)
			}
			fmt.Fprintf(stdout, "%s%s %s: %s\n", loc, f.Severity, f.Code, f.Message)
		}
		fmt.Fprintf(stdout, "%d errors, %d warnings, %d info\n", counts["error"], counts["warning"], counts["info"])
	default:
		return fmt.Errorf("--format must be text, json or sarif, not %q", *format)
	}
	if fail {
		return exitError{1}
	}
	return nil
}

// writeSARIF prints findings as SARIF 2.1.0 for code-scanning dashboards.
func writeSARIF(w io.Writer, fs []jsonFinding) error {
	level := map[string]string{"error": "error", "warning": "warning", "info": "note"}
	rules := map[string]bool{}
	var ruleList []map[string]any
	var results []map[string]any
	for _, f := range fs {
		if !rules[f.Code] {
			rules[f.Code] = true
			ruleList = append(ruleList, map[string]any{"id": f.Code, "helpUri": "docs/findings.md#" + f.Code})
		}
		r := map[string]any{"ruleId": f.Code, "level": level[f.Severity], "message": map[string]any{"text": f.Message}}
		if f.File != "" {
			r["locations"] = []any{map[string]any{"physicalLocation": map[string]any{
				"artifactLocation": map[string]any{"uri": f.File},
				"region":           map[string]any{"startLine": f.Line},
			}}}
		}
		results = append(results, r)
	}
	doc := map[string]any{
		"version": "2.1.0",
		"$schema": "https://json.schemastore.org/sarif-2.1.0.json",
		"runs": []any{map[string]any{
			"tool":    map[string]any{"driver": map[string]any{"name": "skillgraph", "version": version, "rules": ruleList}},
			"results": results,
		}},
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(doc)
}

func cmdQuery(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	var c common
	fs := newFlagSet("query", stderr)
	c.register(fs)
	vars := fs.String("variables", "", "variables as a JSON object")
	op := fs.String("operation", "", "operation name")
	pos, err := parseArgs(fs, args)
	if err != nil {
		return err
	}
	c.finish()
	if len(pos) != 1 {
		return fmt.Errorf("query needs exactly one GraphQL document argument")
	}
	req := api.Request{Query: pos[0], OperationName: *op}
	if *vars != "" {
		if err := json.Unmarshal([]byte(*vars), &req.Variables); err != nil {
			return fmt.Errorf("--variables: %w", err)
		}
	}
	s, err := c.snapshot(ctx, "memory", stderr, false)
	if err != nil {
		return err
	}
	schema, err := api.NewSchema()
	if err != nil {
		return err
	}
	res := schema.Execute(ctx, s, req, api.DefaultLimits)
	enc := json.NewEncoder(stdout)
	enc.SetIndent("", "  ")
	if err := enc.Encode(res); err != nil {
		return err
	}
	if len(res.Errors) > 0 {
		return exitError{1}
	}
	return nil
}

func cmdCoverage(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	var c common
	fs := newFlagSet("coverage", stderr)
	c.register(fs)
	format := fs.String("format", "text", "text or json")
	workflows := fs.Bool("workflows", false, "report workflow coverage per process instead of skill tiers")
	profile := fs.String("profile", "", "count only the Tools an exposure profile exposes")
	if _, err := parseArgs(fs, args); err != nil {
		return err
	}
	c.finish()
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
	case *format == "text":
		writeCoverageText(stdout, s)
		return nil
	}
	return fmt.Errorf("--format must be text or json, not %q", *format)
}

func workflowsJSON(s *queries.Snapshot) map[string]any {
	var ws []any
	for _, w := range s.Workflows {
		var steps []any
		for _, st := range w.Steps {
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
			out = append(out, v.ID)
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
				fmt.Fprintf(w, "  %-28s %s%s\n      %s\n", sk.ID, srcPath(sk), flags, ev)
			}
			fmt.Fprintln(w)
		}
	}
	if len(c.Contradicted) > 0 {
		fmt.Fprintln(w, "contradicted (a Tool claims it, its contract says no):")
		for _, sk := range c.Contradicted {
			fmt.Fprintf(w, "  %-28s by %s\n", sk.ID, strings.Join(ids(sk.Contradicted), ", "))
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
