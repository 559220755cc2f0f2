package record

import (
	"encoding/json"
	"reflect"
	"testing"
)

// asMap is r as the map RefLines was, for comparing with encoding/json.
func asMap(r RefLines) map[string]map[string]int {
	if r == nil {
		return nil
	}
	m := map[string]map[string]int{}
	for _, x := range r {
		if m[x.Field] == nil {
			m[x.Field] = map[string]int{}
		}
		m[x.Field][x.Ref] = x.Line
	}
	return m
}

// TestRefLinesJSON: RefLines write exactly the JSON encoding/json writes
// for the map they replaced (the stored refLines literals, so the quads of
// every corpus, stay byte-identical) and read it back; the first line of
// a reference wins; a line below 1 or an empty reference is not recorded.
func TestRefLinesJSON(t *testing.T) {
	var r RefLines
	r.Set("satisfies", "b", 5)
	r.Set("satisfies", "a", 7)
	r.Set("satisfies", "b", 9) // kept: 5
	r.Set("blocking", "x<&>y", 3)
	r.Set("subprocesses", "é\u2028", 4)
	r.Set("satisfies", "", 2)
	r.Set("parent", "p", 0)
	tests := []struct {
		name string
		r    RefLines
		want string
	}{
		{"nil", nil, "null"},
		{"refs", r, `{"blocking":{"x\u003c\u0026\u003ey":3},"satisfies":{"a":7,"b":5},"subprocesses":{"é\u2028":4}}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := json.Marshal(tt.r)
			if err != nil || string(got) != tt.want {
				t.Fatalf("Marshal = %s, %v; want %s", got, err, tt.want)
			}
			asmap, _ := json.Marshal(asMap(tt.r))
			if string(got) != string(asmap) {
				t.Fatalf("Marshal = %s, the map's encoding %s", got, asmap)
			}
			var back RefLines
			if err := json.Unmarshal(got, &back); err != nil || !reflect.DeepEqual(back, tt.r) {
				t.Fatalf("Unmarshal = %v, %v; want %v", back, err, tt.r)
			}
		})
	}
	if r.Line("satisfies", "b") != 5 || r.Line("satisfies", "c") != 0 || r.Line("parent", "p") != 0 {
		t.Fatalf("Line: %v", r)
	}
}

// FuzzRefLines: any references set give the map's JSON, read back equal.
func FuzzRefLines(f *testing.F) {
	f.Add("satisfies", "a", 3, "satisfies", "b", 1, "blocking", "a", 2)
	f.Add("x", "<&>", 1, "x", "<&>", 2, "", "\xff", 5)
	f.Add("f", "é", 1, "f\x00", "r", 1, "e", "r", -1)
	f.Fuzz(func(t *testing.T, f1, r1 string, l1 int, f2, r2 string, l2 int, f3, r3 string, l3 int) {
		var r RefLines
		r.Set(f1, r1, l1)
		r.Set(f2, r2, l2)
		r.Set(f3, r3, l3)
		got, err := json.Marshal(r)
		if err != nil {
			t.Fatal(err)
		}
		want, _ := json.Marshal(asMap(r))
		if string(got) != string(want) {
			t.Fatalf("Marshal = %s, the map's encoding %s", got, want)
		}
		var back RefLines
		if err := json.Unmarshal(got, &back); err != nil {
			t.Fatal(err)
		}
		// What the map form reads (invalid UTF-8 became U+FFFD).
		var m map[string]map[string]int
		if err := json.Unmarshal(got, &m); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(asMap(back), m) {
			t.Fatalf("read back %v, the map form %v", back, m)
		}
	})
}
