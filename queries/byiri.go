package queries

// Entities by IRI, for the API's global ids (a Relay id names one node:
// two skills of one id in two packages are two nodes, issue 25.1).

// SkillByIRI is the skill of that IRI (the first of a duplicated IRI), or
// nil.
func (s *Snapshot) SkillByIRI(iri string) *Skill { return at(s.skillSlab, s.lk.by[kSkill].byIRI, iri) }

// ToolByIRI is the Tool of that IRI, or nil.
func (s *Snapshot) ToolByIRI(iri string) *Tool { return at(s.toolSlab, s.lk.by[kTool].byIRI, iri) }

// ProcessByIRI is the process of that IRI, or nil.
func (s *Snapshot) ProcessByIRI(iri string) *Process {
	return at(s.procSlab, s.lk.by[kProcess].byIRI, iri)
}

// BeanByIRI is the bean of that IRI, or nil.
func (s *Snapshot) BeanByIRI(iri string) *Bean { return at(s.beanSlab, s.lk.by[kBean].byIRI, iri) }
