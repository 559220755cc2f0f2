package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"

	"github.com/skillgraph/skillgraph/ingest/record"
)

// jsonFinding is the stable machine shape of a finding (SPEC §9).
type jsonFinding struct {
	Code     string `json:"code"`
	Severity string `json:"severity"`
	Message  string `json:"message"`
	File     string `json:"file"`           // relative to the --corpus folder (SPEC §9)
	Path     string `json:"path,omitempty"` // relative to the working directory, as text prints it
	Line     int    `json:"line"`
	Subject  string `json:"subject,omitempty"`
	Instance string `json:"instance,omitempty"`
}

var checkCommand = &command{
	name:    "check",
	args:    "--corpus DIR [--corpus DIR2] [--format text|json|sarif|github] [--fail-on error|warning|info] | --explain CODE",
	summary: "The CI gate: print the findings and exit 1 when one is at least as severe as --fail-on.",
	about: "Text is for people, json is the stable machine shape (file relative to its --corpus folder, path to the working directory as text prints it), sarif is SARIF 2.1.0 " +
		"for GitHub code scanning (locations relative to the git work tree, or the working directory, so they name files of the checkout). " +
		"A corpus in which nothing is found is an error (exit 2), as is a --store (without --corpus) that does not exist or holds no graph. " +
		"--explain CODE prints a code's entry of the finding registry.",
	values: map[string][]string{"format": {"text", "json", "sarif", "github"}, "fail-on": {"error", "warning", "info"}},
	setup:  setupCheck,
}

// setupCheck registers the flags of `skillgraph check`.
func setupCheck(fs *flag.FlagSet) runFunc {
	var c common
	c.register(fs)
	format := fs.String("format", "text", "text, json, sarif, or github (workflow-command annotations)")
	explain := fs.String("explain", "", "print what a finding code means, why it matters and an example, then exit")
	failOn := fs.String("fail-on", "error", "exit 1 when a finding is at least this severe: error, warning or info")
	return func(ctx context.Context, pos []string, stdout, stderr io.Writer) error {
		c.finish()
		if *explain != "" {
			r, ok := record.Lookup(*explain)
			if !ok {
				return usageError{"check", fmt.Sprintf("--explain: %q is not a finding code (docs/findings.md lists them)", *explain)}
			}
			fmt.Fprint(stdout, explainText(r))
			fmt.Fprintf(stdout, "\n%s\n", helpURI(currentBuild(), r.Code))
			return nil
		}
		threshold := record.Severity(*failOn).Rank()
		if threshold == 0 {
			return usageError{"check", fmt.Sprintf("--fail-on must be error, warning or info, not %q", *failOn)}
		}
		switch *format {
		case "text", "json", "sarif", "github":
		default:
			return usageError{"check", fmt.Sprintf("--format must be text, json, sarif or github, not %q", *format)}
		}
		s, err := c.snapshot(ctx, "memory", stderr, false)
		if err != nil {
			return err
		}
		counts := map[string]int{"error": 0, "warning": 0, "info": 0}
		fail := false
		out := make([]jsonFinding, 0, len(s.Findings))
		wd := workingDir()
		for _, f := range s.Findings {
			counts[string(f.Severity)]++
			if f.Severity.Rank() >= threshold {
				fail = true
			}
			out = append(out, jsonFinding{Code: f.Code, Severity: string(f.Severity), Message: f.Message, File: f.File,
				Line: f.Line, Subject: f.Subject, Instance: f.Instance})
		}
		// The instance-relative file the finding carries is what SARIF and
		// GitHub place (they need the instance); json and text get theirs.
		shown := make([]jsonFinding, len(out))
		for i, f := range out {
			shown[i] = f
			shown[i].File, _, _ = findingPath(f, c.found, "")
			if wd != "" {
				shown[i].Path, _, _ = findingPath(f, c.found, wd)
			}
		}
		switch *format {
		case "json":
			enc := json.NewEncoder(stdout)
			enc.SetIndent("", "  ")
			if err := enc.Encode(map[string]any{"findings": shown, "counts": counts}); err != nil {
				return err
			}
		case "sarif":
			base, err := sarifBase()
			if err != nil {
				return err
			}
			if err := writeSARIF(stdout, sarifInput{Findings: out, Corpora: c.found, Base: base, Build: currentBuild(), Describe: describeRule}); err != nil {
				return err
			}
		case "github":
			base, err := sarifBase()
			if err != nil {
				return err
			}
			if err := writeGitHub(stdout, sarifInput{Findings: out, Corpora: c.found, Base: base}, counts); err != nil {
				return err
			}
		default:
			for _, f := range shown {
				loc := f.Path
				if loc == "" {
					loc = f.File
				}
				if loc != "" {
					loc = fmt.Sprintf("%s:%d: ", loc, f.Line)
				}
				fmt.Fprintf(stdout, "%s%s %s: %s\n", loc, f.Severity, f.Code, f.Message)
			}
			fmt.Fprintf(stdout, "%s, %s, %s\n", record.Count(counts["error"], "error", ""), record.Count(counts["warning"], "warning", ""), record.Count(counts["info"], "info", "info"))
		}
		if fail {
			return exitError{1}
		}
		return nil
	}
}
