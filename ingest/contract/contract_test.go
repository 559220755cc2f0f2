package contract

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/skillgraph/skillgraph/ingest/record"
)

func TestParse(t *testing.T) {
	cases := []struct {
		name, data string
		want       *record.Contract // nil: no contract
		errLine    int              // >0: one parse-error on this line
	}{
		{name: "draft-07", data: `{"$schema": "http://json-schema.org/draft-07/schema#", "type": "object",
			"required": ["text"], "properties": {"text": {"type": "string"}}}`,
			want: &record.Contract{Required: []string{"text"}, Properties: map[string]string{"text": "string"}}},
		{name: "no properties", data: `{"type": "string"}`, want: &record.Contract{Properties: map[string]string{}}},
		{name: "odd shapes", data: `{"required": "x", "properties": {"a": 1, "b": {"type": 3}, "c": {"type": []}}}`,
			want: &record.Contract{Properties: map[string]string{"a": "", "b": "3", "c": ""}}},
		{name: "not json", data: "{\n  \"type\": \"object\",\n  oops\n}", errLine: 3},
		{name: "empty", data: "", errLine: 1},
		{name: "array", data: "\n[1]", errLine: 2},
		{name: "string", data: `"x"`, errLine: 1},
		{name: "trailing", data: "{}\n{}", errLine: 2},
		{name: "truncated", data: "{\n\"a\": [\n", errLine: 2},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := Parse("schemas/c.json", []byte(c.data))
			if f.Parser != ParserName || f.Path != "schemas/c.json" {
				t.Errorf("file = %+v", f)
			}
			if c.errLine > 0 {
				if len(f.Contracts) != 0 || len(f.Findings) != 1 {
					t.Fatalf("contracts %+v findings %+v", f.Contracts, f.Findings)
				}
				fi := f.Findings[0]
				if fi.Code != record.CodeParseError || fi.Severity != record.Error || fi.Line != c.errLine || fi.File != "schemas/c.json" {
					t.Errorf("finding = %+v, want parse-error on line %d", fi, c.errLine)
				}
				return
			}
			c.want.Path = "schemas/c.json"
			if len(f.Findings) != 0 || len(f.Contracts) != 1 || !reflect.DeepEqual(f.Contracts[0], *c.want) {
				t.Errorf("contracts %+v findings %+v, want %+v", f.Contracts, f.Findings, *c.want)
			}
		})
	}
}

func TestFixtures(t *testing.T) {
	for name, want := range map[string]record.Contract{
		"input.schema.json": {Required: []string{"text"}, Properties: map[string]string{"text": "string"}},
		"output-2020.schema.json": {Required: []string{"count", "note"}, Properties: map[string]string{
			"count": "integer", "note": "string", "any": "", "nothing": "", "tags": "array"}},
	} {
		data, err := os.ReadFile(filepath.Join("testdata", name))
		if err != nil {
			t.Fatal(err)
		}
		f := Parse(name, data)
		want.Path = name
		if len(f.Contracts) != 1 || !reflect.DeepEqual(f.Contracts[0], want) || len(f.Findings) != 0 {
			t.Errorf("%s: %+v %+v", name, f.Contracts, f.Findings)
		}
	}
}

func FuzzParse(f *testing.F) {
	for _, name := range []string{"input.schema.json", "output-2020.schema.json"} {
		if data, err := os.ReadFile(filepath.Join("testdata", name)); err == nil {
			f.Add(data)
		}
	}
	f.Add([]byte(`{"properties": {"a": {"type": ["null", "null", "x"]}}, "required": [1, "a", null]}`))
	f.Add([]byte("[{\"a\":\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		out := Parse("c.json", data)
		// A contract (perhaps with findings on duplicate keys or huge
		// numbers), or no contract and one finding.
		if len(out.Contracts) > 1 || (len(out.Contracts) == 0 && len(out.Findings) != 1) {
			t.Fatalf("want a contract or a finding: %+v", out)
		}
		for _, fi := range out.Findings {
			if fi.Line < 1 || fi.Code != record.CodeParseError {
				t.Fatalf("finding %+v", fi)
			}
		}
	})
}

