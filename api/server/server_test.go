package server_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/cayleygraph/quad"
	"github.com/cayleygraph/quad/nquads"

	"github.com/skillgraph/skillgraph/api"
	"github.com/skillgraph/skillgraph/api/server"
	"github.com/skillgraph/skillgraph/api/server/servertest"
	"github.com/skillgraph/skillgraph/graph"
	"github.com/skillgraph/skillgraph/jsonld"
)

const testCorpus = "../../ingest/testdata/mini"

type env struct {
	srv   *servertest.Server
	svc   *server.Service
	store *graph.Store
	root  string
}

func copyTree(t *testing.T, src string) string {
	t.Helper()
	return servertest.CopyTree(t, src)
}

// start serves a private copy of the test corpus.
func start(t *testing.T, token string, mutate func(*server.Config)) *env {
	t.Helper()
	srv := servertest.Start(t, servertest.Options{
		Corpus:  copyTree(t, testCorpus),
		Metrics: server.NewMetrics(),
		Config: func(c *server.Config) {
			c.Token = token
			if mutate != nil {
				mutate(c)
			}
		},
	})
	return &env{srv: srv, svc: srv.Service, store: srv.Store, root: srv.Corpus}
}

type gqlResp struct {
	Data   map[string]any   `json:"data"`
	Errors []map[string]any `json:"errors"`
}

func (e *env) post(t *testing.T, query string, headers map[string]string) (int, gqlResp, http.Header) {
	t.Helper()
	body, _ := json.Marshal(map[string]any{"query": query})
	return postGraphQL(t, e.srv.URL, "application/json", body, headers)
}

// postGraphQL posts a body to /graphql and decodes the GraphQL response.
func postGraphQL(t *testing.T, url, ctype string, body []byte, headers map[string]string) (int, gqlResp, http.Header) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPost, url+"/graphql", bytes.NewReader(body))
	req.Header.Set("Content-Type", ctype)
	for k, v := range headers {
		req.Header.Set(k, v)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var out gqlResp
	b, _ := io.ReadAll(res.Body)
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatalf("status %d, response is not JSON: %.200s", res.StatusCode, b)
	}
	return res.StatusCode, out, res.Header
}

func TestQueryFamilies(t *testing.T) {
	e := start(t, "", nil)
	code, r, _ := e.post(t, `{
	  graphVersion
	  coverage { total uncovered covered { id } tiers { tier count skills { skill { id } evidence } } }
	  reachability { roots coveredNotReachable { id } path(from: "process:Process_Release", to: "tool:gh") }
	  alternatives { groups { skill { id } } }
	  skill(id: "open-change") { id covered reachable witness tools { id } steps { id automation } }
	  tool(id: "gh") { id satisfies { id } inputs { name jsonType required arg } }
	  skills(first: 1) { totalCount edges { cursor node { id } } pageInfo { hasNextPage endCursor } }
	  findings(first: 5) { totalCount }
	  search(text: "review") { ... on Skill { id } }
	  sources { path parser }
	}`, nil)
	if code != 200 || len(r.Errors) > 0 {
		t.Fatalf("status %d errors %v", code, r.Errors)
	}
	d := r.Data
	cov := d["coverage"].(map[string]any)
	if cov["total"].(float64) != 2 || cov["uncovered"].(float64) != 1 {
		t.Errorf("coverage %v", cov)
	}
	path := d["reachability"].(map[string]any)["path"].([]any)
	if len(path) != 4 || path[3] != "tool:gh" {
		t.Errorf("path %v", path)
	}
	sk := d["skill"].(map[string]any)
	if sk["covered"] != true || sk["reachable"] != true {
		t.Errorf("skill %v", sk)
	}
	conn := d["skills"].(map[string]any)
	if conn["totalCount"].(float64) != 2 || len(conn["edges"].([]any)) != 1 || conn["pageInfo"].(map[string]any)["hasNextPage"] != true {
		t.Errorf("connection %v", conn)
	}
	// Second page through the cursor.
	after := conn["pageInfo"].(map[string]any)["endCursor"].(string)
	_, r2, _ := e.post(t, `{ skills(first: 5, after: "`+after+`") { edges { node { id } } pageInfo { hasNextPage } } }`, nil)
	edges := r2.Data["skills"].(map[string]any)["edges"].([]any)
	if len(edges) != 1 || edges[0].(map[string]any)["node"].(map[string]any)["id"] != "review" {
		t.Errorf("second page %v", edges)
	}
	// Filters.
	_, r3, _ := e.post(t, `{ skills(tier: "B") { totalCount nodes { id } } tools(reachable: true) { totalCount } }`, nil)
	if r3.Data["skills"].(map[string]any)["totalCount"].(float64) != 1 {
		t.Errorf("tier filter %v", r3.Data)
	}
	if s := d["search"].([]any); len(s) != 1 {
		t.Errorf("search %v", s)
	}
}

