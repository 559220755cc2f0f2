package web_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/skillgraph/skillgraph/api/server/servertest"
)

// marketplaceSite serves a private copy of the repository's example plugin
// marketplace (examples/marketplace, SPEC §1.3).
func marketplaceSite(t *testing.T) *site {
	t.Helper()
	return newSite(t, servertest.CopyTree(t, "../examples/marketplace"))
}

type pluginFinding struct {
	Code     string `json:"code"`
	Severity string `json:"severity"`
	File     string `json:"file"`
	Line     int    `json:"line"`
}

type pluginAnswer struct {
	Name       string                   `json:"name"`
	Hosts      []string                 `json:"hosts"`
	Listed     bool                     `json:"listed"`
	Manifest   *string                  `json:"manifest"`
	Skills     []struct{ ID string }    `json:"skills"`
	Commands   []struct{ Name string }  `json:"commands"`
	Agents     []struct{ Name string }  `json:"agents"`
	Hooks      []struct{ Event string } `json:"hooks"`
	McpServers []struct {
		Name  string    `json:"name"`
		Tools *[]string `json:"tools"`
	} `json:"mcpServers"`
	Findings []pluginFinding `json:"findings"`
}

func (s *site) plugins(t *testing.T) []pluginAnswer {
	t.Helper()
	var r struct {
		Plugins struct {
			TotalCount int            `json:"totalCount"`
			Nodes      []pluginAnswer `json:"nodes"`
		} `json:"plugins"`
	}
	s.query(t, `{ plugins(first: 100) { totalCount nodes { name hosts listed manifest skills { id } commands { name } agents { name }
		hooks { event } mcpServers { name tools } findings { code severity file line } } } }`, nil, &r)
	if r.Plugins.TotalCount != len(r.Plugins.Nodes) {
		t.Fatalf("fixture: %d plugins, %d on the first page", r.Plugins.TotalCount, len(r.Plugins.Nodes))
	}
	return r.Plugins.Nodes
}

// tabTo presses Tab until the focused element matches sel, at most limit
// times: the element is reachable from the keyboard in page order.
func tabTo(t *testing.T, ctx context.Context, sel string, limit int) {
	t.Helper()
	for i := 0; i < limit; i++ {
		run(t, ctx, "tab", chromedp.KeyEvent("\t"))
		if eval[bool](t, ctx, "focus", fmt.Sprintf(`document.activeElement.matches(%q)`, sel)) {
			return
		}
	}
	t.Fatalf("%d Tabs never reached %s (focus on %s)", limit, sel,
		eval[string](t, ctx, "focus", `document.activeElement.outerHTML.slice(0, 120)`))
}

