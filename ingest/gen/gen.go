// Package gen writes synthetic harness corpora for benchmarks and load tests
// (SPEC §8). A corpus is written in the real file formats the ingest parsers
// read — an instance declaration, harness skills in packages (with Agent
// Skills and hard skills mixed in), JSON Schema contracts, Tool files in JSON
// and YAML, BPMN processes and beans — and is fully determined by its
// Options: the same options always produce the same bytes.
//
// The shape scales with Options.Skills: about 0.3 Tools, 0.1 processes and
// 0.5 beans per skill, with a realistic share of alternatives (with and
// without selection), contradicted contracts, call chains including one
// call cycle, and uncovered skills in every tier.
package gen

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	yaml "go.yaml.in/yaml/v3"
)

// Options choose the size and the random seed of a corpus.
type Options struct {
	// Skills is the number of skills (hard skills included, tool skills not).
	// It must be at least 1; every other count is derived from it.
	Skills int
	// Seed selects the corpus: the same seed and size give the same bytes.
	Seed int64
}

// Instance is the instance name every generated corpus declares.
const Instance = "synth"

// Stats describe what Write produced.
type Stats struct {
	Files     int   // files written
	Bytes     int64 // bytes written
	Skills    int   // skills of every flavour
	Packages  int   // skill packages
	Contracts int   // JSON Schema contract files
	// Tools counts authored Tools (files under tools/); hard-skill fences
	// are counted in HardTools.
	Tools     int
	HardTools int
	// AlternativeGroups counts groups of Tools with the same skill and the
	// same signature; MissingSelection the Tools of those groups that carry
	// no selection.
	AlternativeGroups int
	MissingSelection  int
	// Contradicted counts satisfies edges written to contradict the skill's
	// input contract.
	Contradicted int
	Processes    int
	Activities   int
	Beans        int
	// McpServers counts MCP tools/list snapshots, McpTools the tools they
	// list and ToolSkills the tool skills (guidance keyed by a trigger).
	McpServers int
	McpTools   int
	ToolSkills int
}

// Write generates a corpus into dir, which must be absent or empty.
func Write(dir string, o Options) (Stats, error) {
	if o.Skills < 1 {
		return Stats{}, fmt.Errorf("gen: Skills must be at least 1, got %d", o.Skills)
	}
	if entries, err := os.ReadDir(dir); err == nil && len(entries) > 0 {
		return Stats{}, fmt.Errorf("gen: %s is not empty", dir)
	} else if err != nil && !errors.Is(err, os.ErrNotExist) {
		return Stats{}, fmt.Errorf("gen: %w", err)
	}
	g := &generator{
		rng:  rand.New(rand.NewPCG(uint64(o.Seed), 0x736b696c6c677261)),
		root: dir,
		dirs: map[string]bool{},
		opt:  o,
	}
	g.plan()
	if err := g.write(); err != nil {
		return g.stats, err
	}
	return g.stats, nil
}

// prop is one property of an input contract.
type prop struct {
	name     string
	t        *portType
	required bool
}

// skillPlan is one skill to write.
type skillPlan struct {
	name, pkg, flavour string
	input              []prop // nil: no input contract
	output             bool
	shell, allowed     bool
	hasTool            bool
}

// portPlan is one Tool port.
type portPlan struct {
	name     string
	t        *portType
	required bool
	repeated bool
	arg      string // flag, positional, stdin ("" for outputs)
	pos      int
}

// toolPlan is one authored Tool.
type toolPlan struct {
	id, title, desc string
	skills          []int
	inputs, outputs []portPlan
	selection       bool
	yaml            bool
	invoke          string // shell, argv, container, inProcess, manual
	program         string
	mcp             int // index+1 of the MCP server that exposes it; 0: none
	network         bool
	remedyTool      string
	subprocess      string
}

// stepPlan is one BPMN activity.
type stepPlan struct {
	id, element, name string
	skills            []string
	noSkill           string
	calls             string // calledElement
	lane              int    // -1: none
	doc               string
}

// procPlan is one BPMN file holding one process.
type procPlan struct {
	stem, id, name string
	steps          []stepPlan
	lanes          int
}

// serverPlan is one MCP server snapshot.
type serverPlan struct {
	name  string
	tools []mcpToolPlan
}

// mcpToolPlan is one tool of a tools/list result.
type mcpToolPlan struct {
	name, desc string
	params     []prop
	readOnly   int // 0 not stated, 1 false, 2 true
}

// beanPlan is one work item.
type beanPlan struct {
	id, slug, title, typ, status, priority string
	parent                                 int // -1: none
	blocking                               []int
	tags                                   []string
	mentions                               []string
	created                                int // days after the epoch below
}

type generator struct {
	rng   *rand.Rand
	root  string
	opt   Options
	dirs  map[string]bool
	stats Stats
	buf   bytes.Buffer

	skills []skillPlan
	tools  []toolPlan
	procs  []procPlan
	beans  []beanPlan
	srvs   []serverPlan
	// triggers and entry tools of the declaration
	entryProcs []string
	entryTools []string
	trigSkill  string
	trigTool   string
	exempt     []string
}

func (g *generator) chance(p float64) bool { return g.rng.Float64() < p }

func (g *generator) pick(xs []string) string { return xs[g.rng.IntN(len(xs))] }

func shuffled(rng *rand.Rand, xs []string) []string {
	out := append([]string(nil), xs...)
	rng.Shuffle(len(out), func(i, j int) { out[i], out[j] = out[j], out[i] })
	return out
}

// plan decides the whole corpus before anything is written.
func (g *generator) plan() {
	g.planSkills()
	g.planProcessNames()
	g.planServers()
	g.planTools()
	g.planProcesses()
	g.planBeans()
	g.planDeclaration()
}

