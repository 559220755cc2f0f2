package idcheck

import "testing"

func TestUnsafe(t *testing.T) {
	for _, tc := range []struct {
		id   string
		safe bool
	}{
		{"deploy", true}, {"Task_0x1", true}, {"café-ü", true}, {"a.b:c", true},
		{`a"b`, false}, {"P<x>", false}, {"nul\x00", false}, {"two\nlines", false},
		{"abc\u202Etxt", false}, {"zero\u200Bwidth", false}, {"bad\xff", false}, {"a b", false},
	} {
		if got := Unsafe(tc.id); (got == "") != tc.safe {
			t.Errorf("Unsafe(%q) = %q, want safe=%v", tc.id, got, tc.safe)
		}
	}
}
