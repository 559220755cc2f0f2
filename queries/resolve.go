package queries

import (
	"strings"

	"github.com/skillgraph/skillgraph/jsonld"
)

// scope lists the instances a reference from in may resolve to: itself
// first, then the instances it needs, in order.
func (s *Snapshot) scope(in *Instance) []*Instance {
	if in == nil {
		return nil
	}
	out := []*Instance{in}
	for _, n := range in.Needs {
		if o := s.instByName[n]; o != nil && o != in {
			out = append(out, o)
		}
	}
	return out
}

// resolveSkill resolves a skill IRI minted in the referrer's own instance.
func (s *Snapshot) resolveSkill(in *Instance, iri string) *Skill {
	if sk := at(s.skillSlab, s.lk.skillByIRI, iri); sk != nil {
		return sk
	}
	id := localKey(iri)
	for _, o := range s.scope(in) {
		if c, ok := mintOther(iri, o.IRI, "skill", id); ok {
			if sk := at(s.skillSlab, s.lk.skillByIRI, c); sk != nil {
				return sk
			}
		}
		if i := strings.LastIndexByte(id, '/'); i >= 0 {
			if sk := at(s.skillSlab, s.lk.skillByPkg, [3]string{o.IRI, id[:i], id[i+1:]}); sk != nil {
				return sk
			}
		} else if sk := at(s.skillSlab, s.lk.skillByName, [2]string{o.IRI, id}); sk != nil {
			// A bare name: skill IRIs carry the package.
			return sk
		}
	}
	return nil
}

// resolveTool resolves a Tool IRI minted in the referrer's own instance.
func (s *Snapshot) resolveTool(in *Instance, iri string) *Tool {
	return resolveMinted(s, in, s.toolSlab, s.lk.toolByIRI, "tool", iri)
}

// resolveMinted looks an IRI up as minted, then its id as minted in each
// instance of the referrer's scope (its own first, then what it needs).
func resolveMinted[T any](s *Snapshot, in *Instance, slab []T, byIRI map[string]int32, kind, iri string) *T {
	if v := at(slab, byIRI, iri); v != nil {
		return v
	}
	id := localKey(iri)
	for _, o := range s.scope(in) {
		if c, ok := mintOther(iri, o.IRI, kind, id); ok {
			if v := at(slab, byIRI, c); v != nil {
				return v
			}
		}
	}
	return nil
}

// resolveProcess resolves by process/@id, then by file stem.
func (s *Snapshot) resolveProcess(in *Instance, iri string) *Process {
	if p := at(s.procSlab, s.lk.procByIRI, iri); p != nil {
		return p
	}
	id := localKey(iri)
	for _, o := range s.scope(in) {
		if c, ok := mintOther(iri, o.IRI, "process", id); ok {
			if p := at(s.procSlab, s.lk.procByIRI, c); p != nil {
				return p
			}
		}
		if p := at(s.procSlab, s.lk.procByStem, [2]string{o.IRI, id}); p != nil {
			return p
		}
	}
	return nil
}

// resolveBean resolves a bean IRI minted in the referrer's own instance.
func (s *Snapshot) resolveBean(in *Instance, iri string) *Bean {
	return resolveMinted(s, in, s.beanSlab, s.lk.beanByIRI, "bean", iri)
}

// resolveSkillID resolves a bare (or package/name) skill id named by an
// instance, as its own references are.
func (s *Snapshot) resolveSkillID(in *Instance, id string) *Skill {
	if in == nil {
		return nil
	}
	return s.resolveSkill(in, jsonld.Mint(in.IRI, "skill", id))
}

func (s *Snapshot) resolveToolID(in *Instance, id string) *Tool {
	if in == nil {
		return nil
	}
	return s.resolveTool(in, jsonld.Mint(in.IRI, "tool", id))
}

// mintOther is jsonld.Mint(doc, kind, id), and false when that is iri
// itself, already looked up and not found: a reference minted in the
// referrer's own instance (most are) is not minted again and hashed a
// second time.
func mintOther(iri, doc, kind, id string) (string, bool) {
	if rest, ok := strings.CutPrefix(iri, doc); ok && len(rest) > len(kind)+1 && rest[0] == '#' &&
		rest[1:1+len(kind)] == kind && rest[1+len(kind)] == '/' && rest[2+len(kind):] == jsonld.Escape(id) {
		return "", false
	}
	return jsonld.Mint(doc, kind, id), true
}