func (g *generator) planSkills() {
	n := g.opt.Skills
	vs, ns, qs := shuffled(g.rng, verbs), shuffled(g.rng, nouns), shuffled(g.rng, qualifiers)
	combos := len(vs) * len(ns)
	pkgs := shuffled(g.rng, packageNames)
	pkgIdx, left := 0, 0
	pkg := ""
	g.skills = make([]skillPlan, n)
	for i := range n {
		k, round := i%combos, i/combos
		name := vs[k%len(vs)] + "-" + ns[(k/len(vs))%len(ns)]
		if round > 0 {
			q := qs[(round-1)%len(qs)]
			if r := (round - 1) / len(qs); r > 0 {
				q += strconv.Itoa(r + 1)
			}
			name += "-" + q
		}
		if left == 0 {
			pkg = pkgs[pkgIdx%len(pkgs)]
			if r := pkgIdx / len(pkgs); r > 0 {
				pkg += strconv.Itoa(r + 1)
			}
			pkgIdx++
			left = 10 + g.rng.IntN(31)
		}
		left--
		s := skillPlan{name: name, pkg: pkg, flavour: "harness"}
		switch r := g.rng.Float64(); {
		case r < 0.02 && n >= 20:
			s.flavour = "hard"
		case r < 0.05:
			s.flavour = "agent"
		}
		if s.flavour == "harness" {
			if g.chance(0.18) {
				s.input = g.contractProps()
			}
			s.output = g.chance(0.05)
		}
		s.shell = s.flavour != "hard" && g.chance(0.25)
		s.allowed = s.flavour != "hard" && g.chance(0.2)
		g.skills[i] = s
	}
	g.stats.Packages = pkgIdx
}

// contractProps draws 1–3 contract properties, at most one of them not
// injection-safe (a Tool reads it from stdin).
func (g *generator) contractProps() []prop {
	k := 1 + g.rng.IntN(3)
	var out []prop
	used := map[string]bool{}
	unsafe := false
	for len(out) < k {
		t := &portTypes[g.rng.IntN(len(portTypes))]
		if !t.safe && unsafe {
			continue
		}
		name := t.names[g.rng.IntN(len(t.names))]
		if used[name] {
			continue
		}
		used[name] = true
		unsafe = unsafe || !t.safe
		out = append(out, prop{name: name, t: t, required: g.chance(0.6)})
	}
	return out
}

func (g *generator) planProcessNames() {
	p := max(1, (g.opt.Skills+5)/10)
	ns, vs := shuffled(g.rng, nouns), shuffled(g.rng, verbs)
	g.procs = make([]procPlan, p)
	for i := range p {
		k := i % (len(ns) * len(vs))
		stem := ns[k%len(ns)] + "-" + vs[(k/len(ns))%len(vs)]
		if r := i / (len(ns) * len(vs)); r > 0 {
			stem += "-" + strconv.Itoa(r+1)
		}
		g.procs[i] = procPlan{stem: stem, id: "Process_" + camel(stem), name: sentenceCase(strings.ReplaceAll(stem, "-", " "))}
	}
}

func camel(s string) string {
	var b strings.Builder
	for _, part := range strings.FieldsFunc(s, func(r rune) bool { return r == '-' || r == ' ' }) {
		b.WriteString(strings.ToUpper(part[:1]))
		b.WriteString(part[1:])
	}
	return b.String()
}

