// Command soak is a bounded load and soak run for skillgraph (issue #6):
// it serves a copy of a corpus with Service.Watch re-ingesting a file that
// changes every few hundred milliseconds, while clients send a mix of
// GraphQL queries, exports and dereferences through the real HTTP stack.
// At the end it prints requests, errors, goroutines and RSS before and
// after, and exits 1 on any error or goroutine growth.
//
//	go run ./cmd/soak -duration 2m -corpus ingest/testdata/mini
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/skillgraph/skillgraph/api"
	"github.com/skillgraph/skillgraph/api/server"
	"github.com/skillgraph/skillgraph/graph"
	"github.com/skillgraph/skillgraph/graph/ingest"
)

var queries = []string{
	`{ graphVersion }`,
	`{ coverage { total uncovered covered { id } tiers { tier count skills { skill { id } evidence } } } }`,
	`{ reachability { roots coveredNotReachable { id } } alternatives { groups { skill { id } tools { id } } } }`,
	`{ skills(first: 50) { totalCount edges { cursor node { id covered reachable tools { id } } } } }`,
	`{ findings(first: 100) { totalCount edges { node { code file line } } } }`,
	`{ skill(id: "review") { id witness steps { id } } tool(id: "gh") { id inputs { name } } }`,
}

// refusedQueries must each be a GraphQL error, counted apart: a page over
// the limit and the CPU attack shapes of issue #16.1 (nested values,
// floods of unknown arguments and fields behind a long comment).
var refusedQueries = []string{
	`{ skills(first: 501) { totalCount } }`,
	`{search(text: ` + strings.Repeat("[", 800) + `"x"` + strings.Repeat("]", 800) + `) { __typename }}`,
	`{search(text: ` + strings.Repeat("{a:", 300) + `1` + strings.Repeat("}", 300) + `) { __typename }}`,
	`{graphVersion(` + strings.Repeat("a: 1 ", 5000) + `)}`,
	"#" + strings.Repeat("x", 900_000) + "\n{" + strings.Repeat("f ", 1990) + "}",
}

func rssKB() int64 {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return -1
	}
	for _, l := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(l, "VmRSS:"); ok {
			var n int64
			fmt.Sscan(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), &n)
			return n
		}
	}
	return -1
}

func copyTree(src, dst string) error {
	return filepath.Walk(src, func(p string, info os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		if info.IsDir() {
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), b, 0o644)
	})
}

func main() {
	duration := flag.Duration("duration", 2*time.Minute, "how long to run")
	corpus := flag.String("corpus", "ingest/testdata/mini", "corpus to serve (copied)")
	edit := flag.String("edit", "skills/core/review.md", "corpus file rewritten during the run")
	clients := flag.Int("clients", 8, "concurrent clients")
	store := flag.String("store", "memory", "store URL")
	flag.Parse()
	if err := run(*duration, *corpus, *edit, *clients, *store); err != nil {
		fmt.Fprintln(os.Stderr, "soak:", err)
		os.Exit(1)
	}
}

