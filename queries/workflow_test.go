package queries

import (
	"strings"
	"testing"
)

const wfDecl = `{"name": "wf", "directories": [
  {"id": "skills", "path": "skills/", "graphTypologies": ["skills"]},
  {"id": "tools", "path": "tools/", "graphTypologies": ["tools"]},
  {"id": "processes", "path": "processes/", "graphTypologies": ["processes"]},
  {"id": "mcp", "path": "mcp/", "graphTypologies": ["mcp"]}],
 "entrypoints": {"processes": ["main"]},
 "profiles": {"ro": {"readOnly": true}, "mcp-only": {"transports": ["mcp"]}, "typo": {"tools": ["no-such-tool"]}}}`

const wfMain = `<?xml version="1.0"?><definitions xmlns="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:x="urn:x" id="D">
<process id="Main">
 <startEvent id="Start"/>
 <serviceTask id="Fetch"><extensionElements><x:skill ref="fetch"/></extensionElements></serviceTask>
 <userTask id="Approve"><extensionElements><x:skill ref="approve"/></extensionElements></userTask>
 <callActivity id="CallSub" calledElement="Sub"/>
 <serviceTask id="Ship"><extensionElements><x:skill ref="ship"/></extensionElements></serviceTask>
 <sequenceFlow id="f0" sourceRef="Start" targetRef="Fetch"/>
 <sequenceFlow id="f1" sourceRef="Fetch" targetRef="Approve"/>
 <sequenceFlow id="f2" sourceRef="Approve" targetRef="CallSub"/>
 <sequenceFlow id="f3" sourceRef="CallSub" targetRef="Ship"/>
</process></definitions>`

const wfSub = `<?xml version="1.0"?><definitions xmlns="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:x="urn:x" id="D2">
<process id="Sub">
 <serviceTask id="Check"><extensionElements><x:skill ref="fetch"/></extensionElements></serviceTask>
 <callActivity id="Back" calledElement="Main"/>
</process></definitions>`

const wfMCP = `{"server": {"name": "store"}, "tools": [
 {"name": "get_item", "inputSchema": {"type": "object", "properties": {"id": {"type": "string"}}}, "annotations": {"readOnlyHint": true}},
 {"name": "put_item", "inputSchema": {"type": "object", "properties": {"id": {"type": "string"}}}}]}`

func wfCorpus(t *testing.T) *Snapshot {
	return build(t, "memory", corpus(t, map[string]string{
		"harness.json":           wfDecl,
		"skills/core/fetch.md":   skillMD("fetch", ""),
		"skills/core/approve.md": skillMD("approve", ""),
		"skills/core/ship.md":    skillMD("ship", ""),
		"tools/fetcher.json": `{"id": "fetcher", "title": "F", "description": "D", "satisfies": ["fetch"], "readOnly": true,
		  "install": {"none": true}, "invoke": {"mcp": {"server": "store", "tool": "get_item"}, "inProcess": {"module": "fetch"}},
		  "io": {"inputs": [{"name": "id", "type": "Slug", "required": true}], "outputs": []}}`,
		"tools/shipper.json": `{"id": "shipper", "title": "S", "description": "D", "satisfies": ["ship"],
		  "install": {"cli": "apt-get install shipit"}, "invoke": {"shell": "shipit --now", "mcp": {"server": "store", "tool": "put_item"}},
		  "io": {"inputs": [], "outputs": []}}`,
		"tools/dyn.json": `{"id": "dyn", "title": "Dyn", "description": "D", "satisfies": ["ship"],
		  "install": {"cli": "none here"}, "invoke": {"shell": "$runner ship"}, "io": {"inputs": [], "outputs": []}}`,
		"processes/main.bpmn": wfMain,
		"processes/sub.bpmn":  wfSub,
		"mcp/store.json":      wfMCP,
	}))
}

func workflowOf(s *Snapshot, id string) *Workflow {
	for _, w := range s.Workflows {
		if w.Process.ID == id {
			return w
		}
	}
	return nil
}

func TestWorkflowCoverage(t *testing.T) {
	s := wfCorpus(t)
	w := workflowOf(s, "Main")
	// fetch (performed), approve (manual: a person step, uncovered),
	// Sub's fetch via the call (performed, counted once though Sub calls
	// Main back), ship (performed).
	var got []string
	for _, st := range w.Steps() {
		got = append(got, st.Step.ID+"="+st.State)
	}
	if strings.Join(got, " ") != "Fetch=performed Approve=manual Check=performed Ship=performed" {
		t.Fatalf("steps %v", got)
	}
	if w.Ratio() != 0.75 || w.FirstGap != nil {
		t.Fatalf("ratio %v first gap %v", w.Ratio(), w.FirstGap)
	}
}