func sentenceCase(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

func (g *generator) planTools() {
	want := max(1, (g.opt.Skills*3+5)/10)
	// Skills that can take an authored Tool, in random order.
	var cand []int
	for i, s := range g.skills {
		if s.flavour != "hard" {
			cand = append(cand, i)
		}
	}
	g.rng.Shuffle(len(cand), func(i, j int) { cand[i], cand[j] = cand[j], cand[i] })
	next := 0
	for len(g.tools) < want && len(cand) > 0 {
		si := cand[next%len(cand)]
		next++
		s := &g.skills[si]
		var size int
		alt := false
		switch r := g.rng.Float64(); {
		case r < 0.62:
			size = 1
		case r < 0.84:
			size, alt = 2, true
		case r < 0.88:
			size, alt = 3, true
		default:
			size = 2 // complementary: steps, not choices
		}
		size = min(size, want-len(g.tools))
		if size < 2 {
			alt = false
		}
		mechs := shuffled(g.rng, mechanisms)
		inputs, outputs := g.signature(s)
		withSel := g.chance(0.7)
		if alt {
			g.stats.AlternativeGroups++
		}
		first := len(g.tools)
		for k := range size {
			t := toolPlan{id: s.name + "-" + mechs[k], skills: []int{si}}
			if next > len(cand) {
				t.id += "-" + strconv.Itoa(next/len(cand)+1)
			}
			if alt || k == 0 {
				t.inputs, t.outputs = clonePorts(inputs), clonePorts(outputs)
			} else {
				t.inputs, t.outputs = g.signature(s)
				// Make sure the signature differs from the first Tool's.
				t.outputs = append(t.outputs, portPlan{name: "log", t: typeNamed("Text")})
			}
			switch {
			case alt:
				t.selection = withSel || k < size-1
				if !t.selection {
					g.stats.MissingSelection++
				}
			default:
				t.selection = g.chance(0.2)
			}
			if k == 0 && size == 1 && s.input == nil && g.chance(0.05) {
				// A Tool that performs a second skill too.
				o := cand[g.rng.IntN(len(cand))]
				if o != si && g.skills[o].input == nil {
					t.skills = append(t.skills, o)
					g.skills[o].hasTool = true
				}
			}
			g.decorate(&t, mechs[k])
			if k > 0 && t.network {
				t.remedyTool = g.tools[first].id
			}
			if contradicts(s.input, t.inputs) {
				g.stats.Contradicted++
			}
			g.tools = append(g.tools, t)
		}
		s.hasTool = true
	}
	g.stats.Tools = len(g.tools)
}

func typeNamed(name string) *portType {
	for i := range portTypes {
		if portTypes[i].name == name {
			return &portTypes[i]
		}
	}
	panic("gen: unknown port type " + name)
}

func clonePorts(ps []portPlan) []portPlan { return append([]portPlan(nil), ps...) }

// signature draws the ports of a Tool for skill s: the contract's
// properties first (one in four Tools of a skill with required properties
// contradicts the contract), then random ports up to 3–6 ports in all.
func (g *generator) signature(s *skillPlan) (inputs, outputs []portPlan) {
	used := map[string]bool{}
	stdin := false
	pos := 0
	addIn := func(name string, t *portType, required, contract bool) {
		p := portPlan{name: name, t: t, required: required}
		switch {
		case !t.safe:
			p.arg = "stdin"
			stdin = true
		case g.chance(0.3):
			p.arg, p.pos = "positional", pos
			pos++
		default:
			p.arg = "flag"
			p.repeated = !contract && g.chance(0.08) // a list never serves a scalar contract property
		}
		used[name] = true
		inputs = append(inputs, p)
	}
	if s.input != nil {
		contradict := g.chance(0.25)
		dropped := false
		for _, pr := range s.input {
			if contradict && pr.required && !dropped {
				dropped = true
				if g.chance(0.5) {
					used[pr.name] = true
					continue // required input missing
				}
				// Same name, another JSON type.
				t := pr.t
				for t.json == pr.t.json || !t.safe {
					t = &portTypes[g.rng.IntN(len(portTypes))]
				}
				addIn(pr.name, t, true, true)
				continue
			}
			addIn(pr.name, pr.t, pr.required || g.chance(0.3), true)
		}
	}
	total := 3 + g.rng.IntN(4)
	nOut := 1 + g.rng.IntN(2)
	for len(inputs)+nOut < total || len(inputs) == 0 {
		t := &portTypes[g.rng.IntN(len(portTypes))]
		if !t.safe && stdin {
			continue
		}
		name := t.names[g.rng.IntN(len(t.names))]
		if used[name] {
			continue
		}
		addIn(name, t, g.chance(0.4), false)
	}
	outUsed := map[string]bool{}
	for len(outputs) < nOut {
		t := &portTypes[g.rng.IntN(len(portTypes))]
		name := t.names[g.rng.IntN(len(t.names))]
		if outUsed[name] {
			continue
		}
		outUsed[name] = true
		outputs = append(outputs, portPlan{name: name, t: t})
	}
	return inputs, outputs
}

// contradicts reports whether inputs contradict the contract props.
func contradicts(props []prop, inputs []portPlan) bool {
	for _, pr := range props {
		found := false
		for _, in := range inputs {
			if in.name == pr.name {
				found = true
				if in.t.json != pr.t.json && !(in.t.json == "integer" && pr.t.json == "number") {
					return true
				}
			}
		}
		if pr.required && !found {
			return true
		}
	}
	return false
}

// decorate fills the mechanism fields of a Tool.
func (g *generator) decorate(t *toolPlan, mech string) {
	s := g.skills[t.skills[0]]
	words := strings.ReplaceAll(s.name, "-", " ")
	t.title = sentenceCase(words) + " (" + mech + ")"
	t.desc = sentenceCase(words) + " through the " + mech + ". " + g.pick(sentences)
	t.yaml = g.chance(0.1)
	t.program = g.pick(programs)
	switch r := g.rng.Float64(); {
	case mech == "manual" || r < 0.04:
		t.invoke = "manual"
	case r < 0.58:
		t.invoke = "shell"
	case r < 0.78:
		t.invoke = "argv"
	case r < 0.9:
		t.invoke = "container"
	default:
		t.invoke = "inProcess"
	}
	if (t.invoke == "shell" || t.invoke == "argv") && g.chance(0.08) {
		// Also served by an MCP server, which lists it: the same mechanism.
		k := g.rng.IntN(len(g.srvs))
		t.mcp = k + 1
		g.srvs[k].tools = append(g.srvs[k].tools, mcpToolPlan{name: strings.ReplaceAll(t.id, "-", "_"),
			desc: t.desc, params: propsOf(t.inputs), readOnly: g.rng.IntN(3)})
	}
	t.network = g.chance(0.15)
	if g.chance(0.05) {
		t.subprocess = g.procs[g.rng.IntN(len(g.procs))].stem
	}
}

func (g *generator) planProcesses() {
	elements := []struct {
		name string
		p    float64
	}{{"serviceTask", 0.42}, {"userTask", 0.22}, {"task", 0.1}, {"scriptTask", 0.06}, {"manualTask", 0.05}, {"sendTask", 0.03}, {"callActivity", 0.12}}
	np := len(g.procs)
	for i := range g.procs {
		p := &g.procs[i]
		nSteps := 4 + g.rng.IntN(29)
		if g.chance(0.6) {
			p.lanes = 2
		}
		var calls []string
		// The call cycle: the first three processes call each other in a ring.
		if np >= 3 && i < 3 {
			calls = append(calls, g.procs[(i+1)%3].id)
		}
		for range nSteps {
			r, el := g.rng.Float64(), "serviceTask"
			for _, e := range elements {
				if r < e.p {
					el = e.name
					break
				}
				r -= e.p
			}
			if el == "callActivity" {
				// Calls go forward only (no cycles besides the ring).
				if i+1 >= np {
					el = "serviceTask"
				} else {
					callee := g.procs[i+1+g.rng.IntN(np-i-1)]
					target := callee.id
					if g.chance(0.2) {
						target = callee.stem // a file stem resolves a call too
					}
					calls = append(calls, target)
					continue
				}
			}
			st := stepPlan{element: el, lane: -1}
			switch {
			case g.chance(0.03):
				st.noSkill = "covered by the surrounding checklist"
			default:
				st.skills = []string{g.stepSkill()}
				if g.chance(0.05) {
					st.skills = append(st.skills, g.stepSkill())
				}
			}
			if np >= 50 && i == np/2 && len(p.steps) == 0 {
				st.skills = []string{"retired-skill"} // one dangling reference
			}
			p.steps = append(p.steps, st)
		}
		for _, c := range calls {
			at := g.rng.IntN(len(p.steps) + 1)
			st := stepPlan{element: "callActivity", calls: c, lane: -1}
			p.steps = append(p.steps[:at], append([]stepPlan{st}, p.steps[at:]...)...)
		}
		for k := range p.steps {
			st := &p.steps[k]
			if st.element == "callActivity" {
				st.id = fmt.Sprintf("Call_%d", k+1)
				st.name = "Run " + strings.TrimPrefix(st.calls, "Process_")
			} else {
				st.id = fmt.Sprintf("Task_%d", k+1)
				switch {
				case len(st.skills) > 0:
					st.name = sentenceCase(strings.ReplaceAll(st.skills[0], "-", " "))
				default:
					st.name = "Check the " + g.pick(nouns)
				}
			}
			if p.lanes > 0 {
				switch st.element {
				case "userTask", "manualTask":
					st.lane = 1
				default:
					st.lane = 0
				}
			}
			if g.chance(0.1) {
				st.doc = g.pick(sentences)
			}
			g.stats.Activities++
		}
	}
	g.stats.Processes = np
}

func (g *generator) planBeans() {
	n := g.opt.Skills / 2
	if n == 0 {
		return
	}
	g.beans = make([]beanPlan, n)
	ids := map[string]bool{}
	const alphabet = "0123456789abcdefghijklmnopqrstuvwxyz"
	idLen := 4
	if n > 200000 {
		idLen = 5
	}
	statuses := []string{"todo", "todo", "in-progress", "completed", "completed", "draft", "scrapped"}
	priorities := []string{"normal", "normal", "high", "low", "critical", "deferred"}
	var milestones, epics, features []int
	for i := range g.beans {
		b := &g.beans[i]
		for {
			var sb strings.Builder
			sb.WriteString("syn-")
			for range idLen {
				sb.WriteByte(alphabet[g.rng.IntN(len(alphabet))])
			}
			if id := sb.String(); !ids[id] {
				ids[id] = true
				b.id = id
				break
			}
		}
		b.parent = -1
		switch {
		case i == 0 || g.chance(0.02):
			b.typ = "milestone"
			milestones = append(milestones, i)
		case g.chance(0.1):
			b.typ = "epic"
			b.parent = milestones[g.rng.IntN(len(milestones))]
			epics = append(epics, i)
		case g.chance(0.2) && len(epics) > 0:
			b.typ = "feature"
			b.parent = epics[g.rng.IntN(len(epics))]
			features = append(features, i)
		default:
			b.typ = "task"
			if g.chance(0.25) {
				b.typ = "bug"
			}
			switch {
			case len(features) > 0 && g.chance(0.6):
				b.parent = features[g.rng.IntN(len(features))]
			case len(epics) > 0 && g.chance(0.8):
				b.parent = epics[g.rng.IntN(len(epics))]
			case g.chance(0.5):
				b.parent = milestones[g.rng.IntN(len(milestones))]
			}
		}
		b.status = g.pick(statuses)
		b.priority = g.pick(priorities)
		obj := g.pick(nouns)
		verb := g.pick(verbs)
		b.title = sentenceCase(verb) + " the " + g.pick(adjectives) + " " + obj
		b.slug = strings.ReplaceAll(strings.ToLower(b.title), " ", "-")
		if len(b.slug) > 40 {
			b.slug = strings.TrimRight(b.slug[:40], "-")
		}
		if g.chance(0.6) {
			b.tags = []string{obj}
			if g.chance(0.3) {
				b.tags = append(b.tags, g.pick(packageNames))
			}
		}
		if g.chance(0.6) {
			b.mentions = append(b.mentions, g.skills[g.rng.IntN(len(g.skills))].name)
		}
		if len(g.tools) > 0 && g.chance(0.1) {
			b.mentions = append(b.mentions, g.tools[g.rng.IntN(len(g.tools))].id)
		}
		b.created = i * 3 / 2
	}
	// Blocking goes forward only: no cycles.
	for i := range g.beans {
		if (g.beans[i].typ == "task" || g.beans[i].typ == "bug") && i+1 < n && g.chance(0.15) {
			k := 1 + g.rng.IntN(2)
			for range k {
				j := i + 1 + g.rng.IntN(min(n-i-1, 50))
				if !containsInt(g.beans[i].blocking, j) {
					g.beans[i].blocking = append(g.beans[i].blocking, j)
				}
			}
		}
	}
	g.stats.Beans = n
}

func containsInt(xs []int, x int) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

func (g *generator) planDeclaration() {
	np := len(g.procs)
	g.entryProcs = append(g.entryProcs, g.procs[0].stem)
	for k := 1; k < 5 && k*np/5 < np && k*np/5 > 0; k++ {
		if p := g.procs[k*np/5].stem; p != g.entryProcs[len(g.entryProcs)-1] {
			g.entryProcs = append(g.entryProcs, p)
		}
	}
	for i := 0; i < len(g.tools) && len(g.entryTools) < 3; i += max(1, len(g.tools)/3) {
		g.entryTools = append(g.entryTools, g.tools[i].id)
	}
	for _, s := range g.skills {
		switch {
		case s.hasTool && g.trigSkill == "":
			g.trigSkill = s.name
		case !s.hasTool && s.input != nil && len(g.exempt) < 2:
			g.exempt = append(g.exempt, s.name)
		}
	}
	if g.trigSkill == "" {
		g.trigSkill = g.skills[0].name
	}
	if len(g.tools) > 0 {
		g.trigTool = g.tools[len(g.tools)-1].id
	}
}

// ---- writing ----

func (g *generator) file(rel string, data []byte) error {
	p := filepath.Join(g.root, filepath.FromSlash(rel))
	dir := filepath.Dir(p)
	if !g.dirs[dir] {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return fmt.Errorf("gen: %w", err)
		}
		g.dirs[dir] = true
	}
	if err := os.WriteFile(p, data, 0o644); err != nil {
		return fmt.Errorf("gen: %w", err)
	}
	g.stats.Files++
	g.stats.Bytes += int64(len(data))
	return nil
}

