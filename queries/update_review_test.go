package queries

import (
	"context"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/cayleygraph/quad"

	"github.com/skillgraph/skillgraph/graph"
	"github.com/skillgraph/skillgraph/graph/ingest"
	"github.com/skillgraph/skillgraph/ingest/gen"
	"github.com/skillgraph/skillgraph/jsonld"
)

// reviewOp is one file operation of an edit step: replace old by new in
// file (old "" writes new as the whole file), or remove it.
type reviewOp struct {
	file, old, new string
	del            bool
}

// reviewStep is one edit: its file operations, ingested and applied by
// one Update. then, when set, is a second edit ingested after the first
// whose changes are given to the same Update (a file deleted and written
// again within one --watch batch). triage records a decision (skill id,
// verdict) as the API does. shared is whether the Update must share the
// previous snapshot's lookups: 1 yes, -1 no, 0 either.
type reviewStep struct {
	name   string
	ops    []reviewOp
	then   []reviewOp
	triage [2]string
	shared int
}

// reviewCase is a corpus (copied from a directory, then files written)
// and the edits made to it one after another.
type reviewCase struct {
	name  string
	copy  string
	files map[string]string
	steps []reviewStep
}

const reviewTriageGraph = "urn:skillgraph:review-triage"

// TestUpdateReviewEqualsBuild: after each edit of each corpus, the
// snapshot updated from the previous one (sharing its lookups and caches
// where the shape allows, an Update of an Update of an Update) answers
// like one rebuilt from the store, under every exposure profile too;
// the previous snapshot, read (and viewed under a profile) while the next
// one is computed, twice at once, is left alone.
func TestUpdateReviewEqualsBuild(t *testing.T) {
	for _, tc := range reviewCases() {
		t.Run(tc.name, func(t *testing.T) { runReview(t, tc) })
	}
}

func runReview(t *testing.T, tc reviewCase) {
	ctx := context.Background()
	root := t.TempDir()
	if tc.copy != "" {
		copyTree(t, tc.copy, root)
	}
	for name, body := range tc.files {
		writeFile(t, filepath.Join(root, filepath.FromSlash(name)), body)
	}
	st, cur := ingestBuild(t, root)
	triage := map[string]string{} // skill IRI -> verdict
	for i, step := range tc.steps {
		var changes []graph.Change
		var version int64
		if step.triage[0] != "" {
			sk := cur.Skill(step.triage[0])
			if sk == nil {
				t.Fatalf("step %d (%s): no skill %s", i, step.name, step.triage[0])
			}
			triage[sk.IRI] = step.triage[1]
			changes = []graph.Change{{Graph: reviewTriageGraph, Quads: triageQuads(triage)}}
			var err error
			if version, err = st.Apply(ctx, changes); err != nil {
				t.Fatal(err)
			}
		}
		for _, ops := range [][]reviewOp{step.ops, step.then} {
			if len(ops) == 0 {
				continue
			}
			for _, op := range ops {
				applyOp(t, root, op)
			}
			res, err := ingest.Run(ctx, st, []string{root}, ingest.Options{})
			if err != nil {
				t.Fatal(err)
			}
			changes, version = append(changes, res.Changes...), res.Version
		}
		if len(changes) == 0 {
			t.Fatalf("step %d (%s) changed nothing", i, step.name)
		}
		prev := cur
		want := answers(prev)
		var wg sync.WaitGroup
		var again map[string]any
		wg.Go(func() { // a reader of the previous version, and of its views
			for _, name := range prev.ProfileNames() {
				if v, err := prev.WithProfile(name); err == nil {
					answers(v)
				}
			}
			again = answers(prev)
		})
		var twin *Snapshot
		wg.Go(func() { twin = prev.Update(changes, version) }) // another Update of it at once (they share its lookups)
		cur = prev.Update(changes, version)
		wg.Wait()
		compareSnapshots(t, step.name+" (two Updates at once)", twin, cur)
		if !reflect.DeepEqual(want, again) {
			t.Fatalf("step %d (%s): Update changed the previous snapshot", i, step.name)
		}
		if shared := cur.lk == prev.lk; (step.shared > 0 && !shared) || (step.shared < 0 && shared) {
			t.Errorf("step %d (%s): lookups shared = %v, want %v", i, step.name, shared, step.shared > 0)
		}
		rebuilt, err := Build(ctx, st)
		if err != nil {
			t.Fatal(err)
		}
		compareSnapshots(t, step.name, cur, rebuilt)
		names := rebuilt.ProfileNames()
		if got := cur.ProfileNames(); !reflect.DeepEqual(got, names) {
			t.Errorf("step %d (%s): profiles %v, rebuilt %v", i, step.name, got, names)
		}
		for _, name := range names {
			a, errA := cur.WithProfile(name)
			b, errB := rebuilt.WithProfile(name)
			if errA != nil || errB != nil {
				t.Fatalf("step %d (%s): profile %s: %v, %v", i, step.name, name, errA, errB)
			}
			compareSnapshots(t, step.name+" under "+name, a, b)
		}
	}
}

