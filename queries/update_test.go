package queries

import (
	"context"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/skillgraph/skillgraph/graph/ingest"
	"github.com/skillgraph/skillgraph/ingest/gen"
)

// answers renders what Update must agree with Build on, beyond summary:
// every finding with its place and subject, coverage tiers, workflows,
// programs, gates, alternatives groups, triage and the reachability lists.
func answers(s *Snapshot) map[string]any {
	out := summary(s)
	var fs []string
	for _, f := range s.Findings {
		fs = append(fs, fmt.Sprintf("%s|%s|%s|%d|%s|%s|%s", f.Instance, f.File, f.Code, f.Line, f.Subject, f.Severity, f.Message))
	}
	out["findings"] = fs
	var tiers []string
	for _, t := range s.Coverage.Tiers {
		for _, sk := range t.Skills {
			tiers = append(tiers, t.Tier+":"+sk.IRI)
		}
	}
	out["tiers"] = tiers
	var wf []string
	for _, w := range s.Workflows {
		line := fmt.Sprintf("%s %d/%d/%d", w.Process.Key(), w.Performed, w.Manual, w.Gap)
		for _, st := range w.Steps() {
			line += " " + st.Step.Key() + "=" + st.SkillRef + ":" + st.State
		}
		if w.FirstGap != nil {
			line += " first=" + w.FirstGap.Step.Key()
		}
		wf = append(wf, line)
	}
	out["workflows"] = wf
	var progs []string
	for _, p := range s.Programs {
		progs = append(progs, fmt.Sprintf("%s %v %s %s", p.Name, p.Installed, toolIDs(p.Tools), skillIDs(p.Skills)))
	}
	out["programs"] = progs
	var tools []string
	for _, t := range s.Tools {
		var gates, guides []string
		for _, g := range t.GatedBy {
			gates = append(gates, g.Key)
		}
		for _, g := range t.GuidedBy {
			guides = append(guides, g.Key)
		}
		tools = append(tools, fmt.Sprintf("%s %s ports=%d/%d valid=%s gates=%v guides=%v exposed=%s", t.IRI, fileOf(t.Source), len(t.Inputs), len(t.Outputs),
			skillIDs(t.ValidFor), gates, guides, toolIDs(t.ExposedBy)))
	}
	out["toolDetail"] = tools
	var skills []string
	for _, sk := range s.Skills {
		tr := ""
		if sk.Triage != nil {
			tr = sk.Triage.Verdict
		}
		skills = append(skills, fmt.Sprintf("%s %s %s steps=%d contradicted=%s triage=%s findings=%d", sk.IRI, nameOf(sk.Instance), fileOf(sk.Source),
			len(sk.Steps), toolIDs(sk.Contradicted), tr, len(sk.Findings)))
	}
	out["skillDetail"] = skills
	var groups []string
	for _, g := range s.Alternatives.Groups {
		groups = append(groups, g.Skill.ID+":"+toolIDs(g.Tools))
	}
	out["groups"] = groups
	var procs []string
	for _, p := range s.Processes {
		procs = append(procs, fmt.Sprintf("%s %v %s acts=%d", p.Key(), p.Reachable, join(p.Witness), len(p.Activities)))
	}
	out["processes"] = procs
	var beans []string
	for _, b := range s.Beans {
		parent := ""
		if b.Parent != nil {
			parent = b.Parent.ID
		}
		beans = append(beans, b.IRI+" parent="+parent)
	}
	out["beans"] = beans
	var srcs []string
	for _, src := range s.Sources {
		srcs = append(srcs, src.IRI+" "+nameOf(src.Instance))
	}
	out["sources"] = srcs
	return out
}

