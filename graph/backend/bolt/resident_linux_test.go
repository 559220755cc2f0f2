package bolt

import (
	"bufio"
	"context"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/cayleygraph/quad"

	"github.com/skillgraph/skillgraph/graph/backend"
)

// mappedKB is the resident size of this process's maps of file, from
// /proc/self/smaps.
func mappedKB(t *testing.T, file string) int {
	t.Helper()
	f, err := os.Open("/proc/self/smaps")
	if err != nil {
		t.Skipf("no /proc/self/smaps: %v", err)
	}
	defer f.Close()
	kb, in := 0, false
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		fields := strings.Fields(line)
		if len(fields) >= 5 && strings.Contains(fields[0], "-") && !strings.HasSuffix(fields[0], ":") {
			in = len(fields) >= 6 && fields[5] == file
			continue
		}
		if in && len(fields) >= 2 && fields[0] == "Rss:" {
			n, _ := strconv.Atoi(fields[1])
			kb += n
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return kb
}

// TestDropMappedUnmapsPages: after a full read of a bbolt store (every
// page of its file mapped into this process), dropMapped leaves none of
// them resident, and the store reads back the same.
func TestDropMappedUnmapsPages(t *testing.T) {
	s, dir := openStore(t, nil)
	if _, err := s.Apply(context.Background(), changes(40, 200)); err != nil {
		t.Fatal(err)
	}
	before := readStore(t, s)
	file, err := filepath.EvalSymlinks(filepath.Join(dir, boltFile))
	if err != nil {
		t.Fatal(err)
	}
	mapped := mappedKB(t, file)
	if mapped < 64 {
		t.Fatalf("%d kB of %s resident after a full read: the test covers nothing", mapped, file)
	}
	if err := s.kv.dropMapped(); err != nil {
		t.Fatal(err)
	}
	if left := mappedKB(t, file); left >= mapped/4 {
		t.Fatalf("%d of %d kB still resident after dropMapped", left, mapped)
	}
	if after := readStore(t, s); !slices.Equal(after, before) {
		t.Fatalf("read %d quads after dropMapped, %d before", len(after), len(before))
	}
	// Inside the ingest transaction it does nothing (a commit may remap).
	if err := s.kv.begin(context.Background()); err != nil {
		t.Fatal(err)
	}
	defer s.kv.abort()
	if err := s.kv.dropMapped(); err != nil {
		t.Fatal(err)
	}
}

// TestCheckpointReadUnmapsItsPages: a read served by the checkpoint leaves
// none of the pages it read resident (the raw blocks are not held beside
// the quads decoded from them), and hands out every quad.
func TestCheckpointReadUnmapsItsPages(t *testing.T) {
	s, file, want, _, blockKB := reopened(t, changes(40, 400))
	got, fromCkpt := readAll(t, s)
	if !fromCkpt || !slices.Equal(got, want) {
		t.Fatalf("read %d quads (from the checkpoint %t), the store holds %d", len(got), fromCkpt, len(want))
	}
	if left := mappedKB(t, file); left >= blockKB/4 {
		t.Fatalf("%d kB of %s resident after a checkpoint read of %d kB of blocks", left, file, blockKB)
	}
}

// TestCheckpointVerifyDropsAsItGoes: the pass that verifies every block
// of a checkpoint (and takes the manifest's sum) drops the pages it read
// as it goes, so when the first block is decoded the blocks are not all
// resident (at 100k skills they were ≈ 3 GB of RSS, issue #27).
func TestCheckpointVerifyDropsAsItGoes(t *testing.T) {
	defer func(n int) { dropBlocks = n }(dropBlocks)
	dropBlocks = 4
	ctx := context.Background()
	s, file, _, blocks, blockKB := reopened(t, changes(200, 100))
	first, decoded := -1, 0
	_, fromCkpt, err := s.Read(ctx, backend.ReadRequest{UseCheckpoint: true, Workers: 1,
		Blocks: func(string, []quad.Quad) error {
			if decoded++; first < 0 {
				first = mappedKB(t, file)
			}
			return nil
		},
		Quad: func(quad.Quad) error { return nil },
	})
	if err != nil || !fromCkpt || decoded != len(blocks) {
		t.Fatalf("read %d of %d blocks (from the checkpoint %t): %v", decoded, len(blocks), fromCkpt, err)
	}
	if blockKB < 256 {
		t.Fatalf("%d kB of blocks: the test covers nothing", blockKB)
	}
	if first >= blockKB/2 {
		t.Fatalf("%d kB of %s resident at the first decoded block, of %d kB of blocks", first, file, blockKB)
	}
}

// reopened writes cs into a new store and opens it again: the store, its
// file, every quad it holds, its checkpoint blocks and their size in kB,
// with none of its pages resident.
func reopened(t *testing.T, cs []backend.Change) (s *store, file string, quads []string, blocks []backend.Block, blockKB int) {
	t.Helper()
	ctx := context.Background()
	w, dir := openStore(t, nil)
	if _, err := w.Apply(ctx, cs); err != nil {
		t.Fatal(err)
	}
	quads = readStore(t, w)
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	b, err := open(ctx, "bbolt:"+dir, dir, &backend.Hooks{})
	if err != nil {
		t.Fatal(err)
	}
	s = b.(*store)
	t.Cleanup(func() { s.Close() })
	if file, err = filepath.EvalSymlinks(filepath.Join(dir, boltFile)); err != nil {
		t.Fatal(err)
	}
	tx, err := s.kv.Tx(ctx, false)
	if err != nil {
		t.Fatal(err)
	}
	blocks, _ = kvBlocks(ctx, tx, -1)
	for _, bl := range blocks {
		blockKB += len(bl.Data) / 1024
	}
	tx.Close()
	if err := s.kv.dropMapped(); err != nil {
		t.Fatal(err)
	}
	return s, file, quads, blocks, blockKB
}
