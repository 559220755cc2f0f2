package server

import (
	"bufio"
	"context"
	"io"
	"net/http"
	"net/url"
	"sort"
	"strings"

	"github.com/cayleygraph/quad"
	"github.com/go-chi/chi/v5"

	"github.com/skillgraph/skillgraph/jsonld"
	"github.com/skillgraph/skillgraph/queries"
)

// typeTurtle is Turtle (RDF 1.1), one of /id/'s representations.
const typeTurtle = "text/turtle"

// sgNS is the vocabulary's namespace, written as the sg: prefix in Turtle.
const sgNS = "https://w3id.org/skillgraph/ns#"

// describe dereferences /id/<kind>/<id> (issue 25.10): every kind the
// export mints, as JSON-LD (framed), N-Quads or Turtle, or the page's view
// for browsers, whichever the Accept header prefers (406 for anything
// else). A kind the page has no view for (a bean, a contract, an MCP
// server, a script) answers a browser with the entity's JSON-LD, which it
// shows, rather than a page saying the view does not exist.
func (h *handlers) describe(hdr http.Header, r *http.Request) reply {
	hdr.Set("Vary", "Accept")
	kind := chi.URLParam(r, "kind")
	id := chi.URLParam(r, "*")
	if !frameKinds[kind] || id == "" {
		return textReply(http.StatusNotFound, "unknown kind; use /id/"+strings.Join(sortedKinds(), "|")+"/<id>\n")
	}
	ctype := negotiate(r, typeJSONLD, typeJSON, typeNQuads, typeTurtle, typeHTML)
	if ctype == typeHTML {
		if page := h.pageFor(r.Context(), kind, id); page != "" {
			return redirect("/"+page, http.StatusSeeOther)
		}
		ctype = typeJSONLD
	}
	switch ctype {
	case typeJSONLD, typeJSON, typeNQuads, typeTurtle:
		if rep, refused := h.refuseNotDurable(hdr); refused {
			return rep
		}
		if ctype == typeJSONLD || ctype == typeJSON {
			return h.frame(hdr, r, kind, id)
		}
		return h.entityRDF(hdr, r, kind, id, ctype)
	default:
		return notAcceptable(typeJSONLD, typeNQuads, typeTurtle, typeHTML)
	}
}

