package server

import (
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"sort"
	"strings"

	"github.com/cayleygraph/quad"
	"github.com/go-chi/chi/v5"

	"github.com/skillgraph/skillgraph/graph"
	"github.com/skillgraph/skillgraph/jsonld"
)

//go:embed assets/graphiql.html
var graphiqlPage []byte

func (h *handlers) graphiql(w http.ResponseWriter, _ *http.Request) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	_, _ = w.Write(graphiqlPage)
}

func (h *handlers) context(w http.ResponseWriter, _ *http.Request) {
	w.Header().Set("Content-Type", "application/ld+json")
	_, _ = w.Write(jsonld.Context())
}

// kinds that /export?frame= and /id/<kind>/ accept.
var frameKinds = map[string]bool{"skill": true, "tool": true, "process": true, "bean": true, "contract": true,
	"server": true, "toolskill": true, "package": true, "trigger": true}

// export serves the whole graph as streamed N-Quads, or as compacted
// JSON-LD (bounded by MaxJSONLDQuads), or one entity framed.
func (h *handlers) export(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	format := q.Get("format")
	if format == "" {
		switch {
		case accepts(r, "application/n-quads"):
			format = "nquads"
		case accepts(r, "application/ld+json"), accepts(r, "application/json"):
			format = "jsonld"
		default:
			format = "nquads"
		}
	}
	st := h.svc.store
	if kind := q.Get("frame"); kind != "" {
		id := q.Get("id")
		if !frameKinds[kind] || id == "" {
			writeText(w, http.StatusBadRequest, "frame needs ?frame=skill|tool|process|bean|contract|server|toolskill&id=<id>\n")
			return
		}
		h.frame(w, r, kind, id)
		return
	}
	switch format {
	case "nquads":
		w.Header().Set("Content-Type", "application/n-quads")
		if _, err := st.WriteNQuads(r.Context(), w); err != nil {
			h.log.Warn("export interrupted", "err", err)
		}
	case "jsonld":
		out, err := compactAll(r.Context(), st, h.cfg.MaxJSONLDQuads)
		if errors.Is(err, errTooMany) {
			writeText(w, http.StatusRequestEntityTooLarge, err.Error()+"\n")
			return
		}
		if err != nil {
			h.log.Error("json-ld export failed", "err", err)
			writeText(w, http.StatusInternalServerError, "json-ld export failed\n")
			return
		}
		writeJSON(w, http.StatusOK, "application/ld+json", out)
	default:
		writeText(w, http.StatusBadRequest, "format must be nquads or jsonld\n")
	}
}

// errTooMany refuses a whole-graph JSON-LD export over the limit.
var errTooMany = errors.New("JSON-LD export of the whole graph is refused over the quad limit (json-gold compaction grows too costly); use Accept: application/n-quads, or ?frame=<kind>&id=<id> for one entity")

// ExportJSONLD writes the whole graph as compacted JSON-LD; limit bounds the
// quads (0: no bound).
func ExportJSONLD(ctx context.Context, st *graph.Store, w io.Writer, limit int) error {
	out, err := compactAll(ctx, st, limit)
	if err != nil {
		return err
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", " ")
	return enc.Encode(out)
}

func compactAll(ctx context.Context, st *graph.Store, limit int) (map[string]any, error) {
	qs, err := allQuads(ctx, st, limit)
	if err != nil {
		return nil, err
	}
	exp, err := jsonld.FromQuads(qs)
	if err != nil {
		return nil, err
	}
	return jsonld.Compact(exp)
}

// allQuads reads the exportable graph, refusing more than limit quads.
func allQuads(ctx context.Context, st *graph.Store, limit int) ([]quad.Quad, error) {
	var qs []quad.Quad
	err := st.Each(ctx, func(q quad.Quad) error {
		if l, ok := q.Label.(quad.IRI); ok && string(l) == graph.MetaGraph {
			return nil
		}
		if limit > 0 && len(qs) >= limit {
			return fmt.Errorf("%w: the graph has more than %d quads", errTooMany, limit)
		}
		qs = append(qs, graph.Normalize(q))
		return nil
	})
	if err != nil {
		return nil, err
	}
	jsonld.SortQuads(qs)
	return qs, nil
}

// entityQuads returns the quads of a node and of the nodes it owns (IRIs
// below its own: a Tool's ports, a process's activities).
func entityQuads(ctx context.Context, st *graph.Store, iri string) ([]quad.Quad, error) {
	var out []quad.Quad
	seen := map[string]bool{iri: true}
	queue := []string{iri}
	for len(queue) > 0 && len(out) < 100_000 {
		n := queue[0]
		queue = queue[1:]
		qs, err := st.Subject(ctx, n)
		if err != nil {
			return nil, err
		}
		for _, q := range qs {
			if l, ok := q.Label.(quad.IRI); ok && string(l) == graph.MetaGraph {
				continue
			}
			out = append(out, graph.Normalize(q))
			if o, ok := q.Object.(quad.IRI); ok && strings.HasPrefix(string(o), iri+"/") && !seen[string(o)] {
				seen[string(o)] = true
				queue = append(queue, string(o))
			}
		}
	}
	jsonld.SortQuads(out)
	return out, nil
}

// lookup finds the IRI of kind/id in any instance, "" when absent.
func (h *handlers) lookup(ctx context.Context, kind, id string) string {
	snap := h.svc.Snapshot()
	if snap == nil {
		return ""
	}
	var docs []string
	for _, in := range snap.Instances {
		docs = append(docs, in.IRI)
	}
	sort.Strings(docs)
	for _, d := range docs {
		iri := jsonld.Mint(d, kind, id)
		if qs, _ := h.svc.store.Subject(ctx, iri); len(qs) > 0 {
			return iri
		}
	}
	return ""
}

func (h *handlers) frame(w http.ResponseWriter, r *http.Request, kind, id string) {
	iri := h.lookup(r.Context(), kind, id)
	if iri == "" {
		writeText(w, http.StatusNotFound, fmt.Sprintf("no %s %q\n", kind, id))
		return
	}
	qs, err := entityQuads(r.Context(), h.svc.store, iri)
	if err == nil {
		var exp any
		if exp, err = jsonld.FromQuads(qs); err == nil {
			var out map[string]any
			if out, err = jsonld.Frame(exp, iri); err == nil {
				writeJSON(w, http.StatusOK, "application/ld+json", out)
				return
			}
		}
	}
	h.log.Error("frame failed", "iri", iri, "err", err)
	writeText(w, http.StatusInternalServerError, "frame failed\n")
}

// describe dereferences /id/<kind>/<id>: JSON-LD, or the page for browsers.
func (h *handlers) describe(w http.ResponseWriter, r *http.Request) {
	kind := chi.URLParam(r, "kind")
	id := chi.URLParam(r, "*")
	if !frameKinds[kind] || id == "" {
		writeText(w, http.StatusNotFound, "unknown kind; use /id/skill|tool|process|bean/<id>\n")
		return
	}
	if accepts(r, "text/html") && !accepts(r, "application/ld+json") {
		http.Redirect(w, r, "/#/"+kind+"/"+id, http.StatusSeeOther)
		return
	}
	h.frame(w, r, kind, id)
}
