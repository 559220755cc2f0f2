package api_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/skillgraph/skillgraph/api"
	"github.com/skillgraph/skillgraph/ingest/record"
)

// TestRulesFromTheRegistry: the page reads the triage order and every
// finding code's help from the API, which answers them from the one place
// each rule lives (queries.TriageOrder, the ingest/record registry).
func TestRulesFromTheRegistry(t *testing.T) {
	snap, schema := miniSnapshot(t)
	res := schema.Execute(context.Background(), snap, api.Request{Query: `{
  triageOrder
  known: findingRule(code: "include-missing") { code severity spec means why reported }
  unknown: findingRule(code: "no-such-code") { code }
  findingRules { code }
}`}, api.DefaultLimits())
	if len(res.Errors) > 0 {
		t.Fatal(res.Errors)
	}
	d := res.Data.(map[string]any)
	if got := fmt.Sprint(d["triageOrder"]); got != "[C A B D]" {
		t.Errorf("triageOrder = %s, want [C A B D]", got)
	}
	r, _ := record.Lookup("include-missing")
	k := d["known"].(map[string]any)
	if k["code"] != r.Code || k["spec"] != r.Spec || k["means"] != r.Means || k["severity"] != "ERROR" || k["reported"] != !r.Planned {
		t.Errorf("findingRule(include-missing) = %v, want the registry's %+v", k, r)
	}
	if d["unknown"] != nil {
		t.Errorf("an unregistered code has a rule: %v", d["unknown"])
	}
	if n := len(d["findingRules"].([]any)); n != len(record.Codes()) {
		t.Errorf("%d finding rules, want the registry's %d", n, len(record.Codes()))
	}
}
