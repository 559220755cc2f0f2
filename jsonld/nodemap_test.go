package jsonld

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/piprate/json-gold/ld"
)

// bothNodeMaps expands doc twice (node map generation rewrites the
// expanded @type values) and generates json-gold's node map and
// nodeMapper's; ok false when json-gold fails on it (then nodeMapper
// must fail too, checked by the caller through err).
func bothNodeMaps(t testing.TB, doc string) (gold, ours map[string]any, goldNext, oursNext string, goldErr, oursErr error, ok bool) {
	t.Helper()
	var generic any
	if err := json.Unmarshal([]byte(doc), &generic); err != nil {
		t.Fatalf("%s: %v", doc, err)
	}
	expandOnce := func() []any {
		var g any
		_ = json.Unmarshal([]byte(doc), &g)
		e, err := expand(g)
		if err != nil {
			return nil
		}
		return e
	}
	e1, e2 := expandOnce(), expandOnce()
	if e1 == nil {
		return nil, nil, "", "", nil, nil, false
	}
	run := func(f func() error) (err error) {
		defer func() {
			if r := recover(); r != nil {
				err = fmt.Errorf("panic: %v", r)
			}
		}()
		return f()
	}
	gold, ours = map[string]any{"@default": map[string]any{}}, map[string]any{"@default": map[string]any{}}
	gi, oi := ld.NewIdentifierIssuer("_:b"), ld.NewIdentifierIssuer("_:b")
	goldErr = run(func() error {
		_, err := ld.NewJsonLdApi().GenerateNodeMap(e1, gold, "@default", gi, "", "", nil)
		return err
	})
	oursErr = run(func() error {
		m := nodeMapper{issuer: oi, props: map[propKey]*propValues{}}
		_, err := m.generate(e2, ours, "@default", "", "", nil)
		return err
	})
	return gold, ours, gi.GetId(""), oi.GetId(""), goldErr, oursErr, true
}

// wideValues is a subject with n values of one property past setFrom,
// each written twice, of every kind (literals, languages, numbers, IRIs,
// lists, blank nodes), with a keyless @json value half-way when keyless.
func wideValues(n int, keyless bool) string {
	var vals []string
	for i := range n {
		v := []string{fmt.Sprintf(`"s%d"`, i%7), fmt.Sprintf(`{"@value": "s%d", "@language": "en"}`, i%5), fmt.Sprint(i % 9),
			fmt.Sprintf(`{"@id": "urn:x:%d"}`, i%11), `{"@list": [1]}`, fmt.Sprintf(`{"urn:q": %d}`, i%3)}[i%6]
		vals = append(vals, v, v)
		if keyless && i == n/2 {
			vals = append(vals, `{"@value": [1], "@type": "@json"}`, `{"@value": [1], "@type": "@json"}`)
		}
	}
	return `{"@id": "urn:s", "urn:p": [` + strings.Join(vals, ", ") + `], "@type": [` + strings.Repeat(`"urn:T", "urn:U", `, n) + `"urn:V"]}`
}

