// Package queries builds the analysis snapshot: it reads one graph version
// back from the store (never parser structs, so a replica with only the
// store computes the same answers), indexes it in memory and runs the
// analyses of SPEC §5 on that index.
package queries

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/cayleygraph/quad"

	"github.com/skillgraph/skillgraph/graph"
	"github.com/skillgraph/skillgraph/jsonld"
)

const (
	rdfType = "http://www.w3.org/1999/02/22-rdf-syntax-ns#type"
	sg      = jsonld.NS
)

// raw is one subject's quads within one source graph.
type raw struct {
	iri   string
	graph string
	types []string
	props map[string][]quad.Value
}

func (r *raw) str(p string) string {
	vs := r.props[p]
	switch len(vs) {
	case 0:
		return ""
	case 1:
		return valueString(vs[0])
	}
	// Two values of one property (a file minting one IRI twice, such as
	// two BPMN tasks of one id): the smallest, so that the store's order
	// (Build) and a change's (Update) give one answer.
	m := valueString(vs[0])
	for _, v := range vs[1:] {
		if s := valueString(v); s < m {
			m = s
		}
	}
	return m
}

func (r *raw) strs(p string) []string {
	var out []string
	for _, v := range r.props[p] {
		out = append(out, valueString(v))
	}
	sort.Strings(out)
	return out
}

func (r *raw) int(p string) int {
	n, _ := strconv.Atoi(r.str(p))
	return n
}

func (r *raw) ints(p string) []int {
	var out []int
	for _, v := range r.props[p] {
		if n, err := strconv.Atoi(valueString(v)); err == nil {
			out = append(out, n)
		}
	}
	sort.Ints(out)
	return out
}

func (r *raw) boolean(p string) bool { return r.str(p) == "true" }

// optBool is nil when the property is not stated (tri-state).
func (r *raw) optBool(p string) *bool {
	if len(r.props[p]) == 0 {
		return nil
	}
	b := r.boolean(p)
	return &b
}

func (r *raw) iris(p string) []string {
	var out []string
	for _, v := range r.props[p] {
		if iri, ok := v.(quad.IRI); ok {
			out = append(out, string(iri))
		}
	}
	sort.Strings(out)
	return out
}

func (r *raw) iri1(p string) string {
	if xs := r.iris(p); len(xs) > 0 {
		return xs[0]
	}
	return ""
}

func (r *raw) jsonInto(p string, v any) bool {
	s := r.str(p)
	return s != "" && json.Unmarshal([]byte(s), v) == nil
}

func (r *raw) is(class string) bool {
	for _, t := range r.types {
		// Not t == sg+class: the concatenation allocates on every call,
		// and index asks each subject about a dozen classes.
		if len(t) == len(sg)+len(class) && t[len(sg):] == class && t[:len(sg)] == sg {
			return true
		}
	}
	return false
}

// valueString is the lexical form of a literal, or the IRI.
func valueString(v quad.Value) string {
	switch x := v.(type) {
	case quad.String:
		return string(x)
	case quad.TypedString:
		return string(x.Value)
	case quad.LangString:
		return string(x.Value)
	case quad.IRI:
		return string(x)
	case quad.Int:
		return strconv.FormatInt(int64(x), 10)
	case quad.Bool:
		return strconv.FormatBool(bool(x))
	case quad.Float:
		return strconv.FormatFloat(float64(x), 'g', -1, 64)
	case quad.BNode:
		return "_:" + string(x)
	case nil:
		return ""
	}
	return fmt.Sprint(v.Native())
}

func sortRaws(out []*raw) {
	slices.SortFunc(out, func(a, b *raw) int {
		if c := strings.Compare(a.iri, b.iri); c != 0 {
			return c
		}
		return strings.Compare(a.graph, b.graph)
	})
}

// readAll groups every stored quad by (source graph, subject) and returns
// the graph version they are the data of (one read: a replica building
// while the writer commits gets one version, never a mix).
func readAll(ctx context.Context, st *graph.Store) ([]*raw, int64, error) {
	out, v, err := readEach(ctx, st, groupGraph)
	if err != nil {
		return nil, 0, err
	}
	sortRaws(out)
	return out, v, nil
}

