package graph

import (
	"bufio"
	"context"
	"database/sql"
	"fmt"
	"os"
	"os/exec"
	"slices"
	"syscall"
	"testing"

	"github.com/cayleygraph/quad"
	hkv "github.com/hidal-go/hidalgo/kv"

	"github.com/skillgraph/skillgraph/graph/pgtest"
)

// The helper process of TestKillWhileCheckpointIsWritten: it applies
// killSteps[1] to the store named by $SKILLGRAPH_CKPT_KILL_STORE and, once
// the first checkpoint block of that ingest is written, says so on stdout
// and waits to be killed.
const (
	killStoreEnv = "SKILLGRAPH_CKPT_KILL_STORE"
	killMarker   = "checkpoint block written"
)

// killSteps are the two ingests: the store holds the first when the
// second is killed. The second changes, removes and adds graphs, so its
// checkpoint has several blocks to write.
var killSteps = [][]Change{
	{{Graph: "urn:g:a", Quads: mixedQuads("a")}, {Graph: "urn:g:b", Quads: mixedQuads("b")}, {Graph: "urn:g:c", Quads: mixedQuads("c")}},
	{{Graph: "urn:g:a", Quads: mixedQuads("a")[:2]}, {Graph: "urn:g:b", Delete: true}, {Graph: "urn:g:d", Quads: mixedQuads("d")}, {Graph: "urn:g:e", Quads: mixedQuads("e")}},
}

// TestCheckpointKillHelper is not a test of its own: it is the process
// TestKillWhileCheckpointIsWritten kills.
func TestCheckpointKillHelper(t *testing.T) {
	url := os.Getenv(killStoreEnv)
	if url == "" {
		t.Skip("the helper process of TestKillWhileCheckpointIsWritten")
	}
	s, err := Open(context.Background(), url)
	if err != nil {
		t.Fatal(err)
	}
	s.ckptWritten = func() {
		fmt.Println(killMarker)
		select {} // until the SIGKILL
	}
	_, err = s.Apply(context.Background(), killSteps[1])
	t.Fatalf("the ingest ended (%v) without writing a checkpoint block", err)
}

// normalized is the sorted, normalized N-Quads of one read (the meta
// graph's version quad left out: the versions are compared on their own).
func normalized(t *testing.T, s *Store, useCheckpoint bool) []string {
	t.Helper()
	read := s.ReadStore
	if useCheckpoint {
		read = s.Read
	}
	var out []string
	_, err := read(context.Background(), func(q quad.Quad) error {
		if q.Label != quad.IRI(MetaGraph) {
			out = append(out, Normalize(q).NQuad())
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
	m := open(t, "memory")
	for _, changes := range killSteps[:n] {
		if _, err := m.Apply(context.Background(), changes); err != nil {
			t.Fatal(err)
		}
	}
	return normalized(t, m, false)
}

// TestKillWhileCheckpointIsWritten SIGKILLs a writer process after it has
// written the first block of an ingest's checkpoint, before the stamp
// (issue 14: crash safety holds with the checkpoint). The next start must
// read exactly what a full read of the store gives: bbolt writes the
// checkpoint in the ingest's transaction, so the store is still at the
// first version with its whole checkpoint; PostgreSQL commits the ingest
// first, so the store is at the second version and the checkpoint, still
// stamped with the first, is not used. Either way the next ingest leaves
// a current checkpoint. The rebuild cases make the stamp stale first, so
// the killed writer was rebuilding every block from the store.
func TestKillWhileCheckpointIsWritten(t *testing.T) {
	if testing.Short() {
		t.Skip("runs a helper process")
	}
	ctx := context.Background()
	for _, tc := range []struct {
		backend string
		rebuild bool
	}{{"bbolt", false}, {"bbolt", true}, {"postgres", false}, {"postgres", true}} {
		name := tc.backend + "/update"
		if tc.rebuild {
			name = tc.backend + "/rebuild"
		}
		t.Run(name, func(t *testing.T) {
			url := "bbolt:" + t.TempDir() + "/g.db"
			if tc.backend == "postgres" {
				url = "postgres:" + pgtest.Scratch(t)
			}
			s := open(t, url)
			if _, err := s.Apply(ctx, killSteps[0]); err != nil {
				t.Fatal(err)
			}
			if tc.rebuild {
				staleStamp(t, s)
			}
			if err := s.Close(); err != nil {
				t.Fatal(err)
			}

			cmd := exec.Command(os.Args[0], "-test.run=^TestCheckpointKillHelper$")
			cmd.Env = append(os.Environ(), killStoreEnv+"="+url)
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
				if sc.Text() == killMarker {
					break
				}
				seen = append(seen, sc.Text())
			}
			if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
				t.Fatal(err)
			}
			if err := cmd.Wait(); err == nil {
				t.Fatalf("the helper ended on its own before a checkpoint block was written: %q", seen)
			}

			r := open(t, url)
			v, err := r.Version(ctx)
			if err != nil {
				t.Fatal(err)
			}
			wantV, wantCurrent := int64(1), !tc.rebuild // bbolt: the kill rolled the ingest back
			if tc.backend == "postgres" {
				wantV, wantCurrent = 2, false // the ingest committed; its checkpoint did not
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
			if _, err := r.Apply(ctx, []Change{{Graph: "urn:g:f", Quads: mixedQuads("f")}}); err != nil {
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

// staleStamp stamps s's checkpoint with a version it does not hold, so the
// next ingest rebuilds every block.
func staleStamp(t *testing.T, s *Store) {
	t.Helper()
	ctx := context.Background()
	var err error
	if s.kv != nil {
		err = s.kv.Update(ctx, func(tx hkv.Tx) error {
			return tx.Put(ctx, ckptKey(ckptStamp), []byte{0, 0, 0, 0, 0, 0, 0, 9})
		})
	} else {
		var res sql.Result
		res, err = s.db.ExecContext(ctx, `UPDATE skillgraph_checkpoint_stamp SET version = 9 WHERE id = 1`)
		if n, _ := res.RowsAffected(); err == nil && n != 1 {
			err = fmt.Errorf("%d stamps updated", n)
		}
	}
	if err != nil {
		t.Fatal(err)
	}
	if s.CheckpointCurrent(ctx) {
		t.Fatal("the stale stamp is still current")
	}
}
