package diff

import (
	"context"
	"maps"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/skillgraph/skillgraph/graph"
	"github.com/skillgraph/skillgraph/graph/ingest"
	"github.com/skillgraph/skillgraph/ingest/corpustest"
	"github.com/skillgraph/skillgraph/ingest/record"
	"github.com/skillgraph/skillgraph/queries"
)

// shop is a small corpus whose answers the cases below change one at a
// time: a release process that deploys and notifies, a Tool per skill, and
// a contract on deploy that agrees with its Tool.
var shop = map[string]string{
	"harness.json": `{"name": "shop",
 "directories": [
  {"id": "skills", "path": "skills/", "graphTypologies": ["skills"]},
  {"id": "tools", "path": "tools/", "graphTypologies": ["tools"]},
  {"id": "processes", "path": "processes/", "graphTypologies": ["processes"]},
  {"id": "schemas", "path": "schemas/", "graphTypologies": ["schemas"]}],
 "entrypoints": {"processes": ["release", "hotfix"]}}
`,
	"processes/hotfix.bpmn": `<?xml version="1.0" encoding="UTF-8"?>
<bpmn:definitions xmlns:bpmn="http://www.omg.org/spec/BPMN/20100524/MODEL" id="Defs_Hotfix" targetNamespace="https://shop.example/">
  <bpmn:process id="Process_Hotfix" name="Hotfix" isExecutable="false">
    <bpmn:startEvent id="Start"/>
    <bpmn:userTask id="Task_Patch" name="Patch by hand"/>
    <bpmn:sequenceFlow id="F1" sourceRef="Start" targetRef="Task_Patch"/>
  </bpmn:process>
</bpmn:definitions>
`,
	"skills/ops/deploy.md": "---\nname: deploy\ndescription: Deploys a build.\ninput: schemas/skills/deploy/input.schema.json\n---\nDeploy the build.\n",
	"skills/ops/notify.md": "---\nname: notify\ndescription: Tells the team.\n---\nPost the release note.\n",
	"schemas/skills/deploy/input.schema.json": `{"$schema": "https://json-schema.org/draft/2020-12/schema", "type": "object",
 "required": ["count"], "properties": {"count": {"type": "integer"}}}
`,
	"tools/ops.yaml": `tools:
  - id: deployer
    title: Deployer
    description: Deploys a build.
    satisfies: [deploy]
    install: {none: true}
    invoke: {shell: [deploy]}
    io:
      inputs:
        - {name: count, type: Count, required: true, arg: {flag: --count}}
  - id: notifier
    title: Notifier
    description: Posts a note.
    satisfies: [notify]
    install: {none: true}
    invoke: {shell: [notify]}
`,
	"processes/release.bpmn": `<?xml version="1.0" encoding="UTF-8"?>
<bpmn:definitions xmlns:bpmn="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:s="https://shop.example/ns#" id="Defs_Release" targetNamespace="https://shop.example/">
  <bpmn:process id="Process_Release" name="Release" isExecutable="false">
    <bpmn:startEvent id="Start"/>
    <bpmn:serviceTask id="Task_Deploy" name="Deploy"><bpmn:extensionElements><s:skill ref="deploy"/></bpmn:extensionElements></bpmn:serviceTask>
    <bpmn:serviceTask id="Task_Notify" name="Notify"><bpmn:extensionElements><s:skill ref="notify"/></bpmn:extensionElements></bpmn:serviceTask>
    <bpmn:endEvent id="End"/>
    <bpmn:sequenceFlow id="F1" sourceRef="Start" targetRef="Task_Deploy"/>
    <bpmn:sequenceFlow id="F2" sourceRef="Task_Deploy" targetRef="Task_Notify"/>
    <bpmn:sequenceFlow id="F3" sourceRef="Task_Notify" targetRef="End"/>
  </bpmn:process>
</bpmn:definitions>
`,
}

