package queries

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/skillgraph/skillgraph/graph"
	"github.com/skillgraph/skillgraph/graph/ingest"
)

// corpora the invariants are checked on; a missing one fails the test (a
// moved corpus must not silently stop being checked).
var propertyCorpora = []string{"../ingest/testdata/mini", "../examples/harness"}

func build(t *testing.T, url string, roots ...string) *Snapshot {
	t.Helper()
	ctx := context.Background()
	st, err := graph.Open(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if _, err := ingest.Run(ctx, st, roots, ingest.Options{}); err != nil {
		t.Fatal(err)
	}
	s, err := Build(ctx, st)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestInvariants(t *testing.T) {
	for _, root := range propertyCorpora {
		if _, err := os.Stat(root); err != nil {
			t.Fatalf("property corpus: %v", err)
		}
		t.Run(filepath.Base(root), func(t *testing.T) {
			checkInvariants(t, build(t, "memory", root))
		})
	}
}

// checkInvariants asserts the properties every snapshot must have.
func checkInvariants(t *testing.T, s *Snapshot) {
	t.Helper()
	// Tiers partition the uncovered skills; covered skills have no tier.
	seen := map[*Skill]string{}
	for _, tier := range s.Coverage.Tiers {
		for _, sk := range tier.Skills {
			if prev, dup := seen[sk]; dup {
				t.Errorf("skill %s in tiers %s and %s", sk.ID, prev, tier.Tier)
			}
			seen[sk] = tier.Tier
			if sk.Covered {
				t.Errorf("covered skill %s is in tier %s", sk.ID, tier.Tier)
			}
		}
	}
	if len(seen) != len(s.Coverage.Uncovered) {
		t.Errorf("tiers hold %d skills, %d are uncovered", len(seen), len(s.Coverage.Uncovered))
	}
	if len(s.Coverage.Covered)+len(s.Coverage.Uncovered) != s.Coverage.Total {
		t.Errorf("covered %d + uncovered %d != total %d", len(s.Coverage.Covered), len(s.Coverage.Uncovered), s.Coverage.Total)
	}
	if got := []string{s.Coverage.Tiers[0].Tier, s.Coverage.Tiers[1].Tier, s.Coverage.Tiers[2].Tier, s.Coverage.Tiers[3].Tier}; !reflect.DeepEqual(got, []string{"A", "B", "C", "D"}) {
		t.Errorf("tiers in order %v", got)
	}
	// Alternatives are symmetric, irreflexive and only between tools that
	// validly share a skill and have equal signatures.
	for _, a := range s.Tools {
		for _, b := range a.Alternatives {
			if a == b {
				t.Errorf("tool %s is its own alternative", a.ID)
			}
			if !containsTool(b.Alternatives, a) {
				t.Errorf("alternatives not symmetric: %s → %s", a.ID, b.ID)
			}
			if a.Signature() != b.Signature() || a.Signature() == "" {
				t.Errorf("alternatives %s and %s have different or empty signatures", a.ID, b.ID)
			}
			shared := false
			for _, sk := range a.ValidFor {
				if containsSkill(b.ValidFor, sk) {
					shared = true
				}
			}
			if !shared {
				t.Errorf("alternatives %s and %s share no skill", a.ID, b.ID)
			}
		}
	}
	// Every witness is a chain of real edges starting at a root.
	roots := map[string]bool{}
	for _, r := range s.Reach.Roots {
		roots[r] = true
	}
	check := func(key string, w []string, reachable bool) {
		if !reachable {
			if len(w) != 0 {
				t.Errorf("%s unreachable with witness %v", key, w)
			}
			return
		}
		if len(w) == 0 || !roots[w[0]] {
			t.Errorf("%s: witness %v does not start at a root", key, w)
			return
		}
		for i := 1; i < len(w); i++ {
			if !s.Reach.hasEdge(w[i-1], w[i]) {
				t.Errorf("%s: witness step %s → %s is no edge", key, w[i-1], w[i])
			}
		}
		// A witness is a shortest chain from the roots, so no chain from
		// its own root is shorter.
		if p := s.Reach.Path(w[0], w[len(w)-1]); len(p) != len(w) || p[0] != w[0] || p[len(p)-1] != w[len(w)-1] {
			t.Errorf("%s: Path(%s, %s) = %v, witness %v", key, w[0], w[len(w)-1], p, w)
		}
	}
	for _, sk := range s.Skills {
		check(sk.Key(), sk.Witness, sk.Reachable)
		if sk.Reachable && sk.Witness[len(sk.Witness)-1] != sk.Key() {
			// It may end at one of its valid tools (reached by another route).
			last := sk.Witness[len(sk.Witness)-1]
			ok := false
			for _, tl := range sk.Tools {
				ok = ok || tl.Key() == last
			}
			if !ok {
				t.Errorf("%s: witness ends at %s, neither the skill nor one of its tools", sk.ID, last)
			}
		}
	}
	for _, tl := range s.Tools {
		check(tl.Key(), tl.Witness, tl.Reachable)
	}
	for _, p := range s.Processes {
		check(p.Key(), p.Witness, p.Reachable)
	}
}

func containsTool(ts []*Tool, t *Tool) bool {
	for _, x := range ts {
		if x == t {
			return true
		}
	}
	return false
}

func containsSkill(ss []*Skill, s *Skill) bool {
	for _, x := range ss {
		if x == s {
			return true
		}
	}
	return false
}

func containsStr(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

// summary renders what a replica must agree on.
func summary(s *Snapshot) map[string]any {
	ids := func(xs []*Skill) []string {
		var out []string
		for _, x := range xs {
			out = append(out, x.ID+":"+x.Tier+":"+join(x.Evidence)+":"+join(x.Witness))
		}
		return out
	}
	var tools []string
	for _, t := range s.Tools {
		tools = append(tools, t.ID+":"+join(t.Witness)+":"+toolIDs(t.Alternatives))
	}
	var fs []string
	for _, f := range s.Findings {
		fs = append(fs, f.Code+"|"+f.File+"|"+f.Message)
	}
	return map[string]any{"version": s.Version, "skills": ids(s.Skills), "tools": tools, "findings": fs,
		"roots": s.Reach.Roots, "cov": ids(s.Coverage.Covered), "exempt": ids(s.Coverage.Exempt)}
}

func join(xs []string) string {
	out := ""
	for i, x := range xs {
		if i > 0 {
			out += ","
		}
		out += x
	}
	return out
}

func TestBboltSnapshotEqualsMemory(t *testing.T) {
	for _, root := range propertyCorpora {
		if _, err := os.Stat(root); err != nil {
			t.Fatalf("property corpus: %v", err)
		}
		t.Run(filepath.Base(root), func(t *testing.T) {
			mem := summary(build(t, "memory", root))
			disk := summary(build(t, "bbolt:"+filepath.Join(t.TempDir(), "g.db"), root))
			if !reflect.DeepEqual(mem, disk) {
				t.Fatalf("bbolt snapshot differs from memory:\nmemory: %v\nbbolt:  %v", mem, disk)
			}
		})
	}
}

// TestUpdateEqualsBuild: a snapshot updated in memory from the changes of an
// ingest answers like one rebuilt from the store.
func TestUpdateEqualsBuild(t *testing.T) {
	ctx := context.Background()
	src := "../ingest/testdata/mini"
	root := t.TempDir()
	if err := os.CopyFS(root, os.DirFS(src)); err != nil {
		t.Fatal(err)
	}
	st, before := ingestBuild(t, root)
	// Edit one file, delete another.
	p := filepath.Join(root, "skills/core/review.md")
	if err := os.WriteFile(p, []byte("---\nname: review\ndescription: changed\n---\n\n```sh\nmake review\n```\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(filepath.Join(root, "tools/gh.json")); err != nil {
		t.Fatal(err)
	}
	res, err := ingest.Run(ctx, st, []string{root}, ingest.Options{})
	if err != nil {
		t.Fatal(err)
	}
	updated := before.Update(res.Changes, res.Version)
	rebuilt, err := Build(ctx, st)
	if err != nil {
		t.Fatal(err)
	}
	if a, b := summary(updated), summary(rebuilt); !reflect.DeepEqual(a, b) {
		t.Fatalf("updated snapshot differs from a rebuild:\nupdated: %v\nrebuilt: %v", a, b)
	}
	if updated.Skill("review").Description != "changed" || updated.Skill("open-change").Covered {
		t.Fatal("the update did not take effect")
	}
}
