package queries

import (
	"fmt"
	"sort"
	"strings"

	"github.com/skillgraph/skillgraph/ingest/record"
)

// Coverage is the tier report (SPEC §5.1).
type Coverage struct {
	Total        int
	Covered      []*Skill
	Contradicted []*Skill
	Uncovered    []*Skill
	Tiers        []Tier // always A, B, C, D
	BothHalves   []*Skill
	Exempt       []*Skill
}

// Tier is one coverage tier and its skills.
type Tier struct {
	Tier   string
	Skills []*Skill
}

// Tiers in report order.
var tierNames = []string{"A", "B", "C", "D"}

// triageOrder is the order the uncovered tiers are worked in (SPEC §6.3:
// tier C first, it needs a human read; then A, B, D, as docs/decisions.md
// records).
var triageOrder = []string{"C", "A", "B", "D"}

// TriageOrder returns the tiers in triage order; the API, the CLI and the
// page list the queue in it.
func TriageOrder() []string { return append([]string(nil), triageOrder...) }

// TriageRank is a tier's place in triage order (0 for C); a skill without a
// tier (covered) comes after every tier.
func TriageRank(tier string) int {
	for i, t := range triageOrder {
		if t == tier {
			return i
		}
	}
	return len(triageOrder)
}

// contractState is the outcome of checking one satisfies edge.
type contractState int

const (
	contractNotChecked contractState = iota
	contractExternal
	contractPassed
	contractContradicted
)

func (s *Snapshot) coverage(out *findings) {
	// Unreadable contracts, once per skill and direction.
	for _, sk := range s.Skills {
		for _, c := range []struct {
			ref, iri string
			line     int
			dir      string
		}{
			{sk.InputRef, sk.InputIRI, sk.InputLine, "input"}, {sk.OutputRef, sk.OutputIRI, sk.OutputLine, "output"}} {
			if c.ref == "" || record.ContractExternal(c.ref) {
				continue
			}
			if s.Contracts[c.iri] == nil {
				out.add(s.finding(record.CodeContractUnreadable, sk.Source, c.line, sk.IRI,
					"skill %s declares %s contract %q, which is missing or not valid JSON", sk.ID, c.dir, c.ref))
			}
		}
	}
	for _, t := range s.Tools {
		for i, sk := range t.Satisfies {
			if s.checkContract(t, sk, t.satisfiesLine(i), out) == contractContradicted {
				sk.Contradicted = append(sk.Contradicted, t)
				continue
			}
			sk.Tools = append(sk.Tools, t)
			t.ValidFor = append(t.ValidFor, sk)
		}
	}
	s.markSwallowed()
	c := Coverage{Tiers: make([]Tier, len(tierNames))}
	for i, n := range tierNames {
		c.Tiers[i].Tier = n
	}
	for _, sk := range s.Skills {
		c.Total++
		sk.Covered = len(sk.Tools) > 0
		sk.IsContradict = !sk.Covered && len(sk.Contradicted) > 0
		switch {
		case sk.Covered:
			c.Covered = append(c.Covered, sk)
			continue
		case sk.IsContradict:
			c.Contradicted = append(c.Contradicted, sk)
		}
		c.Uncovered = append(c.Uncovered, sk)
		sk.Tier, sk.Evidence = tierOf(sk, s.scriptsFor(sk))
		for i := range c.Tiers {
			if c.Tiers[i].Tier == sk.Tier {
				c.Tiers[i].Skills = append(c.Tiers[i].Skills, sk)
			}
		}
		if sk.BothHalves() {
			c.BothHalves = append(c.BothHalves, sk)
		}
	}
	// Exemptions: they stand only for uncovered tier-A skills.
	for _, in := range s.Instances {
		for _, e := range in.Exempt {
			sk := s.resolveSkillID(in, e.Skill)
			src := s.sourceByPath(in, in.File)
			switch amb := s.ambiguousID(in, e.Skill); {
			case amb != nil:
				out.add(s.finding(record.CodeSkillRefAmbiguous, src, e.Line, "",
					"coverage.exempt names %s", ambiguousRef(e.Skill, amb)))
			case sk == nil:
				out.add(s.finding(record.CodeExemptionStale, src, e.Line, "",
					"coverage.exempt names %q, which is no skill", e.Skill))
			case sk.Covered:
				out.add(s.finding(record.CodeExemptionStale, src, e.Line, sk.IRI,
					"coverage.exempt lists %s (%s), but it is covered by %s", sk.Label(), e.State, toolIDs(sk.Tools)))
			case sk.Tier != "A":
				out.add(s.finding(record.CodeExemptionStale, src, e.Line, sk.IRI,
					"coverage.exempt lists %s (%s), but it is in tier %s, not A", sk.Label(), e.State, sk.Tier))
			default:
				if !sk.Exempt {
					sk.Exempt = true
					c.Exempt = append(c.Exempt, sk)
				}
			}
		}
	}
	sort.Slice(c.Exempt, func(i, j int) bool { return c.Exempt[i].ID < c.Exempt[j].ID })
	s.Coverage = c
}