func (g *generator) write() error {
	steps := []func() error{g.writeDeclaration, g.writeSkills, g.writeTools, g.writeServers, g.writeProcesses, g.writeBeans}
	for _, f := range steps {
		if err := f(); err != nil {
			return err
		}
	}
	return nil
}

func (g *generator) writeDeclaration() error {
	type dir struct {
		ID              string   `json:"id"`
		Path            string   `json:"path"`
		GraphTypologies []string `json:"graphTypologies"`
	}
	type trigger struct {
		ID    string `json:"id"`
		Kind  string `json:"kind"`
		Skill string `json:"skill,omitempty"`
		Tool  string `json:"tool,omitempty"`
	}
	type exemption struct {
		Skill  string `json:"skill"`
		State  string `json:"state"`
		Reason string `json:"reason"`
	}
	type decl struct {
		Name         string `json:"name"`
		Title        string `json:"title"`
		Version      string `json:"version"`
		Description  string `json:"description"`
		IRIBase      string `json:"iriBase"`
		CanonicalURL string `json:"canonicalUrl"`
		Directories  []dir  `json:"directories"`
		Entrypoints  struct {
			Processes []string  `json:"processes"`
			Tools     []string  `json:"tools,omitempty"`
			Triggers  []trigger `json:"triggers"`
		} `json:"entrypoints"`
		Coverage struct {
			Exempt []exemption `json:"exempt"`
		} `json:"coverage"`
	}
	d := decl{
		Name: Instance, Title: "Synthetic harness", Version: "1.0.0",
		Description: fmt.Sprintf("Generated by skillgraph gen: %d skills, seed %d.", g.opt.Skills, g.opt.Seed),
		IRIBase:     "https://synth.example/harness/", CanonicalURL: "https://synth.example/harness",
		Directories: []dir{
			{"skills", "skills/", []string{"skills"}},
			{"tools", "tools/", []string{"tools"}},
			{"processes", "processes/", []string{"processes"}},
			{"beans", "beans/", []string{"beans"}},
			{"schemas", "schemas/", []string{"schemas"}},
			{"mcp", "mcp/", []string{"mcp"}},
		},
	}
	d.Entrypoints.Processes = g.entryProcs
	d.Entrypoints.Tools = g.entryTools
	d.Entrypoints.Triggers = []trigger{{ID: "nightly-" + g.trigSkill, Kind: "schedule", Skill: g.trigSkill}}
	if g.trigTool != "" {
		d.Entrypoints.Triggers = append(d.Entrypoints.Triggers, trigger{ID: "watch-" + g.trigTool, Kind: "watcher", Tool: g.trigTool})
	}
	d.Coverage.Exempt = []exemption{}
	for i, s := range g.exempt {
		reason := []string{"done in the editor application", "a person decides; no mechanism is wanted"}[i%2]
		d.Coverage.Exempt = append(d.Coverage.Exempt, exemption{Skill: s, State: "editor-mechanism", Reason: reason})
	}
	b, err := json.MarshalIndent(d, "", "  ")
	if err != nil {
		return err
	}
	if err := g.file("harness.json", append(b, '\n')); err != nil {
		return err
	}
	return g.file(".beans.yml", []byte("beans:\n  path: beans\n  prefix: syn-\n  id_length: 4\n  default_status: todo\n  default_type: task\n"))
}

