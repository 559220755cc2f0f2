package jsonld

// TriageIRI is the IRI of the triage decision about a skill: one per
// skill, so the next decision replaces it.
func TriageIRI(skillIRI string) string { return skillIRI + "/triage" }

// TriageDocument is the JSON-LD document of a maintainer's triage decision
// about a skill, recorded in graph: like every node, the decision names
// its graph as its source, which is how the store finds a graph's quads
// without a label index. An empty note is left out.
func TriageDocument(skillIRI, graph, verdict, note, recordedAt string) map[string]any {
	n := node{"id": TriageIRI(skillIRI), "type": "TriageDecision", "triageOf": skillIRI, "source": graph,
		"verdict": verdict, "recordedAt": recordedAt}
	n.set("note", note)
	return map[string]any{"@context": ContextURL, "@graph": []any{map[string]any(n)}}
}
