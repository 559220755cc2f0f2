package api_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/skillgraph/skillgraph/api"
	"github.com/skillgraph/skillgraph/queries"
	"github.com/skillgraph/skillgraph/queries/diff"
	"github.com/skillgraph/skillgraph/queries/history"
	"github.com/skillgraph/skillgraph/queries/querytest"
)

// fakeHistory is a HistoryReader of fixed versions.
type fakeHistory []history.Version

func (f fakeHistory) History(context.Context, *queries.Snapshot) ([]history.Version, error) {
	return f, nil
}

// TestStateSince: Skill.coveredSince and reachableSince name the newest
// version whose changes list the skill moving into its present state (or
// added), and are null whenever the kept history cannot say: a version
// of unknown changes or with names left out before one is found, a list
// that has it moving the other way, or the start of the kept history.
// The history edges carry the same changes.
func TestStateSince(t *testing.T) {
	ctx := context.Background()
	snap := querytest.Build(t, "../examples/harness")
	schema, err := api.NewSchema()
	if err != nil {
		t.Fatal(err)
	}
	var key string
	var sk *queries.Skill
	for k, s := range diff.SkillKeys(snap) {
		if s.Covered && s.Reachable && (key == "" || k < key) {
			key, sk = k, s
		}
	}
	if sk == nil {
		t.Fatal("the example has no covered, reachable skill")
	}
	whole := func(c history.StateChanges) *history.StateChanges {
		for _, l := range []*history.IDs{&c.NewlyCovered, &c.NewlyUncovered, &c.ReachableSkills, &c.UnreachableSkill, &c.AddedSkills,
			&c.RemovedSkills, &c.ReachableTools, &c.UnreachableTools, &c.AddedTools, &c.RemovedTools} {
			if l.IDs == nil {
				l.IDs = []string{}
			}
		}
		return &c
	}
	of := func(names ...string) history.IDs { return history.IDs{IDs: names} }
	v := func(n int64, c *history.StateChanges) history.Version {
		return history.Version{Version: n, Changes: c, Record: history.Record{Commit: "c0ffee"}}
	}
	none := whole(history.StateChanges{})
	for _, tc := range []struct {
		name               string
		hist               fakeHistory
		covered, reachable int64 // 0: null
	}{
		{"covered in 2, reachable in 3", fakeHistory{v(1, nil), v(2, whole(history.StateChanges{NewlyCovered: of(key)})),
			v(3, whole(history.StateChanges{ReachableSkills: of(key)})), v(4, none)}, 2, 3},
		{"added in 2", fakeHistory{v(1, nil), v(2, whole(history.StateChanges{AddedSkills: of(key)})), v(3, none)}, 2, 2},
		{"names left out after it", fakeHistory{v(1, nil), v(2, whole(history.StateChanges{AddedSkills: of(key)})),
			v(3, whole(history.StateChanges{NewlyCovered: history.IDs{IDs: []string{}, More: 3}}))}, 0, 2},
		{"unknown changes after it", fakeHistory{v(2, whole(history.StateChanges{AddedSkills: of(key)})), v(3, nil), v(4, none)}, 0, 0},
		{"the kept history ends first", fakeHistory{v(7, none), v(8, none)}, 0, 0},
		{"the history says it moved out", fakeHistory{v(2, whole(history.StateChanges{AddedSkills: of(key)})),
			v(3, whole(history.StateChanges{NewlyUncovered: of(key), UnreachableSkill: of(key)}))}, 0, 0},
	} {
		res := schema.Execute(api.WithHistory(ctx, tc.hist), snap, api.Request{
			Query:     `query($id: ID!) { skill(id: $id) { iri coveredSince { version commit } reachableSince { version } } history { edges { node { version changes { addedSkills { ids more } } } } } }`,
			Variables: map[string]any{"id": key}}, api.DefaultLimits())
		if len(res.Errors) > 0 {
			t.Fatalf("%s: %v", tc.name, res.Errors)
		}
		b, _ := json.Marshal(res.Data)
		var d struct {
			Skill struct {
				IRI          string
				CoveredSince *struct {
					Version int64
					Commit  string
				}
				ReachableSince *struct{ Version int64 }
			}
			History struct {
				Edges []struct {
					Node struct {
						Version int64
						Changes *struct{ AddedSkills struct{ IDs []string } }
					}
				}
			}
		}
		if err := json.Unmarshal(b, &d); err != nil {
			t.Fatal(err)
		}
		if d.Skill.IRI != sk.IRI {
			t.Fatalf("%s: skill %q, want %q", tc.name, d.Skill.IRI, sk.IRI)
		}
		got := func(p *int64) int64 {
			if p == nil {
				return 0
			}
			return *p
		}
		var c, r *int64
		if d.Skill.CoveredSince != nil {
			c = &d.Skill.CoveredSince.Version
			if d.Skill.CoveredSince.Commit != "c0ffee" {
				t.Errorf("%s: commit %q", tc.name, d.Skill.CoveredSince.Commit)
			}
		}
		if d.Skill.ReachableSince != nil {
			r = &d.Skill.ReachableSince.Version
		}
		if got(c) != tc.covered || got(r) != tc.reachable {
			t.Errorf("%s: coveredSince %d reachableSince %d, want %d %d (0: null)", tc.name, got(c), got(r), tc.covered, tc.reachable)
		}
		for i, e := range d.History.Edges {
			if (e.Node.Changes == nil) != (tc.hist[i].Changes == nil) {
				t.Errorf("%s: version %d changes %v, want known: %v", tc.name, e.Node.Version, e.Node.Changes, tc.hist[i].Changes != nil)
			}
		}
	}
}
