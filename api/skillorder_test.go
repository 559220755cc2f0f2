package api_test

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"testing"

	"github.com/skillgraph/skillgraph/api"
	"github.com/skillgraph/skillgraph/queries"
)

// TestSkillsOrderAndFilter: each page of skills, with and without
// filters, in each order, lists the skills that pass the filter sorted by
// the order's key, whatever was asked of the snapshot before (the sorted
// list is kept per snapshot).
func TestSkillsOrderAndFilter(t *testing.T) {
	_, schema := miniSnapshot(t)
	snap := harnessSnapshot(t)
	type key struct {
		a, b string
	}
	orders := map[string]func(*queries.Skill) key{
		"":        func(s *queries.Skill) key { return key{s.ID, ""} },
		"ID":      func(s *queries.Skill) key { return key{s.ID, ""} },
		"PACKAGE": func(s *queries.Skill) key { return key{s.Package, s.ID} },
		"TIER":    func(s *queries.Skill) key { return key{fmt.Sprint(queries.TriageRank(s.Tier)), s.ID} },
	}
	filters := []struct {
		args string
		keep func(*queries.Skill) bool
	}{
		{"", func(*queries.Skill) bool { return true }},
		{`covered: false`, func(s *queries.Skill) bool { return !s.Covered }},
		{`tiers: ["C","A"]`, func(s *queries.Skill) bool { return s.Tier == "C" || s.Tier == "A" }},
		{`text: "e"`, nil}, // checked by count only: the text match is filters.go's
	}
	tiers := map[string]bool{}
	for _, s := range snap.Skills {
		tiers[s.Tier] = true
	}
	if len(snap.Skills) < 5 || len(tiers) < 3 {
		t.Fatalf("the corpus has %d skills in %d tiers: too few to tell orders apart", len(snap.Skills), len(tiers))
	}
	for _, round := range []string{"first", "again"} {
		for by, k := range orders {
			for _, desc := range []bool{false, true} {
				for _, f := range filters {
					args := f.args
					if by != "" {
						args += " orderBy: " + by
					}
					if desc {
						args += " desc: true"
					}
					q := fmt.Sprintf(`{ skills(%s first: 500) { totalCount nodes { id } } }`, args)
					res := schema.Execute(context.Background(), snap, api.Request{Query: q}, api.DefaultLimits())
					if len(res.Errors) > 0 {
						t.Fatalf("%s: %v", q, res.Errors)
					}
					b, _ := json.Marshal(res.Data)
					var got struct{ Skills page }
					if err := json.Unmarshal(b, &got); err != nil {
						t.Fatal(err)
					}
					if f.keep == nil {
						continue
					}
					var want []*queries.Skill
					for _, s := range snap.Skills {
						if f.keep(s) {
							want = append(want, s)
						}
					}
					slices.SortStableFunc(want, func(x, y *queries.Skill) int {
						c := cmp.Or(cmp.Compare(k(x).a, k(y).a), cmp.Compare(k(x).b, k(y).b))
						if desc {
							return -c
						}
						return c
					})
					ids := make([]string, len(got.Skills.Nodes))
					for i, n := range got.Skills.Nodes {
						ids[i] = n.ID
					}
					wantIDs := make([]string, len(want))
					for i, s := range want {
						wantIDs[i] = s.ID
					}
					if !slices.Equal(ids, wantIDs) || got.Skills.TotalCount != len(want) {
						t.Errorf("%s, %s: total %d, %v\nwant total %d, %v", round, q, got.Skills.TotalCount, ids, len(want), wantIDs)
					}
				}
			}
		}
	}
}