func TestLimits(t *testing.T) {
	e := start(t, "", func(c *server.Config) {
		c.Limits = api.Limits{MaxDepth: 6, MaxCost: 2000}
		c.MaxBodyBytes = 4096
	})
	cases := []struct{ name, query, want string }{
		{"depth", `{ skill(id: "review") { tools { satisfies { tools { satisfies { tools { id } } } } } } }`, "depth"},
		{"cost", `{ skills(first: 500) { edges { node { tools { alternatives { id title } } } } } }`, "cost"},
		{"page size", `{ skills(first: 100000) { totalCount } }`, "cost"},
		{"bad cursor", `{ skills(after: "nope") { totalCount } }`, "cursor"},
		{"syntax", `{ skills(`, "Syntax Error"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			code, r, _ := e.post(t, c.query, nil)
			if code != 200 || len(r.Errors) == 0 || !strings.Contains(strings.ToLower(r.Errors[0]["message"].(string)), strings.ToLower(c.want)) {
				t.Fatalf("status %d errors %v, want an error about %s", code, r.Errors, c.want)
			}
		})
	}
	t.Run("body", func(t *testing.T) {
		big := `{"query": "{ graphVersion }", "variables": {"x": "` + strings.Repeat("a", 10000) + `"}}`
		res, err := http.Post(e.srv.URL+"/graphql", "application/json", strings.NewReader(big))
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if res.StatusCode != http.StatusRequestEntityTooLarge {
			t.Fatalf("status %d, want 413", res.StatusCode)
		}
	})
	t.Run("graphql-response+json", func(t *testing.T) {
		code, _, h := e.post(t, `{ nope }`, map[string]string{"Accept": "application/graphql-response+json"})
		if code != 400 || !strings.HasPrefix(h.Get("Content-Type"), "application/graphql-response+json") {
			t.Fatalf("status %d type %s", code, h.Get("Content-Type"))
		}
	})
}

// TestWrongTokensRateLimited (issue #28 row 15): a client may present
// TokenFailureBurst wrong tokens, then gets 429 with Retry-After, for the
// right token too (the answer says nothing about it), on mutations and
// queries alike; requests without a token are not affected. Before, wrong
// tokens were answered 403 without limit.
func TestWrongTokensRateLimited(t *testing.T) {
	m := `mutation { recordTriage(skill: "review", verdict: judgement, note: "n") { graphVersion } }`
	e := start(t, "s3cret", nil)
	for i := range server.TokenFailureBurst {
		if code, _, _ := e.post(t, m, map[string]string{"Authorization": "Bearer wrong"}); code != 403 {
			t.Fatalf("wrong token %d: status %d, want 403", i+1, code)
		}
	}
	for _, c := range []struct {
		name, query, token string
	}{
		{"wrong token", m, "wrong"},
		{"right token", m, "s3cret"},
		{"query with a token", "{ graphVersion }", "wrong"},
	} {
		code, r, h := e.post(t, c.query, map[string]string{"Authorization": "Bearer " + c.token})
		if code != 429 || h.Get("Retry-After") == "" || len(r.Errors) == 0 {
			t.Fatalf("%s past the bound: status %d, Retry-After %q, errors %v", c.name, code, h.Get("Retry-After"), r.Errors)
		}
	}
	if code, _, _ := e.post(t, "{ graphVersion }", nil); code != 200 {
		t.Fatalf("a query without a token: status %d", code)
	}
}

