package history_test

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/skillgraph/skillgraph/queries"
	"github.com/skillgraph/skillgraph/queries/history"
	"github.com/skillgraph/skillgraph/queries/querytest"
)

// wantPackages counts the packages and plugins of s straight from its
// skills (the counts the snapshot itself reports: Skill.Package,
// Skill.Plugin, Covered, Reachable, the uncovered list, error findings),
// keyed "kind/name".
func wantPackages(s *queries.Snapshot) map[string]history.PackageTally {
	unc := map[*queries.Skill]bool{}
	for _, sk := range s.Coverage.Uncovered {
		unc[sk] = true
	}
	out := map[string]history.PackageTally{}
	for _, sk := range s.Skills {
		for _, k := range [][2]string{{history.KindPackage, sk.Package}, {history.KindPlugin, pluginName(sk)}} {
			if k[1] == "" {
				continue
			}
			t := out[k[0]+"/"+k[1]]
			t.Kind, t.Name = k[0], k[1]
			t.Skills++
			if sk.Covered {
				t.Covered++
			}
			if unc[sk] {
				t.Uncovered++
			}
			if sk.Reachable {
				t.Reachable++
			}
			for _, f := range sk.Findings {
				if f.Severity == "error" {
					t.Errors++
				}
			}
			out[k[0]+"/"+k[1]] = t
		}
	}
	return out
}

func pluginName(sk *queries.Skill) string {
	if sk.Plugin == nil {
		return ""
	}
	return sk.Plugin.Name
}

// keyed is ts keyed "kind/name", failing on a name given twice.
func keyed(t *testing.T, ts []history.PackageTally) map[string]history.PackageTally {
	t.Helper()
	out := map[string]history.PackageTally{}
	for _, p := range ts {
		k := p.Kind + "/" + p.Name
		if _, dup := out[k]; dup {
			t.Fatalf("%s given twice", k)
		}
		out[k] = p
	}
	return out
}

// TestPackagesOf: the example's per-package tallies are its skills'
// counts, largest first, and it has packages to count.
func TestPackagesOf(t *testing.T) {
	s := querytest.Build(t, example)
	got := history.Of(s).Packages
	if len(got) < 2 {
		t.Fatalf("the example has %d packages: nothing is tested", len(got))
	}
	if want := wantPackages(s); !reflect.DeepEqual(keyed(t, got), want) {
		t.Fatalf("packages\n%+v\nwant\n%+v", got, want)
	}
	for i := 1; i < len(got); i++ {
		if got[i-1].Skills < got[i].Skills {
			t.Fatalf("not largest first: %+v", got)
		}
	}
}

// TestEncodePackages: Encode keeps a record's packages after the fixed
// bytes, bounded to MaxPackages and one "other" entry summing the rest;
// a record without them (the first and second formats) reads back with
// them not known (nil, never empty); changes not known stay not known
// beside known packages; MergeData keeps the later record's packages.
func TestEncodePackages(t *testing.T) {
	pk := func(n int) []history.PackageTally {
		out := []history.PackageTally{}
		for i := range n {
			out = append(out, history.PackageTally{Kind: history.KindPackage, Name: fmt.Sprintf("p%03d", i), Skills: 1000 - i, Covered: 2, Uncovered: 3, Reachable: 4, Errors: 5})
		}
		return out
	}
	rec := func(p []history.PackageTally) history.Record {
		var r history.Record
		r.Tallies.Coverage.Total = 9
		r.Tallies.Packages = p
		return r
	}
	long := append(pk(3), history.PackageTally{Kind: history.KindPlugin, Name: strings.Repeat("n", 200), Skills: 5000, Errors: 1})
	ch := &history.StateChanges{NewlyCovered: ids(0, "a")}
	enc := func(r history.Record, c *history.StateChanges) []byte {
		b, err := history.Encode(r, c)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	secondFormat := enc(rec(nil), ch) // what a skillgraph before the packages wrote: changes alone
	first := enc(rec(nil), nil)
	for _, tc := range []struct {
		name        string
		data        []byte
		want        []history.PackageTally
		wantChanges bool
	}{
		{"a few, with changes", enc(rec(pk(3)), ch), pk(3), true},
		{"a few, changes not known", enc(rec(pk(3)), nil), pk(3), false},
		{"none: known and empty", enc(rec([]history.PackageTally{}), nil), []history.PackageTally{}, false},
		{"at the bound", enc(rec(pk(history.MaxPackages)), ch), pk(history.MaxPackages), true},
		{"over the bound: the rest in other", enc(rec(pk(history.MaxPackages+3)), ch),
			append(pk(history.MaxPackages), history.PackageTally{Kind: history.KindOther, Skills: 1000 - 64 + 1000 - 65 + 1000 - 66, Covered: 6, Uncovered: 9, Reachable: 12, Errors: 15}), true},
		{"a name too long: in other", enc(rec(long), nil),
			append(pk(3), history.PackageTally{Kind: history.KindOther, Skills: 5000, Errors: 1}), false},
		{"the first format: not known", first, nil, false},
		{"the second format: not known", secondFormat, nil, true},
		{"merged: the later's", history.MergeData(enc(rec(pk(5)), ch), enc(rec(pk(2)), ch)), pk(2), true},
		{"merged with a later not knowing them: not known", history.MergeData(enc(rec(pk(5)), ch), secondFormat), nil, true},
	} {
		v, skipped, err := storedOne(t, tc.data)
		if err != nil || skipped != 0 {
			t.Fatalf("%s: %v, %d skipped", tc.name, err, skipped)
		}
		if !reflect.DeepEqual(v.Tallies.Packages, tc.want) {
			t.Errorf("%s: packages\n%+v\nwant\n%+v", tc.name, v.Tallies.Packages, tc.want)
		}
		if (v.Changes != nil) != tc.wantChanges || v.Tallies.Coverage.Total != 9 {
			t.Errorf("%s: changes %+v, total %d", tc.name, v.Changes, v.Tallies.Coverage.Total)
		}
	}
	if len(first) != history.RecordSize {
		t.Fatalf("a record without packages or changes is %d bytes, want %d", len(first), history.RecordSize)
	}
}

// TestPackagesOfPlugins: the marketplace example's plugins are counted
// as plugins, from their skills.
func TestPackagesOfPlugins(t *testing.T) {
	s := querytest.Build(t, "../../examples/marketplace")
	got := history.Of(s).Packages
	plugins := 0
	for _, p := range got {
		if p.Kind == history.KindPlugin {
			plugins++
		}
	}
	if plugins == 0 {
		t.Fatalf("no plugin counted: %+v", got)
	}
	if want := wantPackages(s); !reflect.DeepEqual(keyed(t, got), want) {
		t.Fatalf("packages\n%+v\nwant\n%+v", got, want)
	}
}