func toolIDs(ts []*Tool) string {
	var ids []string
	for _, t := range ts {
		ids = append(ids, t.ID)
	}
	return strings.Join(ids, ", ")
}

func (s *Snapshot) sourceByPath(in *Instance, path string) *Source {
	for _, src := range s.Sources {
		if src.Instance == in && src.Path == path {
			return src
		}
	}
	if in != nil {
		for _, src := range s.Sources {
			if src.Instance == in && src.Path == "." {
				return src
			}
		}
	}
	return nil
}

// HasPersonStep reports whether a person-performed step names the skill.
func HasPersonStep(sk *Skill) bool { return hasStep(sk, "person") }

func hasStep(sk *Skill, class string) bool {
	for _, a := range sk.Steps {
		if a.Automation() == class {
			return true
		}
	}
	return false
}

// tierOf returns the tier of an uncovered skill and all its evidence.
func tierOf(sk *Skill, scripts []*Script) (string, []string) {
	var ev []string
	auto, person, shell := false, false, false
	for _, sc := range scripts {
		ev = append(ev, "script:"+sc.Key)
		shell = true
	}
	for _, a := range sk.Steps {
		switch a.Automation() {
		case "automated":
			auto = true
		case "person":
			person = true
		default:
			continue
		}
		ev = append(ev, a.Element+":"+a.Process.ID+"/"+a.ID)
	}
	if sk.HasContract() {
		ev = append(ev, "io-contract")
		auto = true
	}
	for _, l := range sk.ShellBlocks {
		ev = append(ev, fmt.Sprintf("shell-block:%d", l))
		shell = true
	}
	// A command its prose invokes without a Tool is a shell invocation
	// written inline: the same evidence as a shell block (issue 23.8).
	for _, sw := range sk.Swallowed {
		ev = append(ev, fmt.Sprintf("prose-command:%d", sw.Line))
		shell = true
	}
	sort.Strings(ev)
	if ev == nil {
		ev = []string{}
	}
	switch {
	case auto:
		return "A", ev
	case person:
		return "B", ev
	case shell:
		return "C", ev
	}
	return "D", ev
}

// scriptsFor lists the package scripts that are evidence for a skill: a key
// whose `:`-separated parts include the skill name, or a command running
// `/<skill>.ts`.
func (s *Snapshot) scriptsFor(sk *Skill) []*Script {
	var out []*Script
	for _, sc := range s.Scripts {
		if sc.Instance != sk.Instance {
			continue
		}
		match := strings.Contains(sc.Command, "/"+sk.ID+".ts")
		for _, part := range strings.Split(sc.Key, ":") {
			match = match || part == sk.ID
		}
		if match {
			out = append(out, sc)
		}
	}
	return out
}

