package queries

import (
	"encoding/json"
	"sort"
	"strings"

	"github.com/skillgraph/skillgraph/ingest/record"
)

// index turns the raw subjects into typed entities.
func index(raws []*raw) *Snapshot {
	s := newSnapshot()
	// Pass 1: instances and sources.
	for _, r := range raws {
		switch {
		case r.is("Instance"):
			in := &Instance{IRI: r.iri, Name: r.str(sg + "name"), Title: r.str(dcTitle), Version: r.str(sg + "version"),
				Description: r.str(dcDesc), Needs: r.strs(sg + "needs")}
			r.jsonInto(sg+"entrypoints", &in.Entrypoints)
			r.jsonInto(sg+"refLines", &in.Refs)
			r.jsonInto(sg+"exempt", &in.Exempt)
			r.jsonInto(sg+"profiles", &in.Profiles)
			if _, dup := s.instByDoc[in.IRI]; !dup {
				s.Instances = append(s.Instances, in)
				s.instByDoc[in.IRI] = in
				s.instByName[in.Name] = in
			}
		case r.is("SourceFile"):
			src := &Source{IRI: r.iri, Path: r.str(sg + "path"), Parser: r.str(sg + "parser"), SHA256: r.str(sg + "sha256")}
			s.Sources = append(s.Sources, src)
			s.sourceByIRI[src.IRI] = src
		}
	}
	for _, r := range raws {
		if r.is("SourceFile") {
			src := s.sourceByIRI[r.iri]
			doc := r.iri1(sg + "instance")
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
			ports[r.iri] = &Port{IRI: r.iri, Name: r.str(sg + "name"), TypeIRI: r.iri1(sg + "portType"),
				JSONType: r.str(sg + "jsonType"), Required: r.boolean(sg + "required"), Repeated: r.boolean(sg + "repeated"),
				Arg: r.str(sg + "arg"), Description: r.str(dcDesc), Render: r.str(sg + "render"), Position: r.int(posIRI)}
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
		a := &Activity{IRI: r.iri, ID: r.str(sg + "key"), Element: r.str(sg + "element"), Title: r.str(dcTitle),
			Line: r.int(sg + "line"), Position: r.int(posIRI), SkillIRI: r.iris(sg + "namesSkill"),
			SkillRefs: r.strs(sg + "skillRef"), ImplicitRefs: r.strs(sg + "implicitSkillRef"), CallsIRI: r.iri1(sg + "calls"), CalledElement: r.str(sg + "calledElement"),
			Dynamic: r.boolean(sg + "callDynamic"), LaneIRI: r.iri1(sg + "inLane"), NoSkillReason: r.str(sg + "noSkillReason"),
			BeanRefs: r.strs(sg + "beanRef"), NextIRI: r.iris(sg + "next")}
		r.jsonInto(sg+"refLines", &a.Refs)
		owner := r.iri1(sg + "partOf")
		acts[owner+"|"+r.graph] = append(acts[owner+"|"+r.graph], a)
		s.actByIRI[a.IRI] = a
	}
	lanes := map[string]string{}
	for _, r := range raws {
		if r.is("Lane") {
			lanes[r.iri] = r.str(sg + "laneName")
		}
	}
	for _, r := range raws {
		switch {
		case r.is("Skill"):
			sk := &Skill{IRI: r.iri, ID: r.str(sg + "key"), Instance: instOf(r), Source: srcOf(r), Flavour: r.str(sg + "flavour"),
				Name: r.str(sg + "name"), Title: r.str(dcTitle), Description: r.str(dcDesc), Package: r.str(sg + "packageName"),
				Line: r.int(sg + "line"), InputRef: r.str(sg + "inputRef"), InputLine: r.int(sg + "inputLine"),
				InputIRI: r.iri1(sg + "inputContract"), OutputRef: r.str(sg + "outputRef"), OutputLine: r.int(sg + "outputLine"),
				OutputIRI: r.iri1(sg + "outputContract"), BodyLines: r.int(sg + "bodyLines"), ShellBlocks: r.ints(sg + "shellBlock"),
				AllowedTools: r.strs(sg + "allowedTool"), License: r.str(sg + "license")}
			s.Skills = append(s.Skills, sk)
		case r.is("Tool"):
			t := &Tool{IRI: r.iri, ID: r.str(sg + "key"), Instance: instOf(r), Source: srcOf(r), Origin: r.str(sg + "origin"),
				Title: r.str(dcTitle), Description: r.str(dcDesc), Line: r.int(sg + "line"), SatisfiesIRI: r.iris(sg + "satisfies"),
				InstallJSON: r.str(sg + "install"), Container: r.str(sg + "invokeContainer"), McpServer: r.str(sg + "invokeMcpServer"),
				McpTool: r.str(sg + "invokeMcpTool"), InProcess: r.str(sg + "invokeInProcess"), Manual: r.boolean(sg + "invokeManual"),
				When: r.str(sg + "selectionWhen"), Limits: r.str(sg + "selectionLimits"), Cost: r.str(sg + "selectionCost"),
				Network: r.optBool(sg + "requiresNetwork"), OS: r.strs(sg + "requiresOS"), Runtime: r.strs(sg + "requiresRuntime"),
				RemediesJSON: r.str(sg + "remedies"), RemedyIRI: r.iris(sg + "remedyTool"), Renders: r.strs(sg + "renders"),
				SubprocIRI: r.iris(sg + "subprocess"), ReadOnly: r.optBool(sg + "readOnly"), Server: r.str(sg + "server"),
				McpName: r.str(sg + "mcpName"), ExtraJSON: r.str(sg + "extra"), Annotations: map[string]*bool{}}
			r.jsonInto(sg+"refLines", &t.Refs)
			r.jsonInto(sg+"invokeShell", &t.Shell)
			var maint []any
			if r.jsonInto(sg+"maintains", &maint) {
				for _, m := range maint {
					b, _ := json.Marshal(m)
					t.MaintainsRaw = append(t.MaintainsRaw, string(b))
				}
				sort.Strings(t.MaintainsRaw)
			}
			for _, k := range []string{"readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint"} {
				if b := r.optBool(sg + k); b != nil {
					t.Annotations[k] = b
				}
			}
			if t.Origin == "mcp" && t.ReadOnly == nil {
				t.ReadOnly = t.Annotations["readOnlyHint"]
			}
			for _, p := range r.iris(sg + "hasInput") {
				if pt := ports[p]; pt != nil {
					t.Inputs = append(t.Inputs, pt)
				}
			}
			for _, p := range r.iris(sg + "hasOutput") {
				if pt := ports[p]; pt != nil {
					t.Outputs = append(t.Outputs, pt)
				}
			}
			sortPorts(t.Inputs)
			sortPorts(t.Outputs)
			s.Tools = append(s.Tools, t)
		case r.is("Process"):
			p := &Process{IRI: r.iri, ID: r.str(sg + "key"), Stem: r.str(sg + "stem"), Title: r.str(dcTitle),
				Instance: instOf(r), Source: srcOf(r), Line: r.int(sg + "line")}
			p.Activities = acts[p.IRI+"|"+r.graph]
			sort.Slice(p.Activities, func(i, j int) bool { return p.Activities[i].Position < p.Activities[j].Position })
			for _, a := range p.Activities {
				a.Process = p
				a.Lane = lanes[a.LaneIRI]
			}
			s.Processes = append(s.Processes, p)
		case r.is("Bean"):
			b := &Bean{IRI: r.iri, ID: r.str(sg + "key"), Instance: instOf(r), Source: srcOf(r), Title: r.str(dcTitle),
				Status: r.str(sg + "status"), Type: r.str(sg + "beanType"), Priority: r.str(sg + "priority"),
				Tags: r.strs(sg + "tag"), CreatedAt: r.str(sg + "createdAt"), UpdatedAt: r.str(sg + "updatedAt"),
				ParentIRI: r.iri1(sg + "parent"), ParentRef: r.str(sg + "parentRef"), BlockingIRI: r.iris(sg + "blocking"),
				BlockingRefs: r.strs(sg + "blockingRef"), Mentions: r.strs(sg + "mentionRef"), Line: r.int(sg + "line"),
				BlockedByIRI: r.iris(sg + "blockedBy")}
			r.jsonInto(sg+"refLines", &b.Refs)
			s.Beans = append(s.Beans, b)
		case r.is("Contract"):
			c := &Contract{IRI: r.iri, Path: r.str(sg + "path"), Required: r.strs(sg + "requiredName"), Properties: map[string]string{}}
			for _, p := range r.iris(sg + "hasProperty") {
				if pr := props[p]; pr != nil {
					c.Properties[pr.str(sg+"name")] = pr.str(sg + "jsonType")
				}
			}
			s.Contracts[c.IRI] = c
		case r.is("ToolSkill"):
			ts := &ToolSkill{IRI: r.iri, Key: r.str(sg + "key"), Instance: instOf(r), Source: srcOf(r), Title: r.str(dcTitle),
				Summary: r.str(sg + "summary"), Phases: r.strs(sg + "phase"), Required: r.boolean(sg + "toolSkillRequired"),
				BodyBytes: r.int(sg + "bodyBytes"), Line: r.int(sg + "line")}
			r.jsonInto(sg+"trigger", &ts.Trigger)
			s.ToolSkills = append(s.ToolSkills, ts)
		case r.is("McpServer"):
			s.Servers = append(s.Servers, &Server{IRI: r.iri, Name: r.str(sg + "name"), Instance: instOf(r), Source: srcOf(r),
				Tools: r.strs(sg + "mcpName"), Line: r.int(sg + "line")})
		case r.is("Finding"):
			f := Finding{Code: r.str(sg + "code"), Severity: record.Severity(r.str(sg + "severity")), Message: r.str(sg + "message"),
				File: r.str(sg + "file"), Line: r.int(sg + "line"), Subject: r.str(sg + "subject")}
			if in := instOf(r); in != nil {
				f.Instance = in.Name
			}
			s.Findings = append(s.Findings, f)
		case r.is("PackageScript"):
			s.Scripts = append(s.Scripts, &Script{Key: r.str(sg + "key"), Command: r.str(sg + "command"), Instance: instOf(r)})
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
	for _, p := range s.Processes {
		keepFirst(s.procByIRI, p.IRI, p)
		keepFirst(s.procByID, p.ID, p)
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
			of := r.iri1(sg + "triageOf")
			if sk := s.resolveSkill(s.instByDoc[docOf(of)], of); sk != nil {
				t := &Triage{Verdict: r.str(sg + "verdict"), Note: r.str(sg + "note"), RecordedAt: r.str(sg + "recordedAt")}
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
