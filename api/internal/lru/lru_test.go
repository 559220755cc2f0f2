package lru

import (
	"slices"
	"testing"
)

// TestBounds: the least recently used entries go when either bound is
// passed, a Get counts as a use, and an Add of a stored key keeps the
// stored value.
func TestBounds(t *testing.T) {
	type add struct {
		key  string
		size int
	}
	tests := []struct {
		name     string
		entries  int
		size     int
		adds     []add
		get      string // read between the second and third add
		wantKeys []string
	}{
		{"entry bound", 2, 100, []add{{"a", 1}, {"b", 1}, {"c", 1}}, "", []string{"b", "c"}},
		{"size bound", 10, 5, []add{{"a", 2}, {"b", 2}, {"c", 2}}, "", []string{"b", "c"}},
		{"get keeps an entry", 2, 100, []add{{"a", 1}, {"b", 1}, {"c", 1}}, "a", []string{"a", "c"}},
		{"stored key kept", 2, 100, []add{{"a", 1}, {"b", 1}, {"a", 50}}, "", []string{"a", "b"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := New[string](tt.entries, tt.size)
			for i, a := range tt.adds {
				if i == 2 && tt.get != "" {
					if _, ok := c.Get(tt.get); !ok {
						t.Fatalf("Get(%q) missed", tt.get)
					}
				}
				c.Add(a.key, a.key+"-value", a.size)
			}
			var got []string
			for _, k := range []string{"a", "b", "c"} {
				if v, ok := c.Get(k); ok {
					if v != k+"-value" {
						t.Errorf("Get(%q) = %q", k, v)
					}
					got = append(got, k)
				}
			}
			if !slices.Equal(got, tt.wantKeys) || c.Len() != len(tt.wantKeys) || c.Size() > tt.size {
				t.Errorf("kept %v (Len %d), want %v", got, c.Len(), tt.wantKeys)
			}
			c.Clear()
			if c.Len() != 0 {
				t.Errorf("Len after Clear = %d", c.Len())
			}
		})
	}
}
