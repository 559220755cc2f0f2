package server_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/skillgraph/skillgraph/api"
	"github.com/skillgraph/skillgraph/api/server"
	"github.com/skillgraph/skillgraph/graph"
	"github.com/skillgraph/skillgraph/graph/ingest"
	"github.com/skillgraph/skillgraph/ingest/gen"
	"github.com/skillgraph/skillgraph/queries"
)

// earlyQuery is answered before and after durability: a few of every
// analysis, so equal bodies mean equal answers.
const earlyQuery = `{ graphVersion skills(first: 5) { totalCount nodes { id } } coverage { total } findings(first: 5) { totalCount nodes { code file line } } }`

// postQuery sends a GraphQL query and returns status, headers and body.
func postQuery(t *testing.T, url, query string, hdr map[string]string) (int, http.Header, []byte) {
	t.Helper()
	body, _ := json.Marshal(map[string]string{"query": query})
	req, _ := http.NewRequest(http.MethodPost, url+"/graphql", bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	for k, v := range hdr {
		req.Header.Set(k, v)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res.StatusCode, res.Header, b
}

// held starts a service on a new bbolt store whose early ingest stops
// before its store write until release is closed.
type held struct {
	svc      *server.Service
	st       *graph.Store
	srv      *httptest.Server
	writing  chan struct{} // closed when the early snapshot is served and the write is about to start
	release  chan struct{}
	ingested chan error
	res      ingest.Result
}

func startHeld(t *testing.T, ctx context.Context, root string) *held {
	t.Helper()
	st, err := graph.Open(ctx, "bbolt:"+filepath.Join(t.TempDir(), "g.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	schema, err := api.NewSchema()
	if err != nil {
		t.Fatal(err)
	}
	h := &held{st: st, writing: make(chan struct{}), release: make(chan struct{}), ingested: make(chan error, 1)}
	h.svc = server.NewService(st, []string{root}, ingest.Options{}, nil, nil)
	var once sync.Once
	server.SetBeforeWrite(h.svc, func() {
		once.Do(func() {
			close(h.writing)
			<-h.release
		})
	})
	cfg := server.DefaultConfig()
	cfg.Token = "s3cret"
	h.srv = httptest.NewServer(server.Handler(h.svc, schema, cfg, nil, server.NewMetrics()))
	t.Cleanup(h.srv.Close)
	if _, err := h.svc.Refresh(ctx); err != nil {
		t.Fatal(err)
	}
	go func() {
		var err error
		h.res, err = h.svc.IngestEarly(ctx)
		h.ingested <- err
	}()
	select {
	case <-h.writing:
	case err := <-h.ingested:
		t.Fatalf("the early ingest ended before its write: %v", err)
	}
	return h
}

// TestAnswersBeforeDurability: a cold start serves the converted corpus
// while its store write runs — /readyz 200 with "durable": false and the
// version the write will commit, /graphql answers marked not durable,
// mutations and the export refused with 503 + Retry-After — and once the
// write commits /readyz turns durable (observed by event) at that version,
// with the same answers as before and as a snapshot read from the store.
func TestAnswersBeforeDurability(t *testing.T) {
	const skills = 120
	root := filepath.Join(t.TempDir(), "corpus")
	if _, err := gen.Write(root, gen.Options{Skills: skills, Seed: 3}); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	h := startHeld(t, ctx, root)

	code, rd := getReady(t, h.srv.URL)
	if code != 200 || !rd.Ready || rd.Durable || rd.Version != 1 || rd.Skills != skills || rd.Reason == "" {
		t.Fatalf("/readyz during the write: %d %+v, want 200, not durable, version 1, %d skills, a reason", code, rd, skills)
	}
	code, hdr, before := postQuery(t, h.srv.URL, earlyQuery, nil)
	if code != 200 || hdr.Get("Skillgraph-Durable") != "false" || !bytes.Contains(before, []byte(`"totalCount":120`)) {
		t.Fatalf("/graphql during the write: %d %s=%q %s", code, "Skillgraph-Durable", hdr.Get("Skillgraph-Durable"), before)
	}
	etagBefore := hdr.Get("ETag")
	durableMetric(t, h.srv.URL, "0")
	mut := `mutation { recordTriage(skill: "` + firstSkill(t, before) + `", verdict: judgement) { graphVersion } }`
	code, hdr, b := postQuery(t, h.srv.URL, mut, map[string]string{"Authorization": "Bearer s3cret"})
	if code != http.StatusServiceUnavailable || hdr.Get("Retry-After") == "" {
		t.Fatalf("a mutation during the write: %d Retry-After %q %s, want 503 with Retry-After", code, hdr.Get("Retry-After"), b)
	}
	for _, path := range []string{"/export?format=nquads", "/id/skill/" + firstSkill(t, before)} {
		req, _ := http.NewRequest(http.MethodGet, h.srv.URL+path, nil)
		req.Header.Set("Accept", "application/ld+json")
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if res.StatusCode != http.StatusServiceUnavailable || res.Header.Get("Retry-After") == "" {
			t.Fatalf("%s during the write: %d, want 503 with Retry-After", path, res.StatusCode)
		}
	}

	close(h.release)
	if err := h.svc.WaitFor(ctx, func(_ *queries.Snapshot, rd server.Readiness) bool { return rd.Durable }); err != nil {
		t.Fatal(err)
	}
	if err := <-h.ingested; err != nil || h.res.Version != 1 {
		t.Fatalf("early ingest: version %d, %v", h.res.Version, err)
	}
	code, rd = getReady(t, h.srv.URL)
	if code != 200 || !rd.Ready || !rd.Durable || rd.Version != 1 || rd.Skills != skills || rd.Reason != "" {
		t.Fatalf("/readyz after the write: %d %+v, want 200, durable, version 1", code, rd)
	}
	code, hdr, after := postQuery(t, h.srv.URL, earlyQuery, nil)
	if code != 200 || hdr.Get("Skillgraph-Durable") != "true" || !bytes.Equal(before, after) {
		t.Fatalf("/graphql after the write: %d durable %q\nbefore %s\nafter  %s", code, hdr.Get("Skillgraph-Durable"), before, after)
	}
	durableMetric(t, h.srv.URL, "1")
	if hdr.Get("ETag") == etagBefore {
		t.Fatalf("the durable answer kept the early ETag %s", etagBefore)
	}
	// The store's own snapshot answers the same.
	replica := server.NewService(h.st, nil, ingest.Options{}, nil, nil)
	if _, err := replica.Refresh(ctx); err != nil {
		t.Fatal(err)
	}
	schema, _ := api.NewSchema()
	rs := httptest.NewServer(server.Handler(replica, schema, server.DefaultConfig(), nil, nil))
	defer rs.Close()
	if _, _, fromStore := postQuery(t, rs.URL, earlyQuery, nil); !bytes.Equal(before, fromStore) {
		t.Fatalf("the early answers differ from the store's\nearly %s\nstore %s", before, fromStore)
	}
	code, _, b = postQuery(t, h.srv.URL, mut, map[string]string{"Authorization": "Bearer s3cret"})
	if code != 200 || bytes.Contains(b, []byte(`"errors"`)) {
		t.Fatalf("a mutation once durable: %d %s", code, b)
	}
}

// TestWatchWaitsForTheEarlyWrite: an edit re-ingested while the early
// write runs (what --watch does) is serialised after it: the write
// commits version 1 with the corpus as first read, the edit version 2.
func TestWatchWaitsForTheEarlyWrite(t *testing.T) {
	root := filepath.Join(t.TempDir(), "corpus")
	if _, err := gen.Write(root, gen.Options{Skills: 60, Seed: 4}); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	h := startHeld(t, ctx, root)
	skills := h.svc.Snapshot().Skills
	gone := filepath.Join(root, filepath.FromSlash(skills[0].Source.Path))
	if err := os.Remove(gone); err != nil {
		t.Fatal(err)
	}
	watched := make(chan ingest.Result, 1)
	go func() {
		res, err := h.svc.IngestPaths(ctx, []string{gone})
		if err != nil {
			t.Error(err)
		}
		watched <- res
	}()
	close(h.release)
	if err := <-h.ingested; err != nil || h.res.Version != 1 || h.res.Removed != 0 {
		t.Fatalf("early ingest: %+v, %v; want version 1 with nothing removed", h.res, err)
	}
	res := <-watched
	if res.Version != 2 || res.Removed != 1 {
		t.Fatalf("the watched edit: version %d, removed %d; want version 2 removing the file", res.Version, res.Removed)
	}
	rd := h.svc.Readiness()
	if !rd.Durable || rd.Version != 2 || rd.Skills != len(skills)-1 {
		t.Fatalf("after both: %+v, want durable version 2 with %d skills", rd, len(skills)-1)
	}
}

// firstSkill is the id of the first skill in an earlyQuery answer.
func firstSkill(t *testing.T, body []byte) string {
	t.Helper()
	var r struct {
		Data struct {
			Skills struct {
				Nodes []struct{ ID string } `json:"nodes"`
			} `json:"skills"`
		} `json:"data"`
	}
	if err := json.Unmarshal(body, &r); err != nil || len(r.Data.Skills.Nodes) == 0 {
		t.Fatalf("no skill in %s: %v", body, err)
	}
	return strings.TrimSpace(r.Data.Skills.Nodes[0].ID)
}

// durableMetric checks skillgraph_graph_durable on /metrics.
func durableMetric(t *testing.T, url, want string) {
	t.Helper()
	res, err := http.Get(url + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if !strings.Contains(string(b), "\nskillgraph_graph_durable "+want+"\n") {
		t.Fatalf("/metrics: want skillgraph_graph_durable %s", want)
	}
}
