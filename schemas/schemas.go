// Package schemas embeds the skillgraph vocabulary, its JSON-LD context, the
// built-in type vocabulary for Tool ports and the JSON Schema of Tool nodes.
// These files are the single source for ingest, export and docs.
package schemas

import "embed"

//go:generate go run ./internal/vocabdoc -o ../docs/vocabulary.md

// FS holds every embedded schema file, by file name.
//
//go:embed *.json *.jsonld
var FS embed.FS

// Read returns the named embedded file.
func Read(name string) ([]byte, error) { return FS.ReadFile(name) }