// snapshot ingests files into a fresh memory store, as `diff` does.
func snapshot(t *testing.T, files map[string]string) *queries.Snapshot {
	t.Helper()
	root := corpustest.Write(t, files)
	ctx := context.Background()
	st, err := graph.Open(ctx, "memory")
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if _, err := ingest.Run(ctx, st, []string{root}, ingest.Options{}); err != nil {
		t.Fatal(err)
	}
	s, err := queries.Build(ctx, st)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// edit is shop with some files replaced ("" removes one).
func edit(changes map[string]string) map[string]string {
	out := maps.Clone(shop)
	for p, body := range changes {
		if body == "" {
			delete(out, p)
		} else {
			out[p] = body
		}
	}
	return out
}

func TestCompare(t *testing.T) {
	base := snapshot(t, shop)
	if n := len(base.Coverage.Covered); n != 2 {
		t.Fatalf("the base corpus is not what the cases assume: %d covered skills, findings %+v", n, base.Findings)
	}
	cases := []struct {
		name   string
		change map[string]string
		worse  []Category
		check  func(t *testing.T, r *Report)
	}{
		{"nothing changed", nil, nil, func(t *testing.T, r *Report) {
			if len(r.NewFindings)+len(r.FixedFindings)+len(r.Workflows) != 0 {
				t.Errorf("changes reported for an identical corpus: %+v", r)
			}
		}},
		{"a removed Tool", map[string]string{"tools/ops.yaml": strings.Split(shop["tools/ops.yaml"], "  - id: notifier")[0]},
			[]Category{Uncovered, Workflows}, func(t *testing.T, r *Report) {
				want(t, "newly uncovered", r.NewlyUncovered, "ops/notify")
				want(t, "removed Tools", r.RemovedTools, "notifier")
				if len(r.Workflows) != 1 || r.Workflows[0].Change != "down" || r.Workflows[0].Before.Performed != 2 || r.Workflows[0].After.Performed != 1 {
					t.Errorf("workflows %+v, want Process_Release 2/2 → 1/2", r.Workflows)
				}
			}},
		{"a new contract that contradicts an edge", map[string]string{"schemas/skills/deploy/input.schema.json": `{"$schema": "https://json-schema.org/draft/2020-12/schema", "type": "object",
 "required": ["count"], "properties": {"count": {"type": "string"}}}
`}, []Category{Uncovered, Contradicted, Unreachable, Findings, Workflows}, func(t *testing.T, r *Report) {
			want(t, "newly contradicted", r.NewlyContradicted, "ops/deploy")
			want(t, "newly uncovered", r.NewlyUncovered, "ops/deploy") // its only edge is no longer valid
			want(t, "newly unreachable Tools", r.NewlyUnreachableTools, "deployer")
			if !slices.ContainsFunc(r.NewFindings, func(f Finding) bool { return f.Code == record.CodeContractTypeMismatch }) {
				t.Errorf("no new contract-type-mismatch finding: %+v", r.NewFindings)
			}
		}},
		{"a process that loses its entry point", map[string]string{"harness.json": strings.Replace(shop["harness.json"], `"entrypoints": {"processes": ["release", "hotfix"]}`, `"entrypoints": {"processes": ["hotfix"]}`, 1)},
			[]Category{NotReachable, Unreachable, Workflows}, func(t *testing.T, r *Report) {
				want(t, "newly covered-not-reachable", r.NewlyCoveredNotReachable, "ops/deploy", "ops/notify")
				want(t, "newly unreachable Tools", r.NewlyUnreachableTools, "deployer", "notifier")
				if len(r.Workflows) != 1 || r.Workflows[0].Process != "Process_Release" || r.Workflows[0].After.Performed != 0 {
					t.Errorf("workflows %+v, want Process_Release down to 0/2", r.Workflows)
				}
			}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			head := snapshot(t, edit(tc.change))
			r := Compare(base, head, Options{})
			if got := r.Worse(record.Error); !slices.Equal(got, tc.worse) {
				t.Errorf("worse %v, want %v\nreport %+v", got, tc.worse, r)
			}
			tc.check(t, r)
			statesAreCompares(t, base, head, r)
		})
	}
}

// statesAreCompares fails when CompareStates' lists or CountNewFindings'
// count of errors differ from the full report r of base → head (the change
// record of every version is made of them, queries/history).
func statesAreCompares(t *testing.T, base, head *queries.Snapshot, r *Report) {
	t.Helper()
	s := CompareStates(base, head, nil)
	full := *r
	full.Before, full.After, full.AlternativesGained, full.AlternativesLost = Totals{}, Totals{}, nil, nil
	full.NewFindings, full.FixedFindings, full.MovedFindings, full.Workflows = nil, nil, nil, nil
	if !reflect.DeepEqual(s, &full) {
		t.Errorf("CompareStates %+v\nCompare's lists %+v", s, &full)
	}
	errs := 0
	for _, f := range r.NewFindings {
		if f.Severity == string(record.Error) {
			errs++
		}
	}
	if n := CountNewFindings(base, head, record.Error); n != errs {
		t.Errorf("CountNewFindings(error) = %d, Compare has %d new errors", n, errs)
	}
}

// TestCompareBetter: the reverse of a worsening change is reported as an
// improvement and makes nothing worse.
func TestCompareBetter(t *testing.T) {
	bad := snapshot(t, edit(map[string]string{"tools/ops.yaml": strings.Split(shop["tools/ops.yaml"], "  - id: notifier")[0]}))
	good := snapshot(t, shop)
	r := Compare(bad, good, Options{})
	statesAreCompares(t, bad, good, r)
	if w := r.Worse(record.Info); len(w) != 0 {
		t.Errorf("a fix is reported worse: %v", w)
	}
	want(t, "newly covered", r.NewlyCovered, "ops/notify")
	want(t, "added Tools", r.AddedTools, "notifier")
	if len(r.Workflows) != 1 || r.Workflows[0].Change != "up" {
		t.Errorf("workflows %+v, want one up", r.Workflows)
	}
}

