package discover

import (
	"fmt"
	"maps"
	"slices"
	"testing"

	"github.com/skillgraph/skillgraph/ingest/record"
)

func TestSkillVariableKeys(t *testing.T) {
	cases := []struct {
		name  string
		vars  string
		want  []string // declared names
		found []string // code@line
	}{
		{"identifiers", `{"repo": "x", "_tok2": "y"}`, []string{"_tok2", "repo"}, nil},
		{"list form", `["repo", "BASE_URL"]`, []string{"BASE_URL", "repo"}, nil},
		{"dash in map key", "{\n    \"base-url\": \"x\",\n    \"repo\": \"y\"\n  }", []string{"repo"}, []string{"skill-variable-key-invalid@4"}},
		{"leading digit in list", "[\n    \"1st\"\n  ]", []string{}, []string{"skill-variable-key-invalid@4"}},
		{"empty key", `{"": "x"}`, []string{}, []string{"skill-variable-key-invalid@3"}},
		{"absent", `null`, nil, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			data := []byte(fmt.Sprintf("{\n  \"name\": \"x\",\n  \"skillVariables\": %s,\n  \"directories\": [{\"path\": \"skills\", \"graphTypologies\": [\"skill\"]}]\n}\n", c.vars))
			in, fs, ok := parseDeclaration("harness.json", data)
			if !ok {
				t.Fatalf("declaration not read: %+v", fs)
			}
			var got []string
			for _, f := range fs {
				got = append(got, fmt.Sprintf("%s@%d", f.Code, f.Line))
				if f.Code == record.CodeSkillVariableKeyInvalid && f.Severity != record.Error {
					t.Errorf("severity %s", f.Severity)
				}
			}
			if !slices.Equal(got, c.found) {
				t.Errorf("findings %v, want %v", got, c.found)
			}
			names := slices.Sorted(maps.Keys(in.SkillVariables))
			if (c.want == nil) != (in.SkillVariables == nil) || !slices.Equal(names, c.want) && len(c.want)+len(names) > 0 {
				t.Errorf("declared %v, want %v", names, c.want)
			}
		})
	}
}
