package queries

import (
	"path/filepath"
	"reflect"
	"testing"

	"github.com/skillgraph/skillgraph/ingest/gen"
)

// TestBuildLookupsFromNodesAlone: the lookups are made from the decoded
// nodes alone (issue 26.2), deterministically and without touching the
// nodes, and they index the entities link made exactly as a naive index
// of the linked snapshot does (the first entity of a key in id order,
// keyed by the instance each entity was linked to). The corpora hold two
// packages defining one bare skill name, processes with stems, Tools with
// ports and beans.
func TestBuildLookupsFromNodesAlone(t *testing.T) {
	genRoot := t.TempDir()
	if _, err := gen.Write(genRoot, gen.Options{Skills: 60, Seed: 3}); err != nil {
		t.Fatal(err)
	}
	ambiguous := corpus(t, map[string]string{
		"skills/one/package-manifest.json": `{"name": "alpha"}`,
		"skills/one/foo.md":                skillMD("foo", ""),
		"skills/two/package-manifest.json": `{"name": "beta"}`,
		"skills/two/foo.md":                skillMD("foo", ""),
		"tools/named.json":                 toolJSON("named", "beta/foo", ""),
	})
	for _, tc := range []struct{ name, root string }{
		{"example", filepath.Join("..", "examples", "harness")},
		{"generated", genRoot},
		{"ambiguous", ambiguous},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, s := ingestBuild(t, tc.root)
			before := nodeValues(s.shape)
			a, b := buildLookups(s.shape), buildLookups(s.shape)
			if !reflect.DeepEqual(a, b) {
				t.Fatal("two builds of one shape's lookups differ")
			}
			if !reflect.DeepEqual(nodeValues(s.shape), before) {
				t.Fatal("buildLookups changed the nodes")
			}
			if !reflect.DeepEqual(a.by, s.lk.by) || !reflect.DeepEqual(a.skillByPkg, s.lk.skillByPkg) {
				t.Fatal("the snapshot's lookups are not the ones its nodes make")
			}
			checkNaiveIndex(t, s, a)
		})
	}
}

// nodeValues copies what the nodes hold, to tell whether they changed.
func nodeValues(nodes []*node) []node {
	out := make([]node, len(nodes))
	for i, n := range nodes {
		out[i] = *n
	}
	return out
}

// checkNaiveIndex holds lk against an index of s's linked entities made
// the plain way: walking the sorted lists, the first of a key wins.
func checkNaiveIndex(t *testing.T, s *Snapshot, lk *lookups) {
	t.Helper()
	first := func(m map[any]any, k, v any) {
		if _, ok := m[k]; !ok {
			m[k] = v
		}
	}
	skills, tools, procs, beans := map[any]any{}, map[any]any{}, map[any]any{}, map[any]any{}
	for _, sk := range s.Skills {
		first(skills, "iri:"+sk.IRI, sk)
		first(skills, "id:"+sk.ID, sk)
		if sk.Instance != nil {
			first(skills, [3]string{sk.Instance.IRI, sk.Package, sk.ID}, sk)
			first(skills, [2]string{sk.Instance.IRI, sk.ID}, sk)
		}
	}
	for _, x := range s.Tools {
		first(tools, "iri:"+x.IRI, x)
		first(tools, "id:"+x.ID, x)
	}
	for _, p := range s.Processes {
		first(procs, "iri:"+p.IRI, p)
		first(procs, "id:"+p.ID, p)
		if p.Instance != nil && p.Stem != "" {
			first(procs, [2]string{p.Instance.IRI, p.Stem}, p)
		}
	}
	for _, b := range s.Beans {
		first(beans, "iri:"+b.IRI, b)
		first(beans, "id:"+b.ID, b)
	}
	got := func(slab func(int32) any, m map[string]int32, prefix string, into map[any]any) {
		for k, at := range m {
			into[prefix+k] = slab(at)
		}
	}
	want := []map[any]any{skills, tools, procs, beans}
	for k, slab := range []func(int32) any{
		func(i int32) any { return &s.skillSlab[i] }, func(i int32) any { return &s.toolSlab[i] },
		func(i int32) any { return &s.procSlab[i] }, func(i int32) any { return &s.beanSlab[i] },
	} {
		have := map[any]any{}
		got(slab, lk.by[k].byIRI, "iri:", have)
		got(slab, lk.by[k].byID, "id:", have)
		switch kind(k) {
		case kSkill:
			for key, at := range lk.skillByPkg {
				have[key] = slab(at)
			}
			for key, at := range lk.skillByName {
				have[key] = slab(at)
			}
		case kProcess:
			for key, at := range lk.procByStem {
				have[key] = slab(at)
			}
		}
		if len(have) != len(want[k]) {
			t.Errorf("kind %d: the lookups answer %d keys, the linked entities %d", k, len(have), len(want[k]))
		}
		for key, e := range want[k] {
			if have[key] != e { // the same entity, not an equal one
				t.Errorf("kind %d: %v answers another entity", k, key)
			}
		}
	}
	if s.Skill("alpha/foo") != nil && lk.skillAmbig == nil {
		t.Error("two packages define foo: no ambiguous bare name")
	}
}
