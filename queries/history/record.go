package history

import (
	"bytes"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"slices"
	"time"
)

// RecordSize is the size of every encoded Record: the store keeps one per
// graph version (graph.Store.PutTallies), so it is fixed and small.
const RecordSize = 768

// TopCodes bounds the finding codes a Record names: the TopCodes most
// frequent (ties by name); the findings of every other code are counted
// together in Findings.Other.
const TopCodes = 16

// codeSlot is the bytes a code's name may take in a Record (the longest
// registered code is 31); a longer one is counted in Other.
const codeSlot = 32

// recordFormat is the first byte of a Record: a reader refuses another.
const recordFormat = 1

// Record is what the store keeps of one committed graph version: the
// corpus's git commit when the corpus is a git work tree, and the
// version's tallies with the finding codes bounded to TopCodes.
type Record struct {
	// Commit is the corpus's HEAD commit (40 hex digits), "" when unknown.
	Commit string `json:"commit,omitempty"`
	// Time is the commit's time, zero when unknown.
	Time    time.Time `json:"time,omitzero"`
	Tallies Tallies   `json:"tallies"`
}

// counts lists the fixed counts of t in their order in a Record: a new
// count is a new format.
func (t *Tallies) counts() []*int {
	c, f, r, a, w := &t.Coverage, &t.Findings, &t.Reachability, &t.Alternatives, &t.Workflows
	return []*int{
		&c.Total, &c.Covered, &c.Contradicted, &c.Uncovered,
		&f.Error, &f.Warning, &f.Info, &f.Other,
		&r.Roots, &r.Skills, &r.ReachableSkills, &r.CoveredNotReachable, &r.Tools, &r.ReachableTools, &r.UnreachableTools, &r.UnreachableProcesses,
		&a.Groups, &a.MissingSelection,
		&w.Processes, &w.Complete, &w.Steps, &w.Performed, &w.Manual, &w.Gap,
	}
}

// tierNames are the tiers a Record counts, in order.
var tierNames = []string{"A", "B", "C", "D"}

// Bounded returns t with at most n finding codes by name, the most
// frequent (ties by name); the findings of the others are added to
// Findings.Other. Its packages are bounded to MaxPackages (and one
// KindOther entry). It is what a Record keeps of t.
func (t Tallies) Bounded(n int) Tallies {
	codes := t.Codes()
	slices.SortStableFunc(codes, func(a, b string) int { return t.Findings.ByCode[b] - t.Findings.ByCode[a] })
	out := t
	out.Coverage.Tiers = map[string]int{}
	for _, tier := range tierNames {
		out.Coverage.Tiers[tier] = t.Coverage.Tiers[tier]
	}
	out.Packages = boundedPackages(t.Packages)
	out.Findings.ByCode = map[string]int{}
	for _, c := range codes {
		if len(out.Findings.ByCode) < n && len(c) <= codeSlot {
			out.Findings.ByCode[c] = t.Findings.ByCode[c]
		} else {
			out.Findings.Other += t.Findings.ByCode[c]
		}
	}
	return out
}

// MarshalBinary encodes r in RecordSize bytes, its codes bounded as
// Bounded(TopCodes) bounds them. A count is at most 2³²−1.
func (r Record) MarshalBinary() ([]byte, error) {
	out := make([]byte, 0, RecordSize)
	out = append(out, recordFormat)
	var hash [20]byte
	if r.Commit != "" {
		if n, err := hex.Decode(hash[:], []byte(r.Commit)); err != nil || n != 20 {
			return nil, fmt.Errorf("record: commit %q is not 40 hex digits", r.Commit)
		}
	}
	out = append(out, hash[:]...)
	var unix int64
	if !r.Time.IsZero() {
		unix = r.Time.Unix()
	}
	out = binary.LittleEndian.AppendUint64(out, uint64(unix))
	t := r.Tallies.Bounded(TopCodes)
	u32 := func(n int) error {
		if n < 0 || n > 1<<32-1 {
			return fmt.Errorf("record: count %d out of range", n)
		}
		out = binary.LittleEndian.AppendUint32(out, uint32(n))
		return nil
	}
	for _, p := range t.counts() {
		if err := u32(*p); err != nil {
			return nil, err
		}
	}
	for _, tier := range tierNames {
		if err := u32(t.Coverage.Tiers[tier]); err != nil {
			return nil, err
		}
	}
	codes := t.Codes()
	slices.SortStableFunc(codes, func(a, b string) int { return t.Findings.ByCode[b] - t.Findings.ByCode[a] })
	for i := range TopCodes {
		var name [codeSlot]byte
		n := 0
		if i < len(codes) {
			copy(name[:], codes[i])
			n = t.Findings.ByCode[codes[i]]
		}
		out = append(out, name[:]...)
		if err := u32(n); err != nil {
			return nil, err
		}
	}
	if len(out) > RecordSize {
		return nil, fmt.Errorf("record: %d bytes, over %d", len(out), RecordSize) // a programming error the tests find
	}
	return out[:RecordSize], nil
}

// UnmarshalBinary decodes a record MarshalBinary wrote. A record of
// another size or format is refused, never half read.
func (r *Record) UnmarshalBinary(data []byte) error {
	if len(data) != RecordSize {
		return fmt.Errorf("record: %d bytes, want %d", len(data), RecordSize)
	}
	if data[0] != recordFormat {
		return fmt.Errorf("record: format %d, want %d", data[0], recordFormat)
	}
	var out Record
	if hash := data[1:21]; !bytes.Equal(hash, make([]byte, 20)) {
		out.Commit = hex.EncodeToString(hash)
	}
	if unix := int64(binary.LittleEndian.Uint64(data[21:29])); unix != 0 {
		out.Time = time.Unix(unix, 0).UTC()
	}
	rest := data[29:]
	u32 := func() int {
		n := int(binary.LittleEndian.Uint32(rest))
		rest = rest[4:]
		return n
	}
	t := &out.Tallies
	for _, p := range t.counts() {
		*p = u32()
	}
	t.Coverage.Tiers = map[string]int{}
	for _, tier := range tierNames {
		t.Coverage.Tiers[tier] = u32()
	}
	t.Findings.ByCode = map[string]int{}
	for range TopCodes {
		name := string(bytes.TrimRight(rest[:codeSlot], "\x00"))
		rest = rest[codeSlot:]
		if n := u32(); name != "" {
			if _, dup := t.Findings.ByCode[name]; dup {
				return errors.New("record: a finding code given twice")
			}
			t.Findings.ByCode[name] = n
		}
	}
	*r = out
	return nil
}