func TestMutationAuth(t *testing.T) {
	m := `mutation { recordTriage(skill: "review", verdict: judgement, note: "a person reads it") { graphVersion } }`
	t.Run("disabled without a configured token", func(t *testing.T) {
		e := start(t, "", nil)
		if code, _, _ := e.post(t, m, map[string]string{"Authorization": "Bearer x"}); code != 403 {
			t.Fatalf("status %d, want 403", code)
		}
	})
	e := start(t, "s3cret", nil)
	if code, _, h := e.post(t, m, nil); code != 401 || h.Get("WWW-Authenticate") == "" {
		t.Fatalf("missing token: status %d", code)
	}
	if code, _, _ := e.post(t, m, map[string]string{"Authorization": "Bearer wrong"}); code != 403 {
		t.Fatalf("wrong token: status %d", code)
	}
	code, r, _ := e.post(t, m, map[string]string{"Authorization": "Bearer s3cret"})
	if code != 200 || len(r.Errors) > 0 {
		t.Fatalf("status %d errors %v", code, r.Errors)
	}
	// The decision survives a re-ingest after an edit.
	p := filepath.Join(e.root, "skills/core/open-change.md")
	b, _ := os.ReadFile(p)
	_ = os.WriteFile(p, append(b, []byte("\nMore prose.\n")...), 0o644)
	if _, err := e.svc.Ingest(context.Background()); err != nil {
		t.Fatal(err)
	}
	_, r, _ = e.post(t, `{ skill(id: "review") { triage { verdict note } } }`, nil)
	tr := r.Data["skill"].(map[string]any)["triage"].(map[string]any)
	if tr["verdict"] != "judgement" || tr["note"] != "a person reads it" {
		t.Fatalf("triage after re-ingest: %v", tr)
	}
	// And it is part of the export.
	res, _ := http.Get(e.srv.URL + "/export")
	all, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if !strings.Contains(string(all), "TriageDecision") {
		t.Fatal("triage decision missing from the export")
	}
	// GET cannot mutate.
	res, _ = http.Get(e.srv.URL + "/graphql?query=" + strings.ReplaceAll(m, " ", "%20"))
	res.Body.Close()
	if res.StatusCode != http.StatusMethodNotAllowed {
		t.Fatalf("mutation over GET: %d", res.StatusCode)
	}
}

func readNQuads(t *testing.T, b []byte) []string {
	t.Helper()
	r := nquads.NewReader(bytes.NewReader(b), false)
	var out []string
	for {
		q, err := r.ReadQuad()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, graph.Normalize(q).NQuad())
	}
	sort.Strings(out)
	return out
}

