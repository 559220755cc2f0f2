// Command loadgen sends a bounded dashboard query mix to a skillgraph
// server on loopback and reports requests/s and latency percentiles.
//
//	go run ./cmd/loadgen -url http://127.0.0.1:8080/graphql -c 8 -d 30s
package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"sort"
	"sync"
	"time"
)

// mix is a dashboard's worth of queries: overview totals, a triage page,
// a skill detail, findings, reachability lists.
var mix = []string{
	`{ graphVersion coverage { total uncovered tiers { tier count } } findings(first: 1) { totalCount } }`,
	`{ skills(tiers: ["C","A","B","D"], orderBy: TIER, first: 100) { totalCount nodes { id package tier evidence } pageInfo { endCursor hasNextPage } } }`,
	`{ skills(covered: true, first: 1) { nodes { id title description tools { id selection { when } } steps { id automation } witness alternatives { id } findings { code message } } } }`,
	`{ findings(severity: ERROR, first: 100) { totalCount edges { node { code file line message } } } }`,
	`{ reachability { coveredNotReachable { id } toolsWithoutCommand { id } unreachableProcesses } }`,
	`{ alternatives { missingSelection { id } } workflows { process { id } ratio firstGap { skillRef } } }`,
}

func main() {
	target := flag.String("url", "http://127.0.0.1:8080/graphql", "GraphQL endpoint (loopback only)")
	conc := flag.Int("c", 8, "concurrent clients")
	dur := flag.Duration("d", 20*time.Second, "how long to run (bounded)")
	maxReq := flag.Int("n", 200000, "stop after this many requests")
	flag.Parse()
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
	)
	deadline := time.Now().Add(*dur)
	var wg sync.WaitGroup
	start := time.Now()
	for w := 0; w < *conc; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			for i := w; time.Now().Before(deadline); i++ {
				mu.Lock()
				if sent >= *maxReq {
					mu.Unlock()
					return
				}
				sent++
				mu.Unlock()
				body, _ := json.Marshal(map[string]string{"query": mix[i%len(mix)]})
				t0 := time.Now()
				res, err := client.Post(*target, "application/json", bytes.NewReader(body))
				ok := err == nil && res.StatusCode == 200
				if err == nil {
					var r struct {
						Errors []any `json:"errors"`
					}
					b, _ := io.ReadAll(res.Body)
					res.Body.Close()
					ok = ok && json.Unmarshal(b, &r) == nil && len(r.Errors) == 0
				}
				d := time.Since(t0)
				mu.Lock()
				if ok {
					latencies = append(latencies, d)
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
	fmt.Printf("requests %d ok, %d errors in %s with %d clients: %.1f req/s, p50 %s, p90 %s, p99 %s, max %s\n",
		len(latencies), errors, elapsed.Round(time.Millisecond), *conc, float64(len(latencies))/elapsed.Seconds(),
		pct(0.50).Round(time.Microsecond), pct(0.90).Round(time.Microsecond), pct(0.99).Round(time.Microsecond), pct(1).Round(time.Microsecond))
	if errors > 0 {
		os.Exit(1)
	}
}
