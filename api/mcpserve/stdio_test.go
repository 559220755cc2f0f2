package mcpserve

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

// TestFilterMessages: every line that is no JSON-RPC message gets its
// error (in order, with the id when one can be read), blank lines are
// skipped, an over-long line is refused without being held in memory, and
// well-formed messages pass through unchanged.
func TestFilterMessages(t *testing.T) {
	long := `{"jsonrpc":"2.0","id":5,"method":"ping","params":{"x":"` + strings.Repeat("a", MaxMessageBytes) + `"}}`
	in := strings.Join([]string{
		`{"jsonrpc":"2.0","id":1,"method":"ping"}`,
		"",
		"[1, 2",
		`{"jsonrpc":"1.0","id":"a","method":"ping"}`,
		`[{"jsonrpc":"2.0","id":2,"method":"ping"}]`,
		long,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
	}, "\n")
	var sdk, reply bytes.Buffer
	lw := &lockedWriter{w: &reply, open: map[string]int{}, idle: make(chan struct{}, 1)}
	if err := filterMessages(strings.NewReader(in), &sdk, lw); err != nil {
		t.Fatal(err)
	}
	if want := `{"jsonrpc":"2.0","id":1,"method":"ping"}` + "\n" + `{"jsonrpc":"2.0","method":"notifications/initialized"}` + "\n"; sdk.String() != want {
		t.Errorf("passed to the SDK:\n%s\nwant\n%s", sdk.String(), want)
	}
	var got []string
	for _, l := range strings.Split(strings.TrimSpace(reply.String()), "\n") {
		var m struct {
			ID    any
			Error struct{ Code int }
		}
		if err := json.Unmarshal([]byte(l), &m); err != nil {
			t.Fatalf("reply %q: %v", l, err)
		}
		b, _ := json.Marshal(m.ID)
		got = append(got, string(b)+":"+itoa(m.Error.Code))
	}
	if want := []string{"null:-32700", `"a":-32600`, "null:-32600", "null:-32600"}; strings.Join(got, ",") != strings.Join(want, ",") {
		t.Errorf("replies %v, want %v", got, want)
	}
	if n := len(lw.open); n != 1 {
		t.Errorf("%d requests open, want 1 (id 1, forwarded and not answered)", n)
	}
}

func itoa(n int) string { b, _ := json.Marshal(n); return string(b) }
