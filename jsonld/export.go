package jsonld

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/cayleygraph/quad"
	"github.com/piprate/json-gold/ld"
)

// FromQuads turns quads (with full datatype IRIs) back into expanded
// JSON-LD; named graphs become @graph objects.
func FromQuads(qs []quad.Quad) (any, error) {
	var b strings.Builder
	for _, q := range qs {
		b.WriteString(q.NQuad())
		b.WriteByte('\n')
	}
	opts := Options()
	opts.Format = "application/n-quads"
	opts.UseNativeTypes = false
	out, err := ld.NewJsonLdProcessor().FromRDF(b.String(), opts)
	if err != nil {
		return nil, fmt.Errorf("rdf to json-ld: %w", err)
	}
	return out, nil
}

// contextDoc is the context object for compaction, parsed once per call.
func contextDoc() (map[string]any, error) {
	var m map[string]any
	if err := json.Unmarshal(Context(), &m); err != nil {
		return nil, fmt.Errorf("embedded context: %w", err)
	}
	return m, nil
}

// Compact compacts expanded JSON-LD with the skillgraph context, which it
// embeds: the context's IRI resolves nowhere on the web, so a standard
// processor (jsonld.js, rdflib, pyld with default settings) failed on an
// export that named it (issue 25.2). Embedded, the export is read with no
// document loader at all, offline.
func Compact(expanded any) (map[string]any, error) {
	ctx, err := contextDoc()
	if err != nil {
		return nil, err
	}
	out, err := ld.NewJsonLdProcessor().Compact(expanded, ctx, Options())
	if err != nil {
		return nil, fmt.Errorf("compact: %w", err)
	}
	out["@context"] = ctx["@context"]
	return out, nil
}

// Frame returns the node iri as a tree (owned nodes embedded), compacted
// with the skillgraph context. Graph labels are merged away: a frame is a
// view of one entity, not of its provenance.
func Frame(expanded any, iri string) (map[string]any, error) {
	ctx, err := contextDoc()
	if err != nil {
		return nil, err
	}
	frame := map[string]any{"@context": ctx["@context"], "@id": iri}
	opts := Options()
	opts.Embed = ld.EmbedAlways
	opts.OmitGraph = true
	out, err := ld.NewJsonLdProcessor().Frame(expanded, frame, opts)
	if err != nil {
		return nil, fmt.Errorf("frame %s: %w", iri, err)
	}
	out["@context"] = ctx["@context"] // embedded, as Compact's
	return out, nil
}

// FrameType frames every node of a type (a term of the context: "Skill",
// "Tool") in expanded, each as a tree as Frame makes one, under @graph
// (SPEC §6.2: framed trees per kind).
func FrameType(expanded any, typ string) (map[string]any, error) {
	ctx, err := contextDoc()
	if err != nil {
		return nil, err
	}
	frame := map[string]any{"@context": ctx["@context"], "@type": typ}
	opts := Options()
	opts.Embed = ld.EmbedAlways
	out, err := ld.NewJsonLdProcessor().Frame(expanded, frame, opts)
	if err != nil {
		return nil, fmt.Errorf("frame every %s: %w", typ, err)
	}
	out["@context"] = ctx["@context"]
	if _, ok := out["@graph"]; !ok {
		// One match or none: keep the shape a consumer reads the same.
		g := []any{}
		node := map[string]any{}
		for k, v := range out {
			if k != "@context" {
				node[k] = v
			}
		}
		if len(node) > 0 {
			g = append(g, node)
		}
		out = map[string]any{"@context": ctx["@context"], "@graph": g}
	}
	return out, nil
}
