package web_test

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// waitFor polls a boolean expression until it holds (the explorer works
// asynchronously: introspection, fetches), failing with what last showed.
func waitFor(t *testing.T, ctx context.Context, what, expr, show string) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !eval[bool](t, ctx, what, expr) {
		if time.Now().After(deadline) {
			t.Fatalf("%s: timed out; %s", what, eval[string](t, ctx, "show", show))
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// typeInEditor replaces the editor's text with text, the caret at the end.
func typeInEditor(t *testing.T, ctx context.Context, text string) {
	t.Helper()
	eval[bool](t, ctx, "set editor", fmt.Sprintf(`(() => { const e = document.getElementById("editor"); e.focus(); e.value = %q; e.setSelectionRange(e.value.length, e.value.length); return true })()`, text))
}

func suggestions(t *testing.T, ctx context.Context) []string {
	t.Helper()
	return eval[[]string](t, ctx, "suggestions", `document.getElementById("suggestions").hidden ? [] : [...document.querySelectorAll("#suggestions [role=option]")].map(o => o.dataset.label)`)
}

// TestBrowserExplorer drives /graphiql from the keyboard: the standard
// introspection loads, the docs pane shows a type with its fields and
// descriptions, typing offers fields and arguments of the type at the
// cursor, and Ctrl+Enter runs the query and renders its data (issue #12).
func TestBrowserExplorer(t *testing.T) {
	s := newSite(t, "")
	var want struct {
		GraphVersion int `json:"graphVersion"`
		Schema       struct {
			Types []struct{ Name string } `json:"types"`
		} `json:"__schema"`
		Skill struct {
			Fields []struct{ Name, Description string } `json:"fields"`
		} `json:"__type"`
	}
	s.query(t, `{ graphVersion __schema { types { name } } __type(name: "Skill") { fields { name description } } }`, nil, &want)
	ctx := browser(t, 1280, 900)
	run(t, ctx, "open explorer", chromedp.Navigate(s.srv.URL+"/graphiql"))
	waitFor(t, ctx, "introspection", `document.getElementById("schema-status").dataset.state !== "loading"`, `document.getElementById("schema-status").textContent`)
	if st := firstText(t, ctx, "#schema-status"); !strings.HasPrefix(st, "Schema loaded") {
		t.Fatalf("schema status %q", st)
	}
	if n := attrs(t, ctx, "#schema-status", "data-types"); len(n) != 1 || n[0] != fmt.Sprint(len(want.Schema.Types)) {
		t.Errorf("explorer indexed %v types, the server has %d", n, len(want.Schema.Types))
	}

	// Docs: the root lists Query; following the Skill link shows its fields.
	run(t, ctx, "docs root", chromedp.WaitVisible(chromedp.CSS(`#doc a[data-type="Skill"]`)))
	run(t, ctx, "open Skill docs", chromedp.Focus(chromedp.CSS(`#doc a[data-type="Skill"]`)), chromedp.KeyEvent("\r"),
		chromedp.WaitVisible(chromedp.CSS(`#doc h3[data-type="Skill"]`)))
	fields := attrs(t, ctx, "#doc-fields > li", "data-field")
	if len(fields) != len(want.Skill.Fields) {
		t.Errorf("docs list %d Skill fields, introspection %d", len(fields), len(want.Skill.Fields))
	}
	for _, f := range want.Skill.Fields {
		if f.Name != "tier" {
			continue
		}
		got := firstText(t, ctx, `#doc-fields > li[data-field="tier"] .desc`)
		if f.Description == "" || got != f.Description {
			t.Errorf("tier's description shown %q, schema says %q", got, f.Description)
		}
	}
	if focused := eval[string](t, ctx, "focus", `document.activeElement.dataset.type || ""`); focused != "Skill" {
		t.Errorf("after following a type link focus is on %q, want the type's heading", focused)
	}
	// The search box finds a field across types.
	run(t, ctx, "search", chromedp.SendKeys(chromedp.CSS(`#doc-search`), "witness"))
	waitFor(t, ctx, "search results", `[...document.querySelectorAll("#doc .type-link")].some(a => a.textContent === "Skill.witness")`, `document.getElementById("doc").textContent.slice(0, 300)`)

	// Autocompletion at the cursor: a field of Skill, not of Query.
	typeInEditor(t, ctx, "{ skill(id: \"open-change\") { ti")
	run(t, ctx, "ask for suggestions", chromedp.KeyEvent(" ", chromedp.KeyModifiers(chromedp.ModifierCtrl)))
	waitFor(t, ctx, "suggestions shown", `!document.getElementById("suggestions").hidden`, `document.getElementById("suggest-status").textContent`)
	got := suggestions(t, ctx)
	if len(got) == 0 || got[0] != "tier" && got[0] != "title" || !slices.Contains(got, "tier") || !slices.Contains(got, "title") || slices.Contains(got, "skills") {
		t.Errorf("suggestions at `{ skill(…) { ti` = %v, want Skill's tier and title first", got)
	}
	// Typing narrows the list; Enter inserts the chosen field.
	run(t, ctx, "type e", chromedp.KeyEvent("e"))
	waitFor(t, ctx, "narrowed", `[...document.querySelectorAll("#suggestions [role=option]")].map(o => o.dataset.label).join() === "tier"`, `document.getElementById("suggestions").textContent`)
	run(t, ctx, "accept", chromedp.KeyEvent("\r"))
	if v := eval[string](t, ctx, "editor", `document.getElementById("editor").value`); v != `{ skill(id: "open-change") { tier` {
		t.Errorf("after Enter the editor holds %q", v)
	}
	// Arguments of the field at the cursor, then an enum's values.
	typeInEditor(t, ctx, "{ skills(fi")
	run(t, ctx, "type r", chromedp.KeyEvent("r"))
	waitFor(t, ctx, "argument suggested", `!document.getElementById("suggestions").hidden`, `document.getElementById("suggest-status").textContent`)
	if got := suggestions(t, ctx); len(got) != 1 || got[0] != "first" {
		t.Errorf("argument suggestions at `skills(fir` = %v, want [first]", got)
	}
	run(t, ctx, "escape", chromedp.KeyEvent("\u001b"))
	if got := suggestions(t, ctx); len(got) != 0 {
		t.Errorf("Escape left suggestions %v open", got)
	}
	// With the list closed, Tab leaves the editor: no keyboard trap.
	run(t, ctx, "tab out", chromedp.KeyEvent("\t"))
	if id := eval[string](t, ctx, "focus", `document.activeElement.id`); id != "variables" {
		t.Errorf("Tab from the editor went to %q, want the variables", id)
	}
	typeInEditor(t, ctx, "{ skills(orderBy: ")
	run(t, ctx, "ask for values", chromedp.KeyEvent(" ", chromedp.KeyModifiers(chromedp.ModifierCtrl)))
	waitFor(t, ctx, "values", `!document.getElementById("suggestions").hidden`, `document.getElementById("suggest-status").textContent`)
	if got := suggestions(t, ctx); !slices.Contains(got, "TIER") || !slices.Contains(got, "ID") {
		t.Errorf("value suggestions for orderBy = %v, want the SkillOrder values", got)
	}
	run(t, ctx, "escape", chromedp.KeyEvent("\u001b"))

	// Run with variables, from the keyboard.
	typeInEditor(t, ctx, "query Q($id: ID!) { graphVersion skill(id: $id) { id tier } }")
	eval[bool](t, ctx, "set variables", `(() => { const v = document.getElementById("variables"); v.value = '{"id": "lint-docs"}'; return true })()`)
	run(t, ctx, "run", chromedp.Focus(chromedp.CSS(`#editor`)), chromedp.KeyEvent("\r", chromedp.KeyModifiers(chromedp.ModifierCtrl)))
	waitFor(t, ctx, "result", `document.getElementById("result").dataset.state === "ok" || document.getElementById("result").dataset.state === "errors"`, `document.getElementById("result").textContent.slice(0, 300)`)
	var res struct {
		Data struct {
			GraphVersion int `json:"graphVersion"`
			Skill        struct{ ID, Tier string }
		} `json:"data"`
	}
	if err := json.Unmarshal([]byte(firstText(t, ctx, "#result")), &res); err != nil {
		t.Fatalf("result is not JSON: %v", err)
	}
	if res.Data.GraphVersion != want.GraphVersion || res.Data.Skill.ID != "lint-docs" || res.Data.Skill.Tier != "C" {
		t.Errorf("result %+v, want graph version %d and lint-docs in tier C", res.Data, want.GraphVersion)
	}
	if st := firstText(t, ctx, "#result-status"); st != "HTTP 200" {
		t.Errorf("result status %q", st)
	}
}

// TestBrowserExplorerSuggestsAtCursor runs the explorer's completion module
// in the page against the live introspection: what it offers depends on
// where the cursor stands (| marks it).
func TestBrowserExplorerSuggestsAtCursor(t *testing.T) {
	s := newSite(t, "")
	ctx := browser(t, 1280, 800)
	run(t, ctx, "open explorer", chromedp.Navigate(s.srv.URL+"/graphiql"))
	cases := []struct {
		text string
		want []string // the first suggestions, in order
		none bool     // nothing may be offered
	}{
		{text: `{ sk|`, want: []string{"skill", "skills"}},
		{text: `{ skill(id: "x") { tie|`, want: []string{"tier"}},
		{text: `{ a: skill(id: "x") { tie|`, want: []string{"tier"}},
		{text: `{ skills(first: 1) { nodes { tie|`, want: []string{"tier"}},
		{text: `{ coverage { tot|`, want: []string{"total"}},
		{text: `fragment F on Skill { tie|`, want: []string{"tier"}},
		{text: `{ skill(id: "x") { ... on Skill { tie|`, want: []string{"tier"}},
		{text: `{ skills(fir|`, want: []string{"first"}},
		{text: `{ skills(first: 2, orderBy: |`, want: []string{"ID", "PACKAGE", "TIER"}},
		{text: `{ skills(covered: |`, want: []string{"false", "true"}},
		{text: `{ findings(severity: |`, want: []string{"ERROR", "INFO", "WARNING"}},
		{text: `query Q($n: In|`, want: []string{"Int"}},
		{text: `{ skill(id: "x") @sk|`, want: []string{"skip"}},
		{text: `mutation { recordT|`, want: []string{"recordTriage"}},
		{text: `{ skill(id: "ti|`, none: true},
		{text: "# ti|", none: true},
		{text: `{ graphVersion { ti|`, none: true},
	}
	type result struct{ Labels []string }
	texts := make([]string, len(cases))
	for i, c := range cases {
		texts[i] = c.text
	}
	js, _ := json.Marshal(texts)
	got, err := chromedp.Run(ctx, chromedp.Evaluate[[]result](`(async () => {
		const { Schema, INTROSPECTION_QUERY } = await import("/graphiql/schema.js");
		const { post } = await import("/graphiql/request.js");
		const { suggest } = await import("/graphiql/complete.js");
		const res = await post({ query: INTROSPECTION_QUERY });
		if (!res.body || !res.body.data) throw new Error("introspection: " + res.text.slice(0, 200));
		const schema = new Schema(res.body.data.__schema);
		return `+string(js)+`.map((c) => {
			const at = c.indexOf("|");
			return { Labels: suggest(schema, c.replace("|", ""), at).items.map((i) => i.label) };
		});
	})()`, chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatal(err)
	}
	for i, c := range cases {
		labels := got[i].Labels
		if c.none {
			if len(labels) != 0 {
				t.Errorf("%s: offered %v, want nothing", c.text, labels)
			}
			continue
		}
		if len(labels) < len(c.want) || !slices.Equal(labels[:len(c.want)], c.want) {
			t.Errorf("%s: offered %v, want %v first", c.text, labels, c.want)
		}
	}
}
