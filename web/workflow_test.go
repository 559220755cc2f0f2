package web_test

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

type workflowAnswer struct {
	Process  struct{ ID string } `json:"process"`
	Total    int                 `json:"total"`
	FirstGap *struct {
		Step struct{ ID string } `json:"step"`
	} `json:"firstGap"`
	Steps []struct {
		Step struct {
			ID      string
			Process struct{ ID string }
		} `json:"step"`
		State string `json:"state"`
	} `json:"steps"`
}

// workflows asks GraphQL for the workflow coverage under profile ("" = none).
func (s *site) workflows(t *testing.T, profile string) map[string]workflowAnswer {
	t.Helper()
	var r struct{ Workflows []workflowAnswer }
	var vars map[string]any
	if profile != "" {
		vars = map[string]any{"p": profile}
	}
	s.query(t, `query($p: String) { workflows(profile: $p) { process { id } total firstGap { step { id } } steps { step { id process { id } } state } } }`, vars, &r)
	out := map[string]workflowAnswer{}
	for _, w := range r.Workflows {
		out[w.Process.ID] = w
	}
	return out
}

// chipsOf reads the chips drawn for one process as "process/step=state".
func chipsOf(t *testing.T, ctx context.Context, process string) []string {
	t.Helper()
	return eval[[]string](t, ctx, "read chips", fmt.Sprintf(`[...document.querySelectorAll('#wf-list li.wf[data-process=%q] .chip')].map(c => c.dataset.process + "/" + c.dataset.step + "=" + c.dataset.state + ":" + c.querySelector(".st-tag").textContent.trim())`, process))
}

func wantChips(w workflowAnswer) []string {
	var out []string
	for _, st := range w.Steps {
		out = append(out, st.Step.Process.ID+"/"+st.Step.ID+"="+st.State+":"+st.State)
	}
	return out
}

// firstGapShown is the step id of the highlighted chip of a process.
func firstGapShown(t *testing.T, ctx context.Context, process string) string {
	t.Helper()
	return strings.Join(attrs(t, ctx, fmt.Sprintf(`#wf-list li.wf[data-process=%q] .chip.first-gap`, process), "data-step"), ",")
}

