package queries

import (
	"encoding/json"
	"sort"
	"strings"
)

// node is one subject of one source graph, decoded: everything index needs
// of its quads, before anything is linked across graphs. Nodes are
// immutable once decoded, so the snapshot of a later version shares the
// nodes of every graph that did not change and Update decodes only the
// changed graphs (issue #14); each snapshot links its own copies of the
// entities, because the analyses write their results into them while the
// previous snapshot is still being read.
type node struct {
	iri, graph string
	flags      nodeFlags
	line       int // sg:line, for duplicate findings

	inst     *Instance // an instance declaration (template)
	src      *Source   // a source file (template)
	srcDoc   string    // the instance IRI a source file names
	port     *Port     // shared by every snapshot: never changed after decoding
	prop     contractProp
	act      *Activity // a BPMN flow node (template)
	actOwner string    // the process it is part of
	lane     string    // a lane's name
	main     any       // the entity of the node's first class in index order (see decodeNode)
}

// nodeFlags are the classes of a node that index reads.
type nodeFlags uint16

const (
	fInstance nodeFlags = 1 << iota
	fSource
	fPort
	fProp
	fActivity
	fLane
	fDupCandidate // typed, and neither Package, SourceFile nor Instance
	fTool
	fProcess
)

// count is 1 when f is set, else 0.
func (f nodeFlags) count(bit nodeFlags) int {
	if f&bit != 0 {
		return 1
	}
	return 0
}

// contractProp is a ContractProperty's name and JSON type.
type contractProp struct{ name, jsonType string }

// toolNode is a decoded Tool and the IRIs of its ports, which may be
// stated by another graph (they are resolved when linking).
type toolNode struct {
	tool          Tool
	inputs, outpt []string
}

// contractNode is a decoded Contract and the IRIs of its properties.
type contractNode struct {
	contract Contract
	props    []string
}

// triageNode is a decoded TriageDecision and the skill IRI it is about.
type triageNode struct {
	of string
	t  *Triage
}

// decodeNodes decodes raws (sorted by subject, then graph) into nodes in the
// same order.
func decodeNodes(raws []*raw) []*node {
	out := make([]*node, len(raws))
	backing := make([]node, len(raws))
	for i, r := range raws {
		decodeNode(r, &backing[i])
		out[i] = &backing[i]
	}
	return out
}

// decodeNode fills n from r: the reads index made of each raw, per pass.
func decodeNode(r *raw, n *node) {
	n.iri, n.graph = r.iri, r.graph
	if r.is("Instance") {
		n.flags |= fInstance
		n.inst = decode(r, &Instance{IRI: r.iri})
	}
	if r.is("SourceFile") {
		n.flags |= fSource
		n.src = decode(r, &Source{IRI: r.iri})
		n.srcDoc = r.iri1(term("instance"))
	}
	if r.is("Port") {
		n.flags |= fPort
		n.port = decode(r, &Port{IRI: r.iri})
	}
	if r.is("ContractProperty") {
		n.flags |= fProp
		n.prop = contractProp{r.str(term("name")), r.str(term("jsonType"))}
	}
	if r.is("Activity") {
		n.flags |= fActivity
		n.act = decode(r, &Activity{IRI: r.iri})
		n.actOwner = r.iri1(term("partOf"))
		// The skill refs as written, made once per node rather than per
		// snapshot's workflows.
		for _, iri := range n.act.SkillIRI {
			n.act.skillNames = append(n.act.skillNames, localKey(iri))
		}
	}
	if r.is("Lane") {
		n.flags |= fLane
		n.lane = r.str(term("laneName"))
	}
	if len(r.types) > 0 && !r.is("Package") && !r.is("SourceFile") && !r.is("Instance") {
		n.flags |= fDupCandidate
		n.line = r.int(term("line"))
		if r.is("Tool") {
			n.flags |= fTool
		}
		if r.is("Process") {
			n.flags |= fProcess
		}
	}
	switch {
	case r.is("Skill"):
		n.main = decode(r, &Skill{IRI: r.iri})
	case r.is("Tool"):
		t := &toolNode{tool: Tool{IRI: r.iri, Annotations: map[string]*bool{}}}
		decode(r, &t.tool)
		var maint []any
		if r.jsonInto(term("maintains"), &maint) {
			for _, m := range maint {
				b, _ := json.Marshal(m)
				t.tool.MaintainsRaw = append(t.tool.MaintainsRaw, string(b))
			}
			sort.Strings(t.tool.MaintainsRaw)
		}
		for _, k := range []string{"readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint"} {
			if b := r.optBool(term(k)); b != nil {
				t.tool.Annotations[k] = b
			}
		}
		if t.tool.Origin == "mcp" && t.tool.ReadOnly == nil {
			t.tool.ReadOnly = t.tool.Annotations["readOnlyHint"]
		}
		t.inputs, t.outpt = r.iris(term("hasInput")), r.iris(term("hasOutput"))
		n.main = t
	case r.is("Process"):
		n.main = decode(r, &Process{IRI: r.iri})
	case r.is("Bean"):
		n.main = decode(r, &Bean{IRI: r.iri})
	case r.is("Contract"):
		c := &contractNode{contract: Contract{IRI: r.iri}}
		decode(r, &c.contract)
		c.props = r.iris(term("hasProperty"))
		n.main = c
	case r.is("ToolSkill"):
		n.main = decode(r, &ToolSkill{IRI: r.iri})
	case r.is("McpServer"):
		n.main = decode(r, &Server{IRI: r.iri})
	case r.is("Finding"):
		n.main = decode(r, &Finding{})
	case r.is("PackageScript"):
		n.main = decode(r, &Script{})
	case r.is("TriageDecision"):
		n.main = &triageNode{of: r.iri1(term("triageOf")), t: decode(r, &Triage{})}
	default:
		n.main = decodeHost(r)
	}
}

// compareNodes is the order of nodes, the raws' order (sortRaws) too:
// subject, then graph.
func compareNodes(a, b *node) int {
	if c := strings.Compare(a.iri, b.iri); c != 0 {
		return c
	}
	return strings.Compare(a.graph, b.graph)
}

// replaceGraphs returns the nodes of the next version: nodes without the
// ones of the changed graphs, with fresh (sorted) merged in. Neither input
// is modified: the previous snapshot keeps its slice.
func replaceGraphs(nodes []*node, changed []string, fresh []*node) []*node {
	out := make([]*node, 0, len(nodes)+len(fresh))
	gone := func(g string) bool {
		for _, c := range changed {
			if c == g {
				return true
			}
		}
		return false
	}
	if len(changed) > 8 {
		set := make(map[string]bool, len(changed))
		for _, c := range changed {
			set[c] = true
		}
		gone = func(g string) bool { return set[g] }
	}
	for _, n := range nodes {
		if !gone(n.graph) {
			out = append(out, n)
		}
	}
	if len(fresh) == 0 {
		return out
	}
	// Few fresh nodes into many: each is placed by binary search, the kept
	// runs between them are copied once.
	merged := make([]*node, 0, len(out)+len(fresh))
	rest := out
	for _, f := range fresh {
		i := sort.Search(len(rest), func(i int) bool { return compareNodes(rest[i], f) >= 0 })
		merged = append(merged, rest[:i]...)
		merged = append(merged, f)
		rest = rest[i:]
	}
	return append(merged, rest...)
}