func (g *generator) writeSkills() error {
	for i := range g.skills {
		s := &g.skills[i]
		b := &g.buf
		b.Reset()
		words := strings.ReplaceAll(s.name, "-", " ")
		desc := yamlScalar(sentenceCase(words) + " for the " + s.pkg + " package. " + g.pick(sentences))
		var rel string
		switch s.flavour {
		case "agent":
			rel = "skills/" + s.pkg + "/" + s.name + "/SKILL.md"
			fmt.Fprintf(b, "---\nname: %s\ndescription: %s\n", s.name, desc)
			if g.chance(0.5) {
				b.WriteString("license: Apache-2.0\n")
			}
		case "hard":
			rel = "skills/" + s.pkg + "/" + s.name + ".md"
			fmt.Fprintf(b, "---\nskill: %s\ndescription: %s\n", s.name, desc)
		default:
			rel = "skills/" + s.pkg + "/" + s.name + ".md"
			fmt.Fprintf(b, "---\nname: %s\ndescription: %s\n", s.name, desc)
			if s.input != nil {
				fmt.Fprintf(b, "input: schemas/skills/%s/input.schema.json\n", s.name)
			}
			if s.output {
				fmt.Fprintf(b, "output: schemas/skills/%s/output.schema.json\n", s.name)
			}
		}
		if s.allowed {
			fmt.Fprintf(b, "allowed-tools: Read Bash(%s:*)\n", g.pick(programs))
		}
		fmt.Fprintf(b, "---\n\n# %s\n\n", sentenceCase(words))
		for range 1 + g.rng.IntN(4) {
			b.WriteString(g.pick(sentences))
			b.WriteByte('\n')
		}
		if s.shell {
			fmt.Fprintf(b, "\nToday this is done by hand:\n\n```sh\n./scripts/%s --all\n```\n", s.name)
		}
		if s.flavour == "hard" {
			script := s.pkg + "/" + strings.ReplaceAll(s.name, "-", "_")
			fmt.Fprintf(b, "\n```tool\nid: run\ndescription: run the %s\nparams:\n", words)
			b.WriteString("  target:\n    type: string\n    description: what to work on\n")
			b.WriteString("  mode:\n    type: string\n    enum: fast, full\n    default: fast\n")
			fmt.Fprintf(b, "run: uv run %s.py --mode $mode $target\n```\n", script)
			g.stats.HardTools++
			if g.chance(0.5) {
				// A second fence with another signature: a step, not a choice.
				fmt.Fprintf(b, "\n```tool\nid: report\ndescription: report on the %s\nparams:\n", words)
				b.WriteString("  format:\n    type: string\n    enum: csv, json\n    default: csv\n")
				fmt.Fprintf(b, "run: uv run %s_report.py --format $format\n```\n", script)
				g.stats.HardTools++
			}
		}
		if err := g.file(rel, b.Bytes()); err != nil {
			return err
		}
		g.stats.Skills++
		if s.input != nil {
			if err := g.writeContract(s.name, "input", s.input); err != nil {
				return err
			}
		}
		if s.output {
			if err := g.writeContract(s.name, "output", []prop{{name: "report", t: typeNamed("Text"), required: true}}); err != nil {
				return err
			}
		}
	}
	return nil
}