// waitText waits until the first element matching sel has text containing want.
func waitText(t *testing.T, ctx context.Context, sel, want string) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !strings.Contains(firstText(t, ctx, sel), want) {
		if time.Now().After(deadline) {
			t.Fatalf("%s shows %q, want %q", sel, firstText(t, ctx, sel), want)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// TestBrowserPluginsView drives the Plugins view over the example
// marketplace from the keyboard: the navigation offers it, the table has
// one row per plugin the API answers with its hosts, listing, component
// counts and findings by severity, and a plugin's page lists its
// components and findings with file:line; the skill view names its plugin
// and resources.
func TestBrowserPluginsView(t *testing.T) {
	s := marketplaceSite(t)
	want := s.plugins(t)
	if len(want) < 2 {
		t.Fatalf("fixture: the example marketplace has %d plugins", len(want))
	}
	ctx := browser(t, 1280, 800)
	run(t, ctx, "load overview", chromedp.Navigate(s.srv.URL+"/"), chromedp.WaitVisible(chromedp.CSS(`[data-count="D"]`)),
		chromedp.WaitVisible(chromedp.CSS(`#nav-plugins a`)))
	// Keyboard: Tab to the navigation's Plugins link, Enter opens the view.
	tabTo(t, ctx, `#nav-plugins a`, 12)
	run(t, ctx, "open plugins", chromedp.KeyEvent("\r"), chromedp.WaitVisible(chromedp.CSS(`#plugins-table`)))
	if cur := attrs(t, ctx, `[data-nav][aria-current="page"]`, "data-nav"); len(cur) != 1 || cur[0] != "plugins" {
		t.Errorf("current navigation item %v, want plugins", cur)
	}

	var names []string
	for _, p := range want {
		names = append(names, p.Name)
	}
	if got := attrs(t, ctx, "#plugins-table tbody tr", "data-plugin"); strings.Join(got, ",") != strings.Join(names, ",") {
		t.Fatalf("plugin rows %v, GraphQL %v", got, names)
	}
	if r := firstText(t, ctx, "#plugins-range"); r != fmt.Sprintf("Plugins 1–%d of %d", len(want), len(want)) {
		t.Errorf("range %q", r)
	}
	for _, p := range want {
		row := fmt.Sprintf(`#plugins-table tr[data-plugin=%q]`, p.Name)
		if got := texts(t, ctx, row+" .hosts .badge"); strings.Join(got, ",") != strings.Join(p.Hosts, ",") {
			t.Errorf("%s hosts %v, GraphQL %v", p.Name, got, p.Hosts)
		}
		listed := map[bool]string{true: "listed", false: "not listed"}[p.Listed]
		if got := firstText(t, ctx, row+" .listed"); got != listed {
			t.Errorf("%s marketplace column %q, want %q", p.Name, got, listed)
		}
		for part, n := range map[string]int{"skills": len(p.Skills), "commands": len(p.Commands), "agents": len(p.Agents), "hooks": len(p.Hooks), "mcpServers": len(p.McpServers)} {
			if got := firstText(t, ctx, fmt.Sprintf(`%s td[data-part=%q]`, row, part)); got != fmt.Sprint(n) {
				t.Errorf("%s %s = %q, GraphQL %d", p.Name, part, got, n)
			}
		}
		sev := map[string]int{}
		for _, f := range p.Findings {
			sev[strings.ToLower(f.Severity)]++
		}
		for _, k := range []string{"error", "warning", "info"} {
			got := firstText(t, ctx, fmt.Sprintf(`%s .sev-counts [data-severity=%q]`, row, k))
			if sev[k] == 0 && got != "" || sev[k] > 0 && !strings.HasPrefix(got, fmt.Sprint(sev[k])+" ") {
				t.Errorf("%s %s findings shown %q, GraphQL %d", p.Name, k, got, sev[k])
			}
		}
	}

	// The detail of the plugin with every kind of component.
	var review *pluginAnswer
	for i := range want {
		if want[i].Name == "review" {
			review = &want[i]
		}
	}
	if review == nil || len(review.Commands) == 0 || len(review.Agents) == 0 || len(review.Hooks) == 0 || len(review.McpServers) == 0 || len(review.Skills) == 0 {
		t.Fatalf("fixture: plugin review lacks a kind of component: %+v", review)
	}
	tabTo(t, ctx, `#plugins-table tr[data-plugin="review"] a.plugin-link`, 20)
	run(t, ctx, "open review", chromedp.KeyEvent("\r"), chromedp.WaitVisible(chromedp.CSS(`article[data-plugin="review"] #plugin-commands`)))
	if cur := attrs(t, ctx, `[data-nav][aria-current="page"]`, "data-nav"); len(cur) != 1 || cur[0] != "plugins" {
		t.Errorf("current navigation item on a plugin %v, want plugins", cur)
	}
	rowsOf := func(sel, attr string) string { return strings.Join(attrs(t, ctx, sel+" tbody tr", attr), ",") }
	var wantCmd, wantAgent, wantHook, wantSkill []string
	for _, c := range review.Commands {
		wantCmd = append(wantCmd, c.Name)
	}
	for _, a := range review.Agents {
		wantAgent = append(wantAgent, a.Name)
	}
	for _, x := range review.Hooks {
		wantHook = append(wantHook, x.Event)
	}
	for _, x := range review.Skills {
		wantSkill = append(wantSkill, x.ID)
	}
	for sel, w := range map[[2]string]string{
		{"#plugin-commands", "data-command"}: strings.Join(wantCmd, ","),
		{"#plugin-agents", "data-agent"}:     strings.Join(wantAgent, ","),
		{"#plugin-hooks", "data-event"}:      strings.Join(wantHook, ","),
		{"#plugin-skills", "data-skill"}:     strings.Join(wantSkill, ","),
	} {
		if got := rowsOf(sel[0], sel[1]); got != w {
			t.Errorf("%s rows %q, GraphQL %q", sel[0], got, w)
		}
	}
	// Allowed tools, the agent's skills, the hook's matcher and command.
	if got := firstText(t, ctx, `#plugin-commands tr[data-command="/review:review"] .allowed`); !strings.Contains(got, "mcp__github__create_pr") {
		t.Errorf("allowed tools %q", got)
	}
	if got := attrs(t, ctx, `#plugin-agents tr[data-agent="triager"] a.skill-link`, "href"); len(got) != 1 || got[0] != "#/skill/review-pr" {
		t.Errorf("triager's skill links %v", got)
	}
	if got := firstText(t, ctx, `#plugin-hooks tr[data-event="PreToolUse"]`); !strings.Contains(got, "Bash") || !strings.Contains(got, "check-bash.sh") {
		t.Errorf("PreToolUse hook row %q, want its matcher and command", got)
	}
	// MCP servers: a snapshot lists the tools, or there is none.
	for _, m := range review.McpServers {
		got := firstText(t, ctx, fmt.Sprintf(`#plugin-mcp tr[data-server=%q] .mcp-tools`, m.Name))
		if m.Tools == nil && !strings.Contains(got, "no snapshot") {
			t.Errorf("MCP server %s has no snapshot; shown %q", m.Name, got)
		}
		if m.Tools != nil && (!strings.Contains(got, fmt.Sprintf("%d tool", len(*m.Tools))) || len(*m.Tools) > 0 && !strings.Contains(got, (*m.Tools)[0])) {
			t.Errorf("MCP server %s snapshot lists %v; shown %q", m.Name, *m.Tools, got)
		}
	}
	// Findings, in the API's order, each at its file:line.
	var wantCodes, wantWhere []string
	for _, f := range review.Findings {
		wantCodes = append(wantCodes, f.Code)
		wantWhere = append(wantWhere, fmt.Sprintf("%s:%d", f.File, f.Line))
	}
	if got := attrs(t, ctx, "section[aria-labelledby=h-pfind] table.findings tbody tr", "data-code"); strings.Join(got, ",") != strings.Join(wantCodes, ",") {
		t.Errorf("finding rows %v, GraphQL %v", got, wantCodes)
	}
	if got := texts(t, ctx, `section[aria-labelledby=h-pfind] td[data-label="Where"] code.file`); strings.Join(got, ",") != strings.Join(wantWhere, ",") {
		t.Errorf("finding places %v, GraphQL %v", got, wantWhere)
	}

	// The skill view names its plugin and lists its resources.
	var sk struct {
		Skill struct {
			Plugin    struct{ Name string } `json:"plugin"`
			Resources []string              `json:"resources"`
		} `json:"skill"`
	}
	s.query(t, `{ skill(id: "review-pr") { plugin { name } resources } }`, nil, &sk)
	if len(sk.Skill.Resources) == 0 {
		t.Fatal("fixture: review-pr has no resource")
	}
	run(t, ctx, "open the plugin's skill", chromedp.Click(chromedp.CSS(`#plugin-skills a.skill-link`)), chromedp.WaitVisible(chromedp.CSS(`#skill-plugin`)))
	if got := attrs(t, ctx, "#skill-plugin a", "href"); len(got) != 1 || got[0] != "#/plugin/"+sk.Skill.Plugin.Name {
		t.Errorf("skill's plugin link %v, want #/plugin/%s", got, sk.Skill.Plugin.Name)
	}
	if got := texts(t, ctx, "#skill-resources li"); strings.Join(got, ",") != strings.Join(sk.Skill.Resources, ",") {
		t.Errorf("resources shown %v, GraphQL %v", got, sk.Skill.Resources)
	}

	// A plugin its marketplace entry alone defines, and a name that is none.
	run(t, ctx, "open lsp-go", chromedp.Navigate(s.srv.URL+"/#/plugin/lsp-go"), chromedp.WaitVisible(chromedp.CSS(`#manifest`)))
	waitText(t, ctx, "#manifest", "marketplace entry")
	run(t, ctx, "open a missing plugin", chromedp.Navigate(s.srv.URL+"/#/plugin/no-such-plugin"), chromedp.WaitVisible(chromedp.CSS(`main h1`)))
	waitText(t, ctx, "main h1", "No plugin")
}

// TestBrowserPluginsNavOnlyWithPlugins: a harness corpus (no plugin) shows
// no Plugins link, so its page looks as before; the example marketplace
// does, and its plugin views fit a phone.
func TestBrowserPluginsNavOnlyWithPlugins(t *testing.T) {
	harness := newSite(t, "")
	var n struct {
		Plugins struct{ TotalCount int } `json:"plugins"`
	}
	harness.query(t, `{ plugins(first: 0) { totalCount } }`, nil, &n)
	if n.Plugins.TotalCount != 0 {
		t.Fatalf("fixture: the harness corpus has %d plugins", n.Plugins.TotalCount)
	}
	ctx := browser(t, 390, 844)
	run(t, ctx, "load harness overview", chromedp.Navigate(harness.srv.URL+"/"), chromedp.WaitVisible(chromedp.CSS(`[data-count="D"]`)))
	// The count query has answered once the footer shows the version; give
	// it a moment more, then the link must still be hidden.
	time.Sleep(500 * time.Millisecond)
	if hidden := eval[bool](t, ctx, "nav hidden", `document.getElementById("nav-plugins").hidden`); !hidden {
		t.Error("a corpus without plugins shows the Plugins link")
	}

	// A subagent with a long description, as real ones carry worked
	// examples: its start shows, the whole text sits behind a disclosure.
	dir := servertest.CopyTree(t, "../examples/marketplace")
	long := strings.Repeat("Use this agent when a pull request needs its review comments sorted by severity and owner. ", 20)
	if err := os.WriteFile(filepath.Join(dir, "plugins/review/agents/long-winded.md"),
		[]byte("---\nname: long-winded\ndescription: "+long+"\ntools: Read\n---\n\nSort comments.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	market := newSite(t, dir)
	var desc struct {
		Agents struct {
			Nodes []struct{ Name, Description string } `json:"nodes"`
		} `json:"agents"`
	}
	market.query(t, `{ agents { nodes { name description } } }`, nil, &desc)
	var full string
	for _, a := range desc.Agents.Nodes {
		if a.Name == "long-winded" {
			full = a.Description
		}
	}
	if len(full) < 1000 {
		t.Fatalf("fixture: long-winded's description is %d characters", len(full))
	}
	for _, view := range []struct{ hash, wait string }{
		{"#/plugins", `#plugins-table`},
		{"#/plugin/review", `#plugin-mcp`},
		{"#/skill/review-pr", `#skill-resources`},
	} {
		run(t, ctx, "load "+view.hash, chromedp.Navigate(market.srv.URL+"/"+view.hash), chromedp.WaitVisible(chromedp.CSS(view.wait)))
		noHorizontalOverflow(t, ctx, view.hash+" at 390px")
	}
	if hidden := eval[bool](t, ctx, "nav shown", `document.getElementById("nav-plugins").hidden`); hidden {
		t.Error("a corpus with plugins hides the Plugins link")
	}
	run(t, ctx, "load review", chromedp.Navigate(market.srv.URL+"/#/plugin/review"), chromedp.WaitVisible(chromedp.CSS(`#plugin-agents`)))
	cell := `#plugin-agents tr[data-agent="long-winded"] td[data-label="Description"]`
	if open := eval[bool](t, ctx, "closed", fmt.Sprintf(`document.querySelector(%q).open`, cell+" details")); open {
		t.Error("the long description starts open")
	}
	if vis := eval[string](t, ctx, "visible text", fmt.Sprintf(`document.querySelector(%q).innerText`, cell)); len(vis) > 600 || !strings.HasPrefix(vis, full[:100]) {
		t.Errorf("closed, the long description shows %d characters: %q", len(vis), vis)
	}
	run(t, ctx, "open the description", chromedp.Focus(chromedp.CSS(cell+" summary")), chromedp.KeyEvent("\r"))
	waitText(t, ctx, cell+" details .desc", full[len(full)-80:])
	if got := firstText(t, ctx, cell+" details .desc"); got != strings.TrimSpace(full) {
		t.Errorf("the whole description shown differs from the API's (%d vs %d characters)", len(got), len(full))
	}
	noHorizontalOverflow(t, ctx, "#/plugin/review with a long description open at 390px")
}
