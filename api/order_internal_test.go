package api

import (
	"bytes"
	"encoding/json"
	"testing"
)

// FuzzWriteString holds the encoder's string fast path to encoding/json:
// every answer's bytes must stay json.Marshal's (HTML-safe escapes,
// U+2028, invalid UTF-8 replaced), or cached and uncached answers, and
// answers before and after this path, would differ.
func FuzzWriteString(f *testing.F) {
	for _, s := range []string{"", "plain-id", "a\"b", `back\slash`, "<script>", "a&b", "tab\there", "\x00", "é", "\u2028", "\xff\xfe", "~\x7f"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		var buf bytes.Buffer
		writeString(&buf, s)
		want, _ := json.Marshal(s)
		if !bytes.Equal(buf.Bytes(), want) {
			t.Fatalf("writeString(%q) = %s, json.Marshal: %s", s, buf.Bytes(), want)
		}
	})
}

// TestOrdererScalars holds the scalar fast paths to encoding/json.
func TestOrdererScalars(t *testing.T) {
	o := &orderer{gathered: map[gatherKey][]gathering{}}
	for _, v := range []any{true, false, 0, -7, 1 << 40, "x", 1.5, int64(3), nil} {
		var buf bytes.Buffer
		if err := o.value(&buf, v, nil, nil); err != nil {
			t.Fatal(err)
		}
		want, _ := json.Marshal(v)
		if !bytes.Equal(buf.Bytes(), want) {
			t.Errorf("value(%#v) = %s, json.Marshal: %s", v, buf.Bytes(), want)
		}
	}
}