// TestRefs: a property typed through a local $ref is typed like one typed
// inline (chains and JSON-pointer escapes followed, cycles bounded); a $ref
// to another document is contract-external at its line and left untyped
// (issue #11, SPEC §5.2).
func TestRefs(t *testing.T) {
	data := `{
  "type": "object",
  "properties": {
    "n": {"$ref": "#/$defs/N"},
    "chain": {"$ref": "#/$defs/Alias"},
    "escaped": {"$ref": "#/definitions/a~1b"},
    "own": {"$ref": "#/$defs/N", "type": "string"},
    "loop": {"$ref": "#/$defs/Loop"},
    "dangling": {"$ref": "#/$defs/Nope"},
    "remote": {"$ref": "https://example.org/types.json#/$defs/N"}
  },
  "$defs": {"N": {"type": "integer"}, "Alias": {"$ref": "#/$defs/N"}, "Loop": {"$ref": "#/$defs/Loop"}},
  "definitions": {"a/b": {"type": "boolean"}}
}`
	f := Parse("schemas/c.json", []byte(data))
	want := map[string]string{"n": "integer", "chain": "integer", "escaped": "boolean", "own": "string",
		"loop": "", "dangling": "", "remote": ""}
	if len(f.Contracts) != 1 || !reflect.DeepEqual(f.Contracts[0].Properties, want) {
		t.Fatalf("properties %+v, want %+v", f.Contracts, want)
	}
	if len(f.Findings) != 1 || f.Findings[0].Code != record.CodeContractExternal || f.Findings[0].Line != 10 ||
		f.Findings[0].Severity != record.Info {
		t.Errorf("findings %+v, want one contract-external (info) on line 10", f.Findings)
	}
}

// TestTooManyProperties: a contract of more than ynode.MaxItems properties
// is refused with a finding (its conversion would cost quadratic time,
// issue #16.6); one at the limit is read.
func TestTooManyProperties(t *testing.T) {
	doc := func(n int) []byte {
		var props []string
		for i := range n {
			props = append(props, fmt.Sprintf(`"p%d": {"type": "string"}`, i))
		}
		return []byte("{\n\"properties\": {" + strings.Join(props, ",") + "}}")
	}
	if out := Parse("c.json", doc(1000)); len(out.Contracts) != 1 || len(out.Findings) != 0 {
		t.Fatalf("at the limit: %+v", out.Findings)
	}
	out := Parse("c.json", doc(1001))
	if len(out.Contracts) != 0 || len(out.Findings) != 1 || out.Findings[0].Line != 2 {
		t.Fatalf("over the limit: %d contracts, findings %+v", len(out.Contracts), out.Findings)
	}
}

// TestComposition: a property typed through allOf, anyOf or oneOf has the
// JSON types its branches allow (issue 23.6), written a|b in order; a
// branch that states no type leaves the union unconstrained, and a branch
// in another document is contract-external (not checked), as a $ref is.
func TestComposition(t *testing.T) {
	data := `{
  "type": "object",
  "properties": {
    "all": {"allOf": [{"$ref": "#/$defs/S"}, {"minLength": 1}]},
    "allnum": {"allOf": [{"type": "number"}, {"type": "integer"}]},
    "any": {"anyOf": [{"type": "string"}, {"type": "integer"}]},
    "one": {"oneOf": [{"$ref": "#/$defs/S"}, {"type": "null"}]},
    "nested": {"anyOf": [{"allOf": [{"type": "boolean"}]}, {"oneOf": [{"type": "array"}]}]},
    "open": {"anyOf": [{"type": "string"}, {"minimum": 0}]},
    "typed": {"type": "string", "anyOf": [{"type": "string"}, {"type": "number"}]},
    "list": {"type": ["integer", "string", "null"]},
    "remote": {"oneOf": [{"type": "string"},
      {"$ref": "https://example.org/t.json#/$defs/N"}]}
  },
  "$defs": {"S": {"type": "string"}}
}`
	f := Parse("schemas/c.json", []byte(data))
	want := map[string]string{"all": "string", "allnum": "integer", "any": "integer|string", "one": "string",
		"nested": "array|boolean", "open": "", "typed": "string", "list": "integer|string", "remote": ""}
	if len(f.Contracts) != 1 || !reflect.DeepEqual(f.Contracts[0].Properties, want) {
		t.Fatalf("properties %+v, want %+v", f.Contracts[0].Properties, want)
	}
	if len(f.Findings) != 1 || f.Findings[0].Code != record.CodeContractExternal || f.Findings[0].Line != 13 {
		t.Errorf("findings %+v, want one contract-external on line 13", f.Findings)
	}
}
