package server

import (
	"context"
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
	"github.com/skillgraph/skillgraph/schemas"
)

func (h *handlers) context(http.Header, *http.Request) reply {
	return reply{code: http.StatusOK, ctype: "application/ld+json", body: jsonld.Context()}
}

// kinds that /export?frame= and /id/<kind>/ accept.
var frameKinds = map[string]bool{"skill": true, "tool": true, "process": true, "bean": true, "contract": true,
	"server": true, "toolskill": true, "package": true, "trigger": true,
	// every other kind the export mints (issue 25.10): findings, source
	// files, BPMN lanes, package.json scripts, and an instance (its IRI is
	// the instance document's, without a fragment)
	"finding": true, "source": true, "lane": true, "script": true, "instance": true}

// Media types of the export (SPEC §6.2).
const (
	typeNQuads = "application/n-quads"
	typeJSONLD = "application/ld+json"
	typeJSON   = "application/json"
	typeHTML   = "text/html"
)

// export serves the whole graph as streamed N-Quads, or as compacted
// JSON-LD (bounded by MaxJSONLDQuads and MaxJSONLDExports), or one entity
// framed. ?format= overrides the Accept header.
func (h *handlers) export(hdr http.Header, r *http.Request) reply {
	hdr.Set("Vary", "Accept")
	q := r.URL.Query()
	format := q.Get("format")
	if format == "mcp-tools" {
		return h.exportMCPTools(hdr, r)
	}
	if rep, refused := h.refuseNotDurable(hdr); refused {
		return rep
	}
	if format == "" {
		switch negotiate(r, typeNQuads, typeJSONLD, typeJSON) {
		case typeNQuads:
			format = "nquads"
		case typeJSONLD, typeJSON:
			format = "jsonld"
		default:
			return notAcceptable(typeNQuads, typeJSONLD)
		}
	}
	if kind := q.Get("frame"); kind != "" {
		id := q.Get("id")
		switch {
		case !frameKinds[kind]:
			return textReply(http.StatusBadRequest, "frame needs ?frame=skill|tool|process|bean|contract|server|toolskill[&id=<id>]\n")
		case id == "":
			return h.frameKind(hdr, r, kind) // every node of the kind (frame_kind.go)
		default:
			return h.frame(hdr, r, kind, id)
		}
	}
	if format != "nquads" && format != "jsonld" {
		return textReply(http.StatusBadRequest, "format must be nquads, jsonld or mcp-tools\n")
	}
	st := h.svc.store
	v, err := st.Version(r.Context())
	if err != nil {
		h.log.Error("export: graph version", "err", err)
		return textReply(http.StatusServiceUnavailable, "the store cannot be read\n")
	}
	if rep, ok := notModified(hdr, r, etag(v, format)); ok {
		return rep
	}
	if format == "jsonld" {
		return h.exportJSONLD(hdr, r)
	}
	if r.Method == http.MethodHead {
		return headReply(typeNQuads)
	}
	release, rep, ok := acquire(hdr, h.streams, "too many exports are running; retry later\n")
	if !ok {
		hdr.Del("ETag")
		return rep
	}
	// The ETag set above goes out with the first chunk, or not at all
	// (sendStream).
	return reply{code: http.StatusOK, ctype: typeNQuads, done: release, stream: func(w io.Writer) error {
		_, err := h.svc.store.WriteNQuads(r.Context(), w)
		return err
	}}
}

// retryExport is the Retry-After of an export refused for the number
// running, in seconds.
const retryExport = "5"

