package history

import (
	"encoding/json"
	"testing"
)

// TestTailOldReader: a reader of the second format (changes alone, as
// decodeChanges read them: json.Unmarshal, then every list sorted,
// bounded and More not negative) ignores the packages, and refuses the
// changes of a tail whose changes are not known, rather than reading them
// as "nothing changed".
func TestTailOldReader(t *testing.T) {
	secondFormat := func(b []byte) (*StateChanges, bool) {
		var c StateChanges
		if err := json.Unmarshal(b, &c); err != nil {
			return nil, false
		}
		for _, p := range c.pairs() {
			for _, l := range p {
				if l.More < 0 || len(l.IDs) > MaxChangedIDs {
					return nil, false
				}
			}
		}
		return &c, true
	}
	pk := []PackageTally{{Kind: KindPackage, Name: "a", Skills: 1}}
	for _, tc := range []struct {
		name    string
		changes *StateChanges
		known   bool
	}{
		{"changes known", &StateChanges{NewlyCovered: IDs{IDs: []string{"x"}}}, true},
		{"changes not known", nil, false},
	} {
		b, err := encodeTail(tc.changes, pk)
		if err != nil {
			t.Fatal(err)
		}
		c, ok := secondFormat(b)
		if ok != tc.known {
			t.Fatalf("%s: an old reader reads the changes as known=%v (%+v)", tc.name, ok, c)
		}
		if ok && (len(c.NewlyCovered.IDs) != 1 || c.NewlyCovered.IDs[0] != "x") {
			t.Fatalf("%s: an old reader reads %+v", tc.name, c)
		}
	}
}