// compareSnapshots fails on every answer of got that differs from want's.
func compareSnapshots(t *testing.T, what string, got, want *Snapshot) {
	t.Helper()
	g, w := answers(got), answers(want)
	g["said"], w["said"] = said(got), said(want)
	g["workflowDetail"], w["workflowDetail"] = workflowDetail(got), workflowDetail(want)
	for k := range w {
		if !reflect.DeepEqual(g[k], w[k]) {
			t.Errorf("%s: %s differs:\nupdated: %v\nrebuilt: %v", what, k, g[k], w[k])
		}
	}
}

// workflowDetail is what answers leaves out of steps and reachability:
// each activity's resolved skills, callee, lane and witness, each skill's
// steps, each Tool's satisfied skills and subprocesses.
func workflowDetail(s *Snapshot) []string {
	var out []string
	for _, p := range s.Processes {
		for _, a := range p.Activities {
			calls := ""
			if a.Calls != nil {
				calls = a.Calls.Key()
			}
			out = append(out, a.Key()+" skills="+skillIDs(a.Skills)+" calls="+calls+" lane="+a.Lane+" witness="+join(a.Witness))
		}
	}
	for _, sk := range s.Skills {
		var steps []string
		for _, a := range sk.Steps {
			steps = append(steps, a.Key())
		}
		out = append(out, sk.Key()+" steps="+strings.Join(steps, ","))
	}
	for _, t := range s.Tools {
		var subs []string
		for _, p := range t.Subprocesses {
			subs = append(subs, p.Key())
		}
		out = append(out, t.Key()+" satisfies="+skillIDs(t.Satisfies)+" subprocesses="+strings.Join(subs, ","))
	}
	return out
}

// triageQuads are the decisions of the triage graph as the API writes
// them (api/server: one node per skill, IRI skill + "/triage").
func triageQuads(decisions map[string]string) []quad.Quad {
	p := func(name string) quad.IRI { return quad.IRI(jsonld.NS + name) }
	var qs []quad.Quad
	for sk, verdict := range decisions {
		node := quad.IRI(sk + "/triage")
		qs = append(qs,
			quad.Quad{Subject: node, Predicate: quad.IRI("http://www.w3.org/1999/02/22-rdf-syntax-ns#type"), Object: p("TriageDecision")},
			quad.Quad{Subject: node, Predicate: p("triageOf"), Object: quad.IRI(sk)},
			quad.Quad{Subject: node, Predicate: quad.IRI("http://www.w3.org/ns/prov#wasDerivedFrom"), Object: quad.IRI(reviewTriageGraph)},
			quad.Quad{Subject: node, Predicate: p("verdict"), Object: quad.String(verdict)},
			quad.Quad{Subject: node, Predicate: p("recordedAt"), Object: quad.String("2026-12-01T00:00:00Z")},
		)
	}
	return qs
}

