package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"

	"github.com/skillgraph/skillgraph/ingest/record"
)

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

// cmdCheck implements `skillgraph check`, the CI gate: it prints the
// findings (text, JSON or SARIF) and exits 1 when one reaches --fail-on.
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
