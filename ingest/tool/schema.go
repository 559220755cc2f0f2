package tool

import (
	"bytes"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"
	yaml "go.yaml.in/yaml/v3"

	"github.com/skillgraph/skillgraph/ingest/internal/ynode"
	"github.com/skillgraph/skillgraph/ingest/record"
	"github.com/skillgraph/skillgraph/schemas"
)

// SchemaFile is the embedded JSON Schema of one Tool object.
const SchemaFile = "tool.schema.json"

var (
	schemaOnce sync.Once
	schemaVal  *jsonschema.Schema
	schemaErr  error
)

// Schema returns the compiled Tool schema (schemas/tool.schema.json).
func Schema() (*jsonschema.Schema, error) {
	schemaOnce.Do(func() { schemaVal, schemaErr = compileSchema() })
	return schemaVal, schemaErr
}

func compileSchema() (*jsonschema.Schema, error) {
	data, err := schemas.Read(SchemaFile)
	if err != nil {
		return nil, fmt.Errorf("tool schema: read %s: %w", SchemaFile, err)
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		return nil, fmt.Errorf("tool schema: decode %s: %w", SchemaFile, err)
	}
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	c.UseLoader(noLoader{})
	const url = "skillgraph:" + SchemaFile
	if err := c.AddResource(url, doc); err != nil {
		return nil, fmt.Errorf("tool schema: add %s: %w", SchemaFile, err)
	}
	s, err := c.Compile(url)
	if err != nil {
		return nil, fmt.Errorf("tool schema: compile %s: %w", SchemaFile, err)
	}
	return s, nil
}

// noLoader refuses every external schema: ingest never touches the network.
type noLoader struct{}

func (noLoader) Load(url string) (any, error) {
	return nil, fmt.Errorf("tool schema: refusing to load %s", url)
}

// schemaIssue is one schema failure at an instance location.
type schemaIssue struct {
	loc     []string
	msg     string
	missing []string // the required properties absent, for a "missing" issue
	extra   bool     // an additionalProperties failure: keys the schema does not list
}

// validate checks one Tool node against the schema and reports tool-invalid
// findings with the JSON path and the line of that path.
func (f *fileParser) validate(n *yaml.Node, base, subject string) {
	s, err := Schema()
	if err != nil {
		f.add(record.CodeToolInvalid, ynode.Line(n), subject, "%s: %s: %v", f.path, base, err)
		return
	}
	inst, err := ynode.ToAny(n)
	if err != nil {
		f.add(record.CodeToolInvalid, ynode.Line(n), subject, "%s: %s: %v", f.path, base, err)
		return
	}
	verr := s.Validate(inst)
	if verr == nil {
		return
	}
	ve, ok := verr.(*jsonschema.ValidationError)
	if !ok {
		f.add(record.CodeToolInvalid, ynode.Line(n), subject, "%s: %s: %v", f.path, base, verr)
		return
	}
	var issues []schemaIssue
	collect(ve, &issues)
	seen := map[string]bool{}
	for _, is := range issues {
		if f.onlyDynamicMissing(is) {
			continue // tool-module-dynamic says the value exists but is not known
		}
		if is.extra && reportsUnknown(is.loc) {
			// The schema is closed for editors (issue 25.3); SPEC §2.2 keeps
			// an unknown field as data with a tool-unknown-field warning,
			// which unknownFields reports at the key's own line.
			continue
		}
		p := pointerPath(base, is.loc)
		key := p + "\x00" + is.msg
		if seen[key] {
			continue
		}
		seen[key] = true
		f.add(record.CodeToolInvalid, lineAt(n, is.loc), subject, "%s: %s: %s", f.path, p, is.msg)
	}
}