func TestBrowserWorkflowsMatchGraphQL(t *testing.T) {
	s := newSite(t, "")
	all := s.workflows(t, "")
	ro := s.workflows(t, "read-only")
	const proc = "Process_Release"
	if all[proc].FirstGap == nil || ro[proc].FirstGap == nil || all[proc].FirstGap.Step.ID == ro[proc].FirstGap.Step.ID {
		t.Fatalf("fixture: the read-only profile should move %s's first gap (all %+v, read-only %+v)", proc, all[proc].FirstGap, ro[proc].FirstGap)
	}
	ctx := browser(t, 1280, 800)
	run(t, ctx, "open workflows", chromedp.Navigate(s.srv.URL+"/#/workflows"),
		chromedp.WaitVisible(chromedp.CSS(`#wf-list li.wf[data-process="`+proc+`"] .chip`)))

	// Every process, worst first as GraphQL lists them, and each chip of
	// the release process, in order, with its state as text.
	if got := chipsOf(t, ctx, proc); strings.Join(got, " ") != strings.Join(wantChips(all[proc]), " ") {
		t.Errorf("chips shown\n  %v\nGraphQL\n  %v", got, wantChips(all[proc]))
	}
	if got := firstGapShown(t, ctx, proc); got != all[proc].FirstGap.Step.ID {
		t.Errorf("first gap shown %q, GraphQL %q", got, all[proc].FirstGap.Step.ID)
	}
	if n := len(attrs(t, ctx, "#wf-list li.wf", "data-process")); n != len(all) {
		t.Errorf("%d processes shown, GraphQL %d", n, len(all))
	}
	// Chips link to the step in its process view and to the skill.
	chip := fmt.Sprintf(`#wf-list li.wf[data-process=%q] .chip[data-step="Task_Validate"]`, proc)
	if hrefs := attrs(t, ctx, chip+" a", "href"); len(hrefs) != 2 || hrefs[0] != "#/process/Process_Release?step=Task_Validate" || hrefs[1] != "#/skill/validate-content" {
		t.Errorf("chip links %v", hrefs)
	}
	// A called process's step sits in place, linked to its own process.
	if hrefs := attrs(t, ctx, fmt.Sprintf(`#wf-list li.wf[data-process=%q] .chip[data-step="Task_Claim"] .chip-step a`, proc), "href"); len(hrefs) != 1 || hrefs[0] != "#/process/Process_Triage?step=Task_Claim" {
		t.Errorf("callee step link %v", hrefs)
	}

	// Switching the profile re-queries: the first gap moves as GraphQL says.
	eval[bool](t, ctx, "choose read-only", `(() => { const s = document.getElementById("profile"); s.value = "read-only"; s.dispatchEvent(new Event("change")); return true; })()`)
	want := ro[proc].FirstGap.Step.ID
	deadline := time.Now().Add(10 * time.Second)
	for firstGapShown(t, ctx, proc) != want && time.Now().Before(deadline) {
		time.Sleep(100 * time.Millisecond)
	}
	if got := firstGapShown(t, ctx, proc); got != want {
		t.Fatalf("under read-only the first gap shown is %q, GraphQL %q", got, want)
	}
	if got := chipsOf(t, ctx, proc); strings.Join(got, " ") != strings.Join(wantChips(ro[proc]), " ") {
		t.Errorf("read-only chips shown\n  %v\nGraphQL\n  %v", got, wantChips(ro[proc]))
	}
	if h := eval[string](t, ctx, "hash", `location.hash`); h != "#/workflows?profile=read-only" {
		t.Errorf("hash %q keeps no profile", h)
	}

	// The overview follows the profile (its nav link carries it).
	var cov struct {
		Coverage struct{ Total, Uncovered int } `json:"coverage"`
	}
	s.query(t, `{ coverage(profile: "read-only") { total uncovered } }`, nil, &cov)
	run(t, ctx, "overview under the profile", chromedp.Click(chromedp.CSS(`a[data-nav="overview"]`)),
		chromedp.WaitVisible(chromedp.CSS(`#profile-form`)))
	deadline = time.Now().Add(10 * time.Second)
	for !strings.Contains(firstText(t, ctx, "#h-cov"), "read-only") && time.Now().Before(deadline) {
		time.Sleep(100 * time.Millisecond)
	}
	if got := firstText(t, ctx, `[data-count="covered"] .tally-num`); got != fmt.Sprint(cov.Coverage.Total-cov.Coverage.Uncovered) {
		t.Errorf("covered under read-only shown %q, GraphQL %d", got, cov.Coverage.Total-cov.Coverage.Uncovered)
	}
	noHorizontalOverflow(t, ctx, "workflows at 1280px")
}

