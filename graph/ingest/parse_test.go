package ingest

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"sync/atomic"
	"testing"
	"time"

	"github.com/skillgraph/skillgraph/ingest/discover"
	"github.com/skillgraph/skillgraph/ingest/record"
)

// TestParseInOrder holds the parallel parse to the sequential one: every
// unit handed over in source order (nil ones left out), never more than
// its lead ahead of the last one taken, and a stop (keep's error, a
// cancel) that returns once the parses under way are done.
func TestParseInOrder(t *testing.T) {
	srcs := make([]discover.Source, 500)
	for i := range srcs {
		srcs[i] = discover.Source{Path: fmt.Sprintf("f%03d", i)}
	}
	in := &record.Instance{}
	// parse makes a unit per source but every seventh (a file in no
	// format), after a random short wait, so workers finish out of order.
	parse := func(running, most *atomic.Int64, taken *atomic.Int64) func(discover.Source) *unit {
		return func(s discover.Source) *unit {
			var i int
			fmt.Sscanf(s.Path, "f%d", &i)
			if ahead := int64(i) - taken.Load(); ahead > most.Load() {
				most.Store(ahead)
			}
			running.Add(1)
			defer running.Add(-1)
			time.Sleep(time.Duration(rand.IntN(200)) * time.Microsecond)
			if i%7 == 3 {
				return nil
			}
			return &unit{in: in, path: s.Path}
		}
	}
	var want []string
	for i, s := range srcs {
		if i%7 != 3 {
			want = append(want, s.Path)
		}
	}
	stopErr := errors.New("stop")
	for _, tc := range []struct {
		name     string
		workers  int
		stopAt   int  // keep fails at this unit (-1: never)
		cancelAt int  // the context is cancelled at this unit (-1: never)
		wantErr  bool // an error is returned
	}{
		{"one worker", 1, -1, -1, false},
		{"two workers", 2, -1, -1, false},
		{"eight workers", 8, -1, -1, false},
		{"keep fails", 4, 100, -1, true},
		{"cancelled", 4, -1, 50, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			var running, most, taken atomic.Int64
			var got []string
			err := parseInOrder(ctx, srcs, tc.workers, parse(&running, &most, &taken), func(u *unit) error {
				var i int
				fmt.Sscanf(u.path, "f%d", &i)
				taken.Store(int64(i))
				if i == 100 {
					// A slow write: unbounded, the workers would run far
					// ahead meanwhile.
					time.Sleep(20 * time.Millisecond)
				}
				if len(got) == tc.stopAt {
					return stopErr
				}
				if len(got) == tc.cancelAt {
					cancel()
				}
				got = append(got, u.path)
				return nil
			})
			if (err != nil) != tc.wantErr {
				t.Fatalf("err = %v, want an error: %t", err, tc.wantErr)
			}
			if tc.stopAt >= 0 && !errors.Is(err, stopErr) {
				t.Fatalf("err = %v, want keep's", err)
			}
			if tc.cancelAt >= 0 && !errors.Is(err, context.Canceled) {
				t.Fatalf("err = %v, want the cancel", err)
			}
			n := len(want)
			if tc.stopAt >= 0 {
				n = tc.stopAt
			}
			if tc.cancelAt >= 0 {
				n = tc.cancelAt + 1
			}
			if !slices.Equal(got, want[:n]) {
				t.Fatalf("units handed over out of order or missing: got %d, first %v", len(got), got[:min(5, len(got))])
			}
			if r := running.Load(); r != 0 {
				t.Fatalf("%d parses still running after return", r)
			}
			// The lead counts sources; taken moves only at a unit (not a
			// skipped source) and just after its slot is freed: two more.
			if lim := int64(parseLead*max(tc.workers, 1)) + 2; tc.workers > 1 && most.Load() > lim {
				t.Fatalf("a source was parsed %d ahead of the last unit taken, over the lead %d", most.Load(), lim)
			}
		})
	}
}
