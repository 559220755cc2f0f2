// Package servertest starts a skillgraph HTTP server over a corpus for tests
// of the server and of the page: one helper, so every test runs the same
// composition of store, service, schema and routes that `serve` runs.
package servertest

import (
	"context"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"

	"github.com/skillgraph/skillgraph/api"
	"github.com/skillgraph/skillgraph/api/server"
	"github.com/skillgraph/skillgraph/graph"
	"github.com/skillgraph/skillgraph/graph/ingest"
)

// Options say what to serve. The zero value serves nothing useful: Corpus is
// required.
type Options struct {
	// Corpus is the corpus directory, served in place (use CopyTree first
	// when the test edits it).
	Corpus string
	// Store is the store URL; "" is a memory store.
	Store string
	// Config changes the server's default configuration (token, page,
	// limits) before the handler is built.
	Config func(*server.Config)
	// Metrics, if set, is passed to the service and the handler.
	Metrics *server.Metrics
}

// Server is a running test server.
type Server struct {
	*httptest.Server
	Service *server.Service
	Store   *graph.Store
	Corpus  string
	Config  server.Config
}

// CopyTree copies src into a fresh temporary directory of t and returns it.
func CopyTree(t testing.TB, src string) string {
	t.Helper()
	dst := filepath.Join(t.TempDir(), "corpus")
	if err := os.CopyFS(dst, os.DirFS(src)); err != nil {
		t.Fatalf("copy %s: %v", src, err)
	}
	return dst
}

// Start ingests opt.Corpus and serves it until the test ends.
func Start(t testing.TB, opt Options) *Server {
	t.Helper()
	ctx := context.Background()
	url := opt.Store
	if url == "" {
		url = "memory"
	}
	st, err := graph.Open(ctx, url)
	if err != nil {
		t.Fatalf("open store %s: %v", url, err)
	}
	t.Cleanup(func() { _ = st.Close() })
	svc := server.NewService(st, []string{opt.Corpus}, ingest.Options{}, nil, opt.Metrics)
	if _, err := svc.Ingest(ctx); err != nil {
		t.Fatalf("ingest %s: %v", opt.Corpus, err)
	}
	schema, err := api.NewSchema()
	if err != nil {
		t.Fatal(err)
	}
	cfg := server.DefaultConfig()
	// As `serve --corpus` does: the corpus folder is read back for
	// Skill.text.
	files, err := api.OpenCorpusFolders([]string{opt.Corpus})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = files.Close() })
	cfg.Files = files
	if opt.Config != nil {
		opt.Config(&cfg)
	}
	srv := httptest.NewServer(server.Handler(svc, schema, cfg, nil, opt.Metrics))
	t.Cleanup(srv.Close)
	return &Server{Server: srv, Service: svc, Store: st, Corpus: opt.Corpus, Config: cfg}
}
