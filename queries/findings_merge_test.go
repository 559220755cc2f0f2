package queries

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"
)

// TestMergeFindingsIsTheStableSort: analyses sort their own findings and
// analyse merges them; the result must be the stable sort of all of them
// joined in analysis order, ties (equal place, code and message, another
// subject) included, since check and the API list them in that order.
func TestMergeFindingsIsTheStableSort(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 9))
	for trial := range 200 {
		runs := make([]findings, rng.IntN(12))
		var joined []Finding
		for r := range runs {
			for k := range rng.IntN(20) {
				f := Finding{
					Instance: fmt.Sprint(rng.IntN(2)), File: fmt.Sprint(rng.IntN(3)), Line: rng.IntN(3),
					Code: fmt.Sprint(rng.IntN(2)), Message: fmt.Sprint(rng.IntN(2)),
					Subject: fmt.Sprintf("run%d/%d", r, k), // tells ties apart
				}
				runs[r] = append(runs[r], f)
				joined = append(joined, f)
			}
		}
		slices.SortStableFunc(joined, compareFindings)
		for _, fs := range runs {
			fs.sort()
		}
		got := mergeFindings(runs)
		if len(got) == 0 && len(joined) == 0 {
			continue
		}
		if !reflect.DeepEqual([]Finding(got), joined) {
			t.Fatalf("trial %d: merged\n%v\nwant\n%v", trial, got, joined)
		}
	}
}