func run(duration time.Duration, corpus, edit string, clients int, storeURL string) error {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	tmp, err := os.MkdirTemp("", "skillgraph-soak-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	root := filepath.Join(tmp, "corpus")
	if err := copyTree(corpus, root); err != nil {
		return err
	}
	st, err := graph.Open(ctx, storeURL)
	if err != nil {
		return err
	}
	defer st.Close()
	svc := server.NewService(st, []string{root}, ingest.Options{}, nil, server.NewMetrics())
	if _, err := svc.Ingest(ctx); err != nil {
		return err
	}
	schema, err := api.NewSchema()
	if err != nil {
		return err
	}
	srv := httptest.NewServer(server.Handler(svc, schema, server.DefaultConfig(), nil, server.NewMetrics()))
	runtime.GC()
	time.Sleep(100 * time.Millisecond)
	g0, rss0 := runtime.NumGoroutine(), rssKB()
	v0 := svc.Snapshot().Version

	watchCtx, stopWatch := context.WithCancel(ctx)
	watchDone, err := svc.Watch(watchCtx, server.WatchOptions{})
	if err != nil {
		stopWatch()
		return err
	}

	var requests, failures, refused atomic.Int64
	var firstErr atomic.Value
	fail := func(format string, args ...any) {
		failures.Add(1)
		firstErr.CompareAndSwap(nil, fmt.Sprintf(format, args...))
	}
	deadline := time.Now().Add(duration)
	var wg sync.WaitGroup
	// The editor: rewrites one file every 300 ms.
	wg.Add(1)
	go func() {
		defer wg.Done()
		p := filepath.Join(root, filepath.FromSlash(edit))
		orig, err := os.ReadFile(p)
		if err != nil {
			fail("read %s: %v", edit, err)
			return
		}
		for i := 0; time.Now().Before(deadline); i++ {
			_ = os.WriteFile(p, fmt.Appendf(bytes.Clone(orig), "\nEdit %d.\n", i), 0o644)
			time.Sleep(300 * time.Millisecond)
		}
	}()
	client := &http.Client{Timeout: 30 * time.Second}
	for c := range clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := c; time.Now().Before(deadline); i++ {
				requests.Add(1)
				switch i % 10 {
				case 8:
					res, err := client.Get(srv.URL + "/export")
					if err != nil {
						fail("export: %v", err)
						continue
					}
					_, _ = io.Copy(io.Discard, res.Body)
					res.Body.Close()
					if res.StatusCode != 200 {
						fail("export: status %d", res.StatusCode)
					}
				case 9:
					res, err := client.Get(srv.URL + "/readyz")
					if err != nil {
						fail("readyz: %v", err)
						continue
					}
					_, _ = io.Copy(io.Discard, res.Body)
					res.Body.Close()
				default:
					n := i % (len(queries) + len(refusedQueries))
					q, refuse := "", n >= len(queries)
					if refuse {
						q = refusedQueries[n-len(queries)]
					} else {
						q = queries[n]
					}
					body, _ := json.Marshal(map[string]any{"query": q})
					res, err := client.Post(srv.URL+"/graphql", "application/json", bytes.NewReader(body))
					if err != nil {
						fail("graphql: %v", err)
						continue
					}
					var out struct {
						Data   any              `json:"data"`
						Errors []map[string]any `json:"errors"`
					}
					err = json.NewDecoder(res.Body).Decode(&out)
					res.Body.Close()
					switch {
					case err != nil || res.StatusCode != 200:
						fail("graphql %.60q: status %d, %v", q, res.StatusCode, err)
					case refuse:
						if len(out.Errors) == 0 {
							fail("graphql %.60q accepted", q)
						}
						refused.Add(1)
					case len(out.Errors) > 0:
						fail("graphql %.60q: %v", q, out.Errors)
					}
				}
			}
		}()
	}
	wg.Wait()
	time.Sleep(500 * time.Millisecond) // let the last edit's ingest finish
	v1 := svc.Snapshot().Version
	stopWatch()
	<-watchDone
	srv.Close()
	client.CloseIdleConnections()
	http.DefaultClient.CloseIdleConnections()
	runtime.GC()
	time.Sleep(500 * time.Millisecond)
	g1, rss1 := runtime.NumGoroutine(), rssKB()
	fmt.Printf("soak %v: %d requests (%d refused), %d failures; graph version %d → %d; goroutines %d → %d; RSS %d → %d KiB\n",
		duration, requests.Load(), refused.Load(), failures.Load(), v0, v1, g0, g1, rss0, rss1)
	if e := firstErr.Load(); e != nil {
		return fmt.Errorf("first failure: %v", e)
	}
	if g1 > g0+2 {
		buf := make([]byte, 1<<20)
		n := runtime.Stack(buf, true)
		return fmt.Errorf("goroutines grew from %d to %d:\n%s", g0, g1, buf[:n])
	}
	if v1 <= v0 {
		return fmt.Errorf("the watcher never re-ingested (version %d)", v1)
	}
	return nil
}
