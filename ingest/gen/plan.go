package gen

import (
	"fmt"
	"strconv"
	"strings"
)

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

// stepSkill picks the skill a process step names, skewed as in real
// harnesses: half of the references go to the first quarter of the skills.
func (g *generator) stepSkill() string {
	u := g.rng.Float64()
	return g.skills[int(float64(len(g.skills))*u*u)].name
}