func TestExportRoundTrip(t *testing.T) {
	e := start(t, "", nil)
	get := func(accept string) []byte {
		req, _ := http.NewRequest(http.MethodGet, e.srv.URL+"/export", nil)
		req.Header.Set("Accept", accept)
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		if !strings.HasPrefix(res.Header.Get("Content-Type"), accept) {
			t.Fatalf("Accept %s answered with %s", accept, res.Header.Get("Content-Type"))
		}
		b, _ := io.ReadAll(res.Body)
		return b
	}
	nq := readNQuads(t, get("application/n-quads"))
	if len(nq) < 50 {
		t.Fatalf("export has only %d quads", len(nq))
	}
	// N-Quads → a fresh store → N-Quads again: the same quads. The data has
	// no blank nodes, so graph isomorphism is set equality here.
	ctx := context.Background()
	st2, _ := graph.Open(ctx, "memory")
	var qs []quad.Quad
	for _, line := range nq {
		q, err := nquads.Parse(line)
		if err != nil {
			t.Fatal(err)
		}
		qs = append(qs, q)
	}
	byGraph := map[string][]quad.Quad{}
	for _, q := range qs {
		byGraph[quad.ToString(q.Label)] = append(byGraph[quad.ToString(q.Label)], q)
	}
	var changes []graph.Change
	for g, gq := range byGraph {
		changes = append(changes, graph.Change{Graph: strings.Trim(g, "<>"), Quads: gq})
	}
	if _, err := st2.Apply(ctx, changes); err != nil {
		t.Fatal(err)
	}
	var again bytes.Buffer
	if _, err := st2.WriteNQuads(ctx, &again); err != nil {
		t.Fatal(err)
	}
	if got := readNQuads(t, again.Bytes()); strings.Join(got, "\n") != strings.Join(nq, "\n") {
		t.Fatalf("N-Quads round trip differs: %d vs %d quads", len(got), len(nq))
	}
	// JSON-LD → RDF: the same quads.
	var doc any
	if err := json.Unmarshal(get("application/ld+json"), &doc); err != nil {
		t.Fatal(err)
	}
	back, err := jsonld.ToQuads(doc, "")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, q := range back {
		got = append(got, graph.Normalize(q).NQuad())
	}
	sort.Strings(got)
	if strings.Join(got, "\n") != strings.Join(nq, "\n") {
		t.Fatalf("JSON-LD round trip differs: %d vs %d quads\nfirst got:  %v\nfirst want: %v", len(got), len(nq), got[:3], nq[:3])
	}
}

func TestDereferenceAndFrame(t *testing.T) {
	e := start(t, "", nil)
	req, _ := http.NewRequest(http.MethodGet, e.srv.URL+"/id/tool/gh", nil)
	req.Header.Set("Accept", "application/ld+json")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	var node map[string]any
	_ = json.NewDecoder(res.Body).Decode(&node)
	res.Body.Close()
	if node["id"] != "urn:skillgraph:mini#tool/gh" || node["hasInput"] == nil {
		t.Fatalf("framed tool: %v", node)
	}
	// A skill's IRI carries its package; the bare name and package/name
	// both dereference to the skill node (issue #11).
	for _, p := range []string{"/id/skill/review", "/id/skill/core/review"} {
		req, _ := http.NewRequest(http.MethodGet, e.srv.URL+p, nil)
		req.Header.Set("Accept", "application/ld+json")
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		var sk map[string]any
		_ = json.NewDecoder(res.Body).Decode(&sk)
		res.Body.Close()
		if res.StatusCode != 200 || sk["id"] != "urn:skillgraph:mini#skill/core/review" || sk["type"] != "Skill" {
			t.Errorf("%s: %d %v", p, res.StatusCode, sk)
		}
	}
	client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	req, _ = http.NewRequest(http.MethodGet, e.srv.URL+"/id/skill/review", nil)
	req.Header.Set("Accept", "text/html")
	res, _ = client.Do(req)
	res.Body.Close()
	if res.StatusCode != http.StatusSeeOther || res.Header.Get("Location") != "/#/skill/review" {
		t.Fatalf("browser dereference: %d %s", res.StatusCode, res.Header.Get("Location"))
	}
	res, _ = http.Get(e.srv.URL + "/id/tool/nope")
	res.Body.Close()
	if res.StatusCode != 404 {
		t.Fatalf("unknown id: %d", res.StatusCode)
	}
	for _, p := range []string{"/ns", "/context.jsonld", "/healthz", "/readyz", "/metrics"} {
		res, _ := http.Get(e.srv.URL + p)
		res.Body.Close()
		if res.StatusCode != 200 {
			t.Errorf("%s: %d", p, res.StatusCode)
		}
	}
}
