package bolt

import (
	"context"
	"encoding/binary"

	hkv "github.com/hidal-go/hidalgo/kv"

	"github.com/skillgraph/skillgraph/graph/backend"
)

// The checkpoint's manifest: how many blocks the checkpoint stamped with a
// version holds and a sum over their labels and checksums, written in the
// same transaction as the blocks. Each block carries its own CRC-32C, but
// a damaged branch or leaf page of the checkpoint's bucket can drop,
// repeat or swap whole blocks that still verify; with the manifest, a warm
// start that reads every block proves it read exactly the checkpoint that
// was written, without walking the rest of the store first (issue 27; the
// walk then runs in the background, see VerifyStore).
//
// It lives in a bucket of its own so that a binary from before it (which
// reads every key of the checkpoint's bucket as a block) is not disturbed;
// such a binary's writes leave it naming an older version, which reads as
// no manifest (the whole store is then walked before it is trusted) until
// the next write of this code recomputes it.
var (
	sumBucket = []byte("skillgraph_checkpoint_sum")
	sumKey    = hkv.Key{sumBucket, []byte("manifest")}
)

// manifestFormat is the first byte of the manifest's value; bump it when
// the layout (format, version, count, sum: 25 bytes) changes.
const manifestFormat = 1

// manifest is the count of a checkpoint's blocks and the sum (mod 2^64) of
// their hashes (blockHash): a sum, so a write updates it from the blocks it
// changes without reading the others.
type manifest struct {
	version int64 // the stamp it belongs to
	count   uint64
	sum     uint64
}

// blockHash is FNV-64a of a block's label, a zero byte and the block's
// CRC-32C (its last 4 bytes; the block was verified or just encoded).
func blockHash(label string, block []byte) uint64 {
	const offset, prime = 14695981039346656037, 1099511628211
	h := uint64(offset)
	for i := 0; i < len(label); i++ {
		h = (h ^ uint64(label[i])) * prime
	}
	h *= prime // the zero byte
	for _, c := range block[len(block)-4:] {
		h = (h ^ uint64(c)) * prime
	}
	return h
}

func (m *manifest) add(label string, block []byte) {
	m.count++
	m.sum += blockHash(label, block)
}

func (m *manifest) sub(label string, block []byte) {
	m.count--
	m.sum -= blockHash(label, block)
}

func (m manifest) encode() []byte {
	b := []byte{manifestFormat}
	b = binary.BigEndian.AppendUint64(b, uint64(m.version))
	b = binary.BigEndian.AppendUint64(b, m.count)
	return binary.BigEndian.AppendUint64(b, m.sum)
}

// readManifest is the stored manifest; ok is false when there is none or
// it is of another format.
func readManifest(ctx context.Context, tx hkv.Tx) (m manifest, ok bool) {
	b, err := tx.Get(ctx, sumKey)
	if err != nil || len(b) != 25 || b[0] != manifestFormat {
		return manifest{}, false
	}
	return manifest{
		version: int64(binary.BigEndian.Uint64(b[1:])),
		count:   binary.BigEndian.Uint64(b[9:]),
		sum:     binary.BigEndian.Uint64(b[17:]),
	}, true
}

func (m *manifest) addBlocks(blocks []backend.Block) {
	for _, b := range blocks {
		m.add(b.Label, b.Data)
	}
}

// proves reports whether m is the manifest of blocks (each verified) at
// version v.
func (m manifest) proves(v int64, blocks []backend.Block) bool {
	var got manifest
	got.addBlocks(blocks)
	return m.matches(v, got)
}

// matches reports whether m, at version v, has the count and sum of got
// (the manifest of the blocks read).
func (m manifest) matches(v int64, got manifest) bool {
	return m.version == v && m.count == got.count && m.sum == got.sum
}
