package graphtest

import (
	"bufio"
	"context"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"maps"
	"os"
	"os/exec"
	"slices"
	"strings"
	"syscall"
	"testing"

	"github.com/cayleygraph/quad"

	"github.com/skillgraph/skillgraph/graph"
)

// testCheckpoint: over several ingests (graphs added, changed, shrunk,
// removed) and a reopen, the checkpoint gives exactly the quads and the
// version of a full read of the store, and it is the one used (issue 14:
// a start whose version matches loads the checkpoint). A backend without
// a checkpoint never claims one.
func testCheckpoint(t *testing.T, h Harness) {
	ctx := context.Background()
	url := h.URL(t)
	s := Open(t, url)
	steps := [][]graph.Change{
		{{Graph: "urn:g:a", Quads: MixedQuads("a")}, {Graph: "urn:g:b", Quads: MixedQuads("b")}},
		{{Graph: "urn:g:a", Quads: MixedQuads("a")[:3]}, {Graph: "urn:g:c", Quads: MixedQuads("c")}},
		{{Graph: "urn:g:b", Delete: true}, {Graph: "urn:g:d", Quads: append(MixedQuads("d"), MixedQuads("d")...)}},
	}
	for i, changes := range steps {
		if _, err := s.Apply(ctx, changes); err != nil {
			t.Fatal(err)
		}
		vFull, full := ReadAll(t, s, false)
		vCk, ck := ReadAll(t, s, true)
		if vFull != int64(i+1) || vCk != vFull {
			t.Fatalf("step %d: versions full %d, checkpoint %d", i, vFull, vCk)
		}
		if !slices.Equal(full, ck) {
			t.Fatalf("step %d: checkpoint differs from the store:\nstore:      %q\ncheckpoint: %q", i, full, ck)
		}
		if cur := s.CheckpointCurrent(ctx); cur != h.Checkpoint {
			t.Fatalf("step %d: checkpoint current %v at version %d; the backend keeps one: %v", i, cur, vFull, h.Checkpoint)
		}
	}
	if !h.Checkpoint {
		if rebuilt, err := s.RefreshCheckpoint(ctx); rebuilt || err != nil {
			t.Fatalf("RefreshCheckpoint without a checkpoint: %v, %v", rebuilt, err)
		}
		return
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	r := Open(t, url)
	_, full := ReadAll(t, r, false)
	_, ck := ReadAll(t, r, true)
	if !slices.Equal(full, ck) || !r.CheckpointCurrent(ctx) {
		t.Fatal("after a reopen the checkpoint is not the store's content")
	}
}

// damages are what testCorruptCheckpoint does to a checkpoint, each on its
// own: it is then not used, Read gives the store's content.
var damages = map[string]func(c *RawCheckpoint){
	"stale stamp":   func(c *RawCheckpoint) { c.Stamp = 7 },
	"missing stamp": func(c *RawCheckpoint) { c.Stamp = -1 },
	"flipped byte": func(c *RawCheckpoint) {
		b := c.Blocks["urn:g:a"]
		b[len(b)/2] ^= 0x40
	},
	"truncated block": func(c *RawCheckpoint) {
		b := c.Blocks["urn:g:a"]
		c.Blocks["urn:g:a"] = b[:len(b)-3]
	},
	"older format": func(c *RawCheckpoint) { // a block of format 1, checksum and all
		b := c.Blocks["urn:g:a"]
		body := append([]byte{1}, b[1:len(b)-4]...)
		c.Blocks["urn:g:a"] = binary.BigEndian.AppendUint32(body, crc32.Checksum(body, crc32.MakeTable(crc32.Castagnoli)))
	},
}

// testCorruptCheckpoint: a checkpoint stamped with another version, or
// with a damaged block, is not used: Read gives the store's
// content, RefreshCheckpoint rebuilds it once, and the next ingest leaves
// a whole one.
func testCorruptCheckpoint(t *testing.T, h Harness) {
	if h.EditCheckpoint == nil {
		t.Skip("no checkpoint to damage")
	}
	ctx := context.Background()
	for _, damage := range slices.Sorted(maps.Keys(damages)) {
		t.Run(damage, func(t *testing.T) {
			url := h.URL(t)
			s, err := graph.Open(ctx, url)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := s.Apply(ctx, []graph.Change{{Graph: "urn:g:a", Quads: MixedQuads("a")}, {Graph: "urn:g:b", Quads: MixedQuads("b")}}); err != nil {
				t.Fatal(err)
			}
			_, want := ReadAll(t, s, false)
			if err := s.Close(); err != nil {
				t.Fatal(err)
			}
			h.EditCheckpoint(t, url, func(c *RawCheckpoint) {
				if c.Stamp != 1 || len(c.Blocks["urn:g:a"]) == 0 {
					t.Fatalf("the checkpoint before the damage: stamp %d, %d blocks", c.Stamp, len(c.Blocks))
				}
				damages[damage](c)
			})
			s = Open(t, url)
			if _, got := ReadAll(t, s, true); !slices.Equal(got, want) {
				t.Fatalf("%s: Read gave %q, the store holds %q", damage, got, want)
			}
			// RefreshCheckpoint (an ingest that changed nothing) rebuilds
			// it at the same version, once.
			if s.CheckpointCurrent(ctx) {
				t.Fatalf("%s: the damaged checkpoint counts as current", damage)
			}
			for i, wantRebuilt := range []bool{true, false} {
				rebuilt, err := s.RefreshCheckpoint(ctx)
				if err != nil || rebuilt != wantRebuilt {
					t.Fatalf("%s: RefreshCheckpoint #%d: rebuilt %v, %v (want %v)", damage, i+1, rebuilt, err, wantRebuilt)
				}
			}
			if v, got := ReadAll(t, s, true); v != 1 || !slices.Equal(got, want) || !s.CheckpointCurrent(ctx) {
				t.Fatalf("%s: after RefreshCheckpoint: version %d, current %v, Read %q", damage, v, s.CheckpointCurrent(ctx), got)
			}
			// The next ingest writes a whole, current checkpoint again.
			if _, err := s.Apply(ctx, []graph.Change{{Graph: "urn:g:c", Quads: MixedQuads("c")}}); err != nil {
				t.Fatal(err)
			}
			_, full := ReadAll(t, s, false)
			_, ck := ReadAll(t, s, true)
			if !slices.Equal(full, ck) || !s.CheckpointCurrent(ctx) {
				t.Fatalf("%s: the checkpoint was not rebuilt", damage)
			}
		})
	}
}

// The helper process of testCheckpointKill: it applies killSteps[1] to the
// store named by $SKILLGRAPH_CKPT_KILL_STORE and, once the first
// checkpoint block of that ingest is written, says so on stdout and waits
// to be killed.
const (
	killStoreEnv = "SKILLGRAPH_CKPT_KILL_STORE"
	killMarker   = "checkpoint block written"
)

// killSteps are the two ingests: the store holds the first when the
// second is killed. The second changes, removes and adds graphs, so its
// checkpoint has several blocks to write.
var killSteps = [][]graph.Change{
	{{Graph: "urn:g:a", Quads: MixedQuads("a")}, {Graph: "urn:g:b", Quads: MixedQuads("b")}, {Graph: "urn:g:c", Quads: MixedQuads("c")}},
	{{Graph: "urn:g:a", Quads: MixedQuads("a")[:2]}, {Graph: "urn:g:b", Delete: true}, {Graph: "urn:g:d", Quads: MixedQuads("d")}, {Graph: "urn:g:e", Quads: MixedQuads("e")}},
}

func killHelperURL() string { return os.Getenv(killStoreEnv) }

// killHelper is the process testCheckpointKill kills.
func killHelper(t *testing.T, url string) {
	s, err := graph.OpenWith(context.Background(), url, &graph.Hooks{BlockWritten: func() {
		fmt.Println(killMarker)
		select {} // until the SIGKILL
	}})
	if err != nil {
		t.Fatal(err)
	}
	_, err = s.Apply(context.Background(), killSteps[1])
	t.Fatalf("the ingest ended (%v) without writing a checkpoint block", err)
}

// normalized is the sorted, normalized N-Quads of one read (the meta
// graph's version quad left out: the versions are compared on their own).
func normalized(t *testing.T, s *graph.Store, useCheckpoint bool) []string {
	t.Helper()
	read := s.ReadStore
	if useCheckpoint {
		read = s.Read
	}
	var out []string
	_, err := read(context.Background(), func(q quad.Quad) error {
		if q.Label != quad.IRI(graph.MetaGraph) {
			out = append(out, graph.Normalize(q).NQuad())
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(out)
	return out
}

// versionContent is what a store holds after the first n killSteps, from
// a memory store that applied the same changes.
func versionContent(t *testing.T, n int) []string {
	t.Helper()
	m := Open(t, "memory")
	for _, changes := range killSteps[:n] {
		if _, err := m.Apply(context.Background(), changes); err != nil {
			t.Fatal(err)
		}
	}
	return normalized(t, m, false)
}

// testCheckpointKill SIGKILLs a writer process after it has written the
// first block of an ingest's checkpoint, before the stamp (issue 14:
// crash safety holds with the checkpoint). The next start must read
// exactly what a full read of the store gives: a backend that writes the
// checkpoint in the ingest's transaction (bbolt) is still at the first
// version with its whole checkpoint; one that commits the ingest first
// (PostgreSQL) is at the second version and the checkpoint, still stamped
// with the first, is not used. Either way the next ingest leaves a current
// checkpoint. The rebuild cases make the stamp stale first, so the killed
// writer was rebuilding every block from the store.
func testCheckpointKill(t *testing.T, h Harness) {
	if h.EditCheckpoint == nil || !h.Persistent {
		t.Skip("no checkpoint kept across processes")
	}
	if testing.Short() {
		t.Skip("runs a helper process")
	}
	ctx := context.Background()
	root, _, _ := strings.Cut(t.Name(), "/")
	for _, rebuild := range []bool{false, true} {
		t.Run(map[bool]string{false: "update", true: "rebuild"}[rebuild], func(t *testing.T) {
			url := h.URL(t)
			s := Open(t, url)
			if _, err := s.Apply(ctx, killSteps[0]); err != nil {
				t.Fatal(err)
			}
			if err := s.Close(); err != nil {
				t.Fatal(err)
			}
			if rebuild { // a stamp of a version the store does not hold
				h.EditCheckpoint(t, url, func(c *RawCheckpoint) { c.Stamp = 9 })
			}

			killAtMarker(t, "^"+root+"$/^KillHelper$", killStoreEnv+"="+url, killMarker, "before a checkpoint block was written")

			r := Open(t, url)
			v, err := r.Version(ctx)
			if err != nil {
				t.Fatal(err)
			}
			wantV, wantCurrent := int64(2), false // the ingest committed; its checkpoint did not
			if h.CheckpointInTransaction {
				wantV, wantCurrent = 1, !rebuild // the kill rolled the ingest back
			}
			if v != wantV || r.CheckpointCurrent(ctx) != wantCurrent {
				t.Fatalf("after the kill: version %d (want %d), checkpoint current %v (want %v)", v, wantV, r.CheckpointCurrent(ctx), wantCurrent)
			}
			want := versionContent(t, int(wantV))
			if got := normalized(t, r, true); !slices.Equal(got, want) {
				t.Fatalf("after the kill Read gives\n%q\nversion %d holds\n%q", got, wantV, want)
			}
			if full := normalized(t, r, false); !slices.Equal(full, want) {
				t.Fatalf("after the kill the store holds\n%q\nversion %d is\n%q", full, wantV, want)
			}

			// The next ingest writes a whole, current checkpoint again.
			if _, err := r.Apply(ctx, []graph.Change{{Graph: "urn:g:f", Quads: MixedQuads("f")}}); err != nil {
				t.Fatal(err)
			}
			if !r.CheckpointCurrent(ctx) {
				t.Fatal("the ingest after the kill left no current checkpoint")
			}
			if ck, full := normalized(t, r, true), normalized(t, r, false); !slices.Equal(ck, full) {
				t.Fatalf("after the next ingest the checkpoint gives\n%q\nthe store\n%q", ck, full)
			}
		})
	}
}

// killAtMarker runs the test helper the -test.run pattern names in a
// process of its own with env added, SIGKILLs it once it prints marker
// (the moment to kill), and fails the test when it ends on its own first
// (what says which moment it never reached).
func killAtMarker(t *testing.T, run, env, marker, what string) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run="+run)
	cmd.Env = append(os.Environ(), env)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var seen []string
	for sc := bufio.NewScanner(out); sc.Scan(); {
		if sc.Text() == marker {
			break
		}
		seen = append(seen, sc.Text())
	}
	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	if err := cmd.Wait(); err == nil {
		t.Fatalf("the helper ended on its own %s: %q", what, seen)
	}
}
