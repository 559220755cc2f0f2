package vocab

import (
	"path"
	"strings"

	"github.com/skillgraph/skillgraph/ingest/tsmodule"
)

// ModuleFileName is the conventional path of a Zod vocabulary module,
// read when the instance has no JSON vocabulary (SPEC §2.8).
const ModuleFileName = "schemas/tool-types.ts"

// IsModule reports whether a vocabulary path names a TypeScript or
// JavaScript module rather than a JSON Schema document.
func IsModule(p string) bool {
	switch strings.ToLower(path.Ext(p)) {
	case ".ts", ".mts", ".js", ".mjs":
		return true
	}
	return false
}

// ParseModule reads a Zod vocabulary module statically (SPEC §2.8): the
// schemas of its TOOL_TYPES-style table give each type's JSON type and an
// INJECTION_SAFE-style Set marks the injection-safe ones. load hands over
// the sibling modules it imports.
func ParseModule(p string, data []byte, canonicalURL string, load tsmodule.Loader) (*Vocabulary, error) {
	doc, err := tsmodule.NewProgram(load, tsmodule.Limits{}).Vocabulary(p, data)
	if err != nil {
		return nil, err
	}
	return Parse(doc, canonicalURL)
}
