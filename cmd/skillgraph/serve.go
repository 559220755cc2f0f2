package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"strings"
	"time"

	"github.com/skillgraph/skillgraph/api"
	"github.com/skillgraph/skillgraph/api/server"
	"github.com/skillgraph/skillgraph/graph"
	"github.com/skillgraph/skillgraph/graph/ingest"
	"github.com/skillgraph/skillgraph/web"
)

// envOr is the environment variable key, or def when it is unset or empty.
func envOr(key, def string) string {
	if v := os.Getenv(key); v != "" {
		return v
	}
	return def
}

var serveCommand = &command{
	name:    "serve",
	args:    "--corpus DIR [--store URL] [--addr HOST:PORT] [--watch] | --read-only --store URL",
	summary: "Serve GraphQL, the export and the triage page, ingesting the corpora (and watching them) or following a store.",
	about: "/healthz is liveness; /readyz is 200 once the given corpus is served (\"durable\": false while a cold start's store write runs), " +
		"for a --read-only replica once its store holds a graph version (a missing or empty bbolt store is exit 2). Mutations need SKILLGRAPH_TOKEN.",
	setup: setupServe,
}

// setupServe registers the flags of `skillgraph serve`.
func setupServe(fs *flag.FlagSet) runFunc {
	var c common
	c.register(fs)
	addr := fs.String("addr", envOr("SKILLGRAPH_ADDR", "127.0.0.1:8080"), "listen address (env SKILLGRAPH_ADDR)")
	watch := fs.Bool("watch", false, "re-ingest changed files and swap the snapshot")
	readOnly := fs.Bool("read-only", false, "replica: never ingest; follow the store's graph version")
	poll := fs.Duration("poll", 2*time.Second, "how often a read-only replica checks the graph version")
	var origins corpusFlag
	if env := os.Getenv("SKILLGRAPH_CORS_ORIGIN"); env != "" {
		origins = strings.Split(env, ",")
	}
	fs.Var(&origins, "cors-origin", "an origin (https://dash.example, or *) whose pages may call the API from a browser (repeatable; env SKILLGRAPH_CORS_ORIGIN, comma-separated; none by default)")
	return func(ctx context.Context, pos []string, stdout, stderr io.Writer) error {
		c.finish()
		url := c.storeURL(graph.DefaultStore)
		if len(c.corpora) == 0 && !*readOnly {
			return usageError{"serve", "needs --corpus DIR (or --read-only --store URL for a replica)"}
		}
		if !*readOnly && !*watch { // a watched corpus may be filled later
			if err := c.requireContent(); err != nil {
				return err
			}
		}
		log := newLogger(stderr, string(c.logFormat))
		if *readOnly {
			// A replica never creates its store (issue 23.3).
			if err := storeExists(url); err != nil {
				return err
			}
		}
		open := graph.Open
		if *readOnly {
			// A replica reads what another process wrote: verified, but
			// not all before it is ready (the walk of the whole store
			// runs once the snapshot is served; see graph.OpenVerifiedLate).
			open = graph.OpenVerifiedLate
		}
		st, err := open(ctx, url)
		if err != nil {
			return err
		}
		defer st.Close()
		if *readOnly {
			if err := replicaStoreHasVersion(ctx, st, log); err != nil {
				return err
			}
		}
		metrics := server.NewMetrics()
		corpora := []string(c.corpora)
		if *readOnly {
			corpora = nil
		}
		svc := server.NewService(st, corpora, ingest.Options{MaxFileSize: c.maxSize, Logger: log}, log, metrics)
		schema, err := api.NewSchema()
		if err != nil {
			return err
		}
		cfg := server.DefaultConfig()
		cfg.Token = os.Getenv("SKILLGRAPH_TOKEN")
		cfg.Page = web.Handler()
		if len(corpora) > 0 {
			files, err := api.OpenCorpusFolders(corpora)
			if err != nil {
				return err
			}
			defer files.Close()
			cfg.Files = files
			cfg.Diff = revisionDiffer(corpora, c.maxSize, func() []sarifCorpus { return c.found })
		}
		for _, o := range origins {
			if o != "*" && !strings.HasPrefix(o, "http://") && !strings.HasPrefix(o, "https://") {
				return usageError{"serve", fmt.Sprintf("--cors-origin %q: an origin is scheme://host[:port] (or *)", o)}
			}
			cfg.CORSOrigins = append(cfg.CORSOrigins, strings.TrimSuffix(o, "/"))
		}
		cfg.Explorer = web.Explorer()
		ln, err := net.Listen("tcp", *addr)
		if err != nil {
			// The address is taken or not ours: the command line may be
			// right (another server is up), so exit 1, not the usage 2.
			return runFailure{fmt.Errorf("serve: listen on %s: %w", *addr, err)}
		}
		srv := server.NewHTTPServer(server.Handler(svc, schema, cfg, log, metrics))
		errc := make(chan error, 1)
		go func() { errc <- srv.Serve(ln) }()
		fmt.Fprintf(stdout, "skillgraph serving http://%s/ (store %s)\n", ln.Addr(), url)
		// The first watched edit of a warm start finds the corpus walked:
		// primed while the store is read, done before the start's own
		// ingest walks it again (issue #27). Not on a cold start, whose
		// first ingest would wait for it.
		primed := make(chan struct{})
		warm := false
		if *watch && len(corpora) > 0 {
			v, err := st.Version(ctx)
			warm = err == nil && v > 0
		}
		if warm {
			go func() {
				defer close(primed)
				svc.PrimeDiscovery(ctx)
			}()
		} else {
			close(primed)
		}
		// Serve what the store already holds, then ingest.
		// A damaged store is fatal: serving nothing at version 0 while
		// /healthz says 200 hides it (issue 16.2).
		if _, err := svc.Refresh(ctx); errors.Is(err, graph.ErrCorrupt) {
			log.Error("store is corrupt", "store", url, "err", err)
			return err
		} else if err != nil {
			log.Warn("initial snapshot failed", "err", err)
		}
		if *readOnly {
			// Damage the walk finds closes st.Broken: the select below
			// then exits 2.
			go func() {
				start := time.Now()
				if err := st.Verify(ctx); err == nil {
					log.Info("store verified", "store", url, "took", time.Since(start).Round(time.Millisecond))
				} else if !errors.Is(err, graph.ErrCorrupt) && ctx.Err() == nil {
					log.Warn("store verification stopped", "store", url, "err", err)
				}
			}()
		}
		// The watcher registers before the first ingest, so an edit made
		// while it runs is re-ingested after it.
		if *watch && len(corpora) > 0 {
			if _, err := svc.Watch(ctx, server.WatchOptions{}); err != nil {
				log.Error("cannot watch the corpus; edits will not be re-ingested", "err", err)
			}
		}
		<-primed
		if len(corpora) > 0 {
			// Answers before durability: the converted corpus is served
			// while the store write runs; /readyz says durable once it
			// commits. A failed write keeps those answers, never durable.
			if _, err := svc.IngestEarly(ctx); errors.Is(err, graph.ErrCorrupt) {
				log.Error("store is corrupt", "store", url, "err", err)
				return err
			} else if err != nil {
				log.Error("ingest failed", "err", err)
			}
		}
		if *readOnly {
			go svc.Poll(ctx, *poll)
		}
		var broken error
		select {
		case <-ctx.Done():
		case err := <-errc:
			if !errors.Is(err, http.ErrServerClosed) {
				return runFailure{fmt.Errorf("serve: %w", err)}
			}
		case <-st.Broken():
			// Found damaged while serving (a request, a poll, a
			// re-ingest): exit 2 rather than stay up on a store that
			// cannot be read (issue 28.7).
			broken = st.Damaged()
			log.Error("store is corrupt", "store", url, "err", broken)
		}
		shutdown, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		if broken != nil {
			// Requests still reading the store would wait on it: close.
			_ = srv.Close()
			return broken
		}
		log.Info("shutting down")
		return srv.Shutdown(shutdown)
	}
}

// replicaStoreHasVersion fails a replica whose store holds no graph
// version and never will: bbolt and memory have one process, the replica,
// so no writer can fill them. A shared database (PostgreSQL)
// may get its first version from a writer starting alongside
// (docs/postgres.md): the replica starts, not ready, and /readyz says the
// store holds no version until one is committed.
func replicaStoreHasVersion(ctx context.Context, st *graph.Store, log *slog.Logger) error {
	v, err := st.Version(ctx)
	if err != nil {
		return fmt.Errorf("store %s: %w", st.URL(), err)
	}
	if v > 0 {
		return nil
	}
	kind, _, _ := strings.Cut(st.URL(), ":")
	switch kind {
	case "postgres", "postgresql":
		log.Warn("the store holds no graph version yet; not ready until a writer commits one", "store", st.URL())
		return nil
	}
	return errNoVersion(st.URL())
}