func TestProfileBreaksWorkflow(t *testing.T) {
	s := wfCorpus(t)
	ro, err := s.WithProfile("ro")
	if err != nil {
		t.Fatal(err)
	}
	// readOnly keeps the authored readOnly Tool and the MCP tool whose hint
	// is stated true; put_item's hint is unstated, so it is not read-only.
	var kept []string
	for _, tl := range ro.Tools {
		kept = append(kept, tl.ID)
	}
	if strings.Join(kept, ",") != "fetcher,store.get-item" {
		t.Fatalf("read-only profile keeps %v", kept)
	}
	w := workflowOf(ro, "Main")
	if w.FirstGap == nil || w.FirstGap.Step.ID != "Ship" || w.Ratio() != 0.5 {
		t.Fatalf("under ro: ratio %v first gap %+v", w.Ratio(), w.FirstGap)
	}
	// The profile hides store.put-item: its listing is no root either.
	if roots := strings.Join(ro.Reach.Roots, ","); strings.Contains(roots, "put_item") || !strings.Contains(roots, "get_item") {
		t.Errorf("roots under ro: %s", roots)
	}
	if roots := strings.Join(s.Reach.Roots, ","); !strings.Contains(roots, "put_item") {
		t.Errorf("roots without a profile: %s", roots)
	}
	if ro.Skill("ship").Covered {
		t.Error("ship is not covered under the read-only profile")
	}
	if !s.Skill("ship").Covered {
		t.Error("the unprofiled snapshot is unchanged")
	}
	mcpOnly, _ := s.WithProfile("mcp-only")
	if ids := toolIDs(mcpOnly.Tools); ids != "fetcher, shipper, store.get-item, store.put-item" {
		t.Errorf("mcp-only keeps %s", ids)
	}
	if _, err := s.WithProfile("nope"); err == nil {
		t.Error("an unknown profile is an error")
	}
	if !has(codes(s), "profile-unknown-tool") {
		t.Error("profile-unknown-tool missing")
	}
}

func TestPrograms(t *testing.T) {
	s := wfCorpus(t)
	progs := map[string]*Program{}
	for _, p := range s.Programs {
		progs[p.Name] = p
	}
	if p := progs["shipit"]; p == nil || !p.Installed || p.Dynamic || skillIDs(p.Skills) != "ship" {
		t.Errorf("shipit: %+v", p)
	}
	// A dynamic program is not known to be installed (issue 23.7).
	if p := progs["$runner"]; p == nil || !p.Dynamic || p.Installed {
		t.Errorf("$runner: %+v", p)
	}
	for _, f := range s.Findings {
		if f.Code == "program-not-installed" {
			t.Errorf("unexpected %s", f.Message)
		}
	}
}

func TestGating(t *testing.T) {
	big := strings.Repeat("Read the whole server manual before any call. ", 60)
	root := corpus(t, map[string]string{
		"mcp/store.json": wfMCP,
		"skills/tool-skills/any.md": "---\nkey: any\ntrigger:\n  any_of:\n    - tool: get_item\n    - tool: put_item\nrequired: true\n" +
			"title: Any\nsummary: s\nphases: [plan]\n---\n\nbody\n",
		"skills/tool-skills/all.md": "---\nkey: all\ntrigger:\n  all_of:\n    - tool: get_item\n    - tool: put_item\nrequired: true\n" +
			"title: All\nsummary: s\nphases: [plan]\n---\n\nbody\n",
		"skills/tool-skills/optional.md": "---\nkey: optional\ntrigger:\n  tool: get_item\nrequired: false\ntitle: O\nsummary: s\nphases: [plan]\n---\n\nbody\n",
		"skills/tool-skills/wide.md":     "---\nkey: wide\ntrigger:\n  mcp_server: store\nrequired: true\ntitle: W\nsummary: s\nphases: [plan]\n---\n\n" + big + "\n",
		// Issue 23.5: an all_of whose other server is absent never matches,
		// so it gates nothing (the tool-skill document: "an all_of skill
		// only gates when its full trigger matches").
		"skills/tool-skills/both.md": "---\nkey: both\ntrigger:\n  all_of:\n    - mcp_server: store\n    - mcp_server: slack\nrequired: true\n" +
			"title: Both\nsummary: s\nphases: [plan]\n---\n\nbody\n",
		// An any_of matches when one leaf does: it gates the live leaf's Tools.
		"skills/tool-skills/either.md": "---\nkey: either\ntrigger:\n  any_of:\n    - tool: get_item\n    - mcp_server: slack\nrequired: true\n" +
			"title: Either\nsummary: s\nphases: [plan]\n---\n\nbody\n",
	})
	s := build(t, "memory", root)
	for _, id := range []string{"store.get-item", "store.put-item"} {
		var keys []string
		for _, g := range s.Tool(id).GatedBy {
			keys = append(keys, g.Key)
		}
		want := "all,any,wide"
		if id == "store.get-item" {
			want = "all,any,either,wide"
		}
		if strings.Join(keys, ",") != want {
			t.Errorf("%s gated by %v, want %s (optional skills and an all_of that does not match do not gate)", id, keys, want)
		}
	}
	var both *ToolSkill
	for _, ts := range s.ToolSkills {
		if ts.Key == "both" {
			both = ts
		}
	}
	if both == nil {
		t.Fatal("tool skill both not read")
	}
	if got := toolIDs(both.Guides); got != "store.get-item, store.put-item" {
		t.Errorf("both names %s: its leaves' Tools are still what it is about", got)
	}
	if !has(codes(s), "gate-too-wide") {
		t.Error("gate-too-wide missing for a 2 KiB+ server-wide required skill")
	}
}
