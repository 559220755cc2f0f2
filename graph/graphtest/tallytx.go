package graphtest

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/cayleygraph/quad"

	"github.com/skillgraph/skillgraph/graph"
)

// testTalliesInTransaction: ApplyTallied commits a version and its tally
// record together or neither — the record's hook failing, the context
// cancelled inside the write, or (where the backend can fail writes) a
// put after the record failing leave the version and the records as they
// were; a nil record commits the version alone; a record commits with its
// version, prunes by the rule in the same write, and is seen by another
// Store of a shared backend and after a reopen.
func testTalliesInTransaction(t *testing.T, h Harness) {
	url := h.URL(t)
	hooks := &graph.Hooks{}
	s := OpenWith(t, url, hooks)
	now := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	change := func(i int) []graph.Change {
		return []graph.Change{{Graph: "urn:g:a", Quads: []quad.Quad{Q("urn:a", "urn:p", fmt.Sprint(i), "")}}}
	}
	record := func(at time.Time, data string) graph.TallyFunc {
		return func(context.Context, int64) (time.Time, []byte, error) { return at, []byte(data), nil }
	}
	injected := errors.New("injected")
	for i, tc := range []struct {
		name    string
		tally   func(cancel func()) graph.TallyFunc
		fail    bool // a put of the write fails (h.FailsWrites only)
		wantErr error
		wantV   int64
		want    string // as talliesOf
	}{
		{name: "first version, with its record", tally: func(func()) graph.TallyFunc { return record(now.Add(-400*24*time.Hour), "one") },
			wantV: 1, want: "1@400=one"},
		{name: "the hook fails", tally: func(func()) graph.TallyFunc {
			return func(context.Context, int64) (time.Time, []byte, error) { return time.Time{}, nil, injected }
		}, wantErr: injected, wantV: 1, want: "1@400=one"},
		{name: "cancelled inside the write", tally: func(cancel func()) graph.TallyFunc {
			return func(ctx context.Context, v int64) (time.Time, []byte, error) {
				cancel()
				return now, []byte("cancelled"), nil
			}
		}, wantErr: context.Canceled, wantV: 1, want: "1@400=one"},
		{name: "a put of the write fails", tally: func(func()) graph.TallyFunc { return record(now, "failed") },
			fail: true, wantV: 1, want: "1@400=one"},
		{name: "no record", tally: func(func()) graph.TallyFunc {
			return func(context.Context, int64) (time.Time, []byte, error) { return now, nil, nil }
		}, wantV: 2, want: "1@400=one"},
		{name: "the version it is told", tally: func(func()) graph.TallyFunc {
			return func(_ context.Context, v int64) (time.Time, []byte, error) {
				return now, []byte(fmt.Sprint("v", v)), nil
			}
		}, wantV: 3, want: "3@0=v3"}, // the one of 400 days ago is pruned in the same write
	} {
		if tc.fail && !h.FailsWrites {
			continue
		}
		ctx, cancel := context.WithCancel(context.Background())
		if tc.fail {
			calls := 0
			hooks.FailWrite = func() error {
				if calls++; calls > 1 {
					return errors.New("no space left on device (injected)")
				}
				return nil
			}
		}
		_, err := s.ApplyTallied(ctx, change(i), tc.tally(cancel), nil)
		hooks.FailWrite = nil
		cancel()
		if tc.wantErr != nil && !errors.Is(err, tc.wantErr) || tc.wantErr == nil && (err != nil) != tc.fail {
			t.Fatalf("%s: ApplyTallied: %v (want %v)", tc.name, err, tc.wantErr)
		}
		if v, err := s.Version(context.Background()); err != nil || v != tc.wantV {
			t.Fatalf("%s: version %d, %v (want %d)", tc.name, v, err, tc.wantV)
		}
		if got := talliesOf(t, s, now); got != tc.want {
			t.Fatalf("%s: tallies %q, want %q", tc.name, got, tc.want)
		}
	}
	talliesKept(t, h, s, url, now, "3@0=v3")
}