func (g *generator) writeContract(skill, which string, props []prop) error {
	b := &g.buf
	b.Reset()
	b.WriteString("{\n  \"$schema\": \"http://json-schema.org/draft-07/schema#\",\n  \"type\": \"object\",\n  \"required\": [")
	n := 0
	for _, p := range props {
		if p.required {
			if n > 0 {
				b.WriteString(", ")
			}
			fmt.Fprintf(b, "%q", p.name)
			n++
		}
	}
	b.WriteString("],\n  \"properties\": {\n")
	for i, p := range props {
		fmt.Fprintf(b, "    %q: {\"type\": %q}", p.name, p.t.json)
		if i < len(props)-1 {
			b.WriteByte(',')
		}
		b.WriteByte('\n')
	}
	b.WriteString("  }\n}\n")
	g.stats.Contracts++
	return g.file("schemas/skills/"+skill+"/"+which+".schema.json", b.Bytes())
}

// Tool file shapes, in the field order authors write them.
type (
	jsonPort struct {
		Name     string         `json:"name" yaml:"name"`
		Type     string         `json:"type" yaml:"type"`
		Required *bool          `json:"required,omitempty" yaml:"required,omitempty"`
		Repeated bool           `json:"repeated,omitempty" yaml:"repeated,omitempty"`
		Arg      map[string]any `json:"arg,omitempty" yaml:"arg,omitempty"`
	}
	jsonIO struct {
		Inputs  []jsonPort `json:"inputs" yaml:"inputs"`
		Outputs []jsonPort `json:"outputs" yaml:"outputs"`
	}
	jsonSelection struct {
		When   string `json:"when" yaml:"when"`
		Limits string `json:"limits" yaml:"limits"`
		Cost   string `json:"cost" yaml:"cost"`
	}
	jsonRequires struct {
		OS      []string `json:"os,omitempty" yaml:"os,omitempty"`
		Runtime []string `json:"runtime,omitempty" yaml:"runtime,omitempty"`
		Network bool     `json:"network,omitempty" yaml:"network,omitempty"`
	}
	jsonRemedy struct {
		Host string `json:"host" yaml:"host"`
		Tool string `json:"tool,omitempty" yaml:"tool,omitempty"`
		None any    `json:"none,omitempty" yaml:"none,omitempty"`
	}
	jsonTool struct {
		ID           string         `json:"id" yaml:"id"`
		Title        string         `json:"title" yaml:"title"`
		Description  string         `json:"description" yaml:"description"`
		Satisfies    []string       `json:"satisfies" yaml:"satisfies"`
		Install      map[string]any `json:"install" yaml:"install"`
		Invoke       map[string]any `json:"invoke" yaml:"invoke"`
		IO           jsonIO         `json:"io" yaml:"io"`
		Selection    *jsonSelection `json:"selection,omitempty" yaml:"selection,omitempty"`
		Requires     *jsonRequires  `json:"requires,omitempty" yaml:"requires,omitempty"`
		Remedies     []jsonRemedy   `json:"remedies,omitempty" yaml:"remedies,omitempty"`
		Subprocesses []string       `json:"subprocesses,omitempty" yaml:"subprocesses,omitempty"`
	}
)

func (g *generator) writeTools() error {
	for i := range g.tools {
		t := &g.tools[i]
		jt := jsonTool{ID: t.id, Title: t.title, Description: t.desc, Install: map[string]any{}, Invoke: map[string]any{}}
		for _, si := range t.skills {
			jt.Satisfies = append(jt.Satisfies, g.skills[si].name)
		}
		for _, p := range t.inputs {
			req := p.required
			jp := jsonPort{Name: p.name, Type: p.t.name, Required: &req, Repeated: p.repeated}
			switch p.arg {
			case "stdin":
				jp.Arg = map[string]any{"stdin": true}
			case "positional":
				jp.Arg = map[string]any{"positional": p.pos}
			default:
				jp.Arg = map[string]any{"flag": "--" + p.name}
			}
			jt.IO.Inputs = append(jt.IO.Inputs, jp)
		}
		jt.IO.Outputs = []jsonPort{}
		for _, p := range t.outputs {
			jt.IO.Outputs = append(jt.IO.Outputs, jsonPort{Name: p.name, Type: p.t.name})
		}
		script := "scripts/" + t.id
		switch t.invoke {
		case "shell":
			jt.Invoke["shell"] = t.program + " " + strings.ReplaceAll(t.id, "-", " ")
		case "argv":
			jt.Invoke["shell"] = []string{t.program, script}
		case "container":
			jt.Invoke["container"] = "ghcr.io/synth/" + t.id + ":1"
			jt.Install["container"] = "docker pull ghcr.io/synth/" + t.id + ":1"
		case "inProcess":
			jt.Invoke["inProcess"] = map[string]any{"module": "internal/" + strings.ReplaceAll(t.id, "-", "/")}
		case "manual":
			jt.Invoke["manual"] = true
		}
		if t.mcp > 0 {
			jt.Invoke["mcp"] = map[string]any{"server": g.srvs[t.mcp-1].name, "tool": strings.ReplaceAll(t.id, "-", "_")}
		}
		if len(jt.Install) == 0 {
			if (t.invoke == "shell" || t.invoke == "argv") && !strings.Contains(t.program, "/") && i%2 == 0 {
				jt.Install["cli"] = "apt-get install " + t.program
			} else {
				jt.Install["none"] = true
			}
		}
		if t.selection {
			jt.Selection = &jsonSelection{
				When:   "the " + t.id + " mechanism is available on this host",
				Limits: "only for " + strings.ReplaceAll(g.skills[t.skills[0]].name, "-", " ") + " requests",
				Cost:   []string{"one process start", "a network round trip", "a container pull", "a person's time"}[i%4],
			}
		}
		if t.network || t.invoke == "argv" && i%3 == 0 {
			jt.Requires = &jsonRequires{Network: t.network}
			if t.invoke == "argv" {
				jt.Requires.OS = []string{"linux", "darwin"}
				if t.program == "python3" || t.program == "uv" {
					jt.Requires.Runtime = []string{"python3"}
				}
			}
		}
		if t.network {
			r := jsonRemedy{Host: hosts[i%len(hosts)]}
			if t.remedyTool != "" {
				r.Tool = t.remedyTool
			} else {
				r.None = true
			}
			jt.Remedies = []jsonRemedy{r}
		}
		if t.subprocess != "" {
			jt.Subprocesses = []string{t.subprocess}
		}
		var (
			data []byte
			err  error
			rel  string
		)
		if t.yaml {
			rel = "tools/" + t.id + ".yaml"
			data, err = yaml.Marshal(jt)
		} else {
			rel = "tools/" + t.id + ".json"
			data, err = json.MarshalIndent(jt, "", "  ")
			data = append(data, '\n')
		}
		if err != nil {
			return fmt.Errorf("gen: tool %s: %w", t.id, err)
		}
		if err := g.file(rel, data); err != nil {
			return err
		}
	}
	return nil
}

