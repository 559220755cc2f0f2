package history

import (
	"cmp"
	"slices"

	"github.com/skillgraph/skillgraph/ingest/record"
	"github.com/skillgraph/skillgraph/queries"
)

// MaxPackages bounds the packages and plugins a stored record names: the
// MaxPackages with the most skills (ties by kind, then name); the counts
// of the others are summed in one entry of kind KindOther.
const MaxPackages = 64

// maxPackageName is the longest package or plugin name a stored record
// names; a longer one is counted in the KindOther entry (it keeps the
// record's tail small whatever the names).
const maxPackageName = 128

// The kinds of a PackageTally.
const (
	KindPackage = "package"
	KindPlugin  = "plugin"
	// KindOther sums the packages and plugins a stored record leaves out.
	KindOther = "other"
)

// PackageTally is the skill counts of one package or plugin (a skill in
// both is counted in each).
type PackageTally struct {
	// Kind is KindPackage, KindPlugin or KindOther.
	Kind string `json:"kind"`
	// Name is the package's or plugin's name, "" for KindOther.
	Name      string `json:"name"`
	Skills    int    `json:"skills"`
	Covered   int    `json:"covered"`
	Uncovered int    `json:"uncovered"`
	Reachable int    `json:"reachable"`
	// Errors counts the error findings about its skills.
	Errors int `json:"errors"`
}

// packagesOf is the tallies of every package and plugin of s with a
// skill, largest first (see MaxPackages), never nil.
func packagesOf(s *queries.Snapshot) []PackageTally {
	// A skill is in s.Coverage.Covered exactly when its Covered is set,
	// and in Uncovered otherwise (queries' coverage makes both in one
	// pass): the field, not two sets of every skill built for each
	// version's record.
	type key struct{ kind, name string }
	by := map[key]*PackageTally{}
	add := func(k key, sk *queries.Skill) {
		t := by[k]
		if t == nil {
			t = &PackageTally{Kind: k.kind, Name: k.name}
			by[k] = t
		}
		t.Skills++
		if sk.Covered {
			t.Covered++
		} else {
			t.Uncovered++
		}
		if sk.Reachable {
			t.Reachable++
		}
		for _, f := range sk.Findings {
			if f.Severity == record.Error {
				t.Errors++
			}
		}
	}
	for _, sk := range s.Skills {
		if sk.Package != "" {
			add(key{KindPackage, sk.Package}, sk)
		}
		if sk.Plugin != nil {
			add(key{KindPlugin, sk.Plugin.Name}, sk)
		}
	}
	out := make([]PackageTally, 0, len(by))
	for _, t := range by {
		out = append(out, *t)
	}
	sortPackages(out)
	return out
}

// sortPackages orders tallies largest first by skills, ties by kind, then name.
func sortPackages(ts []PackageTally) {
	slices.SortFunc(ts, func(a, b PackageTally) int {
		return cmp.Or(b.Skills-a.Skills, cmp.Compare(a.Kind, b.Kind), cmp.Compare(a.Name, b.Name))
	})
}

// boundedPackages is what a stored record keeps of ts, sorted as
// packagesOf sorts them: the first MaxPackages with a name of at most
// maxPackageName bytes, then one KindOther entry summing the rest when
// there is a rest. nil stays nil (not known).
func boundedPackages(ts []PackageTally) []PackageTally {
	if ts == nil {
		return nil
	}
	ts = slices.Clone(ts)
	sortPackages(ts)
	out := make([]PackageTally, 0, min(len(ts), MaxPackages+1))
	other := PackageTally{Kind: KindOther}
	rest := false
	for _, t := range ts {
		if t.Kind != KindOther && len(out) < MaxPackages && len(t.Name) <= maxPackageName {
			out = append(out, t)
			continue
		}
		rest = true
		other.Skills += t.Skills
		other.Covered += t.Covered
		other.Uncovered += t.Uncovered
		other.Reachable += t.Reachable
		other.Errors += t.Errors
	}
	if rest {
		out = append(out, other)
	}
	return out
}

// validPackages reports whether ts is what boundedPackages writes: known
// kinds, counts not negative, at most MaxPackages named entries and the
// KindOther entry last.
func validPackages(ts []PackageTally) bool {
	if len(ts) > MaxPackages+1 {
		return false
	}
	for i, t := range ts {
		switch {
		case t.Skills < 0 || t.Covered < 0 || t.Uncovered < 0 || t.Reachable < 0 || t.Errors < 0:
			return false
		case t.Kind == KindOther:
			if i != len(ts)-1 || t.Name != "" {
				return false
			}
		case t.Kind != KindPackage && t.Kind != KindPlugin, i == MaxPackages:
			return false
		}
	}
	return true
}