// TestNodeMapIsJSONGolds: nodeMapper builds json-gold's node map —
// values in the same order, duplicates dropped alike, the same blank node
// labels — on the shapes JSON-LD allows (issue #28 row 11).
func TestNodeMapIsJSONGolds(t *testing.T) {
	for _, doc := range []string{
		`{"@id": "urn:s", "urn:p": ["a", "b", "a", {"@value": "a"}, {"@value": "a", "@language": "en"}, {"@value": "a", "@language": "en"}, 1, 1.0, true, "1"]}`,
		`{"@id": "urn:s", "urn:p": [{"@id": "urn:x"}, {"@id": "urn:y"}, {"@id": "urn:x", "urn:q": "nested"}, {"@id": "urn:x"}]}`,
		`[{"@id": "urn:s", "urn:p": "a"}, {"@id": "urn:s", "urn:p": ["a", "b"]}, {"@id": "urn:s", "@type": ["urn:T", "urn:T", "urn:U"]}]`,
		`{"@id": "urn:s", "@type": ["_:t", "urn:T", "_:t"], "urn:p": [{"urn:q": 1}, {"urn:q": 1}, {"@id": "_:b"}, {"@id": "_:b"}]}`,
		`{"@id": "urn:s", "urn:l": [{"@list": [1, 1, {"@id": "urn:x"}]}, {"@list": [1, 1, {"@id": "urn:x"}]}], "urn:p": [{"@value": 2, "@type": "urn:int"}, {"@value": 2, "@type": "urn:int"}, {"@value": 2}]}`,
		`{"@id": "urn:s", "@reverse": {"urn:r": [{"@id": "urn:a"}, {"@id": "urn:a"}, {"@id": "urn:b", "urn:r": {"@id": "urn:s"}}]}}`,
		`[{"@id": "urn:g", "@graph": [{"@id": "urn:s", "urn:p": ["x", "x"]}, {"@id": "urn:s", "urn:p": "y"}]}, {"@id": "urn:s", "urn:p": "x"}]`,
		`{"@id": "urn:s", "urn:p": [{"@value": "a", "@index": "i"}, {"@value": "a", "@index": "j"}, {"@value": "a", "@index": "i"}], "urn:j": {"@value": {"k": [1, 2]}, "@type": "@json"}, "urn:k": [{"@value": [1], "@type": "@json"}, {"@value": [1], "@type": "@json"}]}`,
		`{"@id": "urn:s", "@index": "i", "urn:p": {"@id": "urn:t", "@index": "j", "urn:q": {"@id": "urn:s"}}}`,
		`{"@id": "urn:s", "@index": "i", "urn:p": {"@id": "urn:s", "@index": "j"}}`,
		`{"@id": "urn:s", "_:prop": ["v", "v"], "@included": [{"@id": "urn:s", "urn:p": "w"}, {"@id": "urn:s", "urn:p": "w"}]}`,
		`[{"@value": "top"}, {"@id": "urn:s"}]`,
		wideValues(40, false), wideValues(40, true),
	} {
		gold, ours, gn, on, ge, oe, ok := bothNodeMaps(t, doc)
		if !ok {
			t.Fatalf("%s does not expand", doc)
		}
		if (ge == nil) != (oe == nil) {
			t.Errorf("%s: json-gold's error %v, ours %v", doc, ge, oe)
			continue
		}
		if !reflect.DeepEqual(gold, ours) || gn != on {
			g, _ := json.Marshal(gold)
			o, _ := json.Marshal(ours)
			t.Errorf("%s:\njson-gold %s (next %s)\n     ours %s (next %s)", doc, g, gn, o, on)
		}
	}
}

// TestNodeMapSetKeys: which values have a set key, which equal nothing,
// and which send their property back to json-gold's search.
func TestNodeMapSetKeys(t *testing.T) {
	for _, c := range []struct {
		v           any
		none, keyed bool
	}{
		{"a", false, true},
		{map[string]any{"@id": "urn:x"}, false, true},
		{map[string]any{"@value": "a", "@language": "en"}, false, true},
		{map[string]any{"@value": 1.5, "@type": "urn:t", "@index": "i"}, false, true},
		{map[string]any{"@list": []any{}}, true, false},
		{map[string]any{"urn:p": "blank"}, true, false},
		{map[string]any{"@value": map[string]any{}, "@type": "@json"}, false, false},
		{map[string]any{"@value": "a", "@id": "urn:x"}, false, false},
	} {
		if _, none, ok := setKey(c.v); none != c.none || ok != c.keyed {
			t.Errorf("setKey(%v): none %v keyed %v, want %v %v", c.v, none, ok, c.none, c.keyed)
		}
	}
}

// FuzzNodeMap: on any JSON document json-gold expands, nodeMapper's node
// map is json-gold's, and both fail or neither.
func FuzzNodeMap(f *testing.F) {
	f.Add(`{"@id": "urn:s", "urn:p": ["a", "a", {"@id": "urn:x"}, {"@id": "urn:x"}]}`)
	f.Add(`[{"@id": "urn:s", "@type": ["_:t", "_:t"]}, {"@id": "urn:s", "@reverse": {"urn:r": {"@id": "urn:s"}}}]`)
	f.Add(`{"@id": "urn:g", "@graph": {"@id": "urn:s", "urn:p": {"@list": [1, {"@list": []}]}}}`)
	f.Fuzz(func(t *testing.T, doc string) {
		var v any
		if json.Unmarshal([]byte(doc), &v) != nil {
			return
		}
		gold, ours, gn, on, ge, oe, ok := bothNodeMaps(t, doc)
		if !ok {
			return
		}
		if (ge == nil) != (oe == nil) {
			t.Fatalf("%s: json-gold's error %v, ours %v", doc, ge, oe)
		}
		if ge == nil && (!reflect.DeepEqual(gold, ours) || gn != on) {
			t.Fatalf("%s: node maps differ", doc)
		}
	})
}