// The helper process of testTallyKill: it applies a second version to the
// store named by $SKILLGRAPH_TALLY_KILL_STORE with a record whose hook
// says so on stdout and waits to be killed, inside the write.
const (
	tallyKillEnv    = "SKILLGRAPH_TALLY_KILL_STORE"
	tallyKillMarker = "inside the write"
)

// tallyKillHelper is the process testTallyKill kills.
func tallyKillHelper(t *testing.T, url string) {
	s := Open(t, url)
	_, err := s.ApplyTallied(context.Background(), []graph.Change{{Graph: "urn:g:b", Quads: MixedQuads("b")}},
		func(context.Context, int64) (time.Time, []byte, error) {
			fmt.Println(tallyKillMarker)
			select {} // until the SIGKILL
		}, nil)
	t.Fatalf("the write ended (%v) without calling its tally hook", err)
}

// testTallyKill: a process killed inside a write, after the graphs are
// written and while its record is being made, leaves the store at the
// previous version with the previous records.
func testTallyKill(t *testing.T, h Harness) {
	if !h.Persistent {
		t.Skip("nothing survives the process")
	}
	if testing.Short() {
		t.Skip("runs a helper process")
	}
	ctx := context.Background()
	url := h.URL(t)
	s := Open(t, url)
	at := time.Now().UTC()
	if _, err := s.ApplyTallied(ctx, []graph.Change{{Graph: "urn:g:a", Quads: MixedQuads("a")}},
		func(context.Context, int64) (time.Time, []byte, error) { return at, []byte("one"), nil }, nil); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	root, _, _ := strings.Cut(t.Name(), "/")
	killAtMarker(t, "^"+root+"$/^TallyKillHelper$", tallyKillEnv+"="+url, tallyKillMarker, "before its hook ran")
	r := Open(t, url)
	if v, err := r.Version(ctx); err != nil || v != 1 {
		t.Fatalf("after the kill: version %d, %v (want 1)", v, err)
	}
	if got := talliesOf(t, r, at); got != "1@0=one" {
		t.Fatalf("after the kill: tallies %q, want %q", got, "1@0=one")
	}
}

// testTallyMerge: the records the rule drops are merged, oldest first,
// into the next record it keeps, in the write that drops them (by
// ApplyTallied and PutTallies alike), so the kept one can say what
// changed since the one kept before it.
func testTallyMerge(t *testing.T, h Harness) {
	ctx := context.Background()
	s := Open(t, h.URL(t))
	merge := func(earlier, later []byte) []byte { return []byte("[" + string(earlier) + "|" + string(later) + "]") }
	now := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	day := 24 * time.Hour
	put := func(i int, at time.Time, data string) {
		t.Helper()
		if _, err := s.ApplyTallied(ctx, []graph.Change{{Graph: "urn:g:a", Quads: []quad.Quad{Q("urn:a", "urn:p", fmt.Sprint(i), "")}}},
			func(context.Context, int64) (time.Time, []byte, error) { return at, []byte(data), nil }, merge); err != nil {
			t.Fatal(err)
		}
	}
	put(1, now.Add(-30*day-2*time.Hour), "a")
	put(2, now.Add(-30*day-time.Hour), "b")
	put(3, now.Add(-30*day), "c")
	if got, want := talliesOf(t, s, now), "1@30=a 2@30=b 3@30=c"; got != want {
		t.Fatalf("tallies %q, want %q", got, want)
	}
	put(4, now, "d") // 1 and 2 go: the day keeps its last, 3
	if got, want := talliesOf(t, s, now), "3@30=[[a|b]|c] 4@0=d"; got != want {
		t.Fatalf("after the prune: %q, want %q", got, want)
	}
	// A record of 400 days later: every one before goes, into it.
	if err := s.PutTallies(ctx, 4, now.Add(400*day), []byte("e"), merge); err != nil {
		t.Fatal(err)
	}
	if got, want := talliesOf(t, s, now.Add(400*day)), "4@0=[[[a|b]|c]|e]"; got != want {
		t.Fatalf("after a prune by PutTallies: %q, want %q", got, want)
	}
}