// collect flattens a validation error tree into its leaf problems; a failed
// oneOf/anyOf is reported once, with its alternatives joined by "or".
func collect(e *jsonschema.ValidationError, out *[]schemaIssue) {
	switch k := e.ErrorKind.(type) {
	case *kind.OneOf, *kind.AnyOf:
		var alts []schemaIssue
		for _, c := range e.Causes {
			collect(c, &alts)
		}
		if len(alts) == 0 {
			msg := kindString(e.ErrorKind)
			if o, ok := k.(*kind.OneOf); ok && len(o.Subschemas) > 1 {
				msg = "must match exactly one alternative of " + schemaLocation(e.SchemaURL) + " but matches several"
			}
			*out = append(*out, schemaIssue{loc: e.InstanceLocation, msg: msg})
			return
		}
		msgs := make([]string, 0, len(alts))
		seen := map[string]bool{}
		for _, a := range alts {
			m := a.msg
			if len(a.loc) > len(e.InstanceLocation) {
				m = pointerPath("$", a.loc[len(e.InstanceLocation):]) + ": " + m
			}
			if !seen[m] {
				seen[m] = true
				msgs = append(msgs, m)
			}
		}
		sort.Strings(msgs)
		*out = append(*out, schemaIssue{loc: e.InstanceLocation, msg: strings.Join(msgs, ", or ")})
		return
	case *kind.Not:
		*out = append(*out, schemaIssue{loc: e.InstanceLocation,
			msg: "must not match " + schemaLocation(e.SchemaURL) + " (for a remedy: tool and none exclude each other)"})
		return
	}
	if len(e.Causes) == 0 {
		is := schemaIssue{loc: e.InstanceLocation, msg: kindString(e.ErrorKind)}
		if r, ok := e.ErrorKind.(*kind.Required); ok {
			is.missing = r.Missing
		}
		_, is.extra = e.ErrorKind.(*kind.AdditionalProperties)
		*out = append(*out, is)
		return
	}
	for _, c := range e.Causes {
		collect(c, out)
	}
}

// reportsUnknown reports whether unknownFields checks the keys of the
// object at loc (a path inside one Tool): a field of toolShape that is not
// open. An open one (an input's arg) is the schema's to check.
func reportsUnknown(loc []string) bool {
	cur := toolShape
	for _, tok := range loc {
		if cur == nil {
			return false
		}
		if _, err := strconv.Atoi(tok); err == nil && cur.list {
			continue // an item of a list of such objects
		}
		next, ok := cur.fields[tok]
		if !ok {
			return false
		}
		cur = next
	}
	return cur != nil && !cur.open
}

// kindString renders one error kind with the library's default wording.
func kindString(k jsonschema.ErrorKind) string {
	if k == nil {
		return "invalid"
	}
	u := (&jsonschema.ValidationError{ErrorKind: k}).BasicOutput()
	if u != nil && u.Error != nil {
		return u.Error.String()
	}
	return "invalid"
}

func schemaLocation(u string) string {
	if i := strings.Index(u, "#"); i >= 0 {
		return u[i:]
	}
	return u
}

// pointerPath renders instance-location tokens as a JSON path under base.
func pointerPath(base string, loc []string) string {
	var b strings.Builder
	b.WriteString(base)
	for _, tok := range loc {
		if _, err := strconv.Atoi(tok); err == nil {
			b.WriteString("[" + tok + "]")
			continue
		}
		b.WriteString(jsonPath("", tok))
	}
	return b.String()
}

// jsonPath appends key to base in dot or bracket notation.
func jsonPath(base, key string) string {
	simple := key != ""
	for i, r := range key {
		if !(r == '_' || r == '$' || r == '-' && i > 0 || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' && i > 0) {
			simple = false
			break
		}
	}
	if simple {
		return base + "." + key
	}
	return base + "[" + strconv.Quote(key) + "]"
}

// lineAt returns the line of the deepest node reached along loc.
func lineAt(n *yaml.Node, loc []string) int {
	line := ynode.Line(n)
	cur := n
	for _, tok := range loc {
		var next *yaml.Node
		switch {
		case ynode.IsMap(cur):
			next = ynode.Get(cur, tok)
		case ynode.IsSeq(cur):
			if i, err := strconv.Atoi(tok); err == nil {
				if items := ynode.Deref(cur).Content; i >= 0 && i < len(items) {
					next = ynode.Deref(items[i])
				}
			}
		}
		if next == nil {
			break
		}
		cur = next
		line = ynode.Line(cur)
	}
	return line
}

func itoa(i int) string { return strconv.Itoa(i) }

// onlyDynamicMissing reports whether every property a "missing" issue names
// is a value of a Tool module known only at run time (SPEC §2.8).
func (f *fileParser) onlyDynamicMissing(is schemaIssue) bool {
	if len(is.missing) == 0 || len(f.dynamic) == 0 {
		return false
	}
	for _, m := range is.missing {
		if !f.dynamic[pointerPath("", append(append([]string(nil), is.loc...), m))] {
			return false
		}
	}
	return true
}