// TestUpdateEqualsBuildAfterRandomEdits: after every step of a random
// sequence of file edits (truncations), deletions and additions (copies,
// which mint duplicate ids) on a generated corpus, the snapshot updated
// from the previous one answers like one rebuilt from the store. The
// previous snapshot is read while the next one is computed, so the race
// detector sees that Update leaves it alone.
func TestUpdateEqualsBuildAfterRandomEdits(t *testing.T) {
	ctx := context.Background()
	root := t.TempDir()
	if _, err := gen.Write(root, gen.Options{Skills: 40, Seed: 7}); err != nil {
		t.Fatal(err)
	}
	st, cur := ingestBuild(t, root)
	rng := rand.New(rand.NewPCG(14, 1))
	for step := range 25 {
		files := corpusFiles(t, root)
		f := files[rng.IntN(len(files))]
		var op string
		switch rng.IntN(4) {
		case 0:
			op = "delete " + f
			if err := os.Remove(f); err != nil {
				t.Fatal(err)
			}
		case 1:
			op = "truncate " + f
			b, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(f, b[:len(b)/2], 0o644); err != nil {
				t.Fatal(err)
			}
		case 2:
			ext := filepath.Ext(f)
			cp := strings.TrimSuffix(f, ext) + fmt.Sprintf("-copy%d", step) + ext
			op = "copy " + f
			b, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(cp, b, 0o644); err != nil {
				t.Fatal(err)
			}
		default:
			op = "edit " + f
			b, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(f, []byte(strings.Replace(string(b), "e", "E", 3)), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		res, err := ingest.Run(ctx, st, []string{root}, ingest.Options{})
		if err != nil {
			t.Fatal(err)
		}
		prev := cur
		want := answers(prev)
		var wg sync.WaitGroup
		var again map[string]any
		wg.Go(func() { again = answers(prev) }) // a reader of the previous version
		cur = prev.Update(res.Changes, res.Version)
		wg.Wait()
		if !reflect.DeepEqual(want, again) {
			t.Fatalf("step %d (%s): Update changed the previous snapshot", step, op)
		}
		rebuilt, err := Build(ctx, st)
		if err != nil {
			t.Fatal(err)
		}
		if a, b := answers(cur), answers(rebuilt); !reflect.DeepEqual(a, b) {
			for k := range b {
				if !reflect.DeepEqual(a[k], b[k]) {
					t.Errorf("step %d (%s): %s differs:\nupdated: %v\nrebuilt: %v", step, op, k, a[k], b[k])
				}
			}
			t.FailNow()
		}
	}
}

func corpusFiles(t *testing.T, root string) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() {
			out = append(out, p)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(out)
	return out
}

// naiveWorkflow is the workflow walk written out plainly (SPEC §5.5): from
// the process, each step's skill refs in flow order, callees in place,
// each process once.
func naiveWorkflow(s *Snapshot, p *Process) []string {
	var out []string
	seen := map[*Process]bool{}
	var walk func(q *Process)
	walk = func(q *Process) {
		if seen[q] {
			return
		}
		seen[q] = true
		for _, a := range naiveFlowOrder(q, s.activityOf) {
			for _, ref := range s.stepRefs(a) {
				out = append(out, a.Key()+"="+ref.name)
			}
			if a.Calls != nil {
				walk(a.Calls)
			}
		}
	}
	walk(p)
	return out
}

// TestWorkflowsEqualNaiveWalk: workflows shared as parts of a caller's
// walk hold what a walk of their own gives, on corpora with call chains,
// shared callees and call cycles (the generated one, and one built here).
// naiveFlowOrder is flowOrder as first written, with maps: the reference
// the indexed walk is held to.
func naiveFlowOrder(p *Process, byIRI func(string) *Activity) []*Activity {
	incoming := map[*Activity]int{}
	for _, a := range p.Activities {
		for _, n := range a.NextIRI {
			if b := byIRI(n); b != nil && b.Process == p {
				incoming[b]++
			}
		}
	}
	seen := map[*Activity]bool{}
	var order, queue []*Activity
	for _, a := range p.Activities {
		if incoming[a] == 0 {
			queue = append(queue, a)
			seen[a] = true
		}
	}
	for len(queue) > 0 || len(order) < len(p.Activities) {
		if len(queue) == 0 {
			for _, a := range p.Activities {
				if !seen[a] {
					queue = append(queue, a)
					seen[a] = true
					break
				}
			}
		}
		a := queue[0]
		queue = queue[1:]
		order = append(order, a)
		var next []*Activity
		for _, n := range a.NextIRI {
			if b := byIRI(n); b != nil && b.Process == p && !seen[b] {
				next = append(next, b)
			}
		}
		sort.Slice(next, func(i, j int) bool { return next[i].Position < next[j].Position })
		for _, b := range next {
			seen[b] = true
			queue = append(queue, b)
		}
	}
	return order
}

// TestFlowOrderEqualsNaive holds the indexed flowOrder to the map-based
// one on branches, joins, repeated flows, flows out of the process and
// loops nothing enters.
func TestFlowOrderEqualsNaive(t *testing.T) {
	tests := []struct {
		name string
		next map[string][]string // activity (in document order a, b, c, ...) -> targets
		n    int
	}{
		{"chain", map[string][]string{"a": {"b"}, "b": {"c"}}, 3},
		{"branch and join", map[string][]string{"a": {"c", "b"}, "b": {"d"}, "c": {"d"}}, 4},
		{"repeated flow", map[string][]string{"a": {"b", "b", "c"}}, 3},
		{"flow out of the process", map[string][]string{"a": {"zz", "b"}}, 2},
		{"loop nothing enters", map[string][]string{"a": {"b"}, "c": {"d"}, "d": {"c"}, "e": {"e"}}, 5},
		{"all one loop", map[string][]string{"a": {"b"}, "b": {"c"}, "c": {"a"}}, 3},
		{"later positions first", map[string][]string{"d": {"c", "b", "a"}}, 4},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, other := &Process{}, &Process{}
			byIRI := map[string]*Activity{"zz": {IRI: "zz", Process: other}}
			for i := range tt.n {
				id := string(rune('a' + i))
				a := &Activity{IRI: id, ID: id, Position: i, Process: p, ord: int32(i), NextIRI: tt.next[id]}
				p.Activities = append(p.Activities, a)
				byIRI[id] = a
			}
			var got, want []string
			for _, a := range flowOrder(p, func(iri string) *Activity { return byIRI[iri] }) {
				got = append(got, a.ID)
			}
			for _, a := range naiveFlowOrder(p, func(iri string) *Activity { return byIRI[iri] }) {
				want = append(want, a.ID)
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("flowOrder = %v, want %v", got, want)
			}
		})
	}
}

