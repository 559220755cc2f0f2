package queries

import (
	"slices"
	"strings"

	"github.com/skillgraph/skillgraph/ingest/record"
)

// resolve links every stored reference to its entity, once, and reports
// each one that names nothing (SPEC §2.2, §2.4) at the reference's line.
// A reference is written as the id it names: ids are escaped reversibly
// when minted (jsonld.Escape), so localKey gives the reference as written.
//
// Tools (with their MCP exposures) and process steps then beans are
// resolved on two goroutines: each writes its own entities' fields, and
// the findings are joined in this order.
func (s *Snapshot) resolve(out *findings) {
	var steps findings
	done := make(chan struct{})
	go func() {
		defer close(done)
		s.resolveSteps(&steps)
		s.resolveBeans(&steps)
	}()
	s.resolveTools(out)
	s.linkExposures()
	<-done
	s.linkMentions()
	*out = append(*out, steps...)
}

// resolveTools links each Tool's satisfies, subprocesses and remedies.
func (s *Snapshot) resolveTools(out *findings) {
	for _, t := range s.Tools {
		for _, iri := range t.SatisfiesIRI {
			if sk, amb := s.resolveSkillRef(t.Instance, iri, s.packageOf(t.Source)); sk != nil {
				t.Satisfies = append(t.Satisfies, sk)
				t.satisfiesLines = append(t.satisfiesLines, refLine(t.Refs, "satisfies", localKey(iri), t.Line))
			} else if amb != nil {
				out.add(s.finding(record.CodeSkillRefAmbiguous, t.Source, refLine(t.Refs, "satisfies", localKey(iri), t.Line), t.IRI,
					"tool %s satisfies %s", t.ID, ambiguousRef(localKey(iri), amb)))
			} else {
				out.add(s.finding(record.CodeSatisfiesUnknownSkill, t.Source, refLine(t.Refs, "satisfies", localKey(iri), t.Line), t.IRI,
					"tool %s satisfies %q, which is no skill", t.ID, localKey(iri)))
			}
		}
		for _, iri := range t.SubprocIRI {
			switch p := s.resolveProcess(t.Instance, iri); {
			case p == nil:
				out.add(s.finding(record.CodeSubprocessUnknownProcess, t.Source, refLine(t.Refs, "subprocesses", localKey(iri), t.Line), t.IRI,
					"tool %s names subprocess %q, which is no process", t.ID, localKey(iri)))
			case !slices.Contains(t.Subprocesses, p):
				// A process named by its stem and by its id is one subprocess.
				t.Subprocesses = append(t.Subprocesses, p)
			}
		}
		for _, iri := range t.RemedyIRI {
			if s.resolveTool(t.Instance, iri) == nil {
				out.add(s.finding(record.CodeRemedyUnknownTool, t.Source, refLine(t.Refs, "remedies.tool", localKey(iri), t.Line), t.IRI,
					"tool %s names remedy tool %q, which is no tool", t.ID, localKey(iri)))
			}
		}
	}
}

// resolveSteps links each process step to the skills it names and the
// process it calls, and each skill to its steps.
func (s *Snapshot) resolveSteps(out *findings) {
	for _, p := range s.Processes {
		for _, a := range p.Activities {
			r := s.stepTargets(p, a)
			a.named = make([]*Skill, len(a.SkillIRI))
			for i, k := range r.named {
				if k >= 0 {
					sk := &s.skillSlab[k]
					a.named[i] = sk
					a.Skills = append(a.Skills, sk)
					sk.Steps = append(sk.Steps, a)
				} else if iri := a.SkillIRI[i]; s.ambiguous(p.Instance, iri) != nil {
					out.add(s.finding(record.CodeSkillRefAmbiguous, p.Source, refLine(a.Refs, "skill", localKey(iri), a.Line), a.IRI,
						"step %s of %s names skill %s", a.ID, p.ID, ambiguousRef(localKey(iri), s.ambiguous(p.Instance, iri))))
				} else {
					out.add(s.finding(record.CodeSkillRefUnknown, p.Source, refLine(a.Refs, "skill", localKey(iri), a.Line), a.IRI,
						"step %s of %s names skill %q, which is no skill", a.ID, p.ID, localKey(iri)))
				}
			}
			for _, k := range r.implicit {
				sk := &s.skillSlab[k]
				a.Skills = append(a.Skills, sk)
				sk.Steps = append(sk.Steps, a)
			}
			if a.CallsIRI != "" {
				if r.calls >= 0 {
					a.Calls = &s.procSlab[r.calls]
				} else {
					out.add(s.finding(record.CodeCallUnknownProcess, p.Source, refLine(a.Refs, "calledElement", a.CalledElement, a.Line), a.IRI,
						"call activity %s of %s calls %q, which is no process", a.ID, p.ID, a.CalledElement))
				}
			}
		}
	}
}

