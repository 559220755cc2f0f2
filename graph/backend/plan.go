package backend

import (
	"context"

	"github.com/cayleygraph/cayley/graph"
	"github.com/cayleygraph/quad"
)

// Plan is the delta plan of an Apply: the quads to delete and to add so
// that every changed graph holds exactly its new quads, and the version
// bump from Old to Next.
type Plan struct {
	Old, Next  int64
	Dels, Adds []graph.Delta
}

// Stored is what a plan reads the stored graphs through.
type Stored interface {
	Scan(ctx context.Context, dir quad.Direction, v quad.Value, fn func(quad.Quad) error) error
	GraphQuads(ctx context.Context, label string) ([]quad.Quad, error)
}

// IndexFunc returns the deltas that keep a backend's own index of a graph
// (the subject registry, see Cayley) in step with its new content want,
// by quad Key.
type IndexFunc func(ctx context.Context, label string, want map[string]quad.Quad) ([]graph.Delta, error)

// PlanApply computes the plan of changes from the stored graphs (only the
// difference is written), index's deltas included when index is set.
func PlanApply(ctx context.Context, st Stored, index IndexFunc, changes []Change) (p Plan, err error) {
	for _, c := range changes {
		if err := ctx.Err(); err != nil {
			return Plan{}, err
		}
		old, err := st.GraphQuads(ctx, c.Graph)
		if err != nil {
			return Plan{}, err
		}
		want := make(map[string]quad.Quad, len(c.Quads))
		if !c.Delete {
			for _, q := range c.Quads {
				q.Label = quad.IRI(c.Graph)
				want[Key(q)] = q
			}
		}
		have := make(map[string]bool, len(old))
		for _, q := range old {
			k := Key(q)
			have[k] = true
			if _, keep := want[k]; !keep {
				p.Dels = append(p.Dels, graph.Delta{Quad: q, Action: graph.Delete})
			}
		}
		for k, q := range want {
			if !have[k] {
				p.Adds = append(p.Adds, graph.Delta{Quad: q, Action: graph.Add})
			}
		}
		if index == nil || c.Graph == MetaGraph {
			continue
		}
		reg, err := index(ctx, c.Graph, want)
		if err != nil {
			return Plan{}, err
		}
		for _, d := range reg {
			if d.Action == graph.Delete {
				p.Dels = append(p.Dels, d)
			} else {
				p.Adds = append(p.Adds, d)
			}
		}
	}
	// The version bump: its old quad (read back as stored) out, the next in.
	if p.Old, err = Version(ctx, st.Scan); err != nil {
		return Plan{}, err
	}
	p.Next = p.Old + 1
	meta, err := st.GraphQuads(ctx, MetaGraph)
	if err != nil {
		return Plan{}, err
	}
	for _, q := range meta {
		if q.Subject == quad.IRI(VersionSubject) && q.Predicate == quad.IRI(VersionPredicate) {
			p.Dels = append(p.Dels, graph.Delta{Quad: q, Action: graph.Delete})
		}
	}
	p.Adds = append(p.Adds, graph.Delta{Quad: VersionQuad(p.Next), Action: graph.Add})
	if err := ctx.Err(); err != nil {
		return Plan{}, err
	}
	p.Adds = bySubject(p.Adds)
	return p, nil
}

// bySubject orders adds so that each subject-registry quad comes right
// after the first quad of the subject it registers. Cayley's kv
// ApplyDeltas skips its duplicate check only for a quad with a node made
// in the same call; a registry quad in a later call than its subject was
// checked against the index list of every registry quad of its graph
// (they all share the graph label as subject), so one large graph written
// into a non-empty store cost time quadratic in its size (issue 28.10).
// The order is otherwise kept.
func bySubject(adds []graph.Delta) []graph.Delta {
	// By graph and subject: one subject (a blank node written alike in
	// two documents) may be registered in several graphs.
	regKey := func(d graph.Delta) pairKey { return pairOf(d.Quad.Subject, d.Quad.Object) }
	reg := map[pairKey]graph.Delta{}
	for _, d := range adds {
		if d.Quad.Predicate == quad.IRI(RegistryPredicate) && d.Quad.Label == quad.IRI(MetaGraph) {
			reg[regKey(d)] = d
		}
	}
	if len(reg) == 0 {
		return adds
	}
	out := make([]graph.Delta, 0, len(adds))
	for _, d := range adds {
		if d.Quad.Predicate == quad.IRI(RegistryPredicate) && d.Quad.Label == quad.IRI(MetaGraph) {
			continue // placed after its subject's first quad (or below)
		}
		out = append(out, d)
		k := pairOf(d.Quad.Label, d.Quad.Subject)
		if r, ok := reg[k]; ok {
			out = append(out, r)
			delete(reg, k)
		}
	}
	for _, d := range adds { // registry quads of subjects with no quad added
		if d.Quad.Predicate == quad.IRI(RegistryPredicate) && d.Quad.Label == quad.IRI(MetaGraph) {
			if _, left := reg[regKey(d)]; left {
				out = append(out, d)
			}
		}
	}
	return out
}

