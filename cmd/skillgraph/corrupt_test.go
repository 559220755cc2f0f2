package main

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/skillgraph/skillgraph/ingest/gen"
)

var (
	binOnce sync.Once
	binDir  string
	binPath string
	binErr  error
)

// skillgraphBinary builds the CLI once per test run: the crash and
// corruption tests run it as a subprocess, because what they guard against
// (SIGKILL, faults on a memory-mapped file) ends a process.
func skillgraphBinary(t *testing.T) string {
	t.Helper()
	binOnce.Do(func() {
		if binDir, binErr = os.MkdirTemp("", "skillgraph-bin-"); binErr != nil {
			return
		}
		binPath = filepath.Join(binDir, "skillgraph")
		out, err := exec.Command("go", "build", "-o", binPath, ".").CombinedOutput()
		if err != nil {
			binErr = fmt.Errorf("go build: %v\n%s", err, out)
		}
	})
	if binErr != nil {
		t.Fatal(binErr)
	}
	return binPath
}

func TestMain(m *testing.M) {
	code := m.Run()
	if binDir != "" {
		os.RemoveAll(binDir)
	}
	os.Exit(code)
}

// damage is one way of corrupting a bbolt file (issue 16.2).
type damage struct {
	name string
	// strict: the damage is always found (exit 2); otherwise (a page whose
	// header survives) it is found when read, and the command may also
	// succeed — but never panic, fault or hang.
	strict bool
	apply  func(t *testing.T, path string)
}

func rewrite(t *testing.T, path string, fn func(b []byte) []byte) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, fn(b), 0o644); err != nil {
		t.Fatal(err)
	}
}

const page = 4096

// used is the length of the pages a bbolt file uses (its first meta page's
// high-water mark; the file itself is grown ahead in large steps).
func used(b []byte) int {
	return int(binary.LittleEndian.Uint64(b[16+40:])) * page
}

var damages = []damage{
	{"zero 1 MiB in the middle", true, func(t *testing.T, p string) {
		rewrite(t, p, func(b []byte) []byte {
			mid := used(b) / 2 / page * page
			clear(b[mid : mid+1<<20])
			return b
		})
	}},
	{"truncate to half", true, func(t *testing.T, p string) {
		rewrite(t, p, func(b []byte) []byte { return b[:len(b)/2] })
	}},
	{"random pages", true, func(t *testing.T, p string) {
		rewrite(t, p, func(b []byte) []byte {
			r := rand.New(rand.NewPCG(1, 2))
			for range 20 {
				off := (2 + r.IntN(used(b)/page-2)) * page
				for i := range page {
					b[off+i] = byte(r.Uint32())
				}
			}
			return b
		})
	}},
	{"zero the first meta page", true, func(t *testing.T, p string) {
		rewrite(t, p, func(b []byte) []byte { clear(b[:page]); return b })
	}},
	{"zero the second meta page", true, func(t *testing.T, p string) {
		rewrite(t, p, func(b []byte) []byte { clear(b[page : 2*page]); return b })
	}},
	{"random page bodies, headers kept", false, func(t *testing.T, p string) {
		rewrite(t, p, func(b []byte) []byte {
			r := rand.New(rand.NewPCG(3, 4))
			for range 40 {
				off := (2+r.IntN(used(b)/page-2))*page + 16
				for i := range page - 16 {
					b[off+i] = byte(r.Uint32())
				}
			}
			return b
		})
	}},
}

// TestCorruptStore: every command on a damaged bbolt store ends within a
// bound with exit 2 and "store is corrupt", never a panic trace, a fault or
// a hang (SIGTERM was ignored), and never a silent roll-back to an older
// version.
func TestCorruptStore(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	bin := skillgraphBinary(t)
	tmp := t.TempDir()
	corpus := filepath.Join(tmp, "corpus")
	if _, err := gen.Write(corpus, gen.Options{Skills: 150, Seed: 2}); err != nil {
		t.Fatal(err)
	}
	base := filepath.Join(tmp, "base.db")
	if out, err := exec.Command(bin, "ingest", "--corpus", corpus, "--store", "bbolt:"+base).CombinedOutput(); err != nil {
		t.Fatalf("ingest: %v\n%s", err, out)
	}
	if info, err := os.Stat(filepath.Join(base, "indexes.bolt")); err != nil || info.Size() < 4<<20 {
		t.Fatalf("the store is too small to damage in the middle: %v %v", info.Size(), err)
	}
	commands := map[string][]string{
		"query":            {"query", "{ graphVersion }"},
		"export":           {"export"},
		"ingest":           {"ingest", "--corpus", corpus},
		"serve--read-only": {"serve", "--read-only", "--addr", "127.0.0.1:0"},
	}
	for _, d := range damages {
		for name, args := range commands {
			t.Run(d.name+"/"+name, func(t *testing.T) {
				// The reading commands verify every page on open
				// (graph.OpenVerified): for them any damage is found.
				strict := d.strict || name != "ingest"
				db := filepath.Join(t.TempDir(), "g.db")
				copyDir(t, base, db)
				d.apply(t, filepath.Join(db, "indexes.bolt"))
				ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
				defer cancel()
				cmd := exec.CommandContext(ctx, bin, append(args, "--store", "bbolt:"+db)...)
				var stderr strings.Builder
				cmd.Stderr = &stderr
				err := cmd.Run()
				if ctx.Err() != nil {
					t.Fatalf("%s hung on a damaged store (killed after 90 s)\n%s", name, stderr.String())
				}
				msg := stderr.String()
				for _, bad := range []string{"panic:", "goroutine ", "SIGSEGV", "SIGBUS", "fatal error"} {
					if strings.Contains(msg, bad) {
						t.Fatalf("%s crashed on a damaged store:\n%.2000s", name, msg)
					}
				}
				var ee *exec.ExitError
				switch {
				case errors.As(err, &ee) && ee.ExitCode() == 2 && strings.Contains(msg, "store is corrupt"):
				case err == nil && !strict:
					t.Logf("%s did not read a damaged page", name)
				default:
					t.Fatalf("%s on a damaged store: %v, want exit 2 with \"store is corrupt\"\n%.2000s", name, err, msg)
				}
			})
		}
	}
}
