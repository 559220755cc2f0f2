package backend

import (
	"context"
	"time"
)

// TallyRecord is what a store keeps of one committed graph version beside
// its quads (see graph.Store.PutTallies): when the version was recorded
// and a small, fixed-size encoding of its analysis tallies. The store does
// not read Data: the snapshot stage encodes it (queries/history) and
// hands the bytes down, so the store imports nothing of the analysis.
type TallyRecord struct {
	// Version is the graph version the tallies are of.
	Version int64
	// At is when the record was written (the version's commit, to within
	// the snapshot build).
	At time.Time
	// Data is the encoded tallies; nil when only the index was asked for.
	Data []byte
}

// TallyKeeper is a Backend that keeps a TallyRecord per graph version; a
// backend without one keeps no history.
type TallyKeeper interface {
	// PutTallies writes recs (each replacing a record of its version) and
	// deletes the records of the versions in drop, in one transaction.
	PutTallies(ctx context.Context, recs []TallyRecord, drop []int64) error
	// Tallies returns every record, oldest version first; with data false
	// Data is left nil (what pruning needs, without reading the records).
	Tallies(ctx context.Context, data bool) ([]TallyRecord, error)
}

// TallyHook gives the tally records to commit with graph version v, inside
// the Apply that writes v (see TallyApplier): v's own, and older ones the
// pruning rewrites (graph/tallies.go); none writes none. drop are the
// versions whose records go in the same write. An error aborts the whole
// write, version included.
type TallyHook func(ctx context.Context, v int64) (recs []TallyRecord, drop []int64, err error)

// TallyApplier is a TallyKeeper that writes a version's record in the
// version's own write, so a crash, a failure or a cancelled context leaves
// neither or both (docs/decisions.md, "The record in the version's
// transaction").
type TallyApplier interface {
	// ApplyTallied is Backend.Apply with hook called before the commit,
	// once the new version is known; a nil hook is Apply.
	ApplyTallied(ctx context.Context, changes []Change, hook TallyHook) (int64, error)
}
