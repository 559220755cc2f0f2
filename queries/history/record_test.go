package history_test

import (
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/skillgraph/skillgraph/queries/history"
)

// TestRecordRoundTrip: a Record is RecordSize bytes whatever it holds, and
// decodes to the tallies bounded to TopCodes codes (the rest in Other),
// with its commit and time; a record of another size or format, or a
// commit that is not a hash, is refused.
func TestRecordRoundTrip(t *testing.T) {
	ex := full(t, example)
	many := ex
	many.Findings.ByCode = map[string]int{}
	for i := range 20 {
		many.Findings.ByCode[fmt.Sprintf("code-%02d", i)] = i + 1
	}
	many.Findings.ByCode[strings.Repeat("x", 41)] = 100 // longer than a slot: counted in Other
	commit := strings.Repeat("ab", 20)
	at := time.Date(2026, 11, 30, 8, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		name      string
		rec       history.Record
		wantCodes int
		wantOther int
	}{
		{"the example, no commit", history.Record{Tallies: ex}, history.TopCodes, otherOf(ex)},
		{"with a commit", history.Record{Commit: commit, Time: at, Tallies: ex}, history.TopCodes, otherOf(ex)},
		{"twenty codes and a long one", history.Record{Commit: commit, Time: at, Tallies: many}, history.TopCodes, 1 + 2 + 3 + 4 + 100},
		{"nothing", history.Record{}, 0, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			data, err := tc.rec.MarshalBinary()
			if err != nil {
				t.Fatal(err)
			}
			if len(data) != history.RecordSize {
				t.Fatalf("%d bytes, want %d", len(data), history.RecordSize)
			}
			var got history.Record
			if err := got.UnmarshalBinary(data); err != nil {
				t.Fatal(err)
			}
			want := tc.rec
			want.Tallies = tc.rec.Tallies.Bounded(history.TopCodes)
			want.Tallies.Packages = nil // the fixed bytes never hold them: Encode's tail does
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("decoded\n%+v\nwant\n%+v", got, want)
			}
			if len(got.Tallies.Findings.ByCode) != tc.wantCodes || got.Tallies.Findings.Other != tc.wantOther {
				t.Fatalf("%d codes, other %d; want %d, %d", len(got.Tallies.Findings.ByCode), got.Tallies.Findings.Other, tc.wantCodes, tc.wantOther)
			}
			sum := got.Tallies.Findings.Other
			for _, n := range got.Tallies.Findings.ByCode {
				sum += n
			}
			all := 0
			for _, n := range tc.rec.Tallies.Findings.ByCode {
				all += n
			}
			if sum != all {
				t.Fatalf("the codes kept and Other sum to %d, the findings by code to %d", sum, all)
			}
		})
	}
	if len(ex.Findings.ByCode) <= history.TopCodes {
		t.Fatalf("the example has %d codes: the bound is not tested", len(ex.Findings.ByCode))
	}
	good, _ := history.Record{Tallies: ex}.MarshalBinary()
	for _, tc := range []struct {
		name string
		data []byte
	}{
		{"short", good[:100]},
		{"long", append(append([]byte{}, good...), 0)},
		{"another format", append([]byte{9}, good[1:]...)},
	} {
		var r history.Record
		if err := r.UnmarshalBinary(tc.data); err == nil {
			t.Errorf("%s: decoded", tc.name)
		}
	}
	if _, err := (history.Record{Commit: "HEAD"}).MarshalBinary(); err == nil {
		t.Error("a commit that is not a hash was encoded")
	}
}

// otherOf is what Bounded(TopCodes) counts in Other: the findings of the
// codes after the TopCodes most frequent (ties by name).
func otherOf(t history.Tallies) int {
	codes := t.Codes()
	slices.SortStableFunc(codes, func(a, b string) int { return t.Findings.ByCode[b] - t.Findings.ByCode[a] })
	n := 0
	for _, c := range codes[min(len(codes), history.TopCodes):] {
		n += t.Findings.ByCode[c]
	}
	return n
}