// pairKey is two values as map key, each by its N-Quads form (as
// quad.ToString) without writing an IRI's or a blank node's form out: a
// key per added quad was a fifth of what planning a graph of findings
// allocated (issue #28 row 14).
type pairKey struct {
	a, b   string
	ka, kb byte
}

func pairOf(a, b quad.Value) pairKey {
	k := pairKey{}
	k.a, k.ka = valueKey(a)
	k.b, k.kb = valueKey(b)
	return k
}

// valueKey is v's text and kind: an IRI and a blank node by their own
// text (their forms, <x> and _:x, differ), anything else by its form.
func valueKey(v quad.Value) (string, byte) {
	switch x := v.(type) {
	case quad.IRI:
		return string(x), 1
	case quad.BNode:
		return string(x), 2
	}
	return quad.ToString(v), 0
}

// BatchSize bounds one ApplyDeltas call on Cayley's kv and memstore (all
// calls of an ingest share one bbolt transaction): Cayley's kv ApplyDeltas
// buffers a call's index updates in maps, and calls of a few thousand
// deltas were measured fastest. The SQL backend never splits: one call is
// one database transaction.
const BatchSize = 4000

// ApplyDeltas applies deltas to qs in one call, ignoring duplicates and
// missing quads.
func ApplyDeltas(qs graph.QuadStore, deltas []graph.Delta) error {
	if len(deltas) == 0 {
		return nil
	}
	return qs.ApplyDeltas(deltas, graph.IgnoreOpts{IgnoreDup: true, IgnoreMissing: true})
}

// WriteWhole applies every delete in one call, then every add in one
// call: for a store whose calls share one bbolt transaction that keeps
// what is already stored (an ingest over a non-empty bbolt store). bbolt
// splits a transaction's nodes only at commit, and Cayley's kv writes a
// call's index keys in key order: calls of BatchSize interleave their
// keys with those of the calls before (new nodes of a later call get
// higher ids but share objects such as a type IRI), so each call inserted
// into the middle of the same ever larger nodes, moving all that the
// earlier calls put there (quadratic: one graph of 32 000 subjects took
// 25 s against 1 s for 8 000, issue 28.10). In one call every index key
// is inserted in order, after the ones before it. The split into deletes
// and adds is WriteBatches'. Cancelling ctx inside the call is the
// store's part (bbolt's transaction checks it on each write).
func WriteWhole(ctx context.Context, qs graph.QuadStore, dels, adds []graph.Delta) error {
	for _, part := range [][]graph.Delta{dels, adds} {
		if err := ctx.Err(); err != nil {
			return err
		}
		if err := ApplyDeltas(qs, part); err != nil {
			return err
		}
	}
	return nil
}

// WriteBatches applies every delete, then every add, in calls of at most
// BatchSize deltas. Cayley's kv ApplyDeltas resolves the nodes of added
// quads only among the nodes whose reference count does not drop in that
// call: a value that loses more quads than it gains (typically the graph's
// label when a graph shrinks) is silently left out of every added quad,
// which then lands in no graph. A call of deletes only or of adds only
// never hits that. On bbolt all calls share the ingest transaction,
// so the order inside it is invisible to readers.
func WriteBatches(ctx context.Context, qs graph.QuadStore, dels, adds []graph.Delta) error {
	for _, part := range [][]graph.Delta{dels, adds} {
		for len(part) > 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
			n := min(len(part), BatchSize)
			if err := ApplyDeltas(qs, part[:n]); err != nil {
				return err
			}
			part = part[n:]
		}
	}
	return nil
}