func sortedKinds() []string {
	out := make([]string, 0, len(frameKinds))
	for k := range frameKinds {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// entityRDF writes an entity's quads (those frame reads) as N-Quads, or
// as Turtle triples (the graph names dropped, a triple in two graphs
// once).
func (h *handlers) entityRDF(hdr http.Header, r *http.Request, kind, id, ctype string) reply {
	v, err := h.svc.store.Version(r.Context())
	if err != nil {
		h.log.Error("describe: graph version", "err", err)
		return textReply(http.StatusServiceUnavailable, "the store cannot be read\n")
	}
	iri := h.lookup(r.Context(), kind, id)
	if iri == "" {
		return textReply(http.StatusNotFound, "no "+kind+" "+quoteID(id)+"\n")
	}
	format := "nquads"
	if ctype == typeTurtle {
		format = "turtle"
	}
	if rep, ok := notModified(hdr, r, etag(v, "id-"+format)); ok {
		return rep
	}
	qs, err := entityQuads(r.Context(), h.svc.store, iri)
	if err != nil {
		h.log.Error("describe: read quads", "iri", iri, "err", err)
		return textReply(http.StatusInternalServerError, "reading the entity failed\n")
	}
	if r.Method == http.MethodHead {
		return headReply(ctype)
	}
	return reply{code: http.StatusOK, ctype: ctype, stream: func(w io.Writer) error {
		bw := bufio.NewWriter(w)
		if ctype == typeTurtle {
			writeTurtle(bw, qs)
		} else {
			for _, q := range qs {
				bw.WriteString(q.NQuad())
				bw.WriteByte('\n')
			}
		}
		return bw.Flush()
	}}
}

func quoteID(id string) string { return `"` + strings.ReplaceAll(id, `"`, `\"`) + `"` }

// writeTurtle writes the quads' triples grouped by subject. Terms are
// written as N-Triples writes them (a subset of Turtle); predicates of the
// vocabulary as sg:name when the name is a plain local name.
func writeTurtle(w *bufio.Writer, qs []quad.Quad) {
	w.WriteString("@prefix sg: <" + sgNS + "> .\n")
	seen := map[[3]string]bool{}
	subject := ""
	for _, q := range qs {
		s, p, o := q.Subject.String(), q.Predicate.String(), q.Object.String()
		k := [3]string{s, p, o}
		if seen[k] {
			continue
		}
		seen[k] = true
		if s != subject {
			if subject != "" {
				w.WriteString(" .\n")
			}
			w.WriteString("\n" + s + "\n    ")
			subject = s
		} else {
			w.WriteString(" ;\n    ")
		}
		w.WriteString(turtlePredicate(q.Predicate) + " " + o)
	}
	if subject != "" {
		w.WriteString(" .\n")
	}
}

func turtlePredicate(p quad.Value) string {
	iri, ok := p.(quad.IRI)
	if !ok {
		return p.String()
	}
	local, ok := strings.CutPrefix(string(iri), sgNS)
	if !ok || local == "" {
		return p.String()
	}
	for i, c := range local {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_' || i > 0 && (c >= '0' && c <= '9' || c == '-')) {
			return p.String()
		}
	}
	return "sg:" + local
}

// pageFor is the page's view that shows an entity, as a fragment ("#/…"),
// or "" when no view does. Kinds without their own view go to the closest
// one that shows the entity: a package to the triage queue filtered by it,
// a tool skill to the first Tool it guides (the Tool view lists its
// guides), a BPMN lane to its process, a finding to the view of its
// subject (else the findings list of its code), a source file to the view
// of the first skill, Tool or process it holds, an instance to the
// overview.
func (h *handlers) pageFor(ctx context.Context, kind, id string) string {
	snap := h.svc.Snapshot()
	if snap == nil {
		return ""
	}
	switch kind {
	case "skill":
		if snap.Skill(id) != nil {
			return "#/skill/" + url.PathEscape(id)
		}
	case "tool":
		if snap.Tool(id) != nil {
			return "#/tool/" + url.PathEscape(id)
		}
	case "process":
		if snap.Process(id) != nil {
			return "#/process/" + url.PathEscape(id)
		}
	case "package":
		for _, sk := range snap.Skills {
			if sk.Package == id {
				return "#/queue?package=" + url.QueryEscape(id)
			}
		}
	case "toolskill":
		for _, ts := range snap.ToolSkills {
			if ts.Key == id && len(ts.Guides) > 0 {
				return "#/tool/" + url.PathEscape(ts.Guides[0].ID)
			}
		}
	case "lane":
		proc, _, _ := strings.Cut(id, "/")
		for _, p := range snap.Processes {
			if p.ID == proc || strings.HasSuffix(p.IRI, "#process/"+jsonld.Escape(proc)) {
				return "#/process/" + url.PathEscape(p.ID)
			}
		}
	case "finding":
		return h.findingPage(ctx, snap, id)
	case "source":
		return sourcePage(snap, id)
	case "instance":
		for _, in := range snap.Instances {
			if in.Name == id {
				return "#/"
			}
		}
	}
	return ""
}

// findingPage is the view of a stored finding's subject, else the
// findings list of its code.
func (h *handlers) findingPage(ctx context.Context, snap *queries.Snapshot, id string) string {
	iri := h.lookup(ctx, "finding", id)
	if iri == "" {
		return ""
	}
	qs, err := h.svc.store.Subject(ctx, iri)
	if err != nil {
		return ""
	}
	var subject, code string
	for _, q := range qs {
		switch q.Predicate {
		case quad.IRI(sgNS + "subject"):
			subject = valueText(q.Object)
		case quad.IRI(sgNS + "code"):
			code = valueText(q.Object)
		}
	}
	if page := entityPage(snap, subject); page != "" {
		return page
	}
	return "#/findings?code=" + url.QueryEscape(code)
}

func valueText(v quad.Value) string {
	switch x := v.(type) {
	case quad.IRI:
		return string(x)
	case quad.String:
		return string(x)
	case quad.TypedString:
		return string(x.Value)
	}
	return ""
}

// entityPage is the view of the skill, Tool or process with that IRI.
func entityPage(snap *queries.Snapshot, iri string) string {
	if iri == "" {
		return ""
	}
	for _, sk := range snap.Skills {
		if sk.IRI == iri {
			return "#/skill/" + url.PathEscape(sk.Label())
		}
	}
	for _, t := range snap.Tools {
		if t.IRI == iri {
			return "#/tool/" + url.PathEscape(t.ID)
		}
	}
	for _, p := range snap.Processes {
		if p.IRI == iri {
			return "#/process/" + url.PathEscape(p.ID)
		}
	}
	return ""
}

// sourcePage is the view of the first skill, Tool or process of a file.
func sourcePage(snap *queries.Snapshot, path string) string {
	for _, sk := range snap.Skills {
		if sk.Source != nil && sk.Source.Path == path {
			return entityPage(snap, sk.IRI)
		}
	}
	for _, t := range snap.Tools {
		if t.Source != nil && t.Source.Path == path {
			return entityPage(snap, t.IRI)
		}
	}
	for _, p := range snap.Processes {
		if p.Source != nil && p.Source.Path == path {
			return entityPage(snap, p.IRI)
		}
	}
	return ""
}