// TestCompareRenamedBase: a base checked out under another folder name
// (so another default instance name) compares node by node.
func TestCompareRenamedBase(t *testing.T) {
	conventional := map[string]string{}
	for p, b := range shop {
		if p != "harness.json" {
			conventional[p] = b
		}
	}
	base, head := snapshot(t, conventional), snapshot(t, conventional)
	if base.Instances[0].Name == head.Instances[0].Name {
		t.Fatal("the temp dirs share a name; the test needs two")
	}
	r := Compare(base, head, Options{Rename: map[string]string{base.Instances[0].Name: head.Instances[0].Name}})
	if len(r.AddedSkills)+len(r.RemovedSkills)+len(r.NewFindings)+len(r.FixedFindings) != 0 {
		t.Errorf("the same corpus under another name differs: %+v", r)
	}
}

func want(t *testing.T, what string, got []string, w ...string) {
	t.Helper()
	if !slices.Equal(got, w) {
		t.Errorf("%s: %v, want %v", what, got, w)
	}
}

// stray is a Tool that satisfies no skill of shop: two findings on it
// (satisfies-unknown-skill, tool-unreachable) that the cases move around.
const stray = `tools:
  - id: stray
    title: Stray
    description: Satisfies a skill nobody wrote.
    satisfies: [ghost]
    install: {none: true}
    invoke: {shell: [stray]}
`

// TestCompareMoves: findings are matched by what they are about, not by
// file: a Tool or a process moved to another file moves its findings and
// keeps its workflow; a finding naming another reference is new.
func TestCompareMoves(t *testing.T) {
	base := snapshot(t, edit(map[string]string{"tools/extra.yaml": stray}))
	var onStray int
	for _, f := range base.Findings {
		if strings.Contains(f.Message, "stray") {
			onStray++
		}
	}
	if onStray < 2 {
		t.Fatalf("the base has %d findings on the stray Tool, the cases assume 2 or more: %+v", onStray, base.Findings)
	}
	cases := []struct {
		name         string
		change       map[string]string
		worse        []Category
		news, moved  int
		fixed        int
		wantNewCodes []string
	}{
		{"the Tool's file renamed", map[string]string{"tools/extra.yaml": "", "tools/stray.yaml": stray}, nil, 0, onStray, 0, nil},
		{"the Tool moved into another file", map[string]string{"tools/extra.yaml": "",
			"tools/ops.yaml": shop["tools/ops.yaml"] + strings.TrimPrefix(stray, "tools:\n")}, nil, 0, onStray, 0, nil},
		{"lines shift in the same file", map[string]string{"tools/extra.yaml": "# a comment\n\n" + stray}, nil, 0, 0, 0, nil},
		{"moved, and it names one more unknown skill", map[string]string{"tools/extra.yaml": "",
			"tools/stray.yaml": strings.Replace(stray, "[ghost]", "[ghost, phantom]", 1)},
			[]Category{Findings}, 1, onStray, 0, []string{record.CodeSatisfiesUnknownSkill}},
		{"the BPMN file moved to another folder", map[string]string{"tools/extra.yaml": stray, "processes/release.bpmn": "",
			"processes/ops/release.bpmn": shop["processes/release.bpmn"]}, nil, 0, 0, 0, nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			head := snapshot(t, edit(tc.change))
			r := Compare(base, head, Options{})
			statesAreCompares(t, base, head, r)
			if got := r.Worse(record.Error); !slices.Equal(got, tc.worse) {
				t.Errorf("worse %v, want %v\nnew %+v\nfixed %+v\nworkflows %+v", got, tc.worse, r.NewFindings, r.FixedFindings, r.Workflows)
			}
			if len(r.NewFindings) != tc.news || len(r.FixedFindings) != tc.fixed || len(r.MovedFindings) != tc.moved {
				t.Errorf("%d new, %d fixed, %d moved; want %d, %d, %d\nnew %+v\nfixed %+v\nmoved %+v", len(r.NewFindings), len(r.FixedFindings),
					len(r.MovedFindings), tc.news, tc.fixed, tc.moved, r.NewFindings, r.FixedFindings, r.MovedFindings)
			}
			for i, code := range tc.wantNewCodes {
				if i < len(r.NewFindings) && (r.NewFindings[i].Code != code || !strings.Contains(r.NewFindings[i].Message, `"phantom"`)) {
					t.Errorf("new finding %+v, want %s naming \"phantom\"", r.NewFindings[i], code)
				}
			}
			for _, m := range r.MovedFindings {
				if m.FromFile != "tools/extra.yaml" || m.File == m.FromFile || m.Line == 0 || m.FromLine == 0 {
					t.Errorf("move %+v: want from tools/extra.yaml to another file, with both lines", m)
				}
			}
			if len(r.Workflows) != 0 {
				t.Errorf("workflows changed: %+v", r.Workflows)
			}
		})
	}
}
