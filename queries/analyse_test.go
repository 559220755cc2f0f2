package queries

import (
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// TestAnalysesDeclareAnOrder: every fact an analysis reads is written by
// one analysis, listed before it (issue 26.5): an analysis registered
// ahead of what it reads would run before it.
func TestAnalysesDeclareAnOrder(t *testing.T) {
	writer := map[fact]string{}
	for _, a := range analyses {
		for _, f := range a.reads {
			if writer[f] == "" {
				t.Errorf("%s reads %q, which no analysis before it writes", a.name, f)
			}
		}
		for _, f := range a.writes {
			if w := writer[f]; w != "" {
				t.Errorf("%s and %s both write %q", w, a.name, f)
			}
			writer[f] = a.name
		}
	}
}

// TestRunAnalysesSchedule: an analysis waits for the earlier ones writing
// what it reads; independent ones run at once; the findings come back in
// list order whatever order the analyses end in.
func TestRunAnalysesSchedule(t *testing.T) {
	var wrote atomic.Bool
	both := make(chan struct{}, 2)
	// meet is done when the other independent analysis runs at the same
	// time (it waits for it), which a one-at-a-time schedule never does.
	meet := func(code string) func(*Snapshot, *findings) {
		return func(_ *Snapshot, out *findings) {
			both <- struct{}{}
			deadline := time.After(5 * time.Second)
			for len(both) < 2 {
				select {
				case <-deadline:
					out.add(Finding{Code: code + "-alone"})
					return
				default:
					time.Sleep(time.Millisecond)
				}
			}
			out.add(Finding{Code: code})
		}
	}
	list := []analysis{
		{"slow writer", nil, facts("x"), func(_ *Snapshot, out *findings) {
			time.Sleep(20 * time.Millisecond)
			wrote.Store(true)
			out.add(Finding{Code: "a"})
		}},
		{"reader", facts("x"), nil, func(_ *Snapshot, out *findings) {
			if !wrote.Load() {
				out.add(Finding{Code: "read-too-early"})
				return
			}
			out.add(Finding{Code: "b"})
		}},
		{"independent one", nil, facts("y"), meet("c")},
		{"independent two", nil, facts("z"), meet("d")},
	}
	if got := dependsOn(list, 1); len(got) != 1 || got[0] != 0 {
		t.Errorf("the reader depends on %v, want [0]", got)
	}
	if got := dependsOn(list, 3); len(got) != 0 {
		t.Errorf("an independent analysis depends on %v", got)
	}
	outs := runAnalyses(newSnapshot(), list)
	var codes []string
	for _, fs := range outs {
		for _, f := range fs {
			codes = append(codes, f.Code)
		}
	}
	if got := strings.Join(codes, " "); got != "a b c d" {
		t.Errorf("findings %q, want \"a b c d\"", got)
	}
}
