package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"net/http"
	"time"
)

var healthcheckCommand = &command{
	name:    "healthcheck",
	args:    "[--url URL] [--timeout D]",
	summary: "Probe a running server's /readyz: exit 0 when ready, 1 when not (a container's HEALTHCHECK).",
	about: "A static image has no curl: the Dockerfile's HEALTHCHECK runs this. It GETs the URL (default http://127.0.0.1:8080/readyz, " +
		"env SKILLGRAPH_ADDR's host and port) and exits 0 on 200, 1 on any other status, a refused connection or the timeout.",
	setup: setupHealthcheck,
}

// setupHealthcheck registers the flags of `skillgraph healthcheck`.
func setupHealthcheck(fs *flag.FlagSet) runFunc {
	url := fs.String("url", "http://"+envOr("SKILLGRAPH_ADDR", "127.0.0.1:8080")+"/readyz", "the readiness URL to probe")
	timeout := fs.Duration("timeout", 3*time.Second, "give up after this long")
	return func(ctx context.Context, _ []string, stdout, stderr io.Writer) error {
		ctx, cancel := context.WithTimeout(ctx, *timeout)
		defer cancel()
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, *url, nil)
		if err != nil {
			return usageError{"healthcheck", fmt.Sprintf("--url %q: %v", *url, err)}
		}
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			fmt.Fprintf(stderr, "skillgraph healthcheck: %v\n", err)
			return exitError{1}
		}
		defer res.Body.Close()
		body, _ := io.ReadAll(io.LimitReader(res.Body, 4096))
		if res.StatusCode != http.StatusOK {
			fmt.Fprintf(stderr, "skillgraph healthcheck: %s answered %s: %s\n", *url, res.Status, body)
			return exitError{1}
		}
		fmt.Fprintf(stdout, "%s", body)
		return nil
	}
}
