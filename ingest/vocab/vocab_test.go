package vocab

import (
	"testing"
)

func TestDefault(t *testing.T) {
	unsafe := map[string]bool{"Markdown": true, "Text": true, "FilesystemPath": true, "DecisionFacts": true,
		"DelimitedTextPath": true, "WorkbookPath": true}
	kinds := map[string]string{
		"BeanId": "string", "SkillName": "string", "PackageName": "string", "ProcessId": "string", "NodeId": "string",
		"InstanceId": "string", "Locale": "string", "Timestamp": "string", "TimeWindow": "string", "RepoPath": "string",
		"DelimitedTextPath": "string", "WorkbookPath": "string", "Url": "string", "Branch": "string",
		"ScriptName": "string", "RepoFullName": "string", "Markdown": "string", "Text": "string",
		"FilesystemPath": "string", "Slug": "string", "CommitSha": "string", "BeanStatus": "string",
		"Flag": "boolean", "Count": "integer", "Dpi": "integer", "Port": "integer", "ChangeProposalNumber": "integer",
		"DecisionFacts": "object",
	}
	v := Default("")
	if got := len(v.Types()); got != len(kinds) {
		t.Errorf("default vocabulary has %d types, want %d", got, len(kinds))
	}
	for name, jt := range kinds {
		ty, ok := v.Resolve(name)
		if !ok {
			t.Errorf("%s: not resolved", name)
			continue
		}
		if ty.JSONType != jt || ty.InjectionSafe == unsafe[name] || ty.Name != name {
			t.Errorf("%s = %+v, want JSON type %s, safe %v", name, ty, jt, !unsafe[name])
		}
		want := "https://w3id.org/skillgraph/types/tool-types.schema.json#/$defs/" + name
		if ty.IRI != want {
			t.Errorf("%s IRI = %s, want %s", name, ty.IRI, want)
		}
		if byIRI, ok := v.Resolve(want); !ok || byIRI != ty {
			t.Errorf("%s: resolving by IRI gave %+v %v", name, byIRI, ok)
		}
	}
}

func TestCanonicalURL(t *testing.T) {
	for _, base := range []string{"https://acme.example/harness", "https://acme.example/harness/"} {
		v := Default(base)
		ty, ok := v.Resolve("BeanId")
		if !ok || ty.IRI != "https://acme.example/harness/tool-types.schema.json#/$defs/BeanId" {
			t.Errorf("%s: %+v %v", base, ty, ok)
		}
		if _, ok := v.Resolve(IRI("", "BeanId")); ok {
			t.Errorf("%s: IRI under another canonical URL must not resolve", base)
		}
	}
}

func TestResolveMisses(t *testing.T) {
	v := Default("")
	for _, s := range []string{"", "beanid", "Sentence", "https://w3id.org/skillgraph/types/tool-types.schema.json",
		"https://w3id.org/skillgraph/types/tool-types.schema.json#/$defs/Nope"} {
		if ty, ok := v.Resolve(s); ok {
			t.Errorf("Resolve(%q) = %+v", s, ty)
		}
	}
	var nilV *Vocabulary
	if _, ok := nilV.Resolve("BeanId"); ok {
		t.Error("nil vocabulary resolved a type")
	}
	if nilV.Types() != nil || nilV.CanonicalURL() != DefaultCanonicalURL {
		t.Error("nil vocabulary accessors")
	}
}

func TestParse(t *testing.T) {
	cases := []struct {
		name, doc string
		wantErr   bool
		check     map[string]Type // name → expected JSONType and InjectionSafe
	}{
		{name: "not json", doc: "{", wantErr: true},
		{name: "array", doc: "[]", wantErr: true},
		{name: "no defs", doc: `{"type": "object"}`, wantErr: true},
		{name: "defs not object", doc: `{"$defs": []}`, wantErr: true},
		{name: "def not object", doc: `{"$defs": {"A": 1}}`, wantErr: true},
		{name: "own types replace the default", doc: `{"$defs": {
			"Sentence": {"type": "string"},
			"Id": {"type": "string", "x-injection-safe": true},
			"Maybe": {"type": ["null", "integer"]},
			"Mode": {"enum": ["a", "b"], "x-injection-safe": true},
			"Mixed": {"enum": ["a", 1]},
			"One": {"const": 2.5},
			"Unsafe": {"type": "string", "x-injection-safe": "yes"}}}`,
			check: map[string]Type{
				"Sentence": {JSONType: "string"},
				"Id":       {JSONType: "string", InjectionSafe: true},
				"Maybe":    {JSONType: "integer"},
				"Mode":     {JSONType: "string", InjectionSafe: true},
				"Mixed":    {JSONType: ""},
				"One":      {JSONType: "number"},
				"Unsafe":   {JSONType: "string"},
			}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			v, err := Parse([]byte(c.doc), "https://x.example/")
			if (err != nil) != c.wantErr {
				t.Fatalf("err = %v, wantErr %v", err, c.wantErr)
			}
			if err != nil {
				return
			}
			if _, ok := v.Resolve("BeanId"); ok {
				t.Error("default type leaked into an instance vocabulary")
			}
			for name, w := range c.check {
				ty, ok := v.Resolve(name)
				if !ok || ty.JSONType != w.JSONType || ty.InjectionSafe != w.InjectionSafe {
					t.Errorf("%s = %+v %v, want %+v", name, ty, ok, w)
				}
				if ty.IRI != "https://x.example/tool-types.schema.json#/$defs/"+name {
					t.Errorf("%s IRI = %s", name, ty.IRI)
				}
			}
		})
	}
}

func FuzzParse(f *testing.F) {
	f.Add([]byte(`{"$defs": {"A": {"type": "string", "x-injection-safe": true}}}`), "https://a.example")
	f.Add([]byte(`{"$defs": {"B": {"type": ["null", "integer"]}, "C": {"enum": [1, "x"]}}}`), "")
	f.Add([]byte(`{"$defs": {"": {}}}`), "/")
	f.Add([]byte(`[`), "x")
	f.Fuzz(func(t *testing.T, data []byte, base string) {
		v, err := Parse(data, base)
		if err != nil {
			if v != nil {
				t.Fatal("vocabulary returned with an error")
			}
			return
		}
		for _, ty := range v.Types() {
			if _, ok := v.Resolve(ty.Name); !ok {
				t.Fatalf("type %q does not resolve by name", ty.Name)
			}
			if got, ok := v.Resolve(ty.IRI); !ok || got != ty {
				t.Fatalf("type %q does not resolve by IRI %q", ty.Name, ty.IRI)
			}
		}
	})
}
