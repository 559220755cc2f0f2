package bolt_test

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/skillgraph/skillgraph/graph"
	"github.com/skillgraph/skillgraph/graph/graphtest"
)

// TestSuite: bbolt passes the shared suite: persistent, stamps and a
// checkpoint in the store file, one transaction per ingest.
func TestSuite(t *testing.T) {
	graphtest.RunSuite(t, harness)
}

var harness = graphtest.Harness{
	URL:                     func(t *testing.T) string { return "bbolt:" + filepath.Join(t.TempDir(), "sub", "g.db") },
	Persistent:              true,
	Stamps:                  true,
	Checkpoint:              true,
	FailsWrites:             true,
	CheckpointInTransaction: true,
	EditCheckpoint:          editCheckpoint,
}

// The checkpoint's layout in the store file (see ckpt.go): a bucket of
// blocks by graph label, and the stamp under a key no label can be.
var (
	ckptBucket = []byte("skillgraph_checkpoint")
	ckptStamp  = []byte("\x00version")
)

// editCheckpoint edits the checkpoint bucket of the closed store at url
// with bbolt itself, as damage from outside would.
func editCheckpoint(t *testing.T, url string, edit func(*graphtest.RawCheckpoint)) {
	t.Helper()
	db, err := bolt.Open(filepath.Join(strings.TrimPrefix(url, "bbolt:"), "indexes.bolt"), 0o644, &bolt.Options{Timeout: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	err = db.Update(func(tx *bolt.Tx) error {
		b := tx.Bucket(ckptBucket)
		if b == nil {
			return errors.New("no checkpoint bucket")
		}
		c := graphtest.RawCheckpoint{Stamp: -1, Blocks: map[string][]byte{}}
		if err := b.ForEach(func(k, v []byte) error {
			if string(k) == string(ckptStamp) {
				c.Stamp = int64(binary.BigEndian.Uint64(v))
			} else {
				c.Blocks[string(k)] = append([]byte(nil), v...)
			}
			return nil
		}); err != nil {
			return err
		}
		edit(&c)
		if err := tx.DeleteBucket(ckptBucket); err != nil {
			return err
		}
		if b, err = tx.CreateBucket(ckptBucket); err != nil {
			return err
		}
		if c.Stamp >= 0 {
			if err := b.Put(ckptStamp, binary.BigEndian.AppendUint64(nil, uint64(c.Stamp))); err != nil {
				return err
			}
		}
		for k, v := range c.Blocks {
			if err := b.Put([]byte(k), v); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestBboltBusyFailsFast: a second process on an open bbolt store gets a
// clear error at once instead of waiting forever on the file lock.
func TestBboltBusyFailsFast(t *testing.T) {
	if os.Getenv("SKILLGRAPH_LOCK_CHILD") != "" {
		st, err := graph.Open(context.Background(), "bbolt:"+os.Getenv("SKILLGRAPH_LOCK_CHILD"))
		if err == nil {
			st.Close()
			os.Exit(0)
		}
		if !strings.Contains(err.Error(), "in use by another process") {
			os.Exit(3)
		}
		// The holder is the parent test process: the message names it.
		if !strings.Contains(err.Error(), fmt.Sprintf("held by pid %d", os.Getppid())) {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(5)
		}
		os.Exit(4)
	}
	dir := filepath.Join(t.TempDir(), "g.db")
	st, err := graph.Open(context.Background(), "bbolt:"+dir)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	cmd := exec.Command(os.Args[0], "-test.run", "^TestBboltBusyFailsFast$")
	cmd.Env = append(os.Environ(), "SKILLGRAPH_LOCK_CHILD="+dir)
	done := make(chan error, 1)
	go func() { done <- cmd.Run() }()
	select {
	case err := <-done:
		var ee *exec.ExitError
		if !errors.As(err, &ee) || ee.ExitCode() != 4 {
			t.Fatalf("child: %v, want exit 4 (busy error)", err)
		}
	case <-time.After(20 * time.Second):
		_ = cmd.Process.Kill()
		t.Fatal("opening a busy store hung")
	}
}