// xmlEscaper escapes attribute and text content.
var xmlEscaper = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&quot;", "'", "&apos;")

func (g *generator) writeProcesses() error {
	for i := range g.procs {
		p := &g.procs[i]
		b := &g.buf
		b.Reset()
		b.WriteString(`<?xml version="1.0" encoding="UTF-8"?>` + "\n")
		fmt.Fprintf(b, `<bpmn:definitions xmlns:bpmn="http://www.omg.org/spec/BPMN/20100524/MODEL"
                  xmlns:x="https://synth.example/harness/processes/ns#"
                  id="Definitions_%s" targetNamespace="https://synth.example/harness/processes">
  <bpmn:process id="%s" name="%s" isExecutable="false">
`, camel(p.stem), p.id, xmlEscaper.Replace(p.name))
		if p.lanes > 0 {
			fmt.Fprintf(b, "    <bpmn:laneSet id=\"LaneSet_%d\">\n", i)
			for l := range p.lanes {
				ln := laneNames[0] // machine steps
				if l == 1 {
					ln = laneNames[1+i%(len(laneNames)-1)] // person steps
				}
				fmt.Fprintf(b, "      <bpmn:lane id=\"Lane_%s\" name=\"%s\">\n", ln[0], ln[1])
				for _, st := range p.steps {
					if st.lane == l {
						fmt.Fprintf(b, "        <bpmn:flowNodeRef>%s</bpmn:flowNodeRef>\n", st.id)
					}
				}
				b.WriteString("      </bpmn:lane>\n")
			}
			b.WriteString("    </bpmn:laneSet>\n")
		}
		b.WriteString("    <bpmn:startEvent id=\"Start\" name=\"Requested\"/>\n")
		for _, st := range p.steps {
			if st.element == "callActivity" {
				fmt.Fprintf(b, "    <bpmn:callActivity id=\"%s\" name=\"%s\" calledElement=\"%s\"/>\n", st.id, xmlEscaper.Replace(st.name), st.calls)
				continue
			}
			fmt.Fprintf(b, "    <bpmn:%s id=\"%s\" name=\"%s\">\n", st.element, st.id, xmlEscaper.Replace(st.name))
			if st.doc != "" {
				fmt.Fprintf(b, "      <bpmn:documentation>%s</bpmn:documentation>\n", xmlEscaper.Replace(st.doc))
			}
			b.WriteString("      <bpmn:extensionElements>")
			for _, s := range st.skills {
				fmt.Fprintf(b, "<x:skill ref=\"%s\"/>", s)
			}
			if st.noSkill != "" {
				fmt.Fprintf(b, "<x:no-skill reason=\"%s\"/>", xmlEscaper.Replace(st.noSkill))
			}
			b.WriteString("</bpmn:extensionElements>\n")
			fmt.Fprintf(b, "    </bpmn:%s>\n", st.element)
		}
		b.WriteString("    <bpmn:endEvent id=\"End\" name=\"Done\"/>\n")
		prev := "Start"
		for k, st := range p.steps {
			fmt.Fprintf(b, "    <bpmn:sequenceFlow id=\"F%d\" sourceRef=\"%s\" targetRef=\"%s\"/>\n", k+1, prev, st.id)
			prev = st.id
		}
		fmt.Fprintf(b, "    <bpmn:sequenceFlow id=\"F%d\" sourceRef=\"%s\" targetRef=\"End\"/>\n", len(p.steps)+1, prev)
		b.WriteString("  </bpmn:process>\n</bpmn:definitions>\n")
		if err := g.file("processes/"+p.stem+".bpmn", b.Bytes()); err != nil {
			return err
		}
	}
	return nil
}

func (g *generator) writeBeans() error {
	for i := range g.beans {
		bp := &g.beans[i]
		b := &g.buf
		b.Reset()
		fmt.Fprintf(b, "---\n# %s\ntitle: %s\nstatus: %s\ntype: %s\npriority: %s\n", bp.id, bp.title, bp.status, bp.typ, bp.priority)
		if bp.parent >= 0 {
			fmt.Fprintf(b, "parent: %s\n", g.beans[bp.parent].id)
		}
		if len(bp.blocking) > 0 {
			ids := make([]string, len(bp.blocking))
			for k, j := range bp.blocking {
				ids[k] = g.beans[j].id
			}
			fmt.Fprintf(b, "blocking: [%s]\n", strings.Join(ids, ", "))
		}
		if len(bp.tags) > 0 {
			fmt.Fprintf(b, "tags: [%s]\n", strings.Join(bp.tags, ", "))
		}
		created := beanEpoch + int64(bp.created)*86400
		fmt.Fprintf(b, "created_at: %s\nupdated_at: %s\n---\n\n", isoDate(created), isoDate(created+int64(bp.created%7)*86400+3600))
		b.WriteString(g.pick(sentences))
		b.WriteByte('\n')
		for _, m := range bp.mentions {
			fmt.Fprintf(b, "\nSee `%s`.\n", m)
		}
		if err := g.file("beans/"+bp.id+"--"+bp.slug+".md", b.Bytes()); err != nil {
			return err
		}
	}
	return nil
}

