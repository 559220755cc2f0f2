package history_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"github.com/cayleygraph/quad"

	"github.com/skillgraph/skillgraph/graph"
	"github.com/skillgraph/skillgraph/ingest/gitsource/gittest"
	"github.com/skillgraph/skillgraph/queries/history"
	"github.com/skillgraph/skillgraph/queries/querytest"
)

func ids(more int, names ...string) history.IDs {
	if names == nil {
		names = []string{}
	}
	return history.IDs{IDs: names, More: more}
}

// TestChangesOf: removing a Tool from the example lists it as removed,
// the skills it alone covered as newly uncovered, and nothing else moves
// the other way; the reverse step says the opposite.
func TestChangesOf(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "harness")
	gittest.CopyTree(t, "../../examples/harness", dir)
	before := querytest.Build(t, dir)
	if err := os.Remove(filepath.Join(dir, "tools", "outline-gen.json")); err != nil {
		t.Fatal(err)
	}
	after := querytest.Build(t, dir)
	c := history.ChangesOf(before, after)
	if !reflect.DeepEqual(c.RemovedTools.IDs, []string{"outline-gen"}) || len(c.AddedTools.IDs)+len(c.NewlyCovered.IDs)+len(c.AddedSkills.IDs)+len(c.RemovedSkills.IDs) != 0 {
		t.Fatalf("changes %+v", c)
	}
	if len(c.NewlyUncovered.IDs) == 0 {
		t.Fatalf("no skill uncovered by removing outline-gen: %+v", c)
	}
	back := history.ChangesOf(after, before)
	if !reflect.DeepEqual(back.AddedTools, c.RemovedTools) || !reflect.DeepEqual(back.NewlyCovered, c.NewlyUncovered) ||
		!reflect.DeepEqual(back.ReachableSkills, c.UnreachableSkill) || !reflect.DeepEqual(back.UnreachableSkill, c.ReachableSkills) {
		t.Fatalf("the step back %+v is not the opposite of %+v", back, c)
	}
	// There and back again: nothing changed state, but the Tool removed
	// and added again is added (its state holds since then).
	got := history.Merge(c, back)
	want := history.ChangesOf(before, before)
	want.AddedTools, want.NewErrors = c.RemovedTools, c.NewErrors+back.NewErrors
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("there and back again merged to %+v, want %+v", got, want)
	}
}

// TestMerge: two steps merged are what changed over both, a list that
// left names out stays marked so, and the lists stay bounded.
func TestMerge(t *testing.T) {
	many := make([]string, history.MaxChangedIDs)
	for i := range many {
		many[i] = fmt.Sprintf("m%03d", i)
	}
	for _, tc := range []struct {
		name           string
		earlier, later history.StateChanges
		want           history.StateChanges
	}{
		{"covered then uncovered: neither",
			history.StateChanges{NewlyCovered: ids(0, "a", "b")},
			history.StateChanges{NewlyUncovered: ids(0, "a")},
			history.StateChanges{NewlyCovered: ids(0, "b"), NewlyUncovered: ids(0)}},
		{"uncovered, then covered elsewhere",
			history.StateChanges{NewlyUncovered: ids(0, "a")},
			history.StateChanges{NewlyCovered: ids(0, "b")},
			history.StateChanges{NewlyCovered: ids(0, "b"), NewlyUncovered: ids(0, "a")}},
		{"removed then added: added; added then removed: neither",
			history.StateChanges{RemovedTools: ids(0, "t"), AddedTools: ids(0, "u")},
			history.StateChanges{AddedTools: ids(0, "t"), RemovedTools: ids(0, "u")},
			history.StateChanges{AddedTools: ids(0, "t"), RemovedTools: ids(0)}},
		{"names left out add up; the list is cut at the bound",
			history.StateChanges{UnreachableTools: ids(3, many...), NewErrors: 2},
			history.StateChanges{UnreachableTools: ids(1, "zz"), NewErrors: 1},
			history.StateChanges{UnreachableTools: ids(5, many...), ReachableTools: ids(0), NewErrors: 3}},
	} {
		got := history.Merge(&tc.earlier, &tc.later)
		want := tc.want
		norm := func(c *history.StateChanges) string {
			return fmt.Sprintf("%v %v %v %v %v %v %v %v %v %v %d", c.NewlyCovered, c.NewlyUncovered, c.ReachableSkills, c.UnreachableSkill,
				c.AddedSkills, c.RemovedSkills, c.ReachableTools, c.UnreachableTools, c.AddedTools, c.RemovedTools, c.NewErrors)
		}
		if norm(got) != norm(&want) {
			t.Errorf("%s:\n got %s\nwant %s", tc.name, norm(got), norm(&want))
		}
	}
}

// TestEncodeChanges: a record with changes reads back with them, one
// without reads back without (not known), and MergeData keeps the later
// tallies with the merged changes, or none when a side had none.
func TestEncodeChanges(t *testing.T) {
	rec := history.Record{Commit: "0123456789abcdef0123456789abcdef01234567"}
	rec.Tallies.Coverage.Total = 7
	a := &history.StateChanges{NewlyCovered: ids(0, "a")}
	b := &history.StateChanges{NewlyUncovered: ids(0, "a"), AddedTools: ids(2, "t")}
	withA, err := history.Encode(rec, a)
	if err != nil {
		t.Fatal(err)
	}
	rec2 := rec
	rec2.Tallies.Coverage.Total = 8
	withB, _ := history.Encode(rec2, b)
	without, _ := history.Encode(rec2, nil)
	if len(without) != history.RecordSize {
		t.Fatalf("a record without changes is %d bytes, want %d", len(without), history.RecordSize)
	}
	for _, tc := range []struct {
		name      string
		data      []byte
		wantTotal int
		want      *history.StateChanges
	}{
		{"with changes", withA, 7, history.Merge(&history.StateChanges{}, a)},
		{"without", without, 8, nil},
		{"merged", history.MergeData(withA, withB), 8, history.Merge(a, b)},
		{"merged with one not known", history.MergeData(without, withB), 8, nil},
	} {
		v, skipped, err := storedOne(t, tc.data)
		if err != nil || skipped != 0 {
			t.Fatalf("%s: %v, %d skipped", tc.name, err, skipped)
		}
		if v.Tallies.Coverage.Total != tc.wantTotal || !reflect.DeepEqual(v.Changes, tc.want) {
			t.Fatalf("%s: total %d changes %+v, want %d %+v", tc.name, v.Tallies.Coverage.Total, v.Changes, tc.wantTotal, tc.want)
		}
	}
}

// storedOne is data stored as the record of version 1 of a memory store,
// read back.
func storedOne(t *testing.T, data []byte) (history.Version, int, error) {
	t.Helper()
	ctx := context.Background()
	st, err := graph.Open(ctx, "memory")
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if _, err := st.Apply(ctx, []graph.Change{{Graph: "urn:g", Quads: []quad.Quad{{Subject: quad.IRI("urn:s"), Predicate: quad.IRI("urn:p"), Object: quad.String("o"), Label: quad.IRI("urn:g")}}}}); err != nil {
		t.Fatal(err)
	}
	if err := st.PutTallies(ctx, 1, time.Now(), data, nil); err != nil {
		t.Fatal(err)
	}
	vs, skipped, err := history.Stored(ctx, st)
	if err != nil || len(vs) != 1 {
		t.Fatalf("stored %v, %v", vs, err)
	}
	return vs[0], skipped, err
}
