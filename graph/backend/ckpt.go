package backend

import (
	"bytes"
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/cayleygraph/quad"

	"github.com/skillgraph/skillgraph/graph/checkpoint"
)

// The checkpoint (issue 14): every source graph's quads in compact form
// (graph/checkpoint), beside the store and stamped with the graph version
// they belong to, so a start reads the snapshot's input without decoding
// each quad through Cayley. A stamp that is not the current version or a
// block failing its checksum makes Read use the store (a block missing
// altogether cannot be told: docs/decisions.md, "Store backends register
// themselves").
// Where a backend keeps it is its own (see Checkpointer); the blocks and
// how they are built and read are shared here.

// Block is one checkpoint block and the graph it holds (nil Data: none).
type Block struct {
	Label string
	Data  []byte
}

// BlocksOf are the checkpoint blocks of changes in label order: each
// written graph's block, nil for a graph deleted or left empty.
func BlocksOf(changes []Change) ([]Block, error) {
	out := make([]Block, 0, len(changes))
	for _, c := range changes {
		b, err := BlockOf(c)
		if err != nil {
			return nil, err
		}
		out = append(out, b)
	}
	SortBlocks(out)
	return out, nil
}

// SortBlocks sorts blocks by label.
func SortBlocks(bs []Block) {
	slices.SortFunc(bs, func(a, b Block) int { return strings.Compare(a.Label, b.Label) })
}

// BlockOf is the checkpoint block of one change (nil Data: none).
func BlockOf(c Change) (Block, error) {
	if c.Delete || len(c.Quads) == 0 {
		return Block{Label: c.Graph}, nil
	}
	b, err := EncodeGraph(c)
	if err != nil {
		return Block{}, fmt.Errorf("checkpoint of %s: %w", c.Graph, err)
	}
	return Block{Label: c.Graph, Data: b}, nil
}

// EncodeGraph is the block of one change, its quads labelled as stored.
func EncodeGraph(c Change) ([]byte, error) {
	qs := make([]quad.Quad, len(c.Quads))
	for i, q := range c.Quads {
		q.Label = quad.IRI(c.Graph)
		qs[i] = q
	}
	return checkpoint.Encode(dedupe(qs))
}

// dedupe drops repeated quads (the store holds each once).
func dedupe(qs []quad.Quad) []quad.Quad {
	seen := make(map[string]bool, len(qs))
	out := qs[:0]
	for _, q := range qs {
		k := Key(q)
		if !seen[k] {
			seen[k] = true
			out = append(out, q)
		}
	}
	return out
}

// DecodeBlocks decodes the blocks on up to workers goroutines and calls fn
// with each block's quads, from those goroutines (at most one call per
// goroutine at a time). The first error stops every worker; a damaged
// block found while decoding is ErrCorrupt of the checkpoint.
func DecodeBlocks(ctx context.Context, blocks []Block, workers int, fn func(label string, quads []quad.Quad) error) error {
	workers = max(1, min(workers, len(blocks)))
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	var (
		next atomic.Int64
		wg   sync.WaitGroup
	)
	for range workers {
		wg.Go(func() {
			d := checkpoint.NewDecoder()
			var qs []quad.Quad
			for ctx.Err() == nil {
				i := int(next.Add(1)) - 1
				if i >= len(blocks) {
					return
				}
				// The blocks may be bbolt's memory map: a fault reading
				// one is an error, not a crash (see Protect).
				err := Protect(func() error {
					var err error
					qs, err = d.Append(qs[:0], blocks[i].Data)
					return err
				})
				if err == nil {
					err = fn(blocks[i].Label, qs)
				} else {
					err = fmt.Errorf("read checkpoint block %s: %w", blocks[i].Label, err)
				}
				if err != nil {
					cancel(err)
					return
				}
			}
		})
	}
	wg.Wait()
	return context.Cause(ctx)
}

// RebuildCheckpoint reads every quad back through scan (the store's lock
// held), and hands each graph's block to put after clear, calling
// h.Written after each.
func RebuildCheckpoint(ctx context.Context, scan ScanFunc, h *Hooks, put func(label string, block []byte) error, clear func() error) error {
	byGraph := map[string][]quad.Quad{}
	err := scan(ctx, quad.Any, nil, func(q quad.Quad) error {
		l, ok := q.Label.(quad.IRI)
		if !ok || string(l) == MetaGraph {
			return nil
		}
		byGraph[string(l)] = append(byGraph[string(l)], q)
		return nil
	})
	if err != nil {
		return err
	}
	if err := clear(); err != nil {
		return err
	}
	for _, l := range slices.Sorted(maps.Keys(byGraph)) {
		b, err := checkpoint.Encode(byGraph[l])
		if err != nil {
			return err
		}
		if err := put(l, b); err != nil {
			return err
		}
		h.Written()
	}
	return nil
}

// Packed is one change of a first ingest in the checkpoint's compact form
// (its block and its stamp) instead of its quads: about a quarter of their
// memory. A caller that must keep every change until the write starts
// (`serve`'s cold start, which builds its early snapshot from them) packs
// them and drops the quads; FirstWriter.AddPacked decodes each back as it
// is written.
type Packed struct {
	// Block is the change's checkpoint block (nil Data: a graph deleted
	// or left empty).
	Block Block
	// Stamp is the change's stamp.
	Stamp []byte
}

// Pack is c in compact form, for AddPacked.
func Pack(c Change) (Packed, error) {
	if c.Graph == MetaGraph {
		return Packed{}, fmt.Errorf("write graphs: %s is the store's own graph", MetaGraph)
	}
	b, err := BlockOf(c)
	if err != nil {
		return Packed{}, fmt.Errorf("write checkpoint: %w", err)
	}
	// Held until Commit: without the slack of the encoder's appends (a
	// third more at 10k skills).
	b.Data = bytes.Clone(b.Data)
	return Packed{Block: b, Stamp: c.Stamp}, nil
}

// Graph is the graph of a packed change.
func (p Packed) Graph() string { return p.Block.Label }
