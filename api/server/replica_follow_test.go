package server_test

import (
	"bytes"
	"context"
	"fmt"
	"io/fs"
	"log/slog"
	"math/rand/v2"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/skillgraph/skillgraph/api"
	"github.com/skillgraph/skillgraph/api/server"
	"github.com/skillgraph/skillgraph/graph/ingest"
	"github.com/skillgraph/skillgraph/graph/pgtest"
	"github.com/skillgraph/skillgraph/ingest/gen"
)

// followQuery is a wide answer: every skill and finding, coverage and
// reachability counts.
const followQuery = `{ graphVersion skills(first: 500) { totalCount nodes { id description } } tools(first: 500) { totalCount nodes { id } } coverage { total } findings(first: 500) { totalCount nodes { code file line message } } }`

// logLines is a slog handler's output that tests read while it is written.
type logLines struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (l *logLines) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.Write(p)
}

func (l *logLines) count(msg string) int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return strings.Count(l.buf.String(), "msg=\""+msg+"\"")
}

// TestReplicaFollowingEqualsFreshReplica: a replica that followed a writer
// through random ingests — one version at a time and several at once —
// by updating its snapshot from the graphs each changed (never reading the
// store whole again) answers exactly as a replica started after them, and
// as the writer.
func TestReplicaFollowingEqualsFreshReplica(t *testing.T) {
	dsn := "postgres:" + pgtest.Scratch(t)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	open := opener(ctx, t, dsn)
	root := filepath.Join(t.TempDir(), "corpus")
	if _, err := gen.Write(root, gen.Options{Skills: 60, Seed: 5}); err != nil {
		t.Fatal(err)
	}
	writer := server.NewService(open(), []string{root}, ingest.Options{}, nil, nil)
	if _, err := writer.Ingest(ctx); err != nil {
		t.Fatal(err)
	}
	var logs logLines
	follower := server.NewService(open(), nil, ingest.Options{}, slog.New(slog.NewTextHandler(&logs, nil)), nil)
	if _, err := follower.Refresh(ctx); err != nil {
		t.Fatal(err)
	}
	schema, err := api.NewSchema()
	if err != nil {
		t.Fatal(err)
	}
	body := func(s *server.Service) []byte {
		srv := httptest.NewServer(server.Handler(s, schema, server.DefaultConfig(), nil, nil))
		defer srv.Close()
		code, _, b := postQuery(t, srv.URL, followQuery, nil)
		if code != 200 || bytes.Contains(b, []byte(`"errors"`)) {
			t.Fatalf("query: %d %s", code, b)
		}
		return b
	}

	rng := rand.New(rand.NewPCG(27, 1))
	files := func() []string {
		var out []string
		_ = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() && strings.HasSuffix(p, ".md") {
				out = append(out, p)
			}
			return nil
		})
		slices.Sort(out)
		return out
	}
	edit := func(round int) {
		fs := files()
		for range 1 + rng.IntN(3) {
			p := fs[rng.IntN(len(fs))]
			b, err := os.ReadFile(p)
			if err != nil {
				continue // deleted this round
			}
			switch rng.IntN(3) {
			case 0: // a new description
				b = []byte(strings.Replace(string(b), "description: ", fmt.Sprintf("description: round %d, ", round), 1))
				err = os.WriteFile(p, b, 0o644)
			case 1: // a file gone
				err = os.Remove(p)
			default: // a new skill naming another
				n := filepath.Join(root, "skills", "followed", fmt.Sprintf("f-%d-%d.md", round, rng.IntN(1000)))
				if err = os.MkdirAll(filepath.Dir(n), 0o755); err == nil {
					err = os.WriteFile(n, fmt.Appendf(nil, "---\nname: %s\ndescription: added in round %d\n---\n\nUse `skill-%d`.\n",
						strings.TrimSuffix(filepath.Base(n), ".md"), round, rng.IntN(60)), 0o644)
				}
			}
			if err != nil {
				t.Fatal(err)
			}
		}
	}
	follows := [][]int{{1}, {2}, {3, 4, 5}, {6}, {7, 8}}
	for _, rounds := range follows {
		for _, r := range rounds {
			edit(r)
			if _, err := writer.Ingest(ctx); err != nil {
				t.Fatalf("round %d: %v", r, err)
			}
		}
		updated := logs.count("snapshot updated")
		snap, err := follower.Refresh(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if want := writer.Snapshot(); snap.Version != want.Version || answers(t, snap) != answers(t, want) {
			t.Fatalf("after rounds %v the follower at v%d answers\n%s\nthe writer at v%d\n%s", rounds, snap.Version, answers(t, snap), want.Version, answers(t, want))
		}
		if logs.count("snapshot updated") != updated+1 {
			t.Fatalf("after rounds %v the follower did not update its snapshot from the changed graphs:\n%s", rounds, logs.buf.String())
		}
	}
	if n := logs.count("snapshot served"); n != 1 {
		t.Fatalf("the follower built its snapshot whole %d times, want once (its start):\n%s", n, logs.buf.String())
	}
	fresh := server.NewService(open(), nil, ingest.Options{}, nil, nil)
	snap, err := fresh.Refresh(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := answers(t, follower.Snapshot()), answers(t, snap); got != want {
		t.Fatalf("the follower answers\n%s\na fresh replica\n%s", got, want)
	}
	if got, want := body(follower), body(fresh); !bytes.Equal(got, want) {
		t.Fatalf("GraphQL: the follower answers\n%s\na fresh replica\n%s", got, want)
	}
	if got, want := body(follower), body(writer); !bytes.Equal(got, want) {
		t.Fatalf("GraphQL: the follower answers\n%s\nthe writer\n%s", got, want)
	}
}