// exportJSONLD compacts the whole graph. Compaction holds every quad and
// json-gold's expansion of them in memory, so the limit is decided from the
// quad count before anything is loaded, and at most MaxJSONLDExports run
// at once (SPEC §7: bounded requests).
func (h *handlers) exportJSONLD(hdr http.Header, r *http.Request) reply {
	release, rep, ok := acquire(hdr, h.heavy, "too many JSON-LD exports are running; retry later, or use Accept: application/n-quads (streamed)\n")
	if !ok {
		return rep
	}
	defer release()
	ctx := r.Context()
	if limit := h.cfg.MaxJSONLDQuads; limit > 0 {
		n, err := h.svc.exportQuadCount(ctx, limit)
		if err != nil {
			h.log.Error("json-ld export: count quads", "err", err)
			return textReply(http.StatusInternalServerError, "json-ld export failed\n")
		}
		if n > limit {
			return textReply(http.StatusRequestEntityTooLarge, fmt.Sprintf("%v: the graph has more than %d quads\n", errTooMany, limit))
		}
	}
	if r.Method == http.MethodHead {
		return headReply(typeJSONLD)
	}
	out, err := compactAll(ctx, h.svc.store, h.cfg.MaxJSONLDQuads)
	if errors.Is(err, errTooMany) { // the graph grew between the count and the read
		return textReply(http.StatusRequestEntityTooLarge, err.Error()+"\n")
	}
	if err != nil {
		h.log.Error("json-ld export failed", "err", err)
		return textReply(http.StatusInternalServerError, "json-ld export failed\n")
	}
	return jsonReply(http.StatusOK, typeJSONLD, out)
}

// notAcceptable answers 406 naming the types this resource has.
func notAcceptable(types ...string) reply {
	return textReply(http.StatusNotAcceptable, "none of the Accept header's types can be given here; available: "+strings.Join(types, ", ")+"\n")
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
	return encodeJSONLD(w, out)
}

// WriteJSONLD writes quads (normalised, the bookkeeping graph left out,
// as ExportJSONLD reads them from a store) as the compacted JSON-LD
// document ExportJSONLD writes of a store holding them: for an export of
// corpora that writes no store. qs is sorted in place.
func WriteJSONLD(w io.Writer, qs []quad.Quad) error {
	jsonld.SortQuads(qs)
	out, err := compactQuads(qs)
	if err != nil {
		return err
	}
	return encodeJSONLD(w, out)
}

// encodeJSONLD writes a compacted document as the exports print it.
func encodeJSONLD(w io.Writer, doc map[string]any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", " ")
	return enc.Encode(doc)
}

func compactAll(ctx context.Context, st *graph.Store, limit int) (map[string]any, error) {
	qs, err := allQuads(ctx, st, limit)
	if err != nil {
		return nil, err
	}
	return compactQuads(qs)
}

