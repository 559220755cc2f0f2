package main

import (
	"fmt"
	"strings"

	"github.com/skillgraph/skillgraph/ingest/record"
)

// describeRule is a finding code's SARIF rule and `check --explain` text,
// from the finding registry (ingest/record): the one place a code is
// documented, so SARIF, --explain and docs/findings.md cannot disagree.
func describeRule(code string) (ruleDoc, bool) {
	r, ok := record.Lookup(code)
	if !ok {
		return ruleDoc{}, false
	}
	full := r.Means
	if r.Why != "" {
		full += " " + r.Why
	}
	help := explainText(r)
	md := explainMarkdown(r)
	return ruleDoc{Name: pascal(r.Code), Short: r.Means, Full: full, Help: help, Markdown: md,
		Level: sarifLevel(string(r.Severity)), Tags: []string{string(r.Area), "SPEC " + r.Spec}}, true
}

// pascal is a code as a SARIF friendly name: bean-cycle → BeanCycle.
func pascal(code string) string {
	var b strings.Builder
	for _, w := range strings.Split(code, "-") {
		if w != "" {
			b.WriteString(strings.ToUpper(w[:1]) + w[1:])
		}
	}
	return b.String()
}

// explainText is `check --explain CODE` and the SARIF help text.
func explainText(r record.Rule) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s (%s, SPEC %s; %s)\n\n%s\n", r.Code, r.Severity, r.Spec, r.Area, r.Means)
	if r.Why != "" {
		fmt.Fprintf(&b, "\nWhy it matters: %s\n", r.Why)
	}
	switch e := r.Example; {
	case e.Message != "":
		fmt.Fprintf(&b, "\nExample (%s):\n  %s:%d: %s %s: %s\n", e.Corpus, e.File, e.Line, r.Severity, r.Code, e.Message)
	case e.Note != "":
		fmt.Fprintf(&b, "\n%s\n", e.Note)
	}
	if r.Planned {
		b.WriteString("\nSpecified, not reported by skillgraph yet.\n")
	}
	return b.String()
}

// explainMarkdown is the SARIF help as GitHub renders it beside an alert.
func explainMarkdown(r record.Rule) string {
	var b strings.Builder
	fmt.Fprintf(&b, "**%s** (%s, SPEC %s)\n\n%s\n", r.Code, r.Severity, r.Spec, r.Means)
	if r.Why != "" {
		fmt.Fprintf(&b, "\n*Why it matters:* %s\n", r.Why)
	}
	if e := r.Example; e.Message != "" {
		fmt.Fprintf(&b, "\nExample, from `%s`:\n\n```\n%s:%d: %s %s: %s\n```\n", e.Corpus, e.File, e.Line, r.Severity, r.Code, e.Message)
	}
	return b.String()
}
