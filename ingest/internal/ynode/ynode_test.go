package ynode

import (
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"
)

func TestParseJSONLines(t *testing.T) {
	data := "{\n  \"a\": 1,\n  \"b\": [\n    true,\n    {\"c\": \"x\\/y\\ud83d\\ude00\"}\n  ],\n  \"n\": null, \"f\": 1.5e3\n}"
	root, err := ParseJSON([]byte(data))
	if err != nil {
		t.Fatal(err)
	}
	if Line(root) != 1 || Line(KeyNode(root, "a")) != 2 || Line(Get(root, "b")) != 3 {
		t.Errorf("lines: root %d a %d b %d", Line(root), Line(KeyNode(root, "a")), Line(Get(root, "b")))
	}
	items := Items(Get(root, "b"))
	if len(items) != 2 || Line(items[0]) != 4 || Line(items[1]) != 5 {
		t.Fatalf("items %+v", items)
	}
	if got := Str(Get(items[1], "c")); got != "x/y😀" {
		t.Errorf("c = %q", got)
	}
	v, err := ToAny(root)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]any{"a": json.Number("1"), "b": []any{true, map[string]any{"c": "x/y😀"}}, "n": nil, "f": json.Number("1.5e3")}
	if !reflect.DeepEqual(v, want) {
		t.Errorf("ToAny = %#v", v)
	}
}

func TestParseErrors(t *testing.T) {
	for _, c := range []struct {
		data string
		json bool
		line int
	}{
		{"", true, 1},
		{"{\n\"a\" 1}", true, 2},
		{"{\"a\": 1}\n\n{}", true, 3},
		{"{1: 2}", true, 1},
		{strings.Repeat("[", MaxDepth+5), true, 1},
		{"a: [\n", false, 1},
		{"a: b\n c: d\n", false, 2},
		{strings.Repeat("[", MaxDepth+5) + strings.Repeat("]", MaxDepth+5), false, 1},
	} {
		_, err := Parse([]byte(c.data), c.json)
		var pe *Error
		if !errors.As(err, &pe) || pe.Line != c.line {
			t.Errorf("%.20q: err = %v, want line %d", c.data, err, c.line)
		}
	}
}

func TestYAMLAccessors(t *testing.T) {
	root, err := ParseYAML([]byte("a: &x [1, 2]\nb: *x\nc: yes\nd: true\ne: 0x10\nf: .inf\ng: ~\n"))
	if err != nil {
		t.Fatal(err)
	}
	if got := Strings(Get(root, "b")); !reflect.DeepEqual(got, []string{"1", "2"}) {
		t.Errorf("alias = %v", got)
	}
	if _, ok := Bool(Get(root, "c")); ok {
		t.Error("yes is a string in YAML 1.2")
	}
	if b, ok := Bool(Get(root, "d")); !ok || !b {
		t.Error("d")
	}
	if i, ok := Int(Get(root, "e")); !ok || i != 16 {
		t.Errorf("e = %d %v", i, ok)
	}
	v, _ := ToAny(root)
	m := v.(map[string]any)
	if m["e"] != int64(16) || m["f"] != ".inf" || m["g"] != nil {
		t.Errorf("ToAny = %#v", m)
	}
	if !IsNull(Get(root, "g")) || !IsNull(nil) || IsNull(Get(root, "a")) {
		t.Error("IsNull")
	}
	if Get(nil, "a") != nil || Items(nil) != nil || Str(nil) != "" || Line(nil) != 1 {
		t.Error("nil-safe accessors")
	}
}

func TestAliasBomb(t *testing.T) {
	var b strings.Builder
	b.WriteString("a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n")
	for i := 1; i < 12; i++ {
		b.WriteString("a" + string(rune('0'+i%10)) + string(rune('a'+i)) + ": &a" + string(rune('a'+i)) + " [")
		prev := "a0"
		if i > 1 {
			prev = "a" + string(rune('a'+i-1))
		}
		for j := 0; j < 10; j++ {
			if j > 0 {
				b.WriteString(", ")
			}
			b.WriteString("*" + prev)
		}
		b.WriteString("]\n")
	}
	root, err := ParseYAML([]byte(b.String()))
	if err != nil {
		t.Skipf("parser refused the document: %v", err)
	}
	if _, err := ToAny(root); !errors.Is(err, ErrTooLarge) {
		t.Errorf("ToAny err = %v, want ErrTooLarge", err)
	}
}

func TestSchemaType(t *testing.T) {
	root, _ := ParseJSON([]byte(`{"a": "string", "b": ["null", "integer"], "c": ["null"], "d": 3, "e": {}}`))
	for k, want := range map[string]string{"a": "string", "b": "integer", "c": "", "d": "3", "e": ""} {
		if got := SchemaType(Get(root, k)); got != want {
			t.Errorf("%s = %q, want %q", k, got, want)
		}
	}
}
