package server_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/skillgraph/skillgraph/api"
	"github.com/skillgraph/skillgraph/api/server"
	"github.com/skillgraph/skillgraph/graph"
	"github.com/skillgraph/skillgraph/graph/ingest"
	"github.com/skillgraph/skillgraph/ingest/gitsource/gittest"
	"github.com/skillgraph/skillgraph/queries"
	"github.com/skillgraph/skillgraph/queries/history"
)

// TestTalliesPerVersion: every version a serving writer commits (its
// first ingest, a partial one, a triage decision) gets its record in the
// store, with the tallies of the snapshot served and the corpus's HEAD
// commit; an ingest that commits nothing adds none; a restart keeps them
// and does not rewrite the last one; GraphQL's history pages through
// them by version cursors and trend draws one metric of each.
func TestTalliesPerVersion(t *testing.T) {
	ctx := context.Background()
	repo := gittest.Init(t, filepath.Join(t.TempDir(), "repo"))
	corpus := filepath.Join(repo.Dir, "harness")
	head := repo.Commit("the example", func(string) { gittest.CopyTree(t, "../../examples/harness", corpus) })
	url := "bbolt:" + filepath.Join(t.TempDir(), "g.db")
	st, err := graph.Open(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	svc := server.NewService(st, []string{corpus}, ingest.Options{}, nil, nil)
	if _, err := svc.Refresh(ctx); err != nil {
		t.Fatal(err)
	}
	var want []history.Tallies // the served snapshot's, per version
	for _, step := range []struct {
		name  string
		run   func() error
		added bool
	}{
		{"the first ingest (answers before durability)", func() error { _, err := svc.IngestEarly(ctx); return err }, true},
		{"a Tool removed", func() error {
			if err := os.Remove(filepath.Join(corpus, "tools", "outline-gen.json")); err != nil {
				return err
			}
			_, err := svc.Ingest(ctx)
			return err
		}, true},
		{"a triage decision", func() error {
			_, err := svc.RecordTriage(ctx, svc.Snapshot().Coverage.Uncovered[0].ID, "judgement", "")
			return err
		}, true},
		{"nothing changed", func() error { _, err := svc.Ingest(ctx); return err }, false},
	} {
		if err := step.run(); err != nil {
			t.Fatalf("%s: %v", step.name, err)
		}
		snap := svc.Snapshot()
		if step.added {
			want = append(want, history.Of(snap).Bounded(history.TopCodes))
		}
		got, _, err := history.Stored(ctx, st)
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != len(want) {
			t.Fatalf("%s: %d records, want %d", step.name, len(got), len(want))
		}
		last := got[len(got)-1]
		if last.Version != snap.Version || !reflect.DeepEqual(last.Tallies, want[len(want)-1]) || last.Commit != head {
			t.Fatalf("%s: last record version %d commit %s\n%+v\nwant version %d commit %s\n%+v", step.name, last.Version, last.Commit, last.Tallies, snap.Version, head, want[len(want)-1])
		}
	}
	if reflect.DeepEqual(want[0], want[1]) {
		t.Fatal("removing a Tool changed no tally: the test tests nothing")
	}
	before, _, _ := history.Stored(ctx, st)
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}

	// A restart: the records are kept, and the warm start's ingest of an
	// unchanged corpus writes none.
	st, err = graph.Open(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	svc = server.NewService(st, []string{corpus}, ingest.Options{}, nil, nil)
	if _, err := svc.Refresh(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := svc.Ingest(ctx); err != nil {
		t.Fatal(err)
	}
	if after, _, _ := history.Stored(ctx, st); !reflect.DeepEqual(after, before) {
		t.Fatalf("after a restart:\n%+v\nwant\n%+v", after, before)
	}

	// GraphQL reads them.
	schema, err := api.NewSchema()
	if err != nil {
		t.Fatal(err)
	}
	query := func(q string, out any) {
		t.Helper()
		res := schema.Execute(api.WithHistory(ctx, svc), svc.Snapshot(), api.Request{Query: q}, api.DefaultLimits())
		if len(res.Errors) > 0 {
			t.Fatalf("%s: %v", q, res.Errors)
		}
		b, _ := json.Marshal(res.Data)
		if err := json.Unmarshal(b, out); err != nil {
			t.Fatal(err)
		}
	}
	type page struct {
		History struct {
			TotalCount int
			Edges      []struct {
				Cursor string
				Node   struct {
					Version int64
					Commit  string
					Time    string
					Tallies struct {
						Coverage     struct{ Total, Covered, Uncovered int }
						Reachability struct{ Tools, UnreachableTools int }
					}
				}
			}
			PageInfo struct {
				HasNextPage bool
				EndCursor   string
			}
		}
	}
	const fields = `totalCount edges { cursor node { version commit time tallies { coverage { total covered uncovered } reachability { tools unreachableTools } } } } pageInfo { hasNextPage endCursor }`
	var versions []int64
	after := ""
	for n := 0; ; n++ {
		var p page
		query(fmt.Sprintf(`{ history(first: 2%s) { %s } }`, after, fields), &p)
		if p.History.TotalCount != len(want) {
			t.Fatalf("totalCount %d, want %d", p.History.TotalCount, len(want))
		}
		for _, e := range p.History.Edges {
			i := len(versions)
			versions = append(versions, e.Node.Version)
			tl := e.Node.Tallies
			if e.Node.Commit != head || e.Node.Time == "" || tl.Coverage.Total != want[i].Coverage.Total || tl.Coverage.Covered != want[i].Coverage.Covered ||
				tl.Reachability.Tools != want[i].Reachability.Tools || tl.Reachability.UnreachableTools != want[i].Reachability.UnreachableTools {
				t.Fatalf("version %d: %+v, want %+v (commit %s)", e.Node.Version, e.Node, want[i], head)
			}
		}
		if !p.History.PageInfo.HasNextPage {
			break
		}
		if n > len(want) {
			t.Fatal("history pages without end")
		}
		after = fmt.Sprintf(`, after: %q`, p.History.PageInfo.EndCursor)
	}
	if !reflect.DeepEqual(versions, []int64{1, 2, 3}) {
		t.Fatalf("paged versions %v, want [1 2 3]", versions)
	}
	var tr struct {
		Trend []struct {
			Version int64
			Value   float64
		}
	}
	query(`{ trend(metric: TOOLS) { version value } }`, &tr)
	for i, p := range tr.Trend {
		if p.Version != versions[i] || p.Value != float64(want[i].Reachability.Tools) {
			t.Fatalf("trend point %d: %+v, want version %d value %d", i, p, versions[i], want[i].Reachability.Tools)
		}
	}
	if len(tr.Trend) != len(want) {
		t.Fatalf("%d trend points, want %d", len(tr.Trend), len(want))
	}
}

// TestTalliesInTheWrite: an ingest that knows the snapshot of the version
// it commits before the commit (the update computed alongside the write,
// or the early snapshot served) records its tallies in the version's own
// transaction, so they are in the store when the write returns; a first
// write into an empty store and a triage decision are recorded right
// after it. Either way the record is the served snapshot's.
func TestTalliesInTheWrite(t *testing.T) {
	ctx := context.Background()
	corpus := filepath.Join(t.TempDir(), "harness")
	gittest.CopyTree(t, "../../examples/harness", corpus)
	st, err := graph.Open(ctx, "bbolt:"+filepath.Join(t.TempDir(), "g.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	svc := server.NewService(st, []string{corpus}, ingest.Options{}, nil, nil)
	if _, err := svc.Refresh(ctx); err != nil {
		t.Fatal(err)
	}
	inWrite := map[int64]bool{} // by version: its record was there when the write returned
	server.SetBeforeRecord(svc, func(v int64) {
		have, _, err := history.Stored(ctx, st)
		if err != nil {
			t.Error(err)
		}
		inWrite[v] = len(have) > 0 && have[len(have)-1].Version == v
	})
	remove := func(name string) func() error {
		return func() error { return os.Remove(filepath.Join(corpus, "tools", name)) }
	}
	for _, step := range []struct {
		name    string
		edit    func() error
		run     func() error
		inWrite bool
	}{
		{"the first write", nil, func() error { _, err := svc.IngestEarly(ctx); return err }, false},
		{"an ingest, updated while written", remove("outline-gen.json"), func() error { _, err := svc.Ingest(ctx); return err }, true},
		{"an early ingest", remove("fact-check.json"), func() error { _, err := svc.IngestEarly(ctx); return err }, true},
		{"a triage decision", nil, func() error {
			_, err := svc.RecordTriage(ctx, svc.Snapshot().Coverage.Uncovered[0].ID, "judgement", "")
			return err
		}, false},
	} {
		if step.edit != nil {
			if err := step.edit(); err != nil {
				t.Fatalf("%s: %v", step.name, err)
			}
		}
		if err := step.run(); err != nil {
			t.Fatalf("%s: %v", step.name, err)
		}
		snap := svc.Snapshot()
		if got, ok := inWrite[snap.Version]; !ok || got != step.inWrite {
			t.Fatalf("%s: version %d recorded in the write: %v (seen %v), want %v", step.name, snap.Version, got, ok, step.inWrite)
		}
		have, _, err := history.Stored(ctx, st)
		if err != nil {
			t.Fatal(err)
		}
		last := have[len(have)-1]
		if want := history.Of(snap).Bounded(history.TopCodes); last.Version != snap.Version || !reflect.DeepEqual(last.Tallies, want) {
			t.Fatalf("%s: last record version %d\n%+v\nwant version %d\n%+v", step.name, last.Version, last.Tallies, snap.Version, want)
		}
		// What changed is known where the snapshot before was: in the write.
		if (last.Changes != nil) != step.inWrite {
			t.Fatalf("%s: changes %+v, want them known: %v", step.name, last.Changes, step.inWrite)
		}
		if step.inWrite && len(last.Changes.RemovedTools.IDs) == 0 {
			t.Fatalf("%s: removed Tools %v, want the file's", step.name, last.Changes.RemovedTools)
		}
	}
}

// pkgRow is a GraphQL PackageTallies.
type pkgRow struct {
	Kind                                          string
	Name                                          *string
	Skills, Covered, Uncovered, Reachable, Errors int
}

// fixedHistory is a HistoryReader of fixed versions.
type fixedHistory []history.Version

func (f fixedHistory) History(context.Context, *queries.Snapshot) ([]history.Version, error) {
	return f, nil
}

// TestTalliesPackagesInGraphQL: GraphVersion.tallies.packages answers the
// stored per-package counts of each version, the other entry with a null
// name, and null (not an empty list) for a version recorded before they
// were kept; trend(metric, package|plugin) draws one package's counts.
func TestTalliesPackagesInGraphQL(t *testing.T) {
	ctx := context.Background()
	st, err := graph.Open(ctx, "memory")
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	svc := server.NewService(st, []string{"../../examples/harness"}, ingest.Options{}, nil, nil)
	if _, err := svc.Ingest(ctx); err != nil {
		t.Fatal(err)
	}
	stored, _, err := history.Stored(ctx, st)
	if err != nil || len(stored) == 0 {
		t.Fatalf("stored %v, %v", stored, err)
	}
	now := stored[len(stored)-1]
	if len(now.Tallies.Packages) == 0 {
		t.Fatal("the example's record has no packages: nothing is tested")
	}
	old := now
	old.Version, old.Tallies.Packages = now.Version-1, nil
	bounded := now
	bounded.Version++
	bounded.Tallies.Packages = append(now.Tallies.Packages[:1:1], history.PackageTally{Kind: history.KindOther, Skills: 3, Covered: 1, Uncovered: 2, Errors: 4})
	schema, err := api.NewSchema()
	if err != nil {
		t.Fatal(err)
	}
	res := schema.Execute(api.WithHistory(ctx, fixedHistory{old, now, bounded}), svc.Snapshot(),
		api.Request{Query: `{ history { nodes { version tallies { packages { kind name skills covered uncovered reachable errors } } } } }`}, api.DefaultLimits())
	if len(res.Errors) > 0 {
		t.Fatal(res.Errors)
	}
	b, _ := json.Marshal(res.Data)
	var got struct {
		History struct {
			Nodes []struct {
				Version int64
				Tallies struct{ Packages *[]pkgRow }
			}
		}
	}
	if err := json.Unmarshal(b, &got); err != nil {
		t.Fatal(err)
	}
	rows := func(ps []history.PackageTally) []pkgRow {
		out := []pkgRow{}
		for _, p := range ps {
			r := pkgRow{Kind: p.Kind, Skills: p.Skills, Covered: p.Covered, Uncovered: p.Uncovered, Reachable: p.Reachable, Errors: p.Errors}
			if p.Name != "" {
				r.Name = &p.Name
			}
			out = append(out, r)
		}
		return out
	}
	nodes := got.History.Nodes
	if len(nodes) != 3 {
		t.Fatalf("%d versions: %s", len(nodes), b)
	}
	if nodes[0].Tallies.Packages != nil {
		t.Errorf("a version without packages answers %+v, want null", *nodes[0].Tallies.Packages)
	}
	for i, v := range []history.Version{now, bounded} {
		if p := nodes[i+1].Tallies.Packages; p == nil || !reflect.DeepEqual(*p, rows(v.Tallies.Packages)) {
			t.Errorf("version %d: packages %s, want %+v", v.Version, b, rows(v.Tallies.Packages))
		}
	}

	// trend(metric, package): the package's own counts, a version that
	// does not know them left out.
	first, second := now.Tallies.Packages[0], now.Tallies.Packages[1]
	if first.Kind != history.KindPackage || second.Kind != history.KindPackage {
		t.Fatalf("the example's largest are not packages: %+v", now.Tallies.Packages)
	}
	type pt struct {
		Version int64
		Value   float64
	}
	for _, tc := range []struct {
		name, args string
		want       []pt
	}{
		{"the largest package", fmt.Sprintf(`metric: SKILLS, package: %q`, first.Name),
			[]pt{{now.Version, float64(first.Skills)}, {bounded.Version, float64(first.Skills)}}},
		{"its coverage", fmt.Sprintf(`metric: COVERAGE, package: %q`, first.Name),
			[]pt{{now.Version, float64(first.Covered) / float64(first.Skills)}, {bounded.Version, float64(first.Covered) / float64(first.Skills)}}},
		{"one counted in other", fmt.Sprintf(`metric: UNCOVERED, package: %q`, second.Name), []pt{{now.Version, float64(second.Uncovered)}}},
		{"none: zero where the list is whole", `metric: ERRORS, package: "no-such-package"`, []pt{{now.Version, 0}}},
		{"a plugin of that name: none", fmt.Sprintf(`metric: SKILLS, plugin: %q`, first.Name), []pt{{now.Version, 0}}},
	} {
		res := schema.Execute(api.WithHistory(ctx, fixedHistory{old, now, bounded}), svc.Snapshot(),
			api.Request{Query: fmt.Sprintf(`{ trend(%s) { version value } }`, tc.args)}, api.DefaultLimits())
		if len(res.Errors) > 0 {
			t.Fatalf("%s: %v", tc.name, res.Errors)
		}
		b, _ := json.Marshal(res.Data)
		var got struct{ Trend []pt }
		if err := json.Unmarshal(b, &got); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got.Trend, tc.want) {
			t.Errorf("%s: trend %+v, want %+v", tc.name, got.Trend, tc.want)
		}
	}
	for _, args := range []string{`metric: TOOLS, package: "site"`, `metric: SKILLS, package: "a", plugin: "b"`} {
		res := schema.Execute(api.WithHistory(ctx, fixedHistory{old, now, bounded}), svc.Snapshot(),
			api.Request{Query: fmt.Sprintf(`{ trend(%s) { version value } }`, args)}, api.DefaultLimits())
		if len(res.Errors) == 0 {
			t.Errorf("trend(%s) answered", args)
		}
	}
}