// TestBrowserWorkflowsPageBy50 checks the lazy rendering on a generated
// corpus of 120 processes: 50 drawn at a time, the rest on demand.
func TestBrowserWorkflowsPageBy50(t *testing.T) {
	if testing.Short() {
		t.Skip("generated corpus: skipped with -short")
	}
	const n = 120
	dir := filepath.Join(t.TempDir(), "flows")
	write := func(rel, body string) {
		p := filepath.Join(dir, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for i := range n {
		write(fmt.Sprintf("skills/gen/s-%03d.md", i), fmt.Sprintf("---\nname: s-%03d\ndescription: Generated skill %d.\n---\n\n# S %d\n", i, i, i))
		write(fmt.Sprintf("processes/p-%03d.bpmn", i), fmt.Sprintf(`<?xml version="1.0" encoding="UTF-8"?>
<bpmn:definitions xmlns:bpmn="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:x="https://example.org/ns#" id="D_%03[1]d" targetNamespace="https://example.org">
  <bpmn:process id="P_%03[1]d" name="Generated process %[1]d">
    <bpmn:startEvent id="S"/>
    <bpmn:serviceTask id="T1" name="Do %[1]d"><bpmn:extensionElements><x:skill ref="s-%03[1]d"/></bpmn:extensionElements></bpmn:serviceTask>
    <bpmn:userTask id="T2" name="Check %[1]d"><bpmn:extensionElements><x:skill ref="s-%03[1]d"/></bpmn:extensionElements></bpmn:userTask>
    <bpmn:endEvent id="E"/>
    <bpmn:sequenceFlow id="F1" sourceRef="S" targetRef="T1"/>
    <bpmn:sequenceFlow id="F2" sourceRef="T1" targetRef="T2"/>
    <bpmn:sequenceFlow id="F3" sourceRef="T2" targetRef="E"/>
  </bpmn:process>
</bpmn:definitions>
`, i))
	}
	s := newSite(t, dir)
	var r struct {
		Workflows []struct{ Process struct{ ID string } }
	}
	s.query(t, `{ workflows { process { id } } }`, nil, &r)
	if len(r.Workflows) != n {
		t.Fatalf("fixture: GraphQL lists %d workflows, want %d", len(r.Workflows), n)
	}
	ctx := browser(t, 390, 844)
	run(t, ctx, "open workflows", chromedp.Navigate(s.srv.URL+"/#/workflows"), chromedp.WaitVisible(chromedp.CSS(`#wf-more`)))
	shown := func() []string { return attrs(t, ctx, "#wf-list li.wf", "data-process") }
	if got := shown(); len(got) != 50 || got[0] != r.Workflows[0].Process.ID {
		t.Fatalf("first batch: %d processes starting %v, want 50 starting %s", len(got), got[:1], r.Workflows[0].Process.ID)
	}
	if got := firstText(t, ctx, "#wf-range"); got != fmt.Sprintf("Processes 1–50 of %d", n) {
		t.Errorf("range %q", got)
	}
	noHorizontalOverflow(t, ctx, "workflows at 390px")
	for _, want := range []int{100, n} {
		run(t, ctx, "show more", chromedp.Click(chromedp.CSS(`#wf-more`)))
		if got := shown(); len(got) != want {
			t.Fatalf("after Show more: %d processes, want %d", len(got), want)
		}
	}
	if more := attrs(t, ctx, "#wf-more", "id"); len(more) != 0 {
		t.Error("Show more offered with every process drawn")
	}
	var ids []string
	for _, w := range r.Workflows {
		ids = append(ids, w.Process.ID)
	}
	if got := shown(); strings.Join(got, ",") != strings.Join(ids, ",") {
		t.Error("processes drawn out of GraphQL's worst-first order")
	}
	// The text filter narrows the list.
	run(t, ctx, "filter", chromedp.SendKeys(chromedp.CSS(`#wf-text`), "P_007"), chromedp.Click(chromedp.CSS(`#wf-apply`)))
	deadline := time.Now().Add(10 * time.Second)
	for len(shown()) != 1 && time.Now().Before(deadline) {
		time.Sleep(100 * time.Millisecond)
	}
	if got := shown(); len(got) != 1 || got[0] != "P_007" {
		t.Errorf("filtered to %v, want [P_007]", got)
	}
}

func TestBrowserServerWithoutToken(t *testing.T) {
	s := newSiteToken(t, "", "")
	var v struct {
		Viewer struct{ CanRecord, ReadOnly bool } `json:"viewer"`
	}
	s.query(t, `{ viewer { canRecord readOnly } }`, nil, &v)
	if !v.Viewer.ReadOnly {
		t.Fatal("fixture: a server without a token should report readOnly")
	}
	ctx := browser(t, 1280, 800)
	run(t, ctx, "open skill", chromedp.Navigate(s.srv.URL+"/#/skill/lint-docs"), chromedp.WaitVisible(chromedp.CSS(`#mutations-off`)))
	if msg := firstText(t, ctx, "#mutations-off"); msg != "mutations disabled on this server" {
		t.Errorf("header says %q", msg)
	}
	if n := attrs(t, ctx, "#signin, #verdict-form", "id"); len(n) != 0 {
		t.Errorf("a read-only server offers %v", n)
	}
	run(t, ctx, "read-only note", chromedp.WaitVisible(chromedp.CSS(`#readonly-note`)))
	if note := firstText(t, ctx, "#readonly-note"); !strings.Contains(note, "mutations disabled") {
		t.Errorf("read-only note %q", note)
	}
	res, err := http.Post(s.srv.URL+"/graphql", "application/json",
		strings.NewReader(`{"query":"mutation { recordTriage(skill: \"lint-docs\", verdict: split) { graphVersion } }"}`))
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode == http.StatusOK {
		t.Errorf("mutation on a read-only server: status %d", res.StatusCode)
	}
}
