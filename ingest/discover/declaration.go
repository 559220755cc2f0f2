// Package discover finds a corpus's instance declaration and the source
// files it holds (SPEC §1): declared or conventional directories, several
// corpora at once, size caps and symlinks that must not leave the root.
package discover

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	iofs "io/fs"
	"regexp"
	"sort"
	"strings"

	"github.com/skillgraph/skillgraph/ingest/internal/ynode"
	"github.com/skillgraph/skillgraph/ingest/record"
)

var instanceName = regexp.MustCompile(`^[a-z][a-z0-9-]*$`)

// variableKey is the identifier grammar of a skill variable: the tool-skill
// engine substitutes ${name} only for such names, so a key like base-url
// would silently never match.
var variableKey = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

// rawDeclaration is the subset of an instance declaration skillgraph reads;
// other keys are data, not errors.
type rawDeclaration struct {
	Name         string              `json:"name"`
	Title        any                 `json:"title"`
	Version      any                 `json:"version"`
	Description  any                 `json:"description"`
	IRIBase      string              `json:"iriBase"`
	CanonicalURL string              `json:"canonicalUrl"`
	Needs        []string            `json:"needs"`
	Directories  []json.RawMessage   `json:"directories"`
	Entrypoints  *record.Entrypoints `json:"entrypoints"`
	Coverage     struct {
		Exempt []record.Exemption `json:"exempt"`
	} `json:"coverage"`
	Profiles       map[string]record.Profile `json:"profiles"`
	SkillVariables any                       `json:"skillVariables"`
	Vocabulary     string                    `json:"vocabulary"`
}

// DeclarationTestVersion changes whenever the answer of IsDeclaration
// changes for some file: probes remembered under another version (see
// Probe) are not trusted.
const DeclarationTestVersion = 1

// IsDeclaration reports whether data is an instance declaration (a name
// and directories that each name their graphTypologies): the test
// Workspace applies to every *.json file of the folders it searches.
func IsDeclaration(data []byte) bool { return isDeclaration(data) }

// isDeclaration reports whether a root *.json holds an instance declaration:
// an object with `name` and a `directories` array whose entries carry
// `graphTypologies`.
func isDeclaration(data []byte) bool {
	// The workspace search asks this of every *.json file near the root:
	// one without the key (literally, or escaped) cannot be a
	// declaration, and needs no parse.
	if !bytes.Contains(data, []byte("graphTypologies")) && !bytes.Contains(data, []byte(`\u`)) {
		return false
	}
	var probe struct {
		Name        any   `json:"name"`
		Directories []any `json:"directories"`
	}
	if json.Unmarshal(data, &probe) != nil || probe.Name == nil || len(probe.Directories) == 0 {
		return false
	}
	for _, d := range probe.Directories {
		m, ok := d.(map[string]any)
		if !ok {
			return false
		}
		if _, ok := m["graphTypologies"]; !ok {
			return false
		}
	}
	return true
}

// parseDeclaration reads an instance declaration. Problems are findings on
// the declaration file; a declaration that cannot be read at all returns
// ok=false.
func parseDeclaration(rel string, data []byte) (record.Instance, []record.Finding, bool) {
	var fs []record.Finding
	bad := func(line int, format string, args ...any) {
		fs = append(fs, record.Finding{Code: record.CodeDeclarationInvalid, Severity: record.SeverityOf(record.CodeDeclarationInvalid),
			Message: fmt.Sprintf(format, args...), File: rel, Line: line})
	}
	var raw rawDeclaration
	if err := json.Unmarshal(data, &raw); err != nil {
		bad(jsonErrorLine(data, err), "instance declaration is not valid: %v", err)
		return record.Instance{}, fs, false
	}
	if root, err := ynode.ParseJSON(data); err == nil {
		for _, pr := range ynode.Problems(root) {
			bad(pr.Line, "%s", pr.Msg)
		}
	}
	in := record.Instance{
		Name: raw.Name, Title: str(raw.Title), Version: str(raw.Version), Description: str(raw.Description),
		IRIBase: raw.IRIBase, CanonicalURL: raw.CanonicalURL, Needs: raw.Needs, Profiles: raw.Profiles,
		Vocabulary: raw.Vocabulary, File: rel,
	}
	if !instanceName.MatchString(raw.Name) {
		bad(lineOf(data, `"name"`), "instance name %q must match ^[a-z][a-z0-9-]*$", raw.Name)
	}
	if raw.Entrypoints != nil {
		in.Entrypoints = *raw.Entrypoints
		entrypointLines(&in, data)
	}
	for _, e := range raw.Coverage.Exempt {
		e.Line = lineOf(data, `"`+e.Skill+`"`)
		in.Exempt = append(in.Exempt, e)
	}
	var varFs []record.Finding
	in.SkillVariables, varFs = skillVariables(rel, data, raw.SkillVariables)
	fs = append(fs, varFs...)
	for _, rd := range raw.Directories {
		var d record.Directory
		if err := json.Unmarshal(rd, &d); err != nil || d.Path == "" {
			bad(lineOf(data, string(bytes.TrimSpace(rd[:min(len(rd), 40)]))), "directory entry needs a path and graphTypologies: %s", strings.TrimSpace(string(rd[:min(len(rd), 80)])))
			continue
		}
		d.Line = lineOf(data, `"`+d.Path+`"`)
		in.Directories = append(in.Directories, d)
	}
	return in, fs, true
}

