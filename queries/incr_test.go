package queries

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/skillgraph/skillgraph/graph/ingest"
	"github.com/skillgraph/skillgraph/ingest/gen"
)

// TestUpdateEqualsBuildAfterShapeKeepingEdits: on a larger generated model
// (the benchmarks' generator and shape, at a size the race detector runs
// in seconds), a random sequence of edits that mostly keep the shape —
// so the incremental analyses run — answers like a rebuild after every
// step: descriptions (the dispatch graph is unchanged: the walk is
// reused), a Tool's satisfied skills moved or dropped and its install
// changed (the graph changes: the walk runs again), and now and then a
// copied file (a new shape: the full path). Round two (issue #27) adds
// the inputs of alternatives and of the process analyses: a Tool's
// selection dropped, an input port retyped (its signature changes), its
// outputs dropped, a process element renamed, and a Tool file removed (a
// new shape), on a larger model. The test also asserts that each path was
// taken, so that it cannot pass by never reusing.
func TestUpdateEqualsBuildAfterShapeKeepingEdits(t *testing.T) {
	ctx := context.Background()
	root := t.TempDir()
	if _, err := gen.Write(root, gen.Options{Skills: 400, Seed: 27}); err != nil {
		t.Fatal(err)
	}
	st, cur := ingestBuild(t, root)
	var skillNames []string
	for _, sk := range cur.Skills {
		skillNames = append(skillNames, sk.ID)
	}
	rng := rand.New(rand.NewPCG(27, 3))
	var reused, walked, reshaped, callsKept, callsMoved int
	for step := range 40 {
		skills, tools := filesUnder(t, root, "skills", ".md"), filesUnder(t, root, "tools", ".json")
		procs := filesUnder(t, root, "processes", ".bpmn")
		var op string
		k := rng.IntN(18)
		if step%8 == 3 {
			k = 14 // a call moved, every eighth step: the workflow walks change
		}
		switch {
		case k < 3:
			f := skills[rng.IntN(len(skills))]
			op = "describe " + f
			rewrite(t, f, func(b string) string {
				return strings.Replace(b, "description: ", fmt.Sprintf("description: Edited %d. ", step), 1)
			})
		case k < 5:
			f := tools[rng.IntN(len(tools))]
			op = "describe " + f
			editJSON(t, f, func(m map[string]any) { m["description"] = fmt.Sprintf("Edited %d.", step) })
		case k < 7:
			f := tools[rng.IntN(len(tools))]
			to := skillNames[rng.IntN(len(skillNames))]
			op = "retarget " + f + " to " + to
			editJSON(t, f, func(m map[string]any) { m["satisfies"] = []any{to} })
		case k < 8:
			f := tools[rng.IntN(len(tools))]
			op = "unsatisfy " + f
			editJSON(t, f, func(m map[string]any) { m["satisfies"] = []any{} })
		case k < 9:
			f := tools[rng.IntN(len(tools))]
			op = "install " + f
			editJSON(t, f, func(m map[string]any) { m["install"] = map[string]any{"cli": "apt-get install gh jq"} })
		case k < 10:
			f := tools[rng.IntN(len(tools))]
			op = "unselect " + f
			editJSON(t, f, func(m map[string]any) { delete(m, "selection") })
		case k < 11:
			f := tools[rng.IntN(len(tools))]
			op = "retype " + f
			editJSON(t, f, func(m map[string]any) {
				if io, ok := m["io"].(map[string]any); ok {
					if ins, ok := io["inputs"].([]any); ok && len(ins) > 0 {
						ins[0].(map[string]any)["type"] = "Slug"
					}
				}
			})
		case k < 12:
			f := tools[rng.IntN(len(tools))]
			op = "no outputs " + f
			editJSON(t, f, func(m map[string]any) {
				if io, ok := m["io"].(map[string]any); ok {
					delete(io, "outputs")
				}
			})
		case k < 14:
			f := procs[rng.IntN(len(procs))]
			op = "rename in " + f
			rewrite(t, f, func(b string) string {
				return strings.Replace(b, `name="`, fmt.Sprintf(`name="Edited %d `, step), 1)
			})
		case k < 16:
			f := procs[rng.IntN(len(procs))]
			to := procIDs(t, procs)[rng.IntN(len(procs))]
			op = "recall in " + f + " to " + to
			rewrite(t, f, func(b string) string {
				i := strings.Index(b, `calledElement="`)
				if i < 0 {
					return strings.Replace(b, `<bpmn:userTask id="`, `<bpmn:callActivity calledElement="`+to+`" id="Call_`, 1)
				}
				j := i + len(`calledElement="`)
				return b[:j] + to + b[j+strings.IndexByte(b[j:], '"'):]
			})
		case k < 17:
			f := tools[rng.IntN(len(tools))]
			op = "remove " + f
			if err := os.Remove(f); err != nil {
				t.Fatal(err)
			}
		default:
			f := skills[rng.IntN(len(skills))]
			op = "copy " + f
			b, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			cp := strings.TrimSuffix(f, ".md") + fmt.Sprintf("-copy%d.md", step)
			if err := os.WriteFile(cp, []byte(renameSkill(string(b), cp)), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		res, err := ingest.Run(ctx, st, []string{root}, ingest.Options{})
		if err != nil {
			t.Fatal(err)
		}
		prev := cur
		cur = prev.Update(res.Changes, res.Version)
		if cur.walks == prev.walks {
			callsKept++
		} else {
			callsMoved++
		}
		switch {
		case cur.lk != prev.lk:
			reshaped++
		case cur.Reach.reused:
			reused++
		default:
			walked++
		}
		if cur.prev != nil {
			t.Fatalf("step %d (%s): the updated snapshot still holds the previous one", step, op)
		}
		rebuilt, err := Build(ctx, st)
		if err != nil {
			t.Fatal(err)
		}
		if rebuilt.Reach.reused || rebuilt.walks == cur.walks {
			t.Fatalf("step %d: a Build reused a walk", step)
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
	t.Logf("walk reused %d, walked again %d, new shape %d; workflow walks reused %d, walked again %d", reused, walked, reshaped, callsKept, callsMoved)
	if reused < 3 || walked < 2 || reshaped < 1 || callsKept < 3 || callsMoved < 2 {
		t.Fatalf("walk reused %d, walked again %d, new shape %d; workflow walks reused %d, walked again %d: each path must be taken",
			reused, walked, reshaped, callsKept, callsMoved)
	}
}

// procIDs are the ids of the processes the BPMN files define.
func procIDs(t *testing.T, files []string) []string {
	t.Helper()
	var out []string
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, part := range strings.Split(string(b), `<bpmn:process id="`)[1:] {
			out = append(out, part[:strings.IndexByte(part, '"')])
		}
	}
	return out
}

// filesUnder are the files of root/dir ending in ext, in path order.
func filesUnder(t *testing.T, root, dir, ext string) []string {
	t.Helper()
	var out []string
	for _, f := range corpusFiles(t, filepath.Join(root, dir)) {
		if strings.HasSuffix(f, ext) {
			out = append(out, f)
		}
	}
	if len(out) == 0 {
		t.Fatalf("no %s file under %s", ext, dir)
	}
	return out
}

func rewrite(t *testing.T, path string, edit func(string) string) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(edit(string(b))), 0o644); err != nil {
		t.Fatal(err)
	}
}

func editJSON(t *testing.T, path string, edit func(map[string]any)) {
	t.Helper()
	rewrite(t, path, func(b string) string {
		var m map[string]any
		if err := json.Unmarshal([]byte(b), &m); err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		edit(m)
		out, err := json.MarshalIndent(m, "", "  ")
		if err != nil {
			t.Fatal(err)
		}
		return string(out) + "\n"
	})
}

// TestProgramsInstalledEqualsNaive holds the install-word index to the
// plain rule it replaced: a program is installed when some Tool's install
// object, split into words, names it, or (not dynamic) it is a path.
func TestProgramsInstalledEqualsNaive(t *testing.T) {
	root := t.TempDir()
	if _, err := gen.Write(root, gen.Options{Skills: 200, Seed: 5}); err != nil {
		t.Fatal(err)
	}
	for _, corpus := range append([]string{root}, propertyCorpora...) {
		_, s := ingestBuild(t, corpus)
		if len(s.Programs) == 0 {
			t.Fatalf("%s: no program to check", corpus)
		}
		var installed int
		for _, p := range s.Programs {
			want := !p.Dynamic && strings.Contains(p.Name, "/")
			for _, tl := range s.Tools {
				for _, w := range strings.FieldsFunc(tl.InstallJSON, installSep) {
					want = want || w == p.Name
				}
			}
			if p.Installed != want {
				t.Errorf("%s: program %s installed %v, want %v", corpus, p.Name, p.Installed, want)
			}
			if want {
				installed++
			}
		}
		t.Logf("%s: %d programs, %d installed", corpus, len(s.Programs), installed)
	}
}