// compactQuads is the sorted quads as one compacted JSON-LD document.
func compactQuads(qs []quad.Quad) (map[string]any, error) {
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

// refuseNotDurable answers 503 with Retry-After while the answers served
// are not those of the store (a cold start's write is running): the
// export and the entity documents read the store, which does not hold
// them yet.
func (h *handlers) refuseNotDurable(hdr http.Header) (reply, bool) {
	if h.svc.Snapshot() == nil || h.svc.Durable() {
		return reply{}, false
	}
	hdr.Set("Retry-After", retryNotDurable)
	return textReply(http.StatusServiceUnavailable, "the store write of the corpus is running: the export reads the store; retry once /readyz says durable\n"), true
}

// lookup finds the IRI of kind/id in any instance, "" when absent.
func (h *handlers) lookup(ctx context.Context, kind, id string) string {
	snap := h.svc.Snapshot()
	if snap == nil {
		return ""
	}
	if kind == "instance" {
		for _, in := range snap.Instances {
			if in.Name == id {
				return in.IRI
			}
		}
		return ""
	}
	if kind == "skill" {
		// Skill IRIs carry the package: /id/skill/<package>/<name> and a
		// bare /id/skill/<name> both find the skill node, never the alias.
		if sk := snap.Skill(id); sk != nil {
			return sk.IRI
		}
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

func (h *handlers) frame(hdr http.Header, r *http.Request, kind, id string) reply {
	v, err := h.svc.store.Version(r.Context())
	if err != nil {
		h.log.Error("frame: graph version", "err", err)
		return textReply(http.StatusServiceUnavailable, "the store cannot be read\n")
	}
	iri := h.lookup(r.Context(), kind, id)
	if iri == "" {
		return textReply(http.StatusNotFound, fmt.Sprintf("no %s %q\n", kind, id))
	}
	if rep, ok := notModified(hdr, r, etag(v, "frame")); ok {
		return rep
	}
	qs, err := entityQuads(r.Context(), h.svc.store, iri)
	if err == nil {
		var exp any
		if exp, err = jsonld.FromQuads(qs); err == nil {
			var out map[string]any
			if out, err = jsonld.Frame(exp, iri); err == nil {
				return jsonReply(http.StatusOK, typeJSONLD, out)
			}
		}
	}
	h.log.Error("frame failed", "iri", iri, "err", err)
	return textReply(http.StatusInternalServerError, "frame failed\n")
}

// etag names the representation of the graph at version v in a format:
// every ingest or triage write bumps the version, so it changes exactly
// when the data can have.
func etag(v int64, format string) string {
	return fmt.Sprintf(`"g%d-%s"`, v, format)
}

// notModified sets the ETag and answers 304 when If-None-Match already
// names it (RFC 9110 §13.1.2: weak comparison, "*" matches any).
func notModified(hdr http.Header, r *http.Request, tag string) (reply, bool) {
	hdr.Set("ETag", tag)
	if matches(r, tag) {
		return reply{code: http.StatusNotModified}, true
	}
	return reply{}, false
}

// matches reports whether r's If-None-Match names tag.
func matches(r *http.Request, tag string) bool {
	for _, c := range strings.Split(r.Header.Get("If-None-Match"), ",") {
		c = strings.TrimPrefix(strings.TrimSpace(c), "W/")
		if c == "*" || (c != "" && c == tag) {
			return true
		}
	}
	return false
}

// schemaFiles are the JSON Schemas served under /schemas/ for editors and
// CI: the instance declaration, a Tool file, one Tool node and the built-in
// port type vocabulary (schemas/).
var schemaFiles = map[string]bool{"tool.schema.json": true, "tool-file.schema.json": true, "tool-types.schema.json": true, "harness.schema.json": true}

// schemaFile serves one embedded JSON Schema.
func (h *handlers) schemaFile(_ http.Header, r *http.Request) reply {
	name := chi.URLParam(r, "name")
	b, err := schemas.Read(name)
	if !schemaFiles[name] || err != nil {
		return textReply(http.StatusNotFound, "no schema "+name+"; served: /schemas/harness.schema.json, /schemas/tool-file.schema.json, /schemas/tool.schema.json, /schemas/tool-types.schema.json\n")
	}
	return reply{code: http.StatusOK, ctype: "application/schema+json", body: b}
}

// acquire takes one of sem's slots for an export and returns what gives it
// back; with every slot taken, ok is false and rep answers 503 with
// Retry-After and msg. It is the one rationing of the exports (issue 28
// row 13).
func acquire(hdr http.Header, sem chan struct{}, msg string) (release func(), rep reply, ok bool) {
	select {
	case sem <- struct{}{}:
		return func() { <-sem }, reply{}, true
	default:
		hdr.Set("Retry-After", retryExport)
		return nil, textReply(http.StatusServiceUnavailable, msg), false
	}
}

// quadCount caches the exportable quads of one graph version, counted up
// to a bound.
type quadCount struct {
	version, bound int64
	n              int
}

// exportQuadCount counts the exportable quads of the store's current
// version, up to bound+1, without holding them: the JSON-LD export decides
// its limit from it before loading anything. The count is kept per version,
// so repeated refusals cost nothing.
func (s *Service) exportQuadCount(ctx context.Context, bound int) (int, error) {
	v, err := s.store.Version(ctx)
	if err != nil {
		return 0, err
	}
	if c := s.quadCount.Load(); c != nil && c.version == v && c.bound == int64(bound) {
		return c.n, nil
	}
	errEnough := errors.New("enough")
	n := 0
	err = s.store.Each(ctx, func(q quad.Quad) error {
		if l, ok := q.Label.(quad.IRI); ok && string(l) == graph.MetaGraph {
			return nil
		}
		n++
		if n > bound {
			return errEnough
		}
		return nil
	})
	if err != nil && !errors.Is(err, errEnough) {
		return 0, fmt.Errorf("count quads: %w", err)
	}
	s.quadCount.Store(&quadCount{version: v, bound: int64(bound), n: n})
	return n, nil
}