// skillVariables reads the declared skill variables (a map of name to value,
// or a list of names). A key outside the identifier grammar is rejected up
// front (skill-variable-key-invalid on the key's line) and not declared.
func skillVariables(rel string, data []byte, v any) (map[string]bool, []record.Finding) {
	var names []string
	switch v := v.(type) {
	case map[string]any:
		for k := range v {
			names = append(names, k)
		}
	case []any:
		for _, x := range v {
			if s, ok := x.(string); ok {
				names = append(names, s)
			}
		}
	default:
		return nil, nil
	}
	sort.Strings(names) // map order must not reach the findings
	vars := map[string]bool{}
	var fs []record.Finding
	for _, k := range names {
		if variableKey.MatchString(k) {
			vars[k] = true
			continue
		}
		kj, _ := json.Marshal(k)
		fs = append(fs, record.Finding{Code: record.CodeSkillVariableKeyInvalid, Severity: record.SeverityOf(record.CodeSkillVariableKeyInvalid),
			Message: fmt.Sprintf("skill variable %s is not an identifier (^[A-Za-z_][A-Za-z0-9_]*$): ${%s} would never be substituted", kj, k),
			File:    rel, Line: lineAfter(data, `"skillVariables"`, string(kj))})
	}
	return vars, fs
}

// lineAfter returns the line of the first needle after anchor (or of the
// first needle at all when anchor is absent).
func lineAfter(data []byte, anchor, needle string) int {
	from := bytes.Index(data, []byte(anchor))
	if from < 0 {
		from = 0
	}
	i := bytes.Index(data[from:], []byte(needle))
	if i < 0 {
		return lineOf(data, anchor)
	}
	return bytes.Count(data[:from+i], []byte("\n")) + 1
}

func str(v any) string {
	switch x := v.(type) {
	case string:
		return x
	case float64:
		return fmt.Sprint(x)
	}
	return ""
}

// lineOf returns the 1-based line of the first occurrence of needle, or 1.
func lineOf(data []byte, needle string) int {
	i := bytes.Index(data, []byte(needle))
	if i < 0 {
		return 1
	}
	return bytes.Count(data[:i], []byte("\n")) + 1
}

func jsonErrorLine(data []byte, err error) int {
	var se *json.SyntaxError
	if e, ok := err.(*json.SyntaxError); ok {
		se = e
	}
	if se == nil {
		return 1
	}
	off := min(int(se.Offset), len(data))
	return bytes.Count(data[:off], []byte("\n")) + 1
}

// findDeclaration looks for harness.json, else any root *.json that is an
// instance declaration (first by name). A root file that is a symlink out
// of the root, or is not a regular file, is never read; fs says so.
func findDeclaration(r *Root) (rel string, data []byte, fs []record.Finding) {
	reported := map[string]bool{}
	read := func(name string) ([]byte, error) {
		data, err := r.ReadFile(name)
		if err != nil && !errors.Is(err, iofs.ErrNotExist) && !reported[name] {
			reported[name] = true
			fs = append(fs, readError(name, err))
		}
		return data, err
	}
	if data, err := read("harness.json"); err == nil && isDeclaration(data) {
		return "harness.json", data, fs
	}
	entries, err := iofs.ReadDir(r.FS(), ".")
	if err != nil {
		return "", nil, fs
	}
	var names []string
	for _, e := range entries {
		if !e.IsDir() && strings.HasSuffix(e.Name(), ".json") && e.Name() != "harness.json" {
			names = append(names, e.Name())
		}
	}
	sort.Strings(names)
	for _, n := range names {
		// Only an escaping harness.json is reported: other root *.json
		// files need not be declarations at all.
		data, err := r.ReadFile(n)
		if err == nil && isDeclaration(data) {
			return n, data, fs
		}
	}
	if data, err := read("harness.json"); err == nil {
		// A harness.json that is not a declaration is still meant as one.
		return "harness.json", data, fs
	}
	return "", nil, fs
}

// entrypointLines records the line of each entry point (SPEC §4: a finding
// about a reference is on the reference's line), searched after the
// "entrypoints" key so that a same-named directory or skill elsewhere in
// the declaration is not taken for it.
func entrypointLines(in *record.Instance, data []byte) {
	from := bytes.Index(data, []byte(`"entrypoints"`))
	if from < 0 {
		return
	}
	at := func(needle string) int {
		i := bytes.Index(data[from:], []byte(needle))
		if i < 0 {
			return lineOf(data, `"entrypoints"`)
		}
		return bytes.Count(data[:from+i], []byte("\n")) + 1
	}
	q := func(s string) string { b, _ := json.Marshal(s); return string(b) }
	for _, p := range in.Entrypoints.Processes {
		in.Refs.Set("entrypoints.processes", p, at(q(p)))
	}
	for _, t := range in.Entrypoints.Tools {
		in.Refs.Set("entrypoints.tools", t, at(q(t)))
	}
	for _, tr := range in.Entrypoints.Triggers {
		if tr.Skill != "" {
			in.Refs.Set("entrypoints.triggers.skill", tr.Skill, at(q(tr.Skill)))
		}
		if tr.Tool != "" {
			in.Refs.Set("entrypoints.triggers.tool", tr.Tool, at(q(tr.Tool)))
		}
	}
}
