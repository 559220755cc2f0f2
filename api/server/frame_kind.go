package server

import (
	"fmt"
	"maps"
	"net/http"
	"slices"
	"sort"

	"github.com/cayleygraph/quad"

	"github.com/skillgraph/skillgraph/jsonld"
	"github.com/skillgraph/skillgraph/queries"
)

// kindTypes are the node types /export?frame=<kind> without an id frames
// all of (issue 23.7: framed trees per kind, SPEC §6.2).
var kindTypes = map[string]string{"skill": "Skill", "tool": "Tool", "process": "Process", "bean": "Bean",
	"contract": "Contract", "server": "McpServer", "toolskill": "ToolSkill"}

// kindIRIs lists the IRIs of every node of kind in the served snapshot,
// sorted.
func (h *handlers) kindIRIs(kind string) []string {
	snap := h.svc.Snapshot()
	if snap == nil {
		return nil
	}
	var out []string
	switch kind {
	case "skill":
		out = irisOf(snap.Skills, func(x *queries.Skill) string { return x.IRI })
	case "tool":
		out = irisOf(snap.Tools, func(x *queries.Tool) string { return x.IRI })
	case "process":
		out = irisOf(snap.Processes, func(x *queries.Process) string { return x.IRI })
	case "bean":
		out = irisOf(snap.Beans, func(x *queries.Bean) string { return x.IRI })
	case "contract":
		out = slices.Collect(maps.Keys(snap.Contracts))
	case "server":
		out = irisOf(snap.Servers, func(x *queries.Server) string { return x.IRI })
	case "toolskill":
		out = irisOf(snap.ToolSkills, func(x *queries.ToolSkill) string { return x.IRI })
	}
	sort.Strings(out)
	return out
}

// frameKind answers /export?frame=<kind> without an id: every node of the
// kind framed as a tree, under @graph. It holds each node's quads and their
// expansion in memory, so it shares the whole-graph JSON-LD export's bounds
// (MaxJSONLDQuads, at most MaxJSONLDExports at once).
func (h *handlers) frameKind(hdr http.Header, r *http.Request, kind string) reply {
	typ, ok := kindTypes[kind]
	if !ok {
		return textReply(http.StatusBadRequest, fmt.Sprintf("frame=%s needs &id=<id>; without an id frame one of skill, tool, process, bean, contract, server, toolskill\n", kind))
	}
	release, rep, ok := h.beginJSONLD(hdr, r, "frame kind", "frame-"+kind)
	if !ok {
		return rep
	}
	defer release()
	limit := h.cfg.MaxJSONLDQuads
	var all []quad.Quad
	for _, iri := range h.kindIRIs(kind) {
		qs, err := entityQuads(r.Context(), h.svc.store, iri)
		if err != nil {
			h.log.Error("frame kind: read", "iri", iri, "err", err)
			return textReply(http.StatusInternalServerError, "frame failed\n")
		}
		all = append(all, qs...)
		if limit > 0 && len(all) > limit {
			return textReply(http.StatusRequestEntityTooLarge, fmt.Sprintf("every %s framed is more than %d quads; ask for one with &id=<id>, or use Accept: application/n-quads\n", kind, limit))
		}
	}
	jsonld.SortQuads(all)
	exp, err := jsonld.FromQuads(all)
	if err == nil {
		var out map[string]any
		if out, err = jsonld.FrameType(exp, typ); err == nil {
			return jsonReply(http.StatusOK, typeJSONLD, out)
		}
	}
	h.log.Error("frame kind failed", "kind", kind, "err", err)
	return textReply(http.StatusInternalServerError, "frame failed\n")
}

// irisOf is the IRI of each of xs.
func irisOf[T any](xs []T, iri func(T) string) []string {
	out := make([]string, len(xs))
	for i, x := range xs {
		out[i] = iri(x)
	}
	return out
}
