package ynode

import (
	"encoding/json"
	"errors"
	"fmt"
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
	_, err := ParseYAML([]byte(b.String()))
	var pe *Error
	if !errors.Is(err, ErrAliasLimit) || !errors.As(err, &pe) || pe.Line < 2 || Code(err, "parse-error") != "yaml-alias-limit" {
		t.Errorf("ParseYAML err = %v, want ErrAliasLimit on the line of an alias", err)
	}
}

// TestAliasLimit: documents whose aliases would expand beyond the bound —
// nested, wide, through merge keys, or cyclic — are refused when parsed;
// documents that reuse anchors within it are read with the aliases
// followed.
func TestAliasLimit(t *testing.T) {
	wide := func(n int) string { // one anchor, n aliases to it
		return "a: &a x\nb: [" + strings.Repeat("*a, ", n-1) + "*a]\n"
	}
	nested := func(levels int) string {
		var b strings.Builder
		b.WriteString("l0: &l0 [x, x, x, x, x, x, x, x, x, x]\n")
		for i := 1; i <= levels; i++ {
			fmt.Fprintf(&b, "l%d: &l%d [%s]\n", i, i, strings.TrimSuffix(strings.Repeat(fmt.Sprintf("*l%d, ", i-1), 10), ", "))
		}
		return b.String()
	}
	for _, c := range []struct {
		name string
		doc  string
		over bool
		line int
	}{
		{"no aliases", "a: 1\nb: [1, 2]\n", false, 0},
		{"reused anchor", "base: &b {x: 1, y: [1, 2]}\none: *b\ntwo: *b\n", false, 0},
		{"wide within the bound", wide(MaxAliasExpansion), false, 0},
		{"wide beyond the bound", wide(MaxAliasExpansion + 1), true, 2},
		{"nested within the bound", nested(3), false, 0},
		{"nested beyond the bound", nested(5), true, 5},
		{"self cycle", "a: &a [1, *a]\n", true, 1},
		{"cycle through a mapping", "a: &a {b: {c: *a}}\n", true, 1},
		{"merge bomb", "m0: &m0 {a: 1, b: 2, c: 3, d: 4, e: 5, f: 6, g: 7, h: 8, i: 9, j: 10}\n" +
			"m1: &m1 {<<: *m0, a1: *m0, a2: *m0, a3: *m0, a4: *m0, a5: *m0, a6: *m0, a7: *m0, a8: *m0, a9: *m0}\n" +
			"m2: &m2 {<<: *m1, a1: *m1, a2: *m1, a3: *m1, a4: *m1, a5: *m1, a6: *m1, a7: *m1, a8: *m1, a9: *m1}\n" +
			"m3: &m3 {<<: *m2, a1: *m2, a2: *m2, a3: *m2, a4: *m2, a5: *m2, a6: *m2, a7: *m2, a8: *m2, a9: *m2}\n" +
			"m4: &m4 {<<: *m3, a1: *m3, a2: *m3, a3: *m3, a4: *m3, a5: *m3, a6: *m3, a7: *m3, a8: *m3, a9: *m3}\n", true, 5},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := ParseYAML([]byte(c.doc))
			var pe *Error
			switch {
			case !c.over && err != nil:
				t.Fatalf("refused: %v", err)
			case c.over && !errors.Is(err, ErrAliasLimit):
				t.Fatalf("err = %v, want ErrAliasLimit", err)
			case c.over && (!errors.As(err, &pe) || pe.Line != c.line):
				t.Errorf("err = %v, want line %d", err, c.line)
			}
		})
	}
}

// TestMergeKeys: a merge key brings in the entries of the mappings it
// names that the mapping does not set itself; a quoted "<<" is a key.
func TestMergeKeys(t *testing.T) {
	root, err := ParseYAML([]byte("base: &b {description: shared, tags: [a, b], name: base}\nother: &o {x: 1}\nskill:\n  name: mine\n  <<: [*b, *o]\n  \"<<\": literal\n"))
	if err != nil {
		t.Fatal(err)
	}
	s := Get(root, "skill")
	if got := Str(Get(s, "description")); got != "shared" {
		t.Errorf("description = %q", got)
	}
	if got := Str(Get(s, "name")); got != "mine" {
		t.Errorf("name = %q: the mapping's own key wins", got)
	}
	if got := Strings(Get(s, "tags")); !reflect.DeepEqual(got, []string{"a", "b"}) {
		t.Errorf("tags = %v", got)
	}
	if got := Str(Get(s, "x")); got != "1" {
		t.Errorf("x = %q", got)
	}
	if got := Str(Get(s, "<<")); got != "literal" {
		t.Errorf("quoted << = %q", got)
	}
	m := Entries(s, NewLineMap("", 1))
	if len(m.Dups) != 0 || len(m.Entries) != 5 { // name, "<<", description, tags, x
		t.Errorf("entries %d dups %d", len(m.Entries), len(m.Dups))
	}
}

