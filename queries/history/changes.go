package history

import (
	"encoding/json"
	"fmt"
	"slices"

	"github.com/skillgraph/skillgraph/ingest/record"
	"github.com/skillgraph/skillgraph/queries"
	"github.com/skillgraph/skillgraph/queries/diff"
)

// MaxChangedIDs bounds each list of Changes: the first MaxChangedIDs ids
// by name, the others only counted (IDs.More).
const MaxChangedIDs = 64

// IDs is a bounded list of skill or Tool names (as diff names them).
type IDs struct {
	// IDs are at most MaxChangedIDs names, sorted.
	IDs []string `json:"ids"`
	// More counts the names left out. After a merge (pruning) it is an
	// upper bound: a name may be counted in both merged lists.
	More int `json:"more"`
}

// Has reports whether id is listed; known is false when it is not listed
// but the list left names out, so it may be among them.
func (l IDs) Has(id string) (has, known bool) {
	if _, ok := slices.BinarySearch(l.IDs, id); ok {
		return true, true
	}
	return false, l.More == 0
}

// StateChanges is what changed state in one graph version against the version
// before it, bounded (a second, small record per version beside its
// tallies): skills newly covered and uncovered, skills and Tools newly
// reachable and unreachable, skills and Tools added and removed, and the
// number of new error findings.
type StateChanges struct {
	NewlyCovered     IDs `json:"newlyCovered"`
	NewlyUncovered   IDs `json:"newlyUncovered"`
	ReachableSkills  IDs `json:"reachableSkills"`
	UnreachableSkill IDs `json:"unreachableSkills"`
	AddedSkills      IDs `json:"addedSkills"`
	RemovedSkills    IDs `json:"removedSkills"`
	ReachableTools   IDs `json:"reachableTools"`
	UnreachableTools IDs `json:"unreachableTools"`
	AddedTools       IDs `json:"addedTools"`
	RemovedTools     IDs `json:"removedTools"`
	// NewErrors counts the error findings new in the version (as diff
	// counts them: a finding moved to another file is not new).
	NewErrors int `json:"newErrors"`
}

// lists are c's lists in pairs of opposites.
func (c *StateChanges) pairs() [][2]*IDs {
	return [][2]*IDs{
		{&c.NewlyCovered, &c.NewlyUncovered},
		{&c.ReachableSkills, &c.UnreachableSkill},
		{&c.AddedSkills, &c.RemovedSkills},
		{&c.ReachableTools, &c.UnreachableTools},
		{&c.AddedTools, &c.RemovedTools},
	}
}

// bounded is the IDs of names (any order, no duplicates) plus more
// counted already.
func bounded(names []string, more int) IDs {
	names = slices.Clone(names)
	slices.Sort(names)
	names = slices.Compact(names)
	if len(names) > MaxChangedIDs {
		more += len(names) - MaxChangedIDs
		names = names[:MaxChangedIDs]
	}
	if names == nil {
		names = []string{}
	}
	return IDs{IDs: names, More: more}
}

// ChangesOf is what changed from base to head (diff.Compare's lists, and
// the reachability of every skill, which diff reports only for covered
// ones).
func ChangesOf(base, head *queries.Snapshot) *StateChanges {
	var reach, unreach []string
	r := diff.CompareStates(base, head, func(n diff.Name, b, h *queries.Skill) {
		if b != nil && h != nil && b.Reachable != h.Reachable {
			if h.Reachable {
				reach = append(reach, n.String())
			} else {
				unreach = append(unreach, n.String())
			}
		}
	})
	return &StateChanges{
		NewlyCovered:     bounded(r.NewlyCovered, 0),
		NewlyUncovered:   bounded(r.NewlyUncovered, 0),
		ReachableSkills:  bounded(reach, 0),
		UnreachableSkill: bounded(unreach, 0),
		AddedSkills:      bounded(r.AddedSkills, 0),
		RemovedSkills:    bounded(r.RemovedSkills, 0),
		ReachableTools:   bounded(r.NowReachableTools, 0),
		UnreachableTools: bounded(r.NewlyUnreachableTools, 0),
		AddedTools:       bounded(r.AddedTools, 0),
		RemovedTools:     bounded(r.RemovedTools, 0),
		NewErrors:        diff.CountNewFindings(base, head, record.Error),
	}
}