func applyOp(t *testing.T, root string, op reviewOp) {
	t.Helper()
	f := filepath.Join(root, filepath.FromSlash(op.file))
	switch {
	case op.del:
		if err := os.Remove(f); err != nil {
			t.Fatal(err)
		}
	case op.old == "":
		writeFile(t, f, op.new)
	default:
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(b), op.old) {
			t.Fatalf("%s does not say %q", op.file, op.old)
		}
		writeFile(t, f, strings.Replace(string(b), op.old, op.new, 1))
	}
}

func writeFile(t *testing.T, path, body string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
}

func copyTree(t *testing.T, from, to string) {
	t.Helper()
	err := filepath.WalkDir(from, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, err := filepath.Rel(from, p)
		if err != nil {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		writeFile(t, filepath.Join(to, rel), string(b))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

func reviewSkill(name string) string {
	return "---\nname: " + name + "\ndescription: The " + name + " skill.\n---\n\n# " + name + "\n"
}

// reviewBPMN is one process of tasks T1..Tn in a chain, task i naming
// skill refs[i] (none for ""), and a call activity when calls is set.
func reviewBPMN(id string, calls string, refs ...string) string {
	x := `<definitions xmlns="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:x="https://x.example/ns#"><process id="` + id + `"><startEvent id="S"/>`
	prev := "S"
	for i, r := range refs {
		task := "T" + string(rune('1'+i))
		x += `<serviceTask id="` + task + `" name="do ` + task + `">`
		if r != "" {
			x += `<extensionElements><x:skill ref="` + r + `"/></extensionElements>`
		}
		x += `</serviceTask><sequenceFlow id="F` + task + `" sourceRef="` + prev + `" targetRef="` + task + `"/>`
		prev = task
	}
	if calls != "" {
		x += `<callActivity id="C" calledElement="` + calls + `"/><sequenceFlow id="FC" sourceRef="` + prev + `" targetRef="C"/>`
	}
	return x + `</process></definitions>`
}

const reviewHarness = `{"name": "app", "iriBase": "https://app.example/", "needs": ["lib"],
  "directories": [{"id": "skills", "path": "skills", "graphTypologies": ["skills"]},
                  {"id": "tools", "path": "tools", "graphTypologies": ["tools"]},
                  {"id": "processes", "path": "processes", "graphTypologies": ["processes"]}],
  "profiles": {"ro": {"readOnly": true}}}`

const reviewLib = `{"name": "lib", "iriBase": "https://lib.example/",
  "directories": [{"id": "skills", "path": "skills", "graphTypologies": ["skills"]},
                  {"id": "tools", "path": "tools", "graphTypologies": ["tools"]},
                  {"id": "processes", "path": "processes", "graphTypologies": ["processes"]}]}`

func reviewTool(id, satisfies, ro, in string) string {
	return `{"id": "` + id + `", "title": "` + id + `", "description": "The ` + id + ` tool.", "satisfies": [` + satisfies + `],
  "install": {"none": true}, "invoke": {"shell": "bin/` + id + `"}, "readOnly": ` + ro + `,
  "io": {"inputs": [{"name": "` + in + `", "type": "string"}], "outputs": [{"name": "out", "type": "string"}]}}`
}

func reviewCases() []reviewCase {
	return []reviewCase{
		{
			name: "harness",
			copy: "../examples/harness",
			steps: []reviewStep{
				{name: "step names another skill", ops: []reviewOp{{file: "processes/review-loop.bpmn", old: `<q:skill ref="copy-edit"/>`, new: `<q:skill ref="fact-check"/>`}}, shared: 1},
				{name: "call names the other process", ops: []reviewOp{{file: "processes/review-loop.bpmn", old: `calledElement="Process_Rework"`, new: `calledElement="Process_ReviewLoop"`}}, shared: 1},
				{name: "call names no process", ops: []reviewOp{{file: "processes/review-loop.bpmn", old: `calledElement="Process_ReviewLoop"`, new: `calledElement="Process_Nowhere"`}}, shared: 1},
				{name: "mcp tool no longer read-only", ops: []reviewOp{{file: "mcp/cms.json", old: `"readOnlyHint": true, "idempotentHint": true`, new: `"readOnlyHint": false, "idempotentHint": true`}}, shared: 0},
				{name: "tool satisfies another skill", ops: []reviewOp{{file: "tools/publishing.json", old: `"satisfies": ["publish-site"]`, new: `"satisfies": ["archive-release"]`}}, shared: 1},
				{name: "triage recorded", triage: [2]string{"copy-edit", "keep"}, shared: -1},
				{name: "triage changed", triage: [2]string{"copy-edit", "drop"}, shared: 1},
				{name: "bean parent", ops: []reviewOp{{file: "beans/qw-t103--pdf-edition.md", old: "parent: qw-e099", new: "parent: qw-e010"}}, shared: 1},
				{name: "entry point changed (instance)", ops: []reviewOp{{file: "harness.json", old: `"processes": ["publish-release"]`, new: `"processes": ["review-loop"]`}}, shared: -1},
				{name: "after a new owner: step names another skill", ops: []reviewOp{{file: "processes/review-loop.bpmn", old: `<q:skill ref="fact-check"/>`, new: `<q:skill ref="draft-article"/>`}}, shared: 1},
				{name: "process file deleted and written again in one batch", ops: []reviewOp{{file: "processes/search-index.bpmn", del: true}},
					then: []reviewOp{{file: "processes/search-index.bpmn", old: "", new: mustRead("../examples/harness/processes/search-index.bpmn")}}, shared: 1},
				{name: "process file emptied", ops: []reviewOp{{file: "processes/review-loop.bpmn", old: "", new: ""}}, shared: -1},
				{name: "process file back", ops: []reviewOp{{file: "processes/review-loop.bpmn", old: "", new: mustRead("../examples/harness/processes/review-loop.bpmn")}}, shared: -1},
				{name: "step moved to another lane", ops: []reviewOp{{file: "processes/publish-release.bpmn", old: "<bpmn:flowNodeRef>Task_Announce</bpmn:flowNodeRef>\n", new: ""}, {file: "processes/publish-release.bpmn", old: "<bpmn:flowNodeRef>Task_Publish</bpmn:flowNodeRef>", new: "<bpmn:flowNodeRef>Task_Publish</bpmn:flowNodeRef><bpmn:flowNodeRef>Task_Announce</bpmn:flowNodeRef>"}}, shared: 1},
				{name: "contract property retyped", ops: []reviewOp{{file: "schemas/skills/fact-check/input.schema.json", old: `"claim": {"type": "string"}`, new: `"claim": {"type": "integer"}`}}, shared: 1},
				{name: "tool skill triggered by another tool", ops: []reviewOp{{file: "skills/tool-skills/deploy.md", old: "- tool: netlify-deploy", new: "- tool: s3-sync"}}, shared: 1},
				{name: "tool skill no longer required", ops: []reviewOp{{file: "skills/tool-skills/deploy.md", old: "required: true", new: "required: false"}}, shared: 1},
				{name: "package script runs another program", ops: []reviewOp{{file: "package.json", old: `"build": "hugo --minify"`, new: `"build": "pandoc --version"`}}, shared: 1},
				{name: "hard skill tool runs another program", ops: []reviewOp{{file: "skills/hard/typeset/SKILL.md", old: "run: pandoc $page", new: "run: hugo $page"}}, shared: 1},
				{name: "back to the first step's skill", ops: []reviewOp{{file: "processes/review-loop.bpmn", old: `<q:skill ref="copy-edit"/>`, new: `<q:skill ref="glossary"/>`}}, shared: 1},
			},
		},
		{
			// Camunda topics name a skill only when one of that id exists;
			// a sub-process's tasks are steps of the process too.
			name: "implicit refs and sub-processes",
			files: map[string]string{
				"harness.json":  strings.Replace(reviewLib, `"name": "lib"`, `"name": "cam"`, 1),
				"skills/one.md": reviewSkill("one"),
				"skills/two.md": reviewSkill("two"),
				"tools/t.json":  reviewTool("t", `"two"`, "true", "x"),
				"processes/c.bpmn": `<definitions xmlns="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:camunda="http://camunda.org/schema/1.0/bpmn" xmlns:x="https://x.example/ns#">` +
					`<process id="Cam"><startEvent id="S"/>` +
					`<serviceTask id="A" camunda:topic="one"/>` +
					`<subProcess id="Sub"><serviceTask id="B" camunda:topic="nothing"/><userTask id="U"><extensionElements><x:skill ref="two"/></extensionElements></userTask>` +
					`<sequenceFlow id="F3" sourceRef="B" targetRef="U"/></subProcess>` +
					`<sequenceFlow id="F1" sourceRef="S" targetRef="A"/><sequenceFlow id="F2" sourceRef="A" targetRef="Sub"/></process></definitions>`,
			},
			steps: []reviewStep{
				{name: "topic names the other skill", ops: []reviewOp{{file: "processes/c.bpmn", old: `camunda:topic="one"`, new: `camunda:topic="two"`}}, shared: 1},
				{name: "sub-process topic names a skill", ops: []reviewOp{{file: "processes/c.bpmn", old: `camunda:topic="nothing"`, new: `camunda:topic="one"`}}, shared: 1},
				{name: "a skill of the topic's name appears", ops: []reviewOp{{file: "processes/c.bpmn", old: `camunda:topic="one"`, new: `camunda:topic="three"`}, {file: "skills/three.md", new: reviewSkill("three")}}, shared: -1},
				{name: "sub-process flow reversed", ops: []reviewOp{{file: "processes/c.bpmn", old: `sourceRef="B" targetRef="U"`, new: `sourceRef="U" targetRef="B"`}}, shared: 1},
				{name: "the topic's skill renamed away", ops: []reviewOp{{file: "skills/three.md", del: true}, {file: "skills/four.md", new: reviewSkill("four")}}, shared: -1},
				{name: "the Tool satisfies the topic's skill", ops: []reviewOp{{file: "tools/t.json", old: `"satisfies": ["two"]`, new: `"satisfies": ["four"]`}}, shared: 1},
			},
		},
		{
			// Two files define process P: the activities' IRIs are minted by
			// both, the last (b) answers activityOf; a's process node stays
			// while b's activities change, and the other way round.
			name: "duplicate process across graphs",
			files: map[string]string{
				"harness.json":           strings.Replace(reviewLib, `"name": "lib"`, `"name": "dup"`, 1),
				"skills/one.md":          reviewSkill("one"),
				"skills/two.md":          reviewSkill("two"),
				"skills/three.md":        reviewSkill("three"),
				"processes/a.bpmn":       reviewBPMN("P", "", "one", "two", "three"),
				"processes/b.bpmn":       reviewBPMN("P", "Q", "one", "two", "three"),
				"processes/q.bpmn":       reviewBPMN("Q", "", "three"),
				"tools/t.json":           reviewTool("t", `"one"`, "true", "x"),
				"processes/unrelated.md": "not read",
			},
			steps: []reviewStep{
				{name: "b's flow reversed", ops: []reviewOp{{file: "processes/b.bpmn", old: `sourceRef="T1" targetRef="T2"`, new: `sourceRef="T3" targetRef="T2"`}}, shared: 1},
				{name: "b's step names another skill", ops: []reviewOp{{file: "processes/b.bpmn", old: `<x:skill ref="two"/>`, new: `<x:skill ref="three"/>`}}, shared: 1},
				{name: "a's flow changed", ops: []reviewOp{{file: "processes/a.bpmn", old: `sourceRef="T2" targetRef="T3"`, new: `sourceRef="T1" targetRef="T3"`}}, shared: 1},
				{name: "b calls nothing known", ops: []reviewOp{{file: "processes/b.bpmn", old: `calledElement="Q"`, new: `calledElement="R"`}}, shared: 1},
				{name: "b's step names no skill", ops: []reviewOp{{file: "processes/b.bpmn", old: `<x:skill ref="one"/>`, new: `<x:skill ref="nothing"/>`}}, shared: 1},
				{name: "a's step names b's skill again", ops: []reviewOp{{file: "processes/a.bpmn", old: `<x:skill ref="one"/>`, new: `<x:skill ref="two"/>`}}, shared: 1},
			},
		},
		{
			// Two instances: app needs lib; app's steps and Tools name lib's
			// skills; a Tool id is defined twice (ports stated by two graphs).
			name: "instances with needs",
			files: map[string]string{
				"harness.json":           reviewHarness,
				"skills/own.md":          reviewSkill("own"),
				"processes/main.bpmn":    reviewBPMN("Main", "LibFlow", "own", "shared", "own"),
				"tools/a.json":           reviewTool("dup-tool", `"shared"`, "true", "x"),
				"tools/b.json":           reviewTool("dup-tool", `"own"`, "false", "y"),
				"lib/harness.json":       reviewLib,
				"lib/skills/shared.md":   reviewSkill("shared"),
				"lib/skills/other.md":    reviewSkill("other"),
				"lib/processes/lib.bpmn": reviewBPMN("LibFlow", "", "shared"),
			},
			steps: []reviewStep{
				{name: "lib skill described again", ops: []reviewOp{{file: "lib/skills/shared.md", old: "The shared skill.", new: "Shared by app."}}, shared: 1},
				{name: "app's step names lib's other skill", ops: []reviewOp{{file: "processes/main.bpmn", old: `<x:skill ref="shared"/>`, new: `<x:skill ref="other"/>`}}, shared: 1},
				{name: "a's port renamed", ops: []reviewOp{{file: "tools/a.json", old: `"name": "x"`, new: `"name": "y"`}}, shared: -1},
				{name: "b's port typed again", ops: []reviewOp{{file: "tools/b.json", old: `"inputs": [{"name": "y", "type": "string"}]`, new: `"inputs": [{"name": "y", "type": "integer"}]`}}, shared: 0},
				{name: "b no longer read-only either", ops: []reviewOp{{file: "tools/a.json", old: `"readOnly": true`, new: `"readOnly": false`}}, shared: 1},
				{name: "a read-only again", ops: []reviewOp{{file: "tools/a.json", old: `"readOnly": false`, new: `"readOnly": true`}}, shared: 1},
				{name: "app no longer needs lib", ops: []reviewOp{{file: "harness.json", old: `"needs": ["lib"]`, new: `"needs": []`}}, shared: -1},
				{name: "lib skill described once more", ops: []reviewOp{{file: "lib/skills/shared.md", old: "Shared by app.", new: "Shared."}}, shared: 1},
				{name: "app needs lib again", ops: []reviewOp{{file: "harness.json", old: `"needs": []`, new: `"needs": ["lib"]`}}, shared: -1},
				{name: "lib process step names another skill", ops: []reviewOp{{file: "lib/processes/lib.bpmn", old: `<x:skill ref="shared"/>`, new: `<x:skill ref="other"/>`}}, shared: 1},
			},
		},
	}
}

func mustRead(path string) string {
	b, err := os.ReadFile(path)
	if err != nil {
		panic(err)
	}
	return string(b)
}

// reviewRule is a shape-keeping edit: in files ending in ext, the first
// group of a match of re is replaced by a value of the pool made from the
// whole corpus (pool nil: another match's group in the same file).
type reviewRule struct {
	ext  string
	re   *regexp.Regexp
	pool []string
}

// TestUpdateKeepingShapeAfterRandomEdits: a random sequence of edits that
// keep every key in its place — steps naming other skills (or none), flows
// to other tasks, calls to other processes (or none), Tools satisfying
// other skills, read-only hints flipped, beans under other parents — on a
// generated corpus, each updated from the previous snapshot (most share
// its lookups and caches, an Update of an Update of ...) and compared with
// a rebuild, under every profile too.
func TestUpdateKeepingShapeAfterRandomEdits(t *testing.T) {
	root := t.TempDir()
	if _, err := gen.Write(root, gen.Options{Skills: 60, Seed: 11}); err != nil {
		t.Fatal(err)
	}
	files := corpusFiles(t, root)
	gather := func(ext string, re *regexp.Regexp, extra ...string) []string {
		set := map[string]bool{}
		for _, f := range files {
			if !strings.HasSuffix(f, ext) {
				continue
			}
			b, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			for _, m := range re.FindAllStringSubmatch(string(b), -1) {
				set[m[1]] = true
			}
		}
		for _, x := range extra {
			set[x] = true
		}
		out := make([]string, 0, len(set))
		for x := range set {
			out = append(out, x)
		}
		sort.Strings(out)
		return out
	}
	skillRef := regexp.MustCompile(`<x:skill ref="([^"]+)"/>`)
	called := regexp.MustCompile(`calledElement="([^"]+)"`)
	procID := regexp.MustCompile(`<bpmn:process id="([^"]+)"`)
	satisfies := regexp.MustCompile(`"satisfies": \[\s*"([^"]+)"`)
	parent := regexp.MustCompile(`(?m)^parent: (\S+)$`)
	beanID := regexp.MustCompile(`(?m)^# (\S+)$`)
	rules := []reviewRule{
		{".bpmn", skillRef, gather(".bpmn", skillRef, "no-such-skill")},
		{".bpmn", regexp.MustCompile(`targetRef="(Task_\d+)"`), nil},
		{".bpmn", called, append(gather(".bpmn", procID, "Process_Nowhere"), gather(".bpmn", called)...)},
		{".json", satisfies, append(gather(".bpmn", skillRef), "no-such-skill")},
		{".json", regexp.MustCompile(`"readOnly(?:Hint)?": (true|false)`), []string{"true", "false"}},
		{".md", parent, gather(".md", beanID, "syn-none")},
	}
	st, cur := ingestBuild(t, root)
	rng := rand.New(rand.NewPCG(14, 2))
	sharedSteps := 0
	const steps = 30
	for step := 0; step < steps; {
		f := files[rng.IntN(len(files))]
		r := rules[rng.IntN(len(rules))]
		if !strings.HasSuffix(f, r.ext) {
			continue
		}
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		ms := r.re.FindAllStringSubmatchIndex(string(b), -1)
		if len(ms) == 0 {
			continue
		}
		m := ms[rng.IntN(len(ms))]
		pool := r.pool
		if pool == nil {
			for _, o := range ms {
				pool = append(pool, string(b[o[2]:o[3]]))
			}
		}
		to := pool[rng.IntN(len(pool))]
		if to == string(b[m[2]:m[3]]) {
			continue
		}
		op := fmt.Sprintf("step %d: %s: %q → %q", step, strings.TrimPrefix(f, root), b[m[2]:m[3]], to)
		step++
		out := string(b[:m[2]]) + to + string(b[m[3]:])
		if err := os.WriteFile(f, []byte(out), 0o644); err != nil {
			t.Fatal(err)
		}
		prev := cur
		var rebuilt *Snapshot
		cur, rebuilt = updateAndRebuild(t, st, root, prev)
		if cur.lk == prev.lk {
			sharedSteps++
		}
		compareSnapshots(t, op, cur, rebuilt)
		for _, name := range rebuilt.ProfileNames() {
			a, errA := cur.WithProfile(name)
			b, errB := rebuilt.WithProfile(name)
			if errA != nil || errB != nil {
				t.Fatalf("%s: profile %s: %v, %v", op, name, errA, errB)
			}
			compareSnapshots(t, op+" under "+name, a, b)
		}
		if t.Failed() {
			t.FailNow()
		}
	}
	t.Logf("%d of %d edits shared the lookups", sharedSteps, steps)
	if sharedSteps < steps/2 {
		t.Errorf("%d of %d edits shared the lookups: the test would not test the caches", sharedSteps, steps)
	}
}
