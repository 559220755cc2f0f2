package server_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
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

// getReady reads /readyz.
func getReady(t *testing.T, url string) (int, server.Readiness) {
	t.Helper()
	res, err := http.Get(url + "/readyz")
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	var rd server.Readiness
	if err := json.Unmarshal(b, &rd); err != nil {
		t.Fatalf("/readyz %d: not JSON: %s", res.StatusCode, b)
	}
	return res.StatusCode, rd
}

// TestReadyOnlyOnceTheCorpusIsServed: on a new store, /readyz is 503 while
// the first ingest runs (version 0, no skills served) and 200 once the
// corpus is answered from; on a warm store it is 200 at once, before the
// re-ingest. The ingest is held mid-conversion by its progress callback, so
// the not-ready state is observed for certain, not by timing.
func TestReadyOnlyOnceTheCorpusIsServed(t *testing.T) {
	const skills = 200
	root := filepath.Join(t.TempDir(), "corpus")
	if _, err := gen.Write(root, gen.Options{Skills: skills, Seed: 1}); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	st, err := graph.Open(ctx, "memory")
	if err != nil {
		t.Fatal(err)
	}
	schema, err := api.NewSchema()
	if err != nil {
		t.Fatal(err)
	}
	serve := func(opt ingest.Options) (*server.Service, *httptest.Server) {
		svc := server.NewService(st, []string{root}, opt, nil, nil)
		srv := httptest.NewServer(server.Handler(svc, schema, server.DefaultConfig(), nil, nil))
		t.Cleanup(srv.Close)
		if _, err := svc.Refresh(ctx); err != nil { // what `serve` does before its ingest
			t.Fatal(err)
		}
		return svc, srv
	}

	t.Run("cold store", func(t *testing.T) {
		converting, release := make(chan struct{}), make(chan struct{})
		var once sync.Once
		hold := func(int, int) {
			once.Do(func() { close(converting) })
			<-release
		}
		svc, srv := serve(ingest.Options{Progress: hold})
		ingested := make(chan error, 1)
		go func() { _, err := svc.Ingest(ctx); ingested <- err }()
		<-converting
		code, rd := getReady(t, srv.URL)
		if code != http.StatusServiceUnavailable || rd.Ready || rd.Version != 0 || rd.Skills != 0 || rd.Reason == "" {
			t.Fatalf("during the first ingest: %d %+v, want 503 at version 0 with a reason", code, rd)
		}
		if res, err := http.Get(srv.URL + "/healthz"); err != nil || res.StatusCode != 200 {
			t.Fatalf("/healthz during the first ingest: %v %v", res, err)
		}
		close(release)
		if err := svc.WaitFor(ctx, func(_ *queries.Snapshot, rd server.Readiness) bool { return rd.Ready }); err != nil {
			t.Fatal(err)
		}
		code, rd = getReady(t, srv.URL)
		if code != 200 || !rd.Ready || rd.Version < 1 || rd.Skills != skills || !rd.Durable {
			t.Fatalf("after the first ingest: %d %+v, want 200 with %d skills", code, rd, skills)
		}
		if err := <-ingested; err != nil {
			t.Fatal(err)
		}
	})

	t.Run("warm store", func(t *testing.T) {
		// No ingest runs here: the store's graph alone makes it ready.
		_, srv := serve(ingest.Options{})
		code, rd := getReady(t, srv.URL)
		if code != 200 || rd.Version < 1 || rd.Skills != skills {
			t.Fatalf("warm start: %d %+v, want 200 at once with %d skills", code, rd, skills)
		}
	})

	t.Run("failed first ingest", func(t *testing.T) {
		st2, _ := graph.Open(ctx, "memory")
		svc := server.NewService(st2, []string{filepath.Join(root, "nope")}, ingest.Options{}, nil, nil)
		srv := httptest.NewServer(server.Handler(svc, schema, server.DefaultConfig(), nil, nil))
		defer srv.Close()
		if _, err := svc.Refresh(ctx); err != nil {
			t.Fatal(err)
		}
		if _, err := svc.Ingest(ctx); err == nil {
			t.Fatal("ingest of a missing corpus succeeded")
		}
		code, rd := getReady(t, srv.URL)
		if code != http.StatusServiceUnavailable || rd.Reason == "" {
			t.Fatalf("after a failed first ingest: %d %+v, want 503 saying why", code, rd)
		}
	})
}

// TestReplicaOnAnEmptyStoreIsNotReady: a read-only replica over a store
// that holds no version (nothing was ever ingested into it: a typo'd or not
// yet written database) says 503, naming the store, rather than ready at
// version 0 with an empty graph; once a writer commits, it is ready.
func TestReplicaOnAnEmptyStoreIsNotReady(t *testing.T) {
	ctx := context.Background()
	st, err := graph.Open(ctx, "memory")
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	schema, err := api.NewSchema()
	if err != nil {
		t.Fatal(err)
	}
	replica := server.NewService(st, nil, ingest.Options{}, nil, nil)
	srv := httptest.NewServer(server.Handler(replica, schema, server.DefaultConfig(), nil, nil))
	defer srv.Close()
	if _, err := replica.Refresh(ctx); err != nil {
		t.Fatal(err)
	}
	code, rd := getReady(t, srv.URL)
	if code != http.StatusServiceUnavailable || rd.Ready || !strings.Contains(rd.Reason, "memory") || !strings.Contains(rd.Reason, "no graph version") {
		t.Fatalf("replica on an empty store: %d %+v, want 503 naming the store and saying it holds no version", code, rd)
	}
	writer := server.NewService(st, []string{copyTree(t, testCorpus)}, ingest.Options{}, nil, nil)
	if _, err := writer.Ingest(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := replica.Refresh(ctx); err != nil { // what Poll does
		t.Fatal(err)
	}
	if code, rd := getReady(t, srv.URL); code != http.StatusOK || !rd.Ready || rd.Version < 1 {
		t.Fatalf("replica after the writer's first commit: %d %+v, want 200", code, rd)
	}
}
