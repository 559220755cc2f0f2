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
// graph.Store.PutTallies).
func Put(ctx context.Context, st *graph.Store, v int64, at time.Time, rec Record) error {
	data, err := rec.MarshalBinary()
	if err != nil {
		return fmt.Errorf("tallies of version %d: %w", v, err)
	}
	return st.PutTallies(ctx, v, at, data)
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
		if err := v.Record.UnmarshalBinary(r.Data); err != nil {
			skipped++
			continue
		}
		out = append(out, v)
	}
	return out, skipped, nil
}