func TestWorkflowsEqualNaiveWalk(t *testing.T) {
	root := t.TempDir()
	if _, err := gen.Write(filepath.Join(root, "gen"), gen.Options{Skills: 300, Seed: 3}); err != nil {
		t.Fatal(err)
	}
	cyc := filepath.Join(root, "cycles")
	bpmn := func(id string, calls ...string) string {
		x := `<definitions xmlns="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:x="https://x.example/ns#"><process id="` + id + `"><startEvent id="S"/>` +
			`<serviceTask id="T_` + id + `" name="do"><extensionElements><x:skill ref="skill-` + id + `"/></extensionElements></serviceTask>` +
			`<sequenceFlow id="F0" sourceRef="S" targetRef="T_` + id + `"/>`
		prev := "T_" + id
		for i, c := range calls {
			x += fmt.Sprintf(`<callActivity id="C%d" calledElement="%s"/><sequenceFlow id="F%d" sourceRef="%s" targetRef="C%d"/>`, i, c, i+1, prev, i)
			prev = fmt.Sprintf("C%d", i)
		}
		return x + `</process></definitions>`
	}
	files := map[string]string{
		"processes/a.bpmn": bpmn("A", "B", "D"),
		"processes/b.bpmn": bpmn("B", "C"),
		"processes/c.bpmn": bpmn("C", "B", "E"),
		"processes/d.bpmn": bpmn("D", "C", "E"),
		"processes/e.bpmn": bpmn("E"),
		"processes/f.bpmn": bpmn("F", "F"),
	}
	for name, body := range files {
		p := filepath.Join(cyc, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, dir := range []string{filepath.Join(root, "gen"), cyc, "../examples/harness"} {
		s := build(t, "memory", dir)
		calls, steps := 0, 0
		for _, w := range s.Workflows {
			steps += w.Total()
			var got []string
			for _, st := range w.Steps() {
				got = append(got, st.Step.Key()+"="+st.SkillRef)
			}
			if want := naiveWorkflow(s, w.Process); !reflect.DeepEqual(got, want) {
				t.Errorf("%s: workflow of %s:\n got  %v\n want %v", dir, w.Process.ID, got, want)
			}
			if w.Total() != w.Performed+w.Manual+w.Gap {
				t.Errorf("%s: %s counts %d+%d+%d of %d steps", dir, w.Process.ID, w.Performed, w.Manual, w.Gap, w.Total())
			}
			for _, a := range w.Process.Activities {
				if a.Calls != nil {
					calls++
				}
			}
		}
		if calls == 0 || steps == 0 {
			t.Fatalf("%s: %d call activities, %d steps; the test would not test sharing", dir, calls, steps)
		}
	}
}

// TestUpdateKeepingShapeSharesLookups: an edit that keeps every key in its
// place (what a file says changes, not what it defines) is updated with the
// previous snapshot's lookups, and one that changes a key is not; either
// way the updated snapshot answers like one rebuilt from the store. The
// shared edits change what the analyses see (a satisfies target, a port
// type, a lane, a step's skill, a sequence flow), so a stale result carried
// over would show.
func TestUpdateKeepingShapeSharesLookups(t *testing.T) {
	root := t.TempDir()
	if _, err := gen.Write(root, gen.Options{Skills: 40, Seed: 1}); err != nil {
		t.Fatal(err)
	}
	st, cur := ingestBuild(t, root)
	for _, tc := range []struct {
		name, file, old, new string
		shared               bool
	}{
		{"skill description", "skills/sales/restore-log.md", "Restore log for the sales package.", "Restores the sales log.", true},
		{"satisfies target", "tools/backup-log-api.json", `"backup-log"`, `"restore-log"`, true},
		{"port type", "tools/backup-log-api.json", `"FilesystemPath"`, `"Url"`, true},
		{"lane name", "processes/backup-render.bpmn", `name="Release bot"`, `name="Night bot"`, true},
		{"step names another skill", "processes/backup-render.bpmn", `<x:skill ref="validate-log"/>`, `<x:skill ref="restore-log"/>`, true},
		{"sequence flow", "processes/backup-render.bpmn", `sourceRef="Task_1" targetRef="Task_2"`, `sourceRef="Task_1" targetRef="Task_5"`, true},
		{"step names no skill", "processes/backup-render.bpmn", `<x:skill ref="prune-log"/>`, `<x:skill ref="no-such-skill"/>`, true},
		// A stored finding is no part of the shape: the parse error an
		// edit makes, and the edit that fixes it, keep every other place.
		{"parse finding added", "skills/sales/notify-log.md", "description: Notify log", "description: Note: Notify log", true},
		{"parse finding fixed", "skills/sales/notify-log.md", "description: Note: Notify log", "description: Notify log", true},
		{"skill renamed", "skills/sales/restore-log.md", "skill: restore-log", "skill: restore-logs", false},
		{"tool renamed", "tools/backup-log-api.json", `"id": "backup-log-api"`, `"id": "backup-log-rest"`, false},
	} {
		f := filepath.Join(root, filepath.FromSlash(tc.file))
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(b), tc.old) {
			t.Fatalf("%s: %s does not say %s", tc.name, tc.file, tc.old)
		}
		if err := os.WriteFile(f, []byte(strings.Replace(string(b), tc.old, tc.new, 1)), 0o644); err != nil {
			t.Fatal(err)
		}
		prev := cur
		var rebuilt *Snapshot
		cur, rebuilt = updateAndRebuild(t, st, root, prev)
		if got := cur.lk == prev.lk; got != tc.shared {
			t.Errorf("%s: lookups shared = %v, want %v", tc.name, got, tc.shared)
		}
		got, want := answers(cur), answers(rebuilt)
		got["said"], want["said"] = said(cur), said(rebuilt)
		if !reflect.DeepEqual(got, want) {
			for k := range want {
				if !reflect.DeepEqual(got[k], want[k]) {
					t.Errorf("%s: %s differs:\nupdated: %v\nrebuilt: %v", tc.name, k, got[k], want[k])
				}
			}
		}
	}
}

// said renders what the files say that no analysis reads, as the API
// shows it: texts, port types, lanes.
func said(s *Snapshot) []string {
	var out []string
	for _, sk := range s.Skills {
		out = append(out, sk.IRI+" "+sk.Title+" "+sk.Description)
	}
	for _, t := range s.Tools {
		line := t.IRI + " " + t.Description
		for _, p := range append(append([]*Port(nil), t.Inputs...), t.Outputs...) {
			line += fmt.Sprintf(" %s:%s:%s:%d", p.Name, p.TypeIRI, p.JSONType, p.Position)
		}
		out = append(out, line)
	}
	for _, p := range s.Processes {
		for _, a := range p.Activities {
			out = append(out, a.Key()+" "+a.Title+" "+a.Lane)
		}
	}
	return out
}
