package history

import (
	"context"
	"fmt"
	"time"

	"github.com/skillgraph/skillgraph/graph"
	"github.com/skillgraph/skillgraph/ingest/gitsource"
	"github.com/skillgraph/skillgraph/queries"
)

// Version is one committed graph version as the store keeps it.
type Version struct {
	// Version is the graph version.
	Version int64 `json:"version"`
	// At is when its record was written (its commit to the store).
	At time.Time `json:"at"`
	Record
	// Changes is what changed state in the version against the record
	// before it; nil when not known (the record was written without the
	// snapshot before it, or merged with one that was).
	Changes *StateChanges `json:"-"`
}

// RecordOf is the record of snap: its tallies, and the HEAD commit of the
// corpus folder's git repository when it is in one (no commit otherwise;
// an unreadable repository is no reason to lose the tallies).
func RecordOf(snap *queries.Snapshot, corpus string) Record {
	r := Record{Tallies: Of(snap)}
	if corpus == "" {
		return r
	}
	if repo, err := gitsource.Open(corpus); err == nil {
		if c, err := repo.Resolve("HEAD"); err == nil {
			r.Commit, r.Time = c.Hash.String(), c.Committer.When.UTC()
		}
	}
	return r
}

// Put stores rec as the record of graph version v, written at at (see
// graph.Store.PutTallies), with what changed in it when known (nil: not).
func Put(ctx context.Context, st *graph.Store, v int64, at time.Time, rec Record, changes *StateChanges) error {
	data, err := Encode(rec, changes)
	if err != nil {
		return fmt.Errorf("tallies of version %d: %w", v, err)
	}
	return st.PutTallies(ctx, v, at, data, MergeData)
}

// Encode is the data the store keeps of a version: rec's RecordSize bytes,
// then, when changes or rec's packages are known, a JSON tail with both
// (a reader of the first format, which wants exactly RecordSize bytes,
// leaves such a record out; one of the second ignores the packages).
func Encode(rec Record, changes *StateChanges) ([]byte, error) {
	data, err := rec.MarshalBinary()
	pk := boundedPackages(rec.Tallies.Packages)
	if err != nil || (changes == nil && pk == nil) {
		return data, err
	}
	tl, err := encodeTail(changes, pk)
	if err != nil {
		return nil, err
	}
	return append(data, tl...), nil
}

// decode reads what Encode wrote. A tail that does not decode leaves the
// changes and the packages not known (nil); the record is kept.
func decode(data []byte) (Record, *StateChanges, error) {
	var r Record
	if len(data) < RecordSize {
		return r, nil, r.UnmarshalBinary(data)
	}
	if err := r.UnmarshalBinary(data[:RecordSize]); err != nil {
		return r, nil, err
	}
	if len(data) == RecordSize {
		return r, nil, nil
	}
	ch, pk, err := decodeTail(data[RecordSize:])
	r.Tallies.Packages = pk
	if err != nil {
		return r, nil, nil
	}
	return r, ch, nil
}

// MergeData is the graph.TallyMerge of the records Encode writes: later's
// tallies (its packages too: a state, not a change), with the changes of both steps merged (Merge); when either's
// changes are not known, neither are the merged ones.
func MergeData(earlier, later []byte) []byte {
	_, ech, err1 := decode(earlier)
	lr, lch, err2 := decode(later)
	if err2 != nil {
		return later // not ours to rewrite
	}
	var ch *StateChanges
	if err1 == nil && ech != nil && lch != nil {
		ch = Merge(ech, lch)
	}
	data, err := Encode(lr, ch)
	if err != nil {
		return later[:RecordSize]
	}
	return data
}

// Stored reads the store's records, oldest version first. A record this
// skillgraph cannot decode (another format: a newer one wrote it) is left
// out and counted in skipped.
func Stored(ctx context.Context, st *graph.Store) (out []Version, skipped int, err error) {
	recs, err := st.Tallies(ctx)
	if err != nil {
		return nil, 0, err
	}
	for _, r := range recs {
		v := Version{Version: r.Version, At: r.At}
		var err error
		if v.Record, v.Changes, err = decode(r.Data); err != nil {
			skipped++
			continue
		}
		out = append(out, v)
	}
	return out, skipped, nil
}
