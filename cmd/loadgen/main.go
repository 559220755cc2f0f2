// Command loadgen sends a bounded dashboard query mix (cmd/loadgen/mix)
// to a skillgraph server on loopback and reports requests/s and latency
// percentiles.
//
//	go run ./cmd/loadgen -url http://127.0.0.1:8080/graphql -c 8 -d 30s
//
// The server caches whole answers per graph version, so a plain run
// measures cached answers. -vary defeats that cache (not the others):
// -vary text gives each request its own query text (a leading alias: a
// query nobody asked before, parsed and validated anew), -vary vars keeps
// the text and sends a distinct unused variable (the whole-answer key
// includes the variables; the parsed document is kept by text). Either
// way the root fields asked before under the graph version are shared
// (api.Schema.ExecuteShared), so neither measures the first request after
// a new version: that costs what BenchmarkDashboard10k's cold/… does.
package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"sort"
	"sync"
	"time"

	"github.com/skillgraph/skillgraph/cmd/loadgen/mix"
)

func main() {
	target := flag.String("url", "http://127.0.0.1:8080/graphql", "GraphQL endpoint (loopback only)")
	conc := flag.Int("c", 8, "concurrent clients")
	dur := flag.Duration("d", 20*time.Second, "how long to run (bounded)")
	maxReq := flag.Int("n", 200000, "stop after this many requests")
	vary := flag.String("vary", "none", "defeat the whole-answer cache: none, text (a new query text per request) or vars (a new variable per request); root fields stay shared")
	flag.Parse()
	if *vary != "none" && *vary != "text" && *vary != "vars" {
		fmt.Fprintln(os.Stderr, "loadgen: -vary must be none, text or vars")
		os.Exit(2)
	}
	u, err := url.Parse(*target)
	if err != nil || (u.Hostname() != "127.0.0.1" && u.Hostname() != "localhost" && u.Hostname() != "::1") {
		fmt.Fprintln(os.Stderr, "loadgen: only loopback targets are allowed")
		os.Exit(2)
	}
	client := &http.Client{Timeout: 30 * time.Second, Transport: &http.Transport{MaxIdleConnsPerHost: *conc}}
	var (
		mu        sync.Mutex
		latencies []time.Duration
		errors    int
		sent      int
		bytesIn   int64
	)
	deadline := time.Now().Add(*dur)
	var wg sync.WaitGroup
	start := time.Now()
	for w := 0; w < *conc; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			// One buffer per client, kept across its requests: at 100k
			// the mix's answers average ≈ 340 KB, and a fresh slice grown
			// per answer was the client's own allocation and collection,
			// on the two cores it shares with the server.
			var buf bytes.Buffer
			for i := w; time.Now().Before(deadline); i++ {
				mu.Lock()
				if sent >= *maxReq {
					mu.Unlock()
					return
				}
				sent++
				n := sent
				mu.Unlock()
				body := request(mix.Dashboard[i%len(mix.Dashboard)].Text, *vary, n)
				t0 := time.Now()
				res, err := client.Post(*target, "application/json", bytes.NewReader(body))
				buf.Reset()
				if err == nil {
					if res.ContentLength > 0 {
						buf.Grow(int(res.ContentLength))
					}
					_, err = buf.ReadFrom(res.Body)
					res.Body.Close()
				}
				b := buf.Bytes()
				// the latency ends with the answer's last byte; checking it
				// is the client's own work
				d := time.Since(t0)
				ok := err == nil && res.StatusCode == 200 && answered(b)
				mu.Lock()
				if ok {
					latencies = append(latencies, d)
					bytesIn += int64(len(b))
				} else {
					errors++
				}
				mu.Unlock()
			}
		}(w)
	}
	wg.Wait()
	elapsed := time.Since(start)
	sort.Slice(latencies, func(i, j int) bool { return latencies[i] < latencies[j] })
	pct := func(p float64) time.Duration {
		if len(latencies) == 0 {
			return 0
		}
		return latencies[min(len(latencies)-1, int(p*float64(len(latencies))))]
	}
	// What the answers weigh and what reading them cost this process:
	// on loopback the client shares the server's cores, so a mix whose
	// answers grow with the corpus is bound by the client's reads.
	mean := 0.0
	if len(latencies) > 0 {
		mean = float64(bytesIn) / float64(len(latencies)) / 1024
	}
	fmt.Printf("vary %s: requests %d ok, %d errors in %s with %d clients: %.1f req/s, p50 %s, p90 %s, p99 %s, max %s; answers %.1f KB mean, %.0f MB/s; client CPU %s\n",
		*vary, len(latencies), errors, elapsed.Round(time.Millisecond), *conc, float64(len(latencies))/elapsed.Seconds(),
		pct(0.50).Round(time.Microsecond), pct(0.90).Round(time.Microsecond), pct(0.99).Round(time.Microsecond), pct(1).Round(time.Microsecond),
		mean, float64(bytesIn)/elapsed.Seconds()/(1<<20), cpuTime())
	if errors > 0 {
		os.Exit(1)
	}
}

// request is the POST body of one request; n numbers it (distinct across
// clients) for -vary.
func request(query, vary string, n int) []byte {
	req := map[string]any{"query": query}
	switch vary {
	case "text":
		req["query"] = mix.Vary(query, n)
	case "vars":
		req["variables"] = map[string]any{"nonce": n}
	}
	body, _ := json.Marshal(req)
	return body
}

// answered reports an answer with data and without errors. It looks for
// the key instead of decoding: at thousands of answers per second,
// decoding them took the client a core of the two it shares with the
// server. In JSON text `"errors":` can only be an object key (a quote
// inside a string is escaped), so an answer that has a field aliased
// errors counts as failed, never one with errors as passed.
func answered(b []byte) bool {
	return bytes.HasPrefix(b, []byte(`{"data":`)) && !bytes.Contains(b, []byte(`"errors":`))
}