// Merge is what changed over two consecutive steps, earlier then later,
// as one: a name whose state went one way and back is in neither list
// (its state is what it was), one that moved once stays where it moved.
// A name removed and then added again is added (its state holds since
// the later step); one added and then removed is in neither. The counts
// of names left out add up (an upper bound), so a merged list never
// claims to be whole when a part was not. Pruning keeps the changes of
// the records it drops this way (MergeData).
func Merge(earlier, later *StateChanges) *StateChanges {
	out := *later
	ep, lp, op := earlier.pairs(), later.pairs(), out.pairs()
	for i := range op {
		existence := op[i][0] == &out.AddedSkills || op[i][0] == &out.AddedTools
		e, l := ep[i], lp[i]
		minus := func(a, b *IDs) []string {
			var out []string
			for _, id := range a.IDs {
				if _, ok := slices.BinarySearch(b.IDs, id); !ok {
					out = append(out, id)
				}
			}
			return out
		}
		pos := append(minus(e[0], l[1]), minus(l[0], e[1])...)
		if existence {
			pos = append(minus(e[0], l[1]), l[0].IDs...)
		}
		neg := append(minus(e[1], l[0]), minus(l[1], e[0])...)
		*op[i][0] = bounded(pos, e[0].More+l[0].More)
		*op[i][1] = bounded(neg, e[1].More+l[1].More)
	}
	out.NewErrors = earlier.NewErrors + later.NewErrors
	return &out
}

// maxChangesBytes bounds the encoded tail: 10 lists of 64 names, the
// packages (MaxPackages+1 entries of names of at most maxPackageName
// bytes) and some room; a longer encoding leaves names of the change
// lists out (counted) until it fits.
const maxChangesBytes = 48 << 10

// tail is the JSON stored after a Record: the StateChanges fields inline
// (as the second format wrote them alone), then the packages. When the
// changes are not known but the packages are, Unknown is set and one
// list's More is -1, which a reader of the second format refuses (so it
// reads the changes as not known rather than as none).
type tail struct {
	StateChanges
	Unknown bool `json:"changesUnknown,omitempty"`
	// Packages is null when not known; no omitempty, [] is known and empty.
	Packages []PackageTally `json:"packages"`
}

// encodeTail is changes (nil: not known) and pk (nil: not known) as
// stored after a Record (JSON: names are strings of any length, and this
// part is read only when asked for).
func encodeTail(changes *StateChanges, pk []PackageTally) ([]byte, error) {
	t := tail{Packages: pk}
	if changes != nil {
		t.StateChanges = *changes
	} else {
		t.Unknown = true
		t.NewlyCovered.More = -1
	}
	c := &t.StateChanges
	for {
		b, err := json.Marshal(t)
		if err != nil || len(b) <= maxChangesBytes {
			return b, err
		}
		// Too long (very long names): drop the last name of the longest list.
		var longest *IDs
		for _, p := range c.pairs() {
			for _, l := range p {
				if longest == nil || len(l.IDs) > len(longest.IDs) {
					longest = l
				}
			}
		}
		if len(longest.IDs) == 0 {
			return nil, fmt.Errorf("changes: %d bytes without a name", len(b))
		}
		longest.IDs = slices.Clone(longest.IDs[:len(longest.IDs)-1])
		longest.More++
	}
}

// decodeTail reads what encodeTail wrote, and the tail of the second
// format (changes alone: the packages are not known).
func decodeTail(b []byte) (*StateChanges, []PackageTally, error) {
	var t tail
	if err := json.Unmarshal(b, &t); err != nil {
		return nil, nil, fmt.Errorf("changes: %w", err)
	}
	pk := t.Packages
	if pk != nil && !validPackages(pk) {
		pk = nil
	}
	if t.Unknown {
		return nil, pk, nil
	}
	c := t.StateChanges
	for _, p := range c.pairs() {
		for _, l := range p {
			if !slices.IsSorted(l.IDs) || len(l.IDs) > MaxChangedIDs || l.More < 0 {
				return nil, pk, fmt.Errorf("changes: a list unsorted or over %d names", MaxChangedIDs)
			}
			if l.IDs == nil {
				l.IDs = []string{}
			}
		}
	}
	return &c, pk, nil
}
