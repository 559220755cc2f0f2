package graph

import (
	"slices"
	"testing"
	"time"
)

// TestPruneTallies: the rule of docs/decisions.md, "Tallies per graph
// version": every version of the last 7 days (the newest TallyRecentMax
// of them), then the last of each UTC day for TallyDays days.
func TestPruneTallies(t *testing.T) {
	now := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	day := 24 * time.Hour
	at := func(d time.Duration) time.Time { return now.Add(-d) }
	many := func(n int) []TallyRecord {
		var out []TallyRecord
		for i := range n {
			out = append(out, TallyRecord{Version: int64(i + 1), At: at(time.Duration(n-i) * time.Second)})
		}
		return out
	}
	for _, tc := range []struct {
		name string
		recs []TallyRecord
		want []int64
	}{
		{"nothing", nil, nil},
		{"all recent", []TallyRecord{{Version: 1, At: at(6 * day)}, {Version: 2, At: at(time.Hour)}, {Version: 3, At: now}}, nil},
		{"one per day before the window", []TallyRecord{
			{Version: 1, At: at(9*day + time.Hour)}, {Version: 2, At: at(9 * day)}, // one UTC day: 2 kept
			{Version: 3, At: at(8 * day)}, {Version: 4, At: at(day)},
		}, []int64{1}},
		{"older than TallyDays", []TallyRecord{{Version: 1, At: at((TallyDays + 2) * day)}, {Version: 2, At: at((TallyDays - 2) * day)}, {Version: 3, At: now}}, []int64{1}},
		{"more recent ones than the bound: the oldest go", many(TallyRecentMax + 3), []int64{1, 2, 3}},
		{"a version given twice counts once, the last time winning", []TallyRecord{
			{Version: 1, At: at(20 * day)}, {Version: 2, At: at(20*day - time.Hour)}, {Version: 1, At: at(20*day - 2*time.Hour)},
		}, []int64{2}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := pruneTallies(tc.recs, now); !slices.Equal(got, tc.want) {
				t.Fatalf("drop %v, want %v", got, tc.want)
			}
		})
	}
}