// stepTargets are what one step's references resolve to, as places in the
// slabs (-1: nothing). They depend on the step's node and the lookups
// only (the instances are part of the lookups' shape), so the lookups keep
// those of their own snapshot and a snapshot sharing them resolves only
// the steps of the graphs that changed (issue #14).
type stepTargets struct {
	node     *node   // the activity node they were resolved for
	named    []int32 // per SkillIRI
	implicit []int32 // the implicit refs that resolved, when no named one did
	calls    int32   // the process CallsIRI names
}

// stepTargets resolves a step of p: kept by the lookups when they are this
// snapshot's own, taken from them when the step's node is the one they
// were resolved for.
func (s *Snapshot) stepTargets(p *Process, a *Activity) stepTargets {
	lk, n := s.lk, s.shape[s.lk.actNode[a.slab]]
	if !s.ownLookups {
		if r := lk.steps[a.slab]; r.node == n {
			return r
		}
	}
	r := stepTargets{node: n, named: make([]int32, len(a.SkillIRI)), calls: -1}
	named := false
	for i, iri := range a.SkillIRI {
		r.named[i] = -1
		if sk := s.resolveSkill(p.Instance, iri); sk != nil {
			r.named[i], named = sk.slab, true
		}
	}
	// A Camunda task type or topic names a skill only when one of that id
	// exists.
	if !named {
		for _, ref := range a.ImplicitRefs {
			if sk := s.resolveSkillID(p.Instance, ref); sk != nil {
				r.implicit = append(r.implicit, sk.slab)
			}
		}
	}
	if a.CallsIRI != "" {
		if c := s.resolveProcess(p.Instance, a.CallsIRI); c != nil {
			r.calls = c.slab
		}
	}
	if s.ownLookups {
		lk.steps[a.slab] = r // each step once: its own slot, so no lock
	}
	return r
}

// resolveBeans links each bean to its parent and the beans it blocks.
func (s *Snapshot) resolveBeans(out *findings) {
	for _, b := range s.Beans {
		if b.ParentIRI != "" {
			// A bean naming itself is bean-self-link (the parser's), not
			// also a dangling parent.
			if b.Parent = s.resolveBean(b.Instance, b.ParentIRI); b.Parent == nil && b.ParentRef != b.ID {
				out.add(s.finding(record.CodeBeanParentUnknown, b.Source, refLine(b.Refs, "parent", b.ParentRef, b.Line), b.IRI,
					"bean %s names parent %q, which is no bean", b.ID, b.ParentRef))
			}
		}
		for _, iri := range b.BlockingIRI {
			if o := s.resolveBean(b.Instance, iri); o != nil {
				b.Blocking = append(b.Blocking, o)
			} else {
				out.add(s.finding(record.CodeBeanBlockingUnknown, b.Source, refLine(b.Refs, "blocking", localKey(iri), b.Line), b.IRI,
					"bean %s is blocking %q, which is no bean", b.ID, localKey(iri)))
			}
		}
		// blocked_by is the same relation written from the other end: a
		// name that is no bean dangles just the same.
		for _, iri := range b.BlockedByIRI {
			if s.resolveBean(b.Instance, iri) == nil {
				out.add(s.finding(record.CodeBeanBlockingUnknown, b.Source, refLine(b.Refs, "blocked_by", localKey(iri), b.Line), b.IRI,
					"bean %s is blocked by %q, which is no bean", b.ID, localKey(iri)))
			}
		}
	}
}

