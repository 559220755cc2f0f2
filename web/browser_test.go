package web_test

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/skillgraph/skillgraph/api/server"
	"github.com/skillgraph/skillgraph/api/server/servertest"
	"github.com/skillgraph/skillgraph/web"
)

// chromiumPath is $SKILLGRAPH_CHROMIUM (scripts/test.sh sets it), else
// Debian's /usr/bin/chromium.
func chromiumPath() string {
	if p := os.Getenv("SKILLGRAPH_CHROMIUM"); p != "" {
		return p
	}
	return "/usr/bin/chromium"
}

// site is one skillgraph server over a private copy of a corpus.
type site struct {
	srv    *servertest.Server
	svc    *server.Service
	corpus string
	token  string
}

// newSite copies src (default testdata/corpus) into a temporary directory,
// ingests it into a memory store and serves server.Handler with the page,
// with a random maintainer token.
func newSite(t *testing.T, src string) *site {
	t.Helper()
	return newSiteToken(t, src, randomToken(t))
}

// newSiteToken is newSite with a given token; "" disables mutations. It
// runs servertest's composition, the one every server test runs.
func newSiteToken(t *testing.T, src, token string) *site {
	t.Helper()
	corpus := src
	if src == "" {
		corpus = servertest.CopyTree(t, "testdata/corpus")
	}
	srv := servertest.Start(t, servertest.Options{Corpus: corpus, Config: func(c *server.Config) {
		c.Token = token
		c.Page = web.Handler()
		c.Explorer = web.Explorer()
	}})
	return &site{srv: srv, svc: srv.Service, corpus: corpus, token: token}
}

func randomToken(t *testing.T) string {
	b := make([]byte, 16)
	if _, err := rand.Read(b); err != nil {
		t.Fatal(err)
	}
	return hex.EncodeToString(b)
}

// query runs a GraphQL query against the site and decodes data into out.
func (s *site) query(t *testing.T, q string, vars map[string]any, out any) {
	t.Helper()
	body, _ := json.Marshal(map[string]any{"query": q, "variables": vars})
	res, err := http.Post(s.srv.URL+"/graphql", "application/json", bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var r struct {
		Data   json.RawMessage `json:"data"`
		Errors []struct {
			Message string `json:"message"`
		} `json:"errors"`
	}
	if err := json.NewDecoder(res.Body).Decode(&r); err != nil {
		t.Fatal(err)
	}
	if len(r.Errors) > 0 {
		t.Fatalf("graphql: %s", r.Errors[0].Message)
	}
	if err := json.Unmarshal(r.Data, out); err != nil {
		t.Fatal(err)
	}
}

// mutate runs a GraphQL mutation with the site's bearer token.
func (s *site) mutate(t *testing.T, q string) {
	t.Helper()
	body, _ := json.Marshal(map[string]any{"query": q})
	req, err := http.NewRequest(http.MethodPost, s.srv.URL+"/graphql", bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+s.token)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var r struct {
		Errors []struct{ Message string } `json:"errors"`
	}
	if err := json.NewDecoder(res.Body).Decode(&r); err != nil || res.StatusCode != http.StatusOK || len(r.Errors) > 0 {
		t.Fatalf("mutation: status %d, errors %v, decode %v", res.StatusCode, r.Errors, err)
	}
}

// browser starts a fresh headless Chromium with its own profile and returns
// a tab context. It skips only when Chromium is absent and
// SKILLGRAPH_REQUIRE_BROWSER is unset; CI sets it, so CI fails instead.
func browser(t *testing.T, width, height int) context.Context {
	t.Helper()
	chromiumPath := chromiumPath()
	if _, err := os.Stat(chromiumPath); err != nil {
		if os.Getenv("SKILLGRAPH_REQUIRE_BROWSER") == "" {
			t.Skipf("browser test skipped: %s is absent (apt-get install chromium); set SKILLGRAPH_REQUIRE_BROWSER=1 to make this a failure", chromiumPath)
		}
		t.Fatalf("SKILLGRAPH_REQUIRE_BROWSER is set but %s is absent: %v", chromiumPath, err)
	}
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(chromiumPath),
		chromedp.Flag("headless", true),
		chromedp.Flag("no-sandbox", true),
		chromedp.Flag("disable-gpu", true),
		chromedp.Flag("no-first-run", true),
		chromedp.Flag("no-default-browser-check", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-extensions", true),
		chromedp.Flag("disable-dev-shm-usage", true),
		chromedp.Flag("hide-scrollbars", true),
		chromedp.UserDataDir(t.TempDir()),
		chromedp.WindowSize(width, height),
	}
	actx, cancelA := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancelB := chromedp.NewContext(actx)
	t.Cleanup(func() { cancelB(); cancelA() })
	// The first action starts the browser; it lives as long as ctx.
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(int64(width), int64(height))); err != nil {
		t.Fatalf("start chromium: %v", err)
	}
	tctx, cancelT := context.WithTimeout(ctx, 2*time.Minute)
	t.Cleanup(cancelT)
	return tctx
}

