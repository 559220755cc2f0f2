package graphtest

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/cayleygraph/quad"

	"github.com/skillgraph/skillgraph/graph"
)

// testTallies: a tally record is kept per committed version, read back in
// version order with its time and bytes, replaced by a second record of
// its version, refused for a version not committed and when over the
// size bound, pruned by the rule (graph.TallyDays, one per day before the
// recent window) in the write of a newer one, kept across a reopen and
// seen by another Store on a shared backend (a PostgreSQL replica).
func testTallies(t *testing.T, h Harness) {
	ctx := context.Background()
	url := h.URL(t)
	s := Open(t, url)
	if got, err := s.Tallies(ctx); err != nil || len(got) != 0 {
		t.Fatalf("new store: tallies %v, err %v", got, err)
	}
	if err := s.PutTallies(ctx, 1, time.Now(), []byte("x"), nil); err == nil {
		t.Fatal("a record of version 1 in a store at version 0 was accepted")
	}
	for i := range 5 {
		if _, err := s.Apply(ctx, []graph.Change{{Graph: "urn:g:a", Quads: []quad.Quad{Q("urn:a", "urn:p", fmt.Sprint(i), "")}}}); err != nil {
			t.Fatal(err)
		}
	}
	now := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	day := 24 * time.Hour
	for _, tc := range []struct {
		name    string
		v       int64
		at      time.Time
		data    string
		wantErr string
		want    string // version@days-before-now=data, oldest version first
	}{
		{"first", 1, now.Add(-30*day - time.Hour), "one", "", "1@30=one"},
		{"same day, later", 2, now.Add(-30 * day), "two\x00\xff", "", "1@30=one 2@30=two\x00\xff"},
		{"written 400 days ago: kept until a later write", 3, now.Add(-400 * day), "three", "", "1@30=one 2@30=two\x00\xff 3@400=three"},
		{"now: the one of 400 days ago and the older one of day -30 go", 4, now, "four", "", "2@30=two\x00\xff 4@0=four"},
		{"replaced", 4, now, "FOUR", "", "2@30=two\x00\xff 4@0=FOUR"},
		{"not committed", 6, now, "six", "committed versions 1 to 5", "2@30=two\x00\xff 4@0=FOUR"},
		{"version 0", 0, now, "zero", "committed versions 1 to 5", "2@30=two\x00\xff 4@0=FOUR"},
		{"empty", 5, now, "", "bytes", "2@30=two\x00\xff 4@0=FOUR"},
		{"over the bound", 5, now, strings.Repeat("x", graph.MaxTallyRecord+1), "bytes", "2@30=two\x00\xff 4@0=FOUR"},
		{"another recent", 5, now.Add(-time.Minute), "five", "", "2@30=two\x00\xff 4@0=FOUR 5@0=five"},
	} {
		err := s.PutTallies(ctx, tc.v, tc.at, []byte(tc.data), nil)
		if (err != nil) != (tc.wantErr != "") || (err != nil && !strings.Contains(err.Error(), tc.wantErr)) {
			t.Fatalf("%s: PutTallies: %v, want an error containing %q", tc.name, err, tc.wantErr)
		}
		if got := talliesOf(t, s, now); got != tc.want {
			t.Fatalf("%s: tallies %q, want %q", tc.name, got, tc.want)
		}
	}
	talliesKept(t, h, s, url, now, "2@30=two\x00\xff 4@0=FOUR 5@0=five")
}

// talliesKept checks that another store on url sees the records want (a
// shared backend) and that they are there after s is closed and url
// reopened (a persistent one).
func talliesKept(t *testing.T, h Harness, s *graph.Store, url string, now time.Time, want string) {
	t.Helper()
	if h.Shared {
		if got := talliesOf(t, Open(t, url), now); got != want {
			t.Fatalf("another store sees %q, want %q", got, want)
		}
	}
	if !h.Persistent {
		return
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if got := talliesOf(t, Open(t, url), now); got != want {
		t.Fatalf("after a reopen: %q, want %q", got, want)
	}
}

// talliesOf prints s's records as version@whole-days-before-now=data.
func talliesOf(t *testing.T, s *graph.Store, now time.Time) string {
	t.Helper()
	recs, err := s.Tallies(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if !slices.IsSortedFunc(recs, func(a, b graph.TallyRecord) int { return int(a.Version - b.Version) }) {
		t.Fatalf("records not in version order: %v", recs)
	}
	var out []string
	for _, r := range recs {
		out = append(out, fmt.Sprintf("%d@%d=%s", r.Version, int(now.Sub(r.At)/(24*time.Hour)), r.Data))
	}
	return strings.Join(out, " ")
}