// readNodes is readAll decoded: each graph's subjects are grouped and
// decoded into nodes as the store hands the graph over, so the grouped
// quads of one graph at a time are held, not the whole store's (at 100k
// skills they were ≈ 1 GB beside the nodes, most of a Build's peak, issue
// #27). The nodes are in readAll's order: by subject, then graph (each
// pair is one node).
func readNodes(ctx context.Context, st *graph.Store) ([]*node, int64, error) {
	out, v, err := readEach(ctx, st, func(label string, quads []quad.Quad) []*node {
		return decodeNodes(groupGraph(label, quads))
	})
	if err != nil {
		return nil, 0, err
	}
	slices.SortFunc(out, compareNodes)
	return out, v, nil
}

// readEach reads the store's current version and joins what each does
// with one graph's quads. The store hands over one whole graph at a time,
// from several goroutines, so each graph is handled on its own and only
// the lists are joined under the lock.
func readEach[T any](ctx context.Context, st *graph.Store, each func(label string, quads []quad.Quad) []T) ([]T, int64, error) {
	var (
		mu  sync.Mutex
		out []T
	)
	v, err := st.ReadGraphs(ctx, func(label string, quads []quad.Quad) error {
		xs := each(label, quads)
		mu.Lock()
		out = append(out, xs...)
		mu.Unlock()
		return nil
	})
	if err != nil {
		return nil, 0, fmt.Errorf("read store: %w", err)
	}
	return out, v, nil
}

// groupGraph is the grouper for the quads of one graph: one raw per IRI
// subject, its types sorted, every other property's values in quad order.
// The raws are one array and their values runs of one slice shared by the
// graph (a handful of allocations per graph instead of several per raw):
// a counting pass numbers the subjects, the quads are then visited
// subject by subject (in quad order), and each subject's predicates in
// the order they first appear.
func groupGraph(label string, quads []quad.Quad) []*raw {
	if label == graph.MetaGraph {
		return nil
	}
	subj := make([]int32, len(quads)) // the quad's subject number, -1: not an IRI
	ids := map[quad.IRI]int32{}
	var (
		counts []int32
		last   quad.IRI
		lastID int32 = -1
		types  int
	)
	for i, q := range quads {
		s, ok := q.Subject.(quad.IRI)
		if !ok {
			subj[i] = -1
			continue
		}
		if lastID < 0 || s != last {
			id, seen := ids[s]
			if !seen {
				id = int32(len(counts))
				ids[s] = id
				counts = append(counts, 0)
			}
			last, lastID = s, id
		}
		subj[i] = lastID
		counts[lastID]++
		if p, ok := q.Predicate.(quad.IRI); ok && p == rdfType {
			types++
		}
	}
	// Stable counting sort of the quads by subject number.
	start := make([]int32, len(counts)+1)
	for id, n := range counts {
		start[id+1] = start[id] + n
	}
	order := make([]int32, start[len(counts)])
	fill := slices.Clone(start[:len(counts)])
	for i, id := range subj {
		if id >= 0 {
			order[fill[id]] = int32(i)
			fill[id]++
		}
	}
	var (
		raws  = make([]raw, len(counts))
		out   = make([]*raw, len(counts))
		vals  = make([]quad.Value, 0, len(order))
		names = make([]string, 0, types)
		preds []string
	)
	for id := range raws {
		run := order[start[id]:start[id+1]]
		r := &raws[id]
		out[id] = r
		r.iri, r.graph = string(quads[run[0]].Subject.(quad.IRI)), label
		preds = preds[:0]
		for _, i := range run {
			if p := valueString(quads[i].Predicate); !slices.Contains(preds, p) {
				preds = append(preds, p)
			}
		}
		r.props = make(map[string][]quad.Value, len(preds))
		for _, p := range preds {
			if p == rdfType {
				from := len(names)
				for _, i := range run {
					if valueString(quads[i].Predicate) == p {
						names = append(names, valueString(quads[i].Object))
					}
				}
				r.types = names[from:len(names):len(names)]
				sort.Strings(r.types)
				continue
			}
			from := len(vals)
			for _, i := range run {
				if valueString(quads[i].Predicate) == p {
					vals = append(vals, quads[i].Object)
				}
			}
			r.props[p] = vals[from:len(vals):len(vals)] // capped: an append copies
		}
	}
	return out
}

// localKey is the id part of a minted IRI (after `#kind/`).
func localKey(iri string) string {
	if _, _, id, ok := jsonld.Split(iri); ok {
		return id
	}
	return iri
}

func docOf(iri string) string {
	if i := strings.LastIndexByte(iri, '#'); i >= 0 {
		return iri[:i]
	}
	return iri
}
