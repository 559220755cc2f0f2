package tool

import (
	"bytes"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
	yaml "go.yaml.in/yaml/v3"

	"github.com/skillgraph/skillgraph/ingest/record"
	"github.com/skillgraph/skillgraph/ingest/vocab"
	"github.com/skillgraph/skillgraph/schemas"
)

// schemaLoader serves the embedded schemas/ by file name, as an editor
// reading the repository's schemas/ folder does.
type schemaLoader struct{}

func (schemaLoader) Load(url string) (any, error) {
	b, err := schemas.Read(path.Base(url))
	if err != nil {
		return nil, err
	}
	return jsonschema.UnmarshalJSON(bytes.NewReader(b))
}

var yamlModeline = regexp.MustCompile(`(?m)^# yaml-language-server: \$schema=(\S+)$`)

// TestExampleToolFilesNameTheirSchema: every Tool file of the example
// corpus points an editor at the Tool file schema (a "$schema" key in
// JSON, the yaml-language-server line in YAML), the parser takes that key
// without a tool-unknown-field finding, and the schema's verdict agrees
// with the parser's: a file is schema-invalid exactly when skillgraph
// reports tool-invalid or tool-unknown-field in it (the schema is closed,
// so an editor flags a typo'd key the parser keeps with a warning). A
// YAML file's yaml-language-server line is its first line: the language
// server reads it nowhere else (issue 25.3).
func TestExampleToolFilesNameTheirSchema(t *testing.T) {
	root := "../../examples/harness/tools"
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	c.UseLoader(schemaLoader{})
	var files []string
	_ = filepath.WalkDir(root, func(p string, _ os.DirEntry, _ error) error {
		if ext := filepath.Ext(p); ext == ".json" || ext == ".yaml" || ext == ".yml" {
			files = append(files, p)
		}
		return nil
	})
	if len(files) < 5 {
		t.Fatalf("found only %d Tool files under %s", len(files), root)
	}
	for _, p := range files {
		t.Run(filepath.ToSlash(p[len(root)+1:]), func(t *testing.T) {
			data, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			var doc any
			if err := yaml.Unmarshal(data, &doc); err != nil {
				t.Fatal(err)
			}
			var ref string
			if m, ok := doc.(map[string]any); ok && strings.HasSuffix(p, ".json") {
				ref, _ = m["$schema"].(string)
			} else if sub := yamlModeline.FindSubmatch(data); sub != nil {
				ref = string(sub[1])
			}
			// The reference must name the schema file as seen from this file.
			if target := filepath.Join(filepath.Dir(p), ref); ref == "" || filepath.Clean(target) != filepath.Clean("../../schemas/tool-file.schema.json") {
				t.Fatalf("$schema %q does not point at schemas/tool-file.schema.json", ref)
			}
			sch, err := c.Compile("tool-file.schema.json")
			if err != nil {
				t.Fatal(err)
			}
			valid := sch.Validate(jsonValue(doc)) == nil
			f := Parse(filepath.ToSlash(p), data, vocab.Default(""))
			invalid := false
			for _, fd := range f.Findings {
				if fd.Code == record.CodeToolUnknownField && strings.Contains(fd.Message, "$schema") {
					t.Errorf("the parser reports $schema: %s", fd.Message)
				}
				invalid = invalid || fd.Code == record.CodeToolInvalid || fd.Code == record.CodeToolUnknownField
			}
			if !strings.HasSuffix(p, ".json") {
				if first, _, _ := strings.Cut(string(data), "\n"); !yamlModeline.MatchString(first) {
					t.Errorf("the first line is %q, not the yaml-language-server line", first)
				}
			}
			if valid == invalid {
				t.Errorf("schema says valid=%v, the parser reports tool-invalid or tool-unknown-field=%v", valid, invalid)
			}
		})
	}
}

// jsonValue turns YAML-decoded maps into the JSON shapes the validator
// takes (map[string]any, []any, float64 for numbers).
func jsonValue(v any) any {
	switch x := v.(type) {
	case map[string]any:
		out := map[string]any{}
		for k, e := range x {
			out[k] = jsonValue(e)
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = jsonValue(e)
		}
		return out
	case int:
		return float64(x)
	case uint64:
		return float64(x)
	default:
		return v
	}
}
