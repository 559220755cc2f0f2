package jsonld

import (
	"fmt"

	"github.com/cayleygraph/quad"
	"github.com/piprate/json-gold/ld"
)

// Conversion is one document of ToQuadsBatch: Doc and Graph as ToQuads
// takes them, Quads and Err as it returns them.
type Conversion struct {
	Doc   any
	Graph string
	Quads []quad.Quad
	Err   error
}

// ToQuadsBatch converts each document as ToQuads does, with the same
// quads and errors; a document that fails fails only itself.
//
// A document of ours (Document's shapes under the embedded context) is
// converted on the direct path, without json-gold (direct.go); every
// other one, and any of ours the direct path does not decide, as below.
//
// Every document is expanded and put in a node map by json-gold on its
// own (from the embedded context processed once), as json-gold's ToRDF
// does. The RDF step then runs once for a group of documents instead of
// once each: json-gold validates every distinct http(s) IRI of a graph
// with a costly regular expression, remembering the answers for that
// call only, and the vocabulary's IRIs (predicates, classes, datatypes)
// are most of a small document's distinct IRIs (issue #14). Documents go
// into one group only when that gives each the statements it gets alone:
// each has only the default graph, no list (json-gold names list nodes
// from a counter as it writes them), and no subject of statements of one
// is a subject of statements of another. Statements are given back to
// documents by subject.
func ToQuadsBatch(cs []Conversion) {
	maps := make([]nodeMap, len(cs))
	var groups []*batchGroup
	for i := range cs {
		if qs, ok := directPath(cs[i].Doc, cs[i].Graph); ok {
			cs[i].Quads = qs // json-gold's quads, without json-gold (direct.go)
			continue
		}
		nm, err := prepare(cs[i].Doc)
		if err != nil {
			cs[i].Err = err
			continue
		}
		maps[i] = nm
		g, ok := nm.defaultOnly()
		if !ok {
			cs[i].Quads, cs[i].Err = nm.alone(cs[i].Graph)
			continue
		}
		placed := false
		for _, grp := range groups {
			if grp.disjoint(g) {
				grp.add(i, g)
				placed = true
				break
			}
		}
		if !placed {
			grp := &batchGroup{owner: map[string]int{}}
			grp.add(i, g)
			groups = append(groups, grp)
		}
	}
	for _, grp := range groups {
		if len(grp.members) == 1 {
			i := grp.members[0]
			cs[i].Quads, cs[i].Err = maps[i].alone(cs[i].Graph)
			continue
		}
		if err := grp.convert(cs); err != nil {
			// json-gold failed on the group (it panicked): each document
			// again on its own, so only the one at fault fails.
			for _, i := range grp.members {
				cs[i].Quads, cs[i].Err = maps[i].alone(cs[i].Graph)
			}
		}
	}
}

// directPath is directQuads; a variable so that tests (and the
// benchmarks comparing both) can send every document to json-gold.
var directPath = directQuads

// nodeMap is one document's json-gold node map (graph name → subject →
// node) and the blank node issuer that made it.
type nodeMap struct {
	graphs map[string]any
	issuer *ld.IdentifierIssuer
}

// prepare expands doc and generates its node map, the steps json-gold's
// ToRDF takes before writing statements; its errors read as
// ReferenceQuads' do.
func prepare(doc any) (nodeMap, error) {
	generic, err := plainJSON(doc)
	if err != nil {
		return nodeMap{}, err
	}
	if err := withSharedContext(generic); err != nil {
		return nodeMap{}, err
	}
	nm, err := generateNodeMap(generic)
	if err != nil {
		return nodeMap{}, fmt.Errorf("json-ld to rdf: %w", err)
	}
	return nm, nil
}

// generateNodeMap is json-gold's expansion and node map generation, with
// a panic turned into ErrProcessor.
func generateNodeMap(generic any) (nodeMap, error) {
	expanded, err := expand(generic)
	if err != nil {
		return nodeMap{}, err
	}
	return nodeMapOf(expanded)
}

