package queries

import (
	"encoding/json"
	"sort"
	"strings"
)

// index turns the raw subjects into typed entities.
func index(raws []*raw) *Snapshot {
	s := newSnapshot()
	// Pass 1: instances and sources.
	for _, r := range raws {
		switch {
		case r.is("Instance"):
			in := decode(r, &Instance{IRI: r.iri})
			if _, dup := s.instByDoc[in.IRI]; !dup {
				s.Instances = append(s.Instances, in)
				s.instByDoc[in.IRI] = in
				s.instByName[in.Name] = in
			}
		case r.is("SourceFile"):
			src := decode(r, &Source{IRI: r.iri})
			s.Sources = append(s.Sources, src)
			s.sourceByIRI[src.IRI] = src
		}
	}
	for _, r := range raws {
		if r.is("SourceFile") {
			src := s.sourceByIRI[r.iri]
			doc := r.iri1(term("instance"))
			in := s.instByDoc[doc]
			if in == nil {
				// An instance without a declaration node: name from the IRI.
				name := strings.TrimPrefix(doc, "urn:skillgraph:")
				in = &Instance{IRI: doc, Name: name}
				s.Instances = append(s.Instances, in)
				s.instByDoc[doc] = in
				s.instByName[name] = in
			}
			src.Instance = in
			if src.Parser == "declaration" && src.Path != "." {
				in.File = src.Path
			}
		}
	}
	srcOf := func(r *raw) *Source { return s.sourceByIRI[r.graph] }
	instOf := func(r *raw) *Instance {
		if src := srcOf(r); src != nil {
			return src.Instance
		}
		return s.instByDoc[docOf(r.iri)]
	}
	ports := map[string]*Port{}
	for _, r := range raws {
		if r.is("Port") {
			ports[r.iri] = decode(r, &Port{IRI: r.iri})
		}
	}
	props := map[string]*raw{}
	for _, r := range raws {
		if r.is("ContractProperty") {
			props[r.iri] = r
		}
	}
	acts := map[string][]*Activity{}
	for _, r := range raws {
		if !r.is("Activity") {
			continue
		}
		a := decode(r, &Activity{IRI: r.iri})
		owner := r.iri1(term("partOf"))
		acts[owner+"|"+r.graph] = append(acts[owner+"|"+r.graph], a)
		s.actByIRI[a.IRI] = a
	}
	lanes := map[string]string{}
	for _, r := range raws {
		if r.is("Lane") {
			lanes[r.iri] = r.str(term("laneName"))
		}
	}
	for _, r := range raws {
		switch {
		case r.is("Skill"):
			sk := decode(r, &Skill{IRI: r.iri, Instance: instOf(r), Source: srcOf(r)})
			s.Skills = append(s.Skills, sk)
		case r.is("Tool"):
			t := decode(r, &Tool{IRI: r.iri, Instance: instOf(r), Source: srcOf(r), Annotations: map[string]*bool{}})
			var maint []any
			if r.jsonInto(term("maintains"), &maint) {
				for _, m := range maint {
					b, _ := json.Marshal(m)
					t.MaintainsRaw = append(t.MaintainsRaw, string(b))
				}
				sort.Strings(t.MaintainsRaw)
			}
			for _, k := range []string{"readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint"} {
				if b := r.optBool(term(k)); b != nil {
					t.Annotations[k] = b
				}
			}
			if t.Origin == "mcp" && t.ReadOnly == nil {
				t.ReadOnly = t.Annotations["readOnlyHint"]
			}
			for _, p := range r.iris(term("hasInput")) {
				if pt := ports[p]; pt != nil {
					t.Inputs = append(t.Inputs, pt)
				}
			}
			for _, p := range r.iris(term("hasOutput")) {
				if pt := ports[p]; pt != nil {
					t.Outputs = append(t.Outputs, pt)
				}
			}
			sortPorts(t.Inputs)
			sortPorts(t.Outputs)
			s.Tools = append(s.Tools, t)
		case r.is("Process"):
			p := decode(r, &Process{IRI: r.iri, Instance: instOf(r), Source: srcOf(r)})
			p.Activities = acts[p.IRI+"|"+r.graph]
			sort.Slice(p.Activities, func(i, j int) bool { return p.Activities[i].Position < p.Activities[j].Position })
			for _, a := range p.Activities {
				a.Process = p
				a.Lane = lanes[a.LaneIRI]
			}
			s.Processes = append(s.Processes, p)
		case r.is("Bean"):
			b := decode(r, &Bean{IRI: r.iri, Instance: instOf(r), Source: srcOf(r)})
			s.Beans = append(s.Beans, b)
		case r.is("Contract"):
			c := decode(r, &Contract{IRI: r.iri, Properties: map[string]string{}})
			for _, p := range r.iris(term("hasProperty")) {
				if pr := props[p]; pr != nil {
					c.Properties[pr.str(term("name"))] = pr.str(term("jsonType"))
				}
			}
			s.Contracts[c.IRI] = c
		case r.is("ToolSkill"):
			ts := decode(r, &ToolSkill{IRI: r.iri, Instance: instOf(r), Source: srcOf(r)})
			s.ToolSkills = append(s.ToolSkills, ts)
		case r.is("McpServer"):
			s.Servers = append(s.Servers, decode(r, &Server{IRI: r.iri, Instance: instOf(r), Source: srcOf(r)}))
		case r.is("Finding"):
			f := *decode(r, &Finding{})
			if in := instOf(r); in != nil {
				f.Instance = in.Name
			}
			s.Findings = append(s.Findings, f)
		case r.is("PackageScript"):
			s.Scripts = append(s.Scripts, decode(r, &Script{Instance: instOf(r)}))
		case r.is("TriageDecision"):
			// Applied after skills are indexed, below.
		}
	}
	sort.SliceStable(s.Skills, func(i, j int) bool { return s.Skills[i].ID < s.Skills[j].ID })
	sort.SliceStable(s.Tools, func(i, j int) bool { return s.Tools[i].ID < s.Tools[j].ID })
	sort.SliceStable(s.Processes, func(i, j int) bool { return s.Processes[i].ID < s.Processes[j].ID })
	sort.SliceStable(s.Beans, func(i, j int) bool { return s.Beans[i].ID < s.Beans[j].ID })
	sort.SliceStable(s.ToolSkills, func(i, j int) bool { return s.ToolSkills[i].Key < s.ToolSkills[j].Key })
	sort.SliceStable(s.Servers, func(i, j int) bool { return s.Servers[i].Name < s.Servers[j].Name })
	sort.Slice(s.Instances, func(i, j int) bool { return s.Instances[i].Name < s.Instances[j].Name })
	sort.Slice(s.Sources, func(i, j int) bool { return s.Sources[i].IRI < s.Sources[j].IRI })
	for _, sk := range s.Skills {
		keepFirst(s.skillByIRI, sk.IRI, sk)
		keepFirst(s.skillByID, sk.ID, sk)
		if sk.Instance != nil {
			keepFirst(s.skillByPkg, sk.Instance.IRI+"\x00"+sk.Package+"\x00"+sk.ID, sk)
			keepFirst(s.skillByName, sk.Instance.IRI+"\x00"+sk.ID, sk)
		}
	}
	s.indexTools()
	perID := map[string]int{}
	for _, p := range s.Processes {
		perID[p.ID]++
	}
	for _, p := range s.Processes {
		keepFirst(s.procByIRI, p.IRI, p)
		keepFirst(s.procByID, p.ID, p)
		if perID[p.ID] > 1 {
			p.dupOf = fileOf(p.Source)
		}
		if p.Instance != nil && p.Stem != "" {
			keepFirst(s.procByStem, p.Instance.IRI+"\x00"+p.Stem, p)
		}
	}
	for _, b := range s.Beans {
		keepFirst(s.beanByIRI, b.IRI, b)
		keepFirst(s.beanByID, b.ID, b)
	}
	for _, r := range raws {
		if r.is("TriageDecision") {
			// Resolved like a reference, so a decision recorded before
			// skill IRIs carried the package still finds its skill.
			of := r.iri1(term("triageOf"))
			if sk := s.resolveSkill(s.instByDoc[docOf(of)], of); sk != nil {
				t := decode(r, &Triage{})
				if sk.Triage == nil || t.RecordedAt >= sk.Triage.RecordedAt {
					sk.Triage = t
				}
			}
		}
	}
	s.duplicates(raws)
	s.ambiguousNames()
	return s
}

// keepFirst maps k to v unless k is mapped already: of two nodes sharing an
// id (a duplicate finding), the first in sorted order answers lookups.
func keepFirst[T any](m map[string]T, k string, v T) {
	if _, ok := m[k]; !ok {
		m[k] = v
	}
}

// indexTools (re)builds the Tool lookups from s.Tools.
func (s *Snapshot) indexTools() {
	s.toolByIRI, s.toolByID = map[string]*Tool{}, map[string]*Tool{}
	for _, t := range s.Tools {
		keepFirst(s.toolByIRI, t.IRI, t)
		keepFirst(s.toolByID, t.ID, t)
	}
}

func sortPorts(ps []*Port) {
	sort.Slice(ps, func(i, j int) bool { return ps[i].Position < ps[j].Position })
}
