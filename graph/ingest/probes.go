package ingest

import (
	"bytes"
	"encoding/json"
	"slices"
	"strings"

	"github.com/skillgraph/skillgraph/ingest/discover"
)

// Workspace probes (issue #14, "Re-ingest"): the workspace search looks
// for instance declarations in every *.json file down to
// discover.MaxWorkspaceDepth, and at 10 000 skills reading those 5 000
// files was most of what an unchanged re-ingest still read. What it found
// of each (a regular file of this size and mtime, not a declaration) is
// kept in the store beside the file stamps, one record per workspace
// root; the next full ingest does not read a file whose size and mtime are
// those recorded. Files added since are not in the record and are read; a
// declaration is never recorded, so it is always read; a file whose mtime
// is within racyWindow of the ingest's start is not recorded (the same
// rule as the file stamps, docs/decisions.md "Same-second edits").

// probeVersion changes when the record's meaning changes.
const probeVersion = 1

// probeLabel is the stamp key of a workspace root's record. It has a
// space, which no graph label (an IRI) has, so it names no graph's stamp.
func probeLabel(root string) string { return "urn:skillgraph:workspace-probes " + absPath(root) }

// probeRecord is the stored form of one root's probes.
type probeRecord struct {
	V     int          `json:"v"`
	Test  int          `json:"t"`   // discover.DeclarationTestVersion
	Max   int64        `json:"max"` // the size cap the files were read under
	Files []probeStamp `json:"f"`   // by path
}

// probeStamp is one file of a record.
type probeStamp struct {
	Path  string `json:"f"`
	Size  int64  `json:"s"`
	MTime int64  `json:"m"`
}

// probes are the workspace records one full ingest uses and makes.
type probes struct {
	sp      *stamper // its stored stamps hold the stored records
	maxSize int64
	roots   []*probeRoot
}

// probeRoot is the search of one root: what it knew, and what it found.
type probeRoot struct {
	label string
	known map[string]probeStamp
	found []probeStamp
}

// newProbes reads the stored records out of sp's stored stamps for a
// search under the size cap maxSize (0: the default).
func newProbes(sp *stamper, maxSize int64) *probes {
	if maxSize <= 0 {
		maxSize = discover.DefaultMaxFileSize
	}
	return &probes{sp: sp, maxSize: maxSize}
}

// options are the discover options of the search of root: what is known
// of it, and a log of what this search finds.
func (p *probes) options(root string, opt discover.Options) discover.Options {
	if p == nil {
		return opt
	}
	pr := &probeRoot{label: probeLabel(root)}
	var rec probeRecord
	if raw := p.sp.stored[pr.label]; raw != nil && json.Unmarshal(raw, &rec) == nil &&
		rec.V == probeVersion && rec.Test == discover.DeclarationTestVersion && rec.Max == p.maxSize {
		pr.known = make(map[string]probeStamp, len(rec.Files))
		for _, f := range rec.Files {
			pr.known[f.Path] = f
		}
	}
	p.roots = append(p.roots, pr)
	opt.NotDeclaration = func(f discover.Probe) bool {
		k, ok := pr.known[f.Path]
		return ok && k.Size == f.Size && k.MTime == f.MTime
	}
	opt.Probed = func(f discover.Probe) {
		if f.MTime < p.sp.start.Add(-racyWindow).UnixNano() {
			pr.found = append(pr.found, probeStamp{Path: f.Path, Size: f.Size, MTime: f.MTime})
		}
	}
	return opt
}

// changed are the records to write: those that differ from the stored
// ones (nil deletes a record no longer needed); nil when none does.
func (p *probes) changed() map[string][]byte {
	if p == nil {
		return nil
	}
	var out map[string][]byte
	for _, r := range p.roots {
		var raw []byte
		if len(r.found) > 0 {
			files := slices.SortedFunc(slices.Values(r.found), func(a, b probeStamp) int { return strings.Compare(a.Path, b.Path) })
			var err error
			if raw, err = json.Marshal(probeRecord{V: probeVersion, Test: discover.DeclarationTestVersion, Max: p.maxSize, Files: files}); err != nil {
				continue
			}
		}
		if bytes.Equal(p.sp.stored[r.label], raw) {
			continue
		}
		if out == nil {
			out = map[string][]byte{}
		}
		out[r.label] = raw
	}
	return out
}