// alone writes the statements of every graph of the node map, as
// json-gold's ToRDF does, and gives the document's quads.
func (nm nodeMap) alone(graph string) (qs []quad.Quad, err error) {
	defer func() {
		if r := recover(); r != nil {
			qs, err = nil, fmt.Errorf("json-ld to rdf: %w: %v", ErrProcessor, r)
		}
	}()
	ds := ld.NewRDFDataset()
	opts := Options()
	for name, g := range nm.graphs {
		if ld.IsRelativeIri(name) {
			continue
		}
		ds.GraphToRDF(name, g.(map[string]any), nm.issuer, opts.ProduceGeneralizedRdf)
	}
	return datasetQuads(ds.Graphs, graph)
}

// defaultOnly is the node map's default graph when a group may take it:
// the only graph, and without lists.
func (nm nodeMap) defaultOnly() (map[string]any, bool) {
	if len(nm.graphs) != 1 {
		return nil, false
	}
	g, ok := nm.graphs["@default"].(map[string]any)
	if !ok {
		return nil, false
	}
	for _, n := range g {
		node, ok := n.(map[string]any)
		if !ok {
			return nil, false
		}
		for _, vs := range node {
			items, ok := vs.([]any)
			if !ok {
				continue // @id, and keywords json-gold does not write
			}
			for _, it := range items {
				if ld.IsList(it) {
					return nil, false
				}
			}
		}
	}
	return g, true
}

// batchGroup is documents whose default graphs are written in one call:
// owner maps each subject to the document it comes from.
type batchGroup struct {
	members []int
	owner   map[string]int
	graph   map[string]any
}

// disjoint says whether no node of g that makes statements has a subject
// of the group that makes statements. A node map holds a node without
// statements for each node it only refers to (the instance, a skill a
// tool satisfies): those are shared freely.
func (b *batchGroup) disjoint(g map[string]any) bool {
	for id, n := range g {
		if silent(n) {
			continue
		}
		if other, taken := b.graph[id]; taken && !silent(other) {
			return false
		}
	}
	return true
}

func (b *batchGroup) add(i int, g map[string]any) {
	if b.graph == nil {
		b.graph = map[string]any{}
	}
	b.members = append(b.members, i)
	for id, n := range g {
		if _, taken := b.graph[id]; taken && silent(n) {
			continue // the group has it already, maybe with statements
		}
		b.owner[id] = i
		b.graph[id] = n
	}
}

// silent says whether json-gold writes no statement of node n: all its
// entries are keywords other than @type (json-gold skips those).
func silent(n any) bool {
	node, ok := n.(map[string]any)
	if !ok {
		return false
	}
	for k := range node {
		if k == "@type" || !ld.IsKeyword(k) {
			return false
		}
	}
	return true
}

// groupToRDF is json-gold's RDF step over a group's default graph; a
// variable so that a test can make it fail as json-gold may (a panic), to
// see each document converted alone instead.
var groupToRDF = func(graph map[string]any) *ld.RDFDataset {
	ds := ld.NewRDFDataset()
	// No list, so json-gold issues no blank node here: the issuer is
	// only an argument.
	ds.GraphToRDF("@default", graph, ld.NewIdentifierIssuer("_:b"), Options().ProduceGeneralizedRdf)
	return ds
}

// convert writes the group's statements in one json-gold call and gives
// each member its own.
func (b *batchGroup) convert(cs []Conversion) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("%w: %v", ErrProcessor, r)
		}
	}()
	ds := groupToRDF(b.graph)
	own := map[int][]*ld.Quad{}
	for _, q := range ds.Graphs["@default"] {
		i, ok := b.owner[q.Subject.GetValue()]
		if !ok {
			return fmt.Errorf("statement of unknown subject %s", q.Subject.GetValue())
		}
		own[i] = append(own[i], q)
	}
	for _, i := range b.members {
		cs[i].Quads, cs[i].Err = datasetQuads(map[string][]*ld.Quad{"@default": own[i]}, cs[i].Graph)
	}
	return nil
}
