package queries

import (
	"fmt"
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

// resolveSkill resolves a skill IRI minted in the referrer's own instance;
// an ambiguous bare name resolves to nothing (resolveSkillRef says why).
func (s *Snapshot) resolveSkill(in *Instance, iri string) *Skill {
	sk, _ := s.resolveSkillRef(in, iri, "")
	return sk
}

// resolveSkillRef resolves a skill IRI minted in the referrer's own
// instance, from a referrer in package pkg ("" for none). A bare name that
// two packages of the first instance of the scope holding it define is
// ambiguous (docs/decisions.md, issue 23.1): it resolves to the skill of
// the referrer's own package when there is one, else to nothing, and amb
// lists the skills it could mean (in IRI order) so the caller reports it
// at the reference's line. Which skill a reference lands on never depends
// on how IRIs sort.
func (s *Snapshot) resolveSkillRef(in *Instance, iri, pkg string) (sk *Skill, amb []*Skill) {
	id := localKey(iri)
	bare := !strings.Contains(id, "/")
	if sk := at(s.skillSlab, s.lk.by[kSkill].byIRI, iri); sk != nil {
		if !bare || sk.Instance == nil || s.lk.skillAmbig[[2]string{sk.Instance.IRI, id}] == nil {
			return sk, nil
		}
	}
	for _, o := range s.scope(in) {
		if bare {
			if places := s.lk.skillAmbig[[2]string{o.IRI, id}]; places != nil {
				if pkg != "" {
					if sk := at(s.skillSlab, s.lk.skillByPkg, [3]string{o.IRI, pkg, id}); sk != nil {
						return sk, nil
					}
				}
				for _, k := range places {
					amb = append(amb, &s.skillSlab[k])
				}
				return nil, amb
			}
		}
		if c, ok := mintOther(iri, o.IRI, "skill", id); ok {
			if sk := at(s.skillSlab, s.lk.by[kSkill].byIRI, c); sk != nil {
				return sk, nil
			}
		}
		if i := strings.LastIndexByte(id, '/'); i >= 0 {
			if sk := at(s.skillSlab, s.lk.skillByPkg, [3]string{o.IRI, id[:i], id[i+1:]}); sk != nil {
				return sk, nil
			}
		} else if sk := at(s.skillSlab, s.lk.skillByName, [2]string{o.IRI, id}); sk != nil {
			// A bare name: skill IRIs carry the package.
			return sk, nil
		}
	}
	return nil, nil
}

// ambiguous is the skills a skill IRI could mean when it is an ambiguous
// bare name with no package to settle it, else nil.
func (s *Snapshot) ambiguous(in *Instance, iri string) []*Skill {
	_, amb := s.resolveSkillRef(in, iri, "")
	return amb
}

// ambiguousID is ambiguous for an id named by an instance.
func (s *Snapshot) ambiguousID(in *Instance, id string) []*Skill {
	if in == nil {
		return nil
	}
	return s.ambiguous(in, jsonld.Mint(in.IRI, "skill", id))
}

// ambiguousRef is the message tail of a bare skill reference that names
// two or more skills: the package/name of each, to write instead.
func ambiguousRef(ref string, amb []*Skill) string {
	var names []string
	for _, sk := range amb {
		names = append(names, sk.Label())
	}
	return fmt.Sprintf("%q, which is ambiguous: it names %s; write package/name", ref, strings.Join(names, " and "))
}

// packageOf is the package of the skills a source file defines ("" for
// none): a reference written in a skill's file (a hard skill's Tool) is
// in that skill's package.
func (s *Snapshot) packageOf(src *Source) string {
	if src == nil || s.lk.skillAmbig == nil {
		return "" // only an ambiguous name asks
	}
	s.srcPkgOnce.Do(func() {
		s.srcPkg = map[*Source]string{}
		for _, sk := range s.Skills {
			if sk.Package != "" && sk.Source != nil {
				s.srcPkg[sk.Source] = sk.Package
			}
		}
	})
	return s.srcPkg[src]
}

// resolveTool resolves a Tool IRI minted in the referrer's own instance.
func (s *Snapshot) resolveTool(in *Instance, iri string) *Tool {
	return resolveMinted(s, in, s.toolSlab, s.lk.by[kTool].byIRI, "tool", iri)
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
	if p := at(s.procSlab, s.lk.by[kProcess].byIRI, iri); p != nil {
		return p
	}
	id := localKey(iri)
	for _, o := range s.scope(in) {
		if c, ok := mintOther(iri, o.IRI, "process", id); ok {
			if p := at(s.procSlab, s.lk.by[kProcess].byIRI, c); p != nil {
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
	return resolveMinted(s, in, s.beanSlab, s.lk.by[kBean].byIRI, "bean", iri)
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