// linkExposures: an authored Tool whose invoke.mcp names a listed MCP tool
// is the same mechanism as the MCP-derived Tool.
func (s *Snapshot) linkExposures() {
	mcpTools := map[string][]*Tool{}
	for _, t := range s.Tools {
		if t.Origin == "mcp" {
			mcpTools[t.McpName] = append(mcpTools[t.McpName], t)
		}
	}
	for _, t := range s.Tools {
		if t.Origin == "mcp" || t.McpTool == "" {
			continue
		}
		for _, m := range mcpTools[t.McpTool] {
			if t.McpServer == "" || t.McpServer == m.Server {
				t.ExposedBy = append(t.ExposedBy, m)
			}
		}
	}
}

// refLine is the line a reference is written on (SPEC §4: a finding about
// a reference carries the line of the reference itself), or the line of
// the node that makes it when the parser could not say.
func refLine(r record.RefLines, field, ref string, node int) int {
	if l := r.Line(field, ref); l > 0 {
		return l
	}
	return node
}

// checkEntrypoints reports each declared entry point that names nothing
// (SPEC §4 entrypoint-unknown, §5.3 roots): a typo there silently removes a
// root, so everything it alone reaches would look unreachable.
func (s *Snapshot) checkEntrypoints(out *findings) {
	if s.Profile != "" {
		return // a profile hides Tools on purpose; the full graph reports
	}
	for _, in := range s.Instances {
		var decl *Source
		for _, src := range s.Sources {
			if src.Instance == in && src.Parser == "declaration" {
				decl = src
				break
			}
		}
		ep := in.Entrypoints
		report := func(field, ref, format string, args ...any) {
			out.add(s.finding(record.CodeEntrypointUnknown, decl, refLine(in.Refs, field, ref, 1), in.IRI, format, args...))
		}
		for _, id := range ep.Processes {
			if s.processIn(in, id) == nil {
				report("entrypoints.processes", id, "entry point process %q names no process (by file stem or process/@id)", id)
			}
		}
		for _, id := range ep.Tools {
			if s.resolveToolID(in, id) == nil {
				report("entrypoints.tools", id, "entry point tool %q names no Tool", id)
			}
		}
		for _, tr := range ep.Triggers {
			switch {
			case tr.Skill != "" && s.ambiguousID(in, tr.Skill) != nil:
				out.add(s.finding(record.CodeSkillRefAmbiguous, decl, refLine(in.Refs, "entrypoints.triggers.skill", tr.Skill, 1), in.IRI,
					"trigger %q names skill %s", tr.ID, ambiguousRef(tr.Skill, s.ambiguousID(in, tr.Skill))))
			case tr.Skill != "" && s.resolveSkillID(in, tr.Skill) == nil:
				report("entrypoints.triggers.skill", tr.Skill, "trigger %q names skill %q, which is no skill", tr.ID, tr.Skill)
			case tr.Tool != "" && s.resolveToolID(in, tr.Tool) == nil:
				report("entrypoints.triggers.tool", tr.Tool, "trigger %q names Tool %q, which is no Tool", tr.ID, tr.Tool)
			}
		}
	}
}

// checkInstanceNames reports two instances of one name under different
// iriBases (issue #16.7): `needs`, the API and the CLI name an instance by
// its name, so one of the two would be shadowed without a word.
func (s *Snapshot) checkInstanceNames(out *findings) {
	if s.Profile != "" {
		return
	}
	byName := map[string][]*Instance{}
	for _, in := range s.Instances {
		byName[in.Name] = append(byName[in.Name], in)
	}
	for _, in := range s.Instances {
		same := byName[in.Name]
		if len(same) < 2 || same[0] == in {
			continue
		}
		var iris []string
		for _, o := range same {
			iris = append(iris, o.IRI)
		}
		src := s.sourceByPath(in, in.File)
		if src == nil {
			src = s.sourceByPath(in, ".")
		}
		out.add(s.finding(record.CodeInstanceNameDuplicate, src, 1, in.IRI,
			"instance name %q is used by %s; the name answers for %s only", in.Name, strings.Join(iris, " and "), s.instByName[in.Name].IRI))
	}
}