// TestSplitFrontMatter: the one front-matter rule of skills and beans.
func TestSplitFrontMatter(t *testing.T) {
	for _, c := range []struct {
		name, text    string
		present, done bool
		yaml          string
		body          int
	}{
		{"none", "# T\n", false, false, "", 0},
		{"closed", "---\na: 1\n---\nbody\n", true, true, "a: 1", 3},
		{"dots close", "---  \na: 1\n...\n", true, true, "a: 1", 3},
		{"CRLF and BOM", "\uFEFF---\r\na: 1\r\n---\r\nb", true, true, "a: 1", 3},
		{"lone CR", "---\ra: 1\r---\rb", true, true, "a: 1", 3},
		{"unclosed", "---\na: 1\n", true, false, "", 0},
		{"dots do not open", "...\na: 1\n...\n", false, false, "", 0},
	} {
		fm := SplitFrontMatter(Lines([]byte(c.text)))
		if fm.Present != c.present || fm.Closed != c.done || fm.YAML != c.yaml || fm.BodyIdx != c.body {
			t.Errorf("%s: %+v", c.name, fm)
		}
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

// FuzzParseYAML: parsing never panics, refuses or accepts, and an accepted
// document can be walked and converted with every alias followed without
// exceeding the bounds.
func FuzzParseYAML(f *testing.F) {
	f.Add([]byte("a: &a [1, 2]\nb: *a\n<<: {c: 3}\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		root, err := ParseYAML(data)
		if err != nil {
			var pe *Error
			if !errors.As(err, &pe) || pe.Line < 1 {
				t.Fatalf("error without a line: %v", err)
			}
			return
		}
		_, _ = ToAny(root)
		m := Entries(root, NewLineMap(string(data), 1))
		for _, e := range m.Entries {
			_ = Strings(e.Val)
			_, _ = Scalar(e.Val)
		}
	})
}

// FuzzParseJSON: strict JSON parsing never panics and every error has a line.
func FuzzParseJSON(f *testing.F) {
	f.Add([]byte(`{"a": [1, {"b": null}], "c": "d"}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		root, err := ParseJSON(data)
		if err != nil {
			var pe *Error
			if !errors.As(err, &pe) || pe.Line < 1 {
				t.Fatalf("error without a line: %v", err)
			}
			return
		}
		_, _ = ToAny(root)
	})
}

// TestProblems: duplicate keys and numbers no float64 holds are reported on
// their lines (issue #16.7), and ToAny keeps such a number as its text
// instead of an error message; ordinary numbers and YAML's .inf are not.
func TestProblems(t *testing.T) {
	big := strings.Repeat("9", 100000)
	root, err := ParseJSON([]byte("{\n\"a\": 1,\n\"b\": {\"c\": 1.5e3,\n\"c\": -2},\n\"a\": 3,\n\"n\": " + big + ",\n\"e\": 1e400,\n\"i\": 12345678901234567890123\n}"))
	if err != nil {
		t.Fatal(err)
	}
	var got []int
	for _, p := range Problems(root) {
		got = append(got, p.Line)
		if len(p.Msg) > 200 {
			t.Errorf("message not truncated: %d bytes", len(p.Msg))
		}
	}
	if want := []int{4, 5, 6, 7}; !reflect.DeepEqual(got, want) {
		t.Errorf("problem lines %v, want %v", got, want)
	}
	v, err := ToAny(root)
	if err != nil {
		t.Fatal(err)
	}
	m := v.(map[string]any)
	if m["n"] != big || m["e"] != "1e400" || m["a"] != json.Number("3") || m["i"] != json.Number("12345678901234567890123") {
		t.Errorf("ToAny n=%.20v e=%v a=%v i=%v", m["n"], m["e"], m["a"], m["i"])
	}
	y, err := ParseYAML([]byte("a: .inf\nb: 0x1F\nc: 1_000\nd: " + strings.Repeat("7", 200) + "\n"))
	if err != nil {
		t.Fatal(err)
	}
	if ps := Problems(y); len(ps) != 1 || ps[0].Line != 4 {
		t.Errorf("YAML problems %+v", ps)
	}
}