// checkContract checks T satisfies S against S's input contract (SPEC §5.2)
// and records the findings.
//
// line is the satisfies entry's line: a missing property is reported
// there, a mistyped one on its port's line.
func (s *Snapshot) checkContract(t *Tool, sk *Skill, line int, out *findings) contractState {
	if sk.InputRef == "" {
		return contractNotChecked
	}
	if record.ContractExternal(sk.InputRef) {
		out.add(s.finding(record.CodeContractExternal, t.Source, t.Line, t.IRI,
			"tool %s satisfies %s, whose input contract %s is external: not fetched, not checked", t.ID, sk.ID, sk.InputRef))
		return contractExternal
	}
	c := s.Contracts[sk.InputIRI]
	if c == nil {
		return contractContradicted // contract-unreadable is reported once, on the skill
	}
	inputs := map[string]*Port{}
	var names []string
	for _, p := range t.Inputs {
		inputs[p.Name] = p
		names = append(names, p.Name)
	}
	state := contractPassed
	var missing []string
	for _, r := range c.Required {
		if inputs[r] == nil {
			missing = append(missing, r)
		}
	}
	if len(missing) > 0 {
		state = contractContradicted
		out.add(s.finding(record.CodeContractRequiredMissing, t.Source, line, t.IRI,
			"tool %s cannot perform %s: the contract %s requires [%s] but the tool accepts [%s] (missing: %s)",
			t.ID, sk.ID, c.Path, strings.Join(c.Required, ", "), strings.Join(names, ", "), strings.Join(missing, ", ")))
	}
	props := make([]string, 0, len(c.Properties))
	for k := range c.Properties {
		props = append(props, k)
	}
	sort.Strings(props)
	for _, name := range props {
		want := c.Properties[name]
		p := inputs[name]
		if p == nil {
			for _, in := range t.Inputs {
				if _, exact := c.Properties[in.Name]; !exact && nearMiss(in.Name, name) {
					out.add(s.finding(record.CodeContractNameNearMiss, t.Source, t.Line, t.IRI,
						"tool %s input %q looks like contract %s property %q: same name after case and separator folding, or one a suffix of the other",
						t.ID, in.Name, c.Path, name))
				}
			}
			continue
		}
		got := p.JSONType
		if p.Repeated && got != "" {
			got = "array" // a repeated port passes a list
		}
		if want == "" || got == "" || typeAgrees(want, got) {
			continue
		}
		state = contractContradicted
		out.add(s.finding(record.CodeContractTypeMismatch, t.Source, portLine(p, line), t.IRI,
			"tool %s input %q is %s but contract %s property %q is %s", t.ID, name, got, c.Path, name, strings.ReplaceAll(want, "|", " or ")))
	}
	return state
}

// typeAgrees reports whether a port of JSON type got serves a contract
// property of type want: one of the types want allows (several are joined
// by "|": anyOf/oneOf, issue 23.6), an integer port serving a number.
func typeAgrees(want, got string) bool {
	for _, w := range strings.Split(want, "|") {
		if w == got || (w == "number" && got == "integer") {
			return true
		}
	}
	return false
}

// nearMiss reports names equal after case and separator folding, or one a
// suffix of the other (at least three characters).
func nearMiss(a, b string) bool {
	fa, fb := fold(a), fold(b)
	if a == b || fa == "" || fb == "" {
		return false
	}
	if fa == fb {
		return true
	}
	short, long := fa, fb
	if len(short) > len(long) {
		short, long = long, short
	}
	return len(short) >= 3 && strings.HasSuffix(long, short)
}

func fold(s string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(s) {
		if r == '-' || r == '_' || r == ' ' || r == '.' {
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

// satisfiesLine is the line of the i-th satisfies entry, or the Tool's.
func (t *Tool) satisfiesLine(i int) int {
	if i < len(t.satisfiesLines) && t.satisfiesLines[i] > 0 {
		return t.satisfiesLines[i]
	}
	return t.Line
}

// portLine is the line of a port, or fallback when it was not recorded.
func portLine(p *Port, fallback int) int {
	if p.Line > 0 {
		return p.Line
	}
	return fallback
}
