package main

import (
	"encoding/json"
	"io"
)

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
			"tool":    map[string]any{"driver": map[string]any{"name": "skillgraph", "version": currentBuild().toolVersion(), "rules": ruleList}},
			"results": results,
		}},
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(doc)
}