// run runs browser actions and fails the test with the step's name.
func run(t *testing.T, ctx context.Context, what string, actions ...chromedp.Action[chromedp.Void]) {
	t.Helper()
	sctx, cancel := context.WithTimeout(ctx, 20*time.Second)
	defer cancel()
	if err := chromedp.Do(sctx, actions...); err != nil {
		text, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`document.body.innerText.slice(0, 400)`))
		t.Fatalf("%s: %v\npage text: %s", what, err, text)
	}
}

// eval evaluates a JavaScript expression in the page.
func eval[T any](t *testing.T, ctx context.Context, what, expr string) T {
	t.Helper()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](expr))
	if err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	return v
}

// texts returns the trimmed text of every element matching sel.
func texts(t *testing.T, ctx context.Context, sel string) []string {
	t.Helper()
	return eval[[]string](t, ctx, "read "+sel, fmt.Sprintf(`[...document.querySelectorAll(%q)].map(e => e.textContent.trim())`, sel))
}

// firstText is the text of the first element matching sel, "" if none.
func firstText(t *testing.T, ctx context.Context, sel string) string {
	t.Helper()
	if xs := texts(t, ctx, sel); len(xs) > 0 {
		return xs[0]
	}
	return ""
}

// attrs returns attribute a of every element matching sel.
func attrs(t *testing.T, ctx context.Context, sel, a string) []string {
	t.Helper()
	return eval[[]string](t, ctx, "read "+sel, fmt.Sprintf(`[...document.querySelectorAll(%q)].map(e => e.getAttribute(%q) || "")`, sel, a))
}

