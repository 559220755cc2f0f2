package server

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"

	"github.com/cayleygraph/quad"

	"github.com/skillgraph/skillgraph/graph"
	"github.com/skillgraph/skillgraph/jsonld"
)

// documentIRIs dereferences the document IRIs the export mints
// (<iriBase><name>.jsonld, whose nodes are <…>.jsonld#<kind>/<id>; issue
// 23.7: every IRI the export mints must dereference at the service that
// minted it when iriBase points at it). A GET or HEAD whose path is the
// path of an instance's document IRI answers that instance's nodes as
// compacted JSON-LD (the fragment names the node within it), or the page
// for browsers; anything else goes on to the routes. The host is not
// compared: behind a proxy the service rarely sees the public one.
func (h *handlers) documentIRIs(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if (r.Method != http.MethodGet && r.Method != http.MethodHead) || !strings.HasSuffix(r.URL.Path, ".jsonld") || r.URL.Path == "/context.jsonld" {
			next.ServeHTTP(w, r)
			return
		}
		doc := h.documentAt(r.URL.Path)
		if doc == "" {
			next.ServeHTTP(w, r)
			return
		}
		h.wrap(func(hdr http.Header, r *http.Request) reply {
			hdr.Set("Vary", "Accept")
			switch negotiate(r, typeJSONLD, typeJSON, typeHTML) {
			case typeHTML:
				return redirect("/", http.StatusSeeOther)
			case typeJSONLD, typeJSON:
				return h.instanceDocument(hdr, r, doc)
			default:
				return notAcceptable(typeJSONLD, typeHTML)
			}
		})(w, r)
	})
}

// documentAt returns the document IRI of the instance whose IRI's path is
// p, or "".
func (h *handlers) documentAt(p string) string {
	snap := h.svc.Snapshot()
	if snap == nil {
		return ""
	}
	for _, in := range snap.Instances {
		if u, err := url.Parse(in.IRI); err == nil && (u.Scheme == "http" || u.Scheme == "https") && u.Path == p {
			return in.IRI
		}
	}
	return ""
}

// instanceDocument answers the nodes of one instance document, bounded as
// the whole-graph JSON-LD export is.
func (h *handlers) instanceDocument(hdr http.Header, r *http.Request, doc string) reply {
	if rep, refused := h.refuseNotDurable(hdr); refused {
		return rep
	}
	release, rep, ok := h.beginJSONLD(hdr, r, "instance document", "doc")
	if !ok {
		return rep
	}
	defer release()
	limit := h.cfg.MaxJSONLDQuads
	var qs []quad.Quad
	tooMany := fmt.Errorf("%s is more than %d quads; use /export with Accept: application/n-quads", doc, limit)
	err := h.svc.store.Each(r.Context(), func(q quad.Quad) error {
		if l, ok := q.Label.(quad.IRI); ok && string(l) == graph.MetaGraph {
			return nil
		}
		s, ok := q.Subject.(quad.IRI)
		if !ok || (string(s) != doc && !strings.HasPrefix(string(s), doc+"#")) {
			return nil
		}
		if limit > 0 && len(qs) >= limit {
			return tooMany
		}
		qs = append(qs, graph.Normalize(q))
		return nil
	})
	if err == tooMany {
		return textReply(http.StatusRequestEntityTooLarge, err.Error()+"\n")
	}
	if err == nil {
		jsonld.SortQuads(qs)
		var exp any
		if exp, err = jsonld.FromQuads(qs); err == nil {
			var out map[string]any
			if out, err = jsonld.Compact(exp); err == nil {
				if r.Method == http.MethodHead {
					return headReply(typeJSONLD)
				}
				return jsonReply(http.StatusOK, typeJSONLD, out)
			}
		}
	}
	h.log.Error("instance document failed", "doc", doc, "err", err)
	return textReply(http.StatusInternalServerError, "instance document failed\n")
}

// beginJSONLD starts a bounded JSON-LD answer (an instance document, a
// framed kind): it takes one of the heavy-export slots, reads the graph
// version and answers 304 when the client's copy, tagged tag, is that
// version's. When ok is false, rep is the answer; otherwise the caller
// answers and calls release when done.
func (h *handlers) beginJSONLD(hdr http.Header, r *http.Request, what, tag string) (release func(), rep reply, ok bool) {
	release, rep, ok = acquire(hdr, h.heavy, "too many JSON-LD exports are running; retry later\n")
	if !ok {
		return nil, rep, false
	}
	v, err := h.svc.store.Version(r.Context())
	if err != nil {
		release()
		h.log.Error(what+": graph version", "err", err)
		return nil, textReply(http.StatusServiceUnavailable, "the store cannot be read\n"), false
	}
	if rep, ok := notModified(hdr, r, etag(v, tag)); ok {
		release()
		return nil, rep, false
	}
	return release, reply{}, true
}
