// Package flow states the one-way data flow of skillgraph's packages as a
// table and checks it (its test reads the module's import graph): files →
// records → JSON-LD → quads → store → snapshot → GraphQL, HTTP, page, CLI.
// A package may import its own stage and earlier stages, never a later one,
// so each stage can be read, tested and replaced without the ones after it.
// docs/architecture.md draws the same table.
package flow

import "strings"

// Stage is one step of the data flow, in order.
type Stage struct {
	Name string
	// Prefixes are the import paths (relative to the module) the stage
	// holds: a path belongs to the stage of its longest matching prefix.
	Prefixes []string
}

// Stages are the steps of the flow, earliest first.
var Stages = []Stage{
	// Corpus files read out of a git repository's objects (history, diff
	// against a revision): below everything, it imports nothing of ours.
	{"git objects", []string{"ingest/gitsource"}},
	{"vocabulary", []string{"schemas"}},
	{"records", []string{"ingest/record"}},
	{"parsers", []string{"ingest/"}}, // every ingest/* package but the records
	{"json-ld", []string{"jsonld"}},
	{"store", []string{"graph"}},
	// The ingest that drives the stages above into the store: under graph/
	// (the store's folder, which comes after JSON-LD), so that the readers'
	// folder (ingest/) holds only what comes before JSON-LD and the
	// top-level folders stay the design's.
	{"orchestration", []string{"graph/ingest"}},
	{"snapshot", []string{"queries"}},
	{"graphql", []string{"api"}},
	{"http", []string{"api/server"}},
	{"page", []string{"web"}},
	{"programs", []string{"cmd"}},
}

// StageOf returns the index in Stages of a package path relative to the
// module, or -1 when no stage holds it.
func StageOf(pkg string) int {
	best, bestLen := -1, -1
	for i, s := range Stages {
		for _, p := range s.Prefixes {
			if matches(pkg, p) && len(p) > bestLen {
				best, bestLen = i, len(p)
			}
		}
	}
	return best
}

// matches reports whether pkg is p or under it ("ingest/" matches every
// package under ingest but ingest itself).
func matches(pkg, p string) bool {
	if strings.HasSuffix(p, "/") {
		return strings.HasPrefix(pkg, p)
	}
	return pkg == p || strings.HasPrefix(pkg, p+"/")
}