// waitRows waits until the queue table lists exactly want (by skill id).
func waitRows(t *testing.T, ctx context.Context, sel string, want []string) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	var got []string
	for time.Now().Before(deadline) {
		got = attrs(t, ctx, sel, "data-skill")
		if strings.Join(got, ",") == strings.Join(want, ",") {
			return
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Fatalf("rows %s = %v, want %v", sel, got, want)
}

// noHorizontalOverflow fails when the page is wider than the viewport.
func noHorizontalOverflow(t *testing.T, ctx context.Context, where string) {
	t.Helper()
	r := eval[struct{ Scroll, Inner int }](t, ctx, "measure "+where, `({Scroll: document.documentElement.scrollWidth, Inner: window.innerWidth})`)
	if r.Scroll > r.Inner {
		culprits := eval[[]string](t, ctx, "find overflow", `[...document.querySelectorAll("main *")].filter(e => e.getBoundingClientRect().right > window.innerWidth + 1).slice(0, 5).map(e => e.tagName + "." + e.className + ": " + e.textContent.slice(0, 40))`)
		t.Errorf("%s: page is %dpx wide in a %dpx viewport; widest: %v", where, r.Scroll, r.Inner, culprits)
	}
}

type coverageAnswer struct {
	GraphVersion int `json:"graphVersion"`
	Coverage     struct {
		Total        int                   `json:"total"`
		Covered      []struct{ ID string } `json:"covered"`
		Contradicted []struct{ ID string } `json:"contradicted"`
		Tiers        []struct {
			Tier  string `json:"tier"`
			Count int    `json:"count"`
		} `json:"tiers"`
	} `json:"coverage"`
	Error   struct{ TotalCount int } `json:"error"`
	Warning struct{ TotalCount int } `json:"warning"`
	Info    struct{ TotalCount int } `json:"info"`
}

func TestBrowserOverviewMatchesGraphQL(t *testing.T) {
	s := newSite(t, "")
	var want coverageAnswer
	s.query(t, `{ graphVersion coverage { total covered { id } contradicted { id } tiers { tier count } }
		error: findings(severity: ERROR, first: 0) { totalCount } warning: findings(severity: WARNING, first: 0) { totalCount }
		info: findings(severity: INFO, first: 0) { totalCount } }`, nil, &want)
	ctx := browser(t, 1280, 800)
	run(t, ctx, "load overview", chromedp.Navigate(s.srv.URL+"/"), chromedp.WaitVisible(chromedp.CSS(`[data-count="D"]`)))

	shown := map[string]string{}
	for _, k := range []string{"covered", "contradicted", "A", "B", "C", "D"} {
		shown[k] = firstText(t, ctx, fmt.Sprintf(`[data-count=%q] .tally-num`, k))
	}
	expect := map[string]int{"covered": len(want.Coverage.Covered), "contradicted": len(want.Coverage.Contradicted)}
	for _, tr := range want.Coverage.Tiers {
		expect[tr.Tier] = tr.Count
	}
	for k, v := range expect {
		if shown[k] != fmt.Sprint(v) {
			t.Errorf("overview shows %s = %q, GraphQL says %d", k, shown[k], v)
		}
	}
	if sum := expect["covered"] + expect["A"] + expect["B"] + expect["C"] + expect["D"]; sum != want.Coverage.Total {
		t.Errorf("covered+A+B+C+D = %d, total %d", sum, want.Coverage.Total)
	}
	// The stacked bar has one segment per non-empty part, sized by count.
	segs := attrs(t, ctx, "svg.stack rect", "class")
	if len(segs) == 0 {
		t.Error("no chart segments drawn")
	}
	for sev, n := range map[string]int{"error": want.Error.TotalCount, "warning": want.Warning.TotalCount, "info": want.Info.TotalCount} {
		if got := firstText(t, ctx, fmt.Sprintf(`[data-severity=%q] .tally-num`, sev)); got != fmt.Sprint(n) {
			t.Errorf("findings %s: page shows %q, GraphQL %d", sev, got, n)
		}
	}
	if got := firstText(t, ctx, "#graph-version"); got != fmt.Sprint(want.GraphVersion) {
		t.Errorf("graph version shown %q, want %d", got, want.GraphVersion)
	}
	noHorizontalOverflow(t, ctx, "overview at 1280px")
}

type skillRow struct {
	ID string `json:"id"`
}

func (s *site) tierIDs(t *testing.T, args string) []string {
	var r struct {
		Skills struct{ Nodes []skillRow } `json:"skills"`
	}
	s.query(t, `{ skills(`+args+`, first: 500) { nodes { id } } }`, nil, &r)
	var out []string
	for _, n := range r.Skills.Nodes {
		out = append(out, n.ID)
	}
	return out
}

func TestBrowserQueueFilter(t *testing.T) {
	s := newSite(t, "")
	var queue []string
	for _, tier := range []string{"C", "A", "B", "D"} {
		queue = append(queue, s.tierIDs(t, fmt.Sprintf("tier: %q", tier))...)
	}
	ctx := browser(t, 1280, 800)
	run(t, ctx, "load queue", chromedp.Navigate(s.srv.URL+"/#/queue"), chromedp.WaitVisible(chromedp.CSS(`#queue-table`)))
	// Queue order: tier C first, then A, B, D.
	waitRows(t, ctx, "#queue-table tbody tr", queue)
	if first := firstText(t, ctx, "#queue-table tbody tr:first-child td:first-child"); !strings.HasPrefix(first, "C") {
		t.Errorf("first row's tier is %q, want C", first)
	}
	// Evidence links to the step or to the file and line.
	links := attrs(t, ctx, `#queue-table tr[data-skill="lint-docs"] .evidence a`, "href")
	if len(links) == 0 || !strings.Contains(links[0], "#/skill/lint-docs?line=") {
		t.Errorf("lint-docs evidence links %v, want a link to its shell block line", links)
	}
	links = attrs(t, ctx, `#queue-table tr[data-skill="review-wording"] .evidence a`, "href")
	if len(links) == 0 || links[0] != "#/process/Process_Release?step=Task_Review" {
		t.Errorf("review-wording evidence links %v, want the userTask step", links)
	}

	// Text filter.
	run(t, ctx, "filter by text",
		chromedp.SendKeys(chromedp.CSS(`#f-text`), "lint"),
		chromedp.Click(chromedp.CSS(`#f-apply`)))
	waitRows(t, ctx, "#queue-table tbody tr", []string{"lint-docs"})

	// Tier + package filter, through the form.
	run(t, ctx, "filter by tier and package",
		chromedp.Navigate(s.srv.URL+"/#/queue"),
		chromedp.WaitVisible(chromedp.CSS(`#queue-table`)),
		chromedp.SetValue(chromedp.CSS(`#f-package`), "core"),
		chromedp.SetValue(chromedp.CSS(`#f-tier`), "A"),
		chromedp.Click(chromedp.CSS(`#f-apply`)))
	wantA := s.tierIDs(t, `tier: "A", package: "core"`)
	if len(wantA) == 0 {
		t.Fatal("corpus has no tier-A skill in package core")
	}
	waitRows(t, ctx, "#queue-table tbody tr", wantA)

	// Sort by skill id, descending: click the header twice.
	run(t, ctx, "sort", chromedp.Click(chromedp.CSS(`button[data-sort="id"]`)), chromedp.Sleep(300*time.Millisecond),
		chromedp.Click(chromedp.CSS(`button[data-sort="id"]`)))
	rev := append([]string{}, wantA...)
	for i, j := 0, len(rev)-1; i < j; i, j = i+1, j-1 {
		rev[i], rev[j] = rev[j], rev[i]
	}
	waitRows(t, ctx, "#queue-table tbody tr", rev)
	if got := attrs(t, ctx, `th[aria-sort]`, "aria-sort"); len(got) != 1 || got[0] != "descending" {
		t.Errorf("aria-sort = %v, want [descending]", got)
	}
}

func TestBrowserSkillDetailWitness(t *testing.T) {
	s := newSite(t, "")
	var want struct {
		Skill struct {
			Witness []string `json:"witness"`
			Steps   []struct {
				Automation *string `json:"automation"`
			} `json:"steps"`
		} `json:"skill"`
	}
	s.query(t, `{ skill(id: "open-change") { witness steps { automation } } }`, nil, &want)
	if len(want.Skill.Witness) < 2 {
		t.Fatalf("fixture: open-change witness %v is too short to test", want.Skill.Witness)
	}
	ctx := browser(t, 1280, 800)
	run(t, ctx, "open skill detail", chromedp.Navigate(s.srv.URL+"/#/skill/open-change"), chromedp.WaitVisible(chromedp.CSS(`#witness`)))
	got := attrs(t, ctx, "#witness [data-key]", "data-key")
	if strings.Join(got, " → ") != strings.Join(want.Skill.Witness, " → ") {
		t.Errorf("witness drawn %v, GraphQL %v", got, want.Skill.Witness)
	}
	// Each hop of the chain is a link to that node's view.
	hrefs := attrs(t, ctx, "#witness a", "href")
	if len(hrefs) != len(got) || hrefs[len(hrefs)-1] != "#/skill/open-change" {
		t.Errorf("witness links %v", hrefs)
	}
	// Its tools, alternatives with their selection, and who performs the step.
	if tools := attrs(t, ctx, ".tool.valid", "data-tool"); len(tools) != 2 {
		t.Errorf("valid tools %v, want github-pr-create and gitlab-mr-create", tools)
	}
	if sel := texts(t, ctx, ".alt .kv"); len(sel) != 2 || !strings.Contains(sel[0], "when") {
		t.Errorf("alternatives' selection %v", sel)
	}
	if perf := texts(t, ctx, "section[aria-labelledby=h-steps] .perf"); len(perf) != 1 || !strings.Contains(perf[0], "machine") {
		t.Errorf("step performer %v, want machine", perf)
	}

	// A contradicted skill spells out the contract mismatch.
	run(t, ctx, "open contradicted skill", chromedp.Navigate(s.srv.URL+"/#/skill/count-words"), chromedp.WaitVisible(chromedp.CSS(`.tool.contradicted`)))
	mm := texts(t, ctx, ".tool.contradicted .mismatch")
	if len(mm) != 1 || !strings.Contains(mm[0], "contract-type-mismatch") || !strings.Contains(mm[0], `"max"`) {
		t.Errorf("mismatch text %q", mm)
	}
	// The contract line says what it requires, or that it was not read.
	for id, want := range map[string]string{"validate-content": "requires targetPath", "count-words": "requires nothing", "import-data": "unreadable", "summarize-thread": "external"} {
		run(t, ctx, "open "+id, chromedp.Navigate(s.srv.URL+"/#/skill/"+id), chromedp.WaitVisible(chromedp.CSS(`#contract`)))
		if got := firstText(t, ctx, "#contract"); !strings.Contains(got, want) {
			t.Errorf("%s contract shown %q, want %q", id, got, want)
		}
	}
	// A skill named by both a machine and a person step shows both.
	run(t, ctx, "open split skill", chromedp.Navigate(s.srv.URL+"/#/skill/translate-strings"), chromedp.WaitVisible(chromedp.CSS(`section[aria-labelledby=h-steps] table`)))
	perf := strings.Join(texts(t, ctx, "section[aria-labelledby=h-steps] .perf"), " ")
	if !strings.Contains(perf, "machine") || !strings.Contains(perf, "person") {
		t.Errorf("translate-strings performers %q, want machine and person", perf)
	}
	var both struct {
		Skill struct{ BothHalves bool } `json:"skill"`
	}
	s.query(t, `{ skill(id: "translate-strings") { bothHalves } }`, nil, &both)
	if shown := len(texts(t, ctx, ".page-head .badge.both")) == 1; shown != both.Skill.BothHalves {
		t.Errorf("both-halves badge shown %v, GraphQL bothHalves %v", shown, both.Skill.BothHalves)
	}
}

func TestBrowserRecordVerdictSurvivesReingest(t *testing.T) {
	s := newSite(t, "")
	ctx := browser(t, 1280, 800)
	run(t, ctx, "open skill", chromedp.Navigate(s.srv.URL+"/#/skill/lint-docs"), chromedp.WaitVisible(chromedp.CSS(`#readonly-note`)))

	// A wrong token is refused and not kept.
	run(t, ctx, "wrong token",
		chromedp.Click(chromedp.CSS(`#signin`)),
		chromedp.SendKeys(chromedp.CSS(`#token-input`), "not-the-token"),
		chromedp.Click(chromedp.CSS(`#token-submit`)),
		chromedp.WaitVisible(chromedp.CSS(`#token-error`)))
	deadline := time.Now().Add(5 * time.Second)
	for !strings.Contains(strings.Join(texts(t, ctx, "#token-error"), ""), "refused") && time.Now().Before(deadline) {
		time.Sleep(100 * time.Millisecond)
	}
	if msg := texts(t, ctx, "#token-error"); len(msg) != 1 || !strings.Contains(msg[0], "refused") {
		t.Fatalf("wrong token message %v", msg)
	}

	// The right token turns the page into a maintainer's page.
	run(t, ctx, "sign in",
		chromedp.SendKeys(chromedp.CSS(`#token-input`), s.token),
		chromedp.Click(chromedp.CSS(`#token-submit`)),
		chromedp.WaitVisible(chromedp.CSS(`#verdict-form`)))
	if stored := eval[*string](t, ctx, "token kept in sessionStorage", `sessionStorage.getItem("skillgraph.token")`); stored == nil || *stored != s.token {
		t.Errorf("sessionStorage token not kept")
	}
	if local := eval[int](t, ctx, "token not in localStorage", `localStorage.length`); local != 0 {
		t.Errorf("localStorage holds %d items; the token belongs in sessionStorage only", local)
	}

	run(t, ctx, "record verdict",
		chromedp.Click(chromedp.CSS(`#verdict-judgement`)),
		chromedp.SendKeys(chromedp.CSS(`#verdict-note`), "The docs lint needs a person to judge which anchors matter."),
		chromedp.Click(chromedp.CSS(`#verdict-save`)),
		chromedp.WaitVisible(chromedp.CSS(`#verdict-now .verdict`)))
	if v := texts(t, ctx, "#verdict-now .verdict"); len(v) != 1 || v[0] != "judgement" {
		t.Fatalf("verdict shown %v, want judgement", v)
	}
	var before struct{ GraphVersion int }
	s.query(t, `{ graphVersion }`, nil, &before)

	// Re-ingest after a real edit of the skill's file.
	f := filepath.Join(s.corpus, "skills/core/lint-docs.md")
	b, err := os.ReadFile(f)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(f, append(b, []byte("\nEdited after the read.\n")...), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := s.svc.Ingest(context.Background()); err != nil {
		t.Fatal(err)
	}
	var after struct {
		GraphVersion int
		Skill        struct {
			Triage *struct{ Verdict, Note string }
		}
	}
	s.query(t, `{ graphVersion skill(id: "lint-docs") { triage { verdict note } } }`, nil, &after)
	if after.GraphVersion <= before.GraphVersion {
		t.Fatalf("re-ingest did not bump the graph version (%d → %d)", before.GraphVersion, after.GraphVersion)
	}
	if after.Skill.Triage == nil || after.Skill.Triage.Verdict != "judgement" {
		t.Fatalf("GraphQL lost the verdict on re-ingest: %+v", after.Skill.Triage)
	}

	run(t, ctx, "reload after re-ingest", chromedp.Reload(), chromedp.WaitVisible(chromedp.CSS(`#verdict-now .verdict`)))
	if v := texts(t, ctx, "#verdict-now .verdict"); len(v) != 1 || v[0] != "judgement" {
		t.Errorf("after re-ingest the page shows %v, want judgement", v)
	}
	if note := texts(t, ctx, "#verdict-now .note"); len(note) != 1 || !strings.Contains(note[0], "anchors matter") {
		t.Errorf("note after re-ingest %v", note)
	}
	if fv := texts(t, ctx, "#foot-version"); len(fv) != 1 || fv[0] != fmt.Sprintf("graph version %d", after.GraphVersion) {
		t.Errorf("footer %v, want graph version %d", fv, after.GraphVersion)
	}
	// The queue shows the read too.
	run(t, ctx, "queue shows the read", chromedp.Navigate(s.srv.URL+"/#/queue?tier=C"), chromedp.WaitVisible(chromedp.CSS(`#queue-table`)))
	if v := texts(t, ctx, `#queue-table tr[data-skill="lint-docs"] .verdict`); len(v) != 1 || v[0] != "judgement" {
		t.Errorf("queue read column %v", v)
	}
}

func TestBrowserReadOnlyWithoutToken(t *testing.T) {
	s := newSite(t, "")
	ctx := browser(t, 1280, 800)
	run(t, ctx, "open skill", chromedp.Navigate(s.srv.URL+"/#/skill/lint-docs"), chromedp.WaitVisible(chromedp.CSS(`#readonly-note`)))
	if note := firstText(t, ctx, "#readonly-note"); !strings.Contains(note, "Read-only") {
		t.Errorf("read-only note %q", note)
	}
	if n := attrs(t, ctx, "#verdict-form", "id"); len(n) != 0 {
		t.Error("the verdict form is offered without a token")
	}
	if b := texts(t, ctx, ".auth .badge"); len(b) != 1 || b[0] != "read-only" {
		t.Errorf("header badge %v, want read-only", b)
	}
	// The token check is a plain query: no mutation reaches the server.
	if msg := firstText(t, ctx, "#mutations-off"); msg != "" {
		t.Errorf("a server with a token says %q", msg)
	}
	// The server agrees: a mutation without the token is refused.
	res, err := http.Post(s.srv.URL+"/graphql", "application/json",
		strings.NewReader(`{"query":"mutation { recordTriage(skill: \"lint-docs\", verdict: split) { graphVersion } }"}`))
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusUnauthorized {
		t.Errorf("mutation without token: status %d, want 401", res.StatusCode)
	}
}

func TestBrowserViewsAndKeyboard(t *testing.T) {
	s := newSite(t, "")
	ctx := browser(t, 1280, 800)
	// The first Tab reaches the skip link, the next ones real links.
	run(t, ctx, "load", chromedp.Navigate(s.srv.URL+"/"), chromedp.WaitVisible(chromedp.CSS(`[data-count="C"]`)))
	var focused []string
	for i := 0; i < 4; i++ {
		run(t, ctx, "tab", chromedp.KeyEvent("\t"))
		focused = append(focused, eval[string](t, ctx, "focus", `document.activeElement.tagName + (document.activeElement.id ? "#" + document.activeElement.id : "")`))
	}
	if focused[0] != "A#skip-link" || focused[1] != "A" {
		t.Errorf("tab order starts %v, want the skip link then the brand link", focused)
	}
	// Enter on the C card opens the tier-C queue.
	run(t, ctx, "keyboard to queue", chromedp.Focus(chromedp.CSS(`[data-count="C"]`)), chromedp.KeyEvent("\r"),
		chromedp.WaitVisible(chromedp.CSS(`#queue-table`)))
	if tier := attrs(t, ctx, `#f-tier option:checked`, "value"); len(tier) != 1 || tier[0] != "C" {
		t.Errorf("queue tier after the C card: %v", tier)
	}

	// Unreachable view.
	var want struct {
		Reachability struct {
			CoveredNotReachable []struct{ ID string } `json:"coveredNotReachable"`
			UnreachableTools    []struct{ ID string } `json:"unreachableTools"`
		} `json:"reachability"`
	}
	s.query(t, `{ reachability { coveredNotReachable { id } unreachableTools { id } } }`, nil, &want)
	run(t, ctx, "unreachable", chromedp.Navigate(s.srv.URL+"/#/unreachable"), chromedp.WaitVisible(chromedp.CSS(`#ut-table`)))
	var wantCNR, wantUT []string
	for _, x := range want.Reachability.CoveredNotReachable {
		wantCNR = append(wantCNR, x.ID)
	}
	for _, x := range want.Reachability.UnreachableTools {
		wantUT = append(wantUT, x.ID)
	}
	if got := attrs(t, ctx, "#cnr-table tbody tr", "data-skill"); strings.Join(got, ",") != strings.Join(wantCNR, ",") {
		t.Errorf("covered-not-reachable %v, want %v", got, wantCNR)
	}
	if got := attrs(t, ctx, "#ut-table tbody tr", "data-tool"); strings.Join(got, ",") != strings.Join(wantUT, ",") {
		t.Errorf("unreachable tools %v, want %v", got, wantUT)
	}

	// Findings view, filtered by severity then code.
	var fw struct {
		Findings struct{ TotalCount int } `json:"findings"`
	}
	s.query(t, `{ findings(severity: WARNING, code: "tool-unreachable", first: 0) { totalCount } }`, nil, &fw)
	run(t, ctx, "findings", chromedp.Navigate(s.srv.URL+"/#/findings"), chromedp.WaitVisible(chromedp.CSS(`#findings-filters`)),
		chromedp.SetValue(chromedp.CSS(`#f-severity`), "WARNING"),
		chromedp.SendKeys(chromedp.CSS(`#f-code`), "tool-unreachable"),
		chromedp.Click(chromedp.CSS(`#ff-apply`)))
	deadline := time.Now().Add(10 * time.Second)
	for {
		codes := attrs(t, ctx, "table.findings tbody tr", "data-code")
		ok := len(codes) == fw.Findings.TotalCount
		for _, c := range codes {
			ok = ok && c == "tool-unreachable"
		}
		if ok {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("findings rows %v, want %d × tool-unreachable", codes, fw.Findings.TotalCount)
		}
		time.Sleep(100 * time.Millisecond)
	}

	// Tool and process views render with their witness and steps.
	run(t, ctx, "tool view", chromedp.Navigate(s.srv.URL+"/#/tool/github-pr-create"), chromedp.WaitVisible(chromedp.CSS(`#witness`)))
	if prog := firstText(t, ctx, "#program"); !strings.Contains(prog, "gh") {
		t.Errorf("program line %q, want gh", prog)
	}
	// The MCP column shows Tool.parity.ports as the API answers it.
	if p := firstText(t, ctx, "#mcp-parity"); !strings.Contains(p, "disagrees") || !strings.Contains(p, "github.create-pull-request") {
		t.Errorf("MCP parity %q, want disagrees with github.create-pull-request", p)
	}
	if cells := eval[string](t, ctx, "mcp column", `[...document.querySelectorAll("td.mcp-parity")].map((td) => td.textContent).join("|")`); cells != "agrees|mcp-parity-input" {
		t.Errorf("MCP column %q, want agrees|mcp-parity-input (title, branch)", cells)
	}
	run(t, ctx, "gated tool view", chromedp.Navigate(s.srv.URL+"/#/tool/github.create-pull-request"), chromedp.WaitVisible(chromedp.CSS(`#gated-by`)))
	if g := firstText(t, ctx, "#gated-by"); !strings.Contains(g, "mcp:github") {
		t.Errorf("gated by %q, want mcp:github", g)
	}
	run(t, ctx, "process view", chromedp.Navigate(s.srv.URL+"/#/process/Process_Release?step=Task_Review"), chromedp.WaitVisible(chromedp.CSS(`tr.highlight`)))
}

func TestBrowserPhoneLayout(t *testing.T) {
	s := newSite(t, "")
	ctx := browser(t, 390, 844)
	for _, view := range []struct{ hash, wait string }{
		{"#/", `[data-count="D"]`},
		{"#/queue", `#queue-table`},
		{"#/skill/open-change", `#witness`},
		{"#/skill/count-words", `.tool.contradicted`},
		{"#/unreachable", `#ut-table`},
		{"#/findings", `table.findings`},
		{"#/workflows", `#wf-list .chip`},
		{"#/workflows?profile=read-only", `#wf-list .chip.first-gap`},
	} {
		run(t, ctx, "load "+view.hash, chromedp.Navigate(s.srv.URL+"/"+view.hash), chromedp.WaitVisible(chromedp.CSS(view.wait)))
		noHorizontalOverflow(t, ctx, view.hash+" at 390px")
	}
}

// TestBrowserLargeQueuePaginates checks server-side paging on a generated
// corpus: 100 rows a page, Next walks the queue, nothing overflows.
func TestBrowserLargeQueuePaginates(t *testing.T) {
	if testing.Short() {
		t.Skip("large corpus: skipped with -short")
	}
	const n = 450
	dir := filepath.Join(t.TempDir(), "big")
	for i := range n {
		pkg := fmt.Sprintf("pkg-%02d", i%7)
		body := fmt.Sprintf("---\nname: skill-%04d\ndescription: Generated skill %d with a rather long description that must wrap rather than widen the page on a phone.\n---\n\n# Skill %d\n", i, i, i)
		if i%3 == 0 {
			body += "\n```sh\n./scripts/run-a-very-long-command-name-" + fmt.Sprint(i) + " --with-flags\n```\n"
		}
		p := filepath.Join(dir, "skills", pkg, fmt.Sprintf("skill-%04d.md", i))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	s := newSite(t, dir)
	ctx := browser(t, 390, 844)
	run(t, ctx, "queue", chromedp.Navigate(s.srv.URL+"/#/queue"), chromedp.WaitVisible(chromedp.CSS(`#queue-next`)))
	if rows := attrs(t, ctx, "#queue-table tbody tr", "data-skill"); len(rows) != 100 {
		t.Fatalf("first page has %d rows, want 100", len(rows))
	}
	if r := firstText(t, ctx, "#queue-range"); r != fmt.Sprintf("Skills 1–100 of %d", n) {
		t.Errorf("range %q", r)
	}
	noHorizontalOverflow(t, ctx, "queue of a large corpus at 390px")
	firstPage := attrs(t, ctx, "#queue-table tbody tr", "data-skill")
	// Walk to the last page: tier C (150 skills) spills into tier D.
	for page := 2; page <= 5; page++ {
		run(t, ctx, "next page", chromedp.Click(chromedp.CSS(`#queue-next`)))
		want := fmt.Sprintf("Skills %d–%d of %d", (page-1)*100+1, min(page*100, n), n)
		deadline := time.Now().Add(10 * time.Second)
		for firstText(t, ctx, "#queue-range") != want && time.Now().Before(deadline) {
			time.Sleep(100 * time.Millisecond)
		}
		if got := firstText(t, ctx, "#queue-range"); got != want {
			t.Fatalf("page %d range %q, want %q", page, got, want)
		}
	}
	last := attrs(t, ctx, "#queue-table tbody tr", "data-skill")
	if len(last) != n-400 || last[0] == firstPage[0] {
		t.Errorf("last page rows %d (first %v)", len(last), last[:1])
	}
	if next := attrs(t, ctx, "#queue-next", "id"); len(next) != 0 {
		t.Error("Next offered on the last page")
	}
	tiers := texts(t, ctx, "#queue-table tbody tr td:first-child .badge")
	if tiers[len(tiers)-1] != "D" {
		t.Errorf("last row tier %q, want D (queue order C, A, B, D)", tiers[len(tiers)-1])
	}
}

// TestBrowserRulesFromTheAPI: the queue names its tiers in the API's
// triage order and the findings view explains a code with the registry's
// own entry (Query.triageOrder, Query.findingRules), so the page re-derives
// neither.
func TestBrowserRulesFromTheAPI(t *testing.T) {
	s := newSite(t, "")
	var r struct {
		Order []string `json:"triageOrder"`
		Rule  struct {
			Code, Spec, Means string
		} `json:"findingRule"`
		Findings struct {
			Nodes []struct{ Code string } `json:"nodes"`
		} `json:"findings"`
	}
	s.query(t, `{ triageOrder findings(first: 1) { nodes { code } } }`, nil, &r)
	if len(r.Findings.Nodes) == 0 {
		t.Fatal("the test corpus has no finding")
	}
	code := r.Findings.Nodes[0].Code
	s.query(t, `query($c: String!) { triageOrder findingRule(code: $c) { code spec means } }`, map[string]any{"c": code}, &r)
	ctx := browser(t, 1280, 800)
	run(t, ctx, "load queue", chromedp.Navigate(s.srv.URL+"/#/queue"), chromedp.WaitVisible(chromedp.CSS(`#queue-table`)))
	var opts []string
	for _, v := range attrs(t, ctx, `#f-tier option`, "value") {
		if v != "" && v != "covered" && v != "contradicted" {
			opts = append(opts, v)
		}
	}
	if strings.Join(opts, "") != strings.Join(r.Order, "") {
		t.Errorf("tier filter lists %v, want the API's triage order %v", opts, r.Order)
	}
	run(t, ctx, "load findings of one code", chromedp.Navigate(s.srv.URL+"/#/findings?code="+code), chromedp.WaitVisible(chromedp.CSS(`#finding-help`)))
	help := firstText(t, ctx, "#finding-help")
	if !strings.Contains(help, r.Rule.Means) || !strings.Contains(help, r.Rule.Spec) {
		t.Errorf("finding help %q, want the registry's meaning %q and section %s", help, r.Rule.Means, r.Rule.Spec)
	}
}