// beanEpoch is 2026-01-05T09:00:00Z, the first bean's creation time.
const beanEpoch = 1767603600

// isoDate formats a Unix time as RFC 3339 in UTC.
func isoDate(unix int64) string { return time.Unix(unix, 0).UTC().Format(time.RFC3339) }

// yamlScalar returns s as a YAML plain scalar when that is safe, else
// double-quoted.
func yamlScalar(s string) string {
	if strings.ContainsAny(s, ":#'\"{}[],&*!|>%@`") {
		return strconv.Quote(s)
	}
	return s
}

// planServers draws one MCP server per sixty skills, each listing 8–20
// tools of its own; authored Tools served by a server are added later.
func (g *generator) planServers() {
	n := max(1, g.opt.Skills/60)
	vs, ns := shuffled(g.rng, verbs), shuffled(g.rng, nouns)
	for i := range n {
		name := g.pick(nouns) + "-hub"
		if i > 0 || n > 1 {
			name = nouns[i%len(nouns)] + "-hub"
			if r := i / len(nouns); r > 0 {
				name += strconv.Itoa(r + 1)
			}
		}
		srv := serverPlan{name: name}
		seen := map[string]bool{}
		for range 8 + g.rng.IntN(13) {
			tn := g.pick(vs) + "_" + g.pick(ns)
			if seen[tn] {
				continue
			}
			seen[tn] = true
			mt := mcpToolPlan{name: tn, desc: sentenceCase(strings.ReplaceAll(tn, "_", " ")) + " on " + name + ".", readOnly: g.rng.IntN(3)}
			used := map[string]bool{}
			for range 1 + g.rng.IntN(5) {
				t := &portTypes[g.rng.IntN(len(portTypes))]
				pn := t.names[g.rng.IntN(len(t.names))]
				if !used[pn] {
					used[pn] = true
					mt.params = append(mt.params, prop{name: pn, t: t, required: g.chance(0.5)})
				}
			}
			srv.tools = append(srv.tools, mt)
		}
		g.srvs = append(g.srvs, srv)
	}
}

func propsOf(ports []portPlan) []prop {
	out := make([]prop, len(ports))
	for i, p := range ports {
		out[i] = prop{name: p.name, t: p.t, required: p.required}
	}
	return out
}

// writeServers writes one tools/list snapshot per server and one tool skill
// guiding some of its tools.
func (g *generator) writeServers() error {
	type schema struct {
		Type       string                       `json:"type"`
		Properties map[string]map[string]string `json:"properties"`
		Required   []string                     `json:"required,omitempty"`
	}
	type mcpTool struct {
		Name        string          `json:"name"`
		Description string          `json:"description"`
		InputSchema schema          `json:"inputSchema"`
		Annotations map[string]bool `json:"annotations,omitempty"`
	}
	type snapshot struct {
		Server struct {
			Name    string `json:"name"`
			Version string `json:"version"`
		} `json:"server"`
		Tools []mcpTool `json:"tools"`
	}
	for i, srv := range g.srvs {
		var snap snapshot
		snap.Server.Name, snap.Server.Version = srv.name, fmt.Sprintf("1.%d.0", i%10)
		for _, t := range srv.tools {
			mt := mcpTool{Name: t.name, Description: t.desc, InputSchema: schema{Type: "object", Properties: map[string]map[string]string{}}}
			for _, p := range t.params {
				mt.InputSchema.Properties[p.name] = map[string]string{"type": p.t.json}
				if p.required {
					mt.InputSchema.Required = append(mt.InputSchema.Required, p.name)
				}
			}
			if t.readOnly > 0 {
				mt.Annotations = map[string]bool{"readOnlyHint": t.readOnly == 2}
				if t.readOnly == 1 {
					mt.Annotations["destructiveHint"] = strings.HasPrefix(t.name, "prune") || strings.HasPrefix(t.name, "rollback")
				}
			}
			snap.Tools = append(snap.Tools, mt)
		}
		data, err := json.MarshalIndent(snap, "", "  ")
		if err != nil {
			return err
		}
		if err := g.file("mcp/"+srv.name+".json", append(data, '\n')); err != nil {
			return err
		}
		g.stats.McpServers++
		g.stats.McpTools += len(srv.tools)
		// A tool skill guiding two of the server's tools, or the whole server.
		b := &g.buf
		b.Reset()
		fmt.Fprintf(b, "---\nkey: mcp:%s\ntrigger:\n", srv.name)
		if len(srv.tools) >= 2 && i%3 != 2 {
			fmt.Fprintf(b, "  any_of:\n    - tool: %s\n    - tool: %s\n", srv.tools[0].name, srv.tools[1].name)
		} else {
			fmt.Fprintf(b, "  mcp_server: %s\n", srv.name)
		}
		fmt.Fprintf(b, "phases: [plan, execute]\ntitle: Working with %s\nsummary: Use the %s tools for their own domain only.\nrequired: %t\n---\n\n%s\n",
			srv.name, srv.name, i%2 == 0, g.pick(sentences))
		if err := g.file("skills/tool-skills/"+srv.name+".md", b.Bytes()); err != nil {
			return err
		}
		g.stats.ToolSkills++
	}
	return nil
}

// stepSkill picks the skill a process step names, skewed as in real
// harnesses: half of the references go to the first quarter of the skills.
func (g *generator) stepSkill() string {
	u := g.rng.Float64()
	return g.skills[int(float64(len(g.skills))*u*u)].name
}
