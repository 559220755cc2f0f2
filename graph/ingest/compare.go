package ingest

import (
	"context"

	"github.com/skillgraph/skillgraph/graph"
	"github.com/skillgraph/skillgraph/jsonld"
)

// comparison is what an ingest changes: the parsed units whose graphs
// differ from the store's (to convert and write), the graphs to remove,
// and the stamps of files read and found unchanged.
type comparison struct {
	changed          []*unit
	removed          []graph.Change
	stamps           map[string][]byte
	skipped, notRead int
}

// compare holds the parsed units against the store: one batched digest
// read for every file read (Store.SameDigests); the graphs of files that
// disappeared from an ingested instance are those Options.Only names that
// are gone, or in a full run every stored one not read now.
func (pl *plan) compare(ctx context.Context, store *graph.Store, units []*unit) (*comparison, error) {
	d := &comparison{}
	keep := map[string]bool{}
	var read []*unit
	var labels, digests []string
	for _, u := range units {
		label := jsonld.SourceIRI(u.in.DocIRI(), u.path)
		keep[label] = true
		if u.skip {
			d.skipped++
			d.notRead++
			continue
		}
		read, labels, digests = append(read, u), append(labels, label), append(digests, u.digest)
	}
	same, err := store.SameDigests(ctx, labels, digests)
	if err != nil {
		return nil, err
	}
	for i, u := range read {
		if !same[i] {
			d.changed = append(d.changed, u)
			continue
		}
		d.skipped++
		// Read, and current: its stamp is recorded (or refreshed after a
		// touch) so that the next run need not read it.
		if u.stamp != nil && !sameStamp(u.stamp, pl.sp.stored[labels[i]]) {
			if d.stamps == nil {
				d.stamps = map[string][]byte{}
			}
			d.stamps[labels[i]] = u.stamp
		}
	}
	for _, l := range pl.gone {
		d.removed = append(d.removed, graph.Change{Graph: l, Delete: true})
	}
	for name := range pl.instances {
		for _, l := range pl.stored[name] {
			if !keep[l] {
				d.removed = append(d.removed, graph.Change{Graph: l, Delete: true})
			}
		}
	}
	return d, nil
}

// changes are the graph changes to commit: the changed units', then the
// removals (nil when nothing changed).
func (d *comparison) changes() []graph.Change {
	var out []graph.Change
	for _, u := range d.changed {
		out = append(out, u.change())
	}
	return append(out, d.removed...)
}
