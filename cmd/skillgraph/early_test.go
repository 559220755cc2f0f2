package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/skillgraph/skillgraph/ingest/gen"
)

// servedCold starts `serve --corpus root` on an empty bbolt store (through
// prefix, e.g. prlimit) and reads its output: it returns the base URL and a
// channel of its log lines.
func servedCold(t *testing.T, ctx context.Context, prefix []string, root, db string) (*exec.Cmd, string, <-chan string) {
	t.Helper()
	args := append(prefix, skillgraphBinary(t), "serve", "--corpus", root, "--store", "bbolt:"+db, "--addr", "127.0.0.1:0")
	cmd := exec.CommandContext(ctx, args[0], args[1:]...)
	cmd.Env = append(os.Environ(), "SKILLGRAPH_TOKEN=s3cret")
	stdout, _ := cmd.StdoutPipe()
	stderr, _ := cmd.StderrPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
	})
	line, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil {
		t.Fatalf("serve printed no address: %v", err)
	}
	_, rest, _ := strings.Cut(line, "http://")
	addr, _, _ := strings.Cut(rest, "/")
	logs := make(chan string, 1024)
	go func() {
		defer close(logs)
		sc := bufio.NewScanner(stderr)
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		for sc.Scan() {
			select {
			case logs <- sc.Text():
			default: // nobody waits for the rest
			}
		}
	}()
	return cmd, "http://" + addr, logs
}

// waitLog waits for a log line containing s.
func waitLog(t *testing.T, logs <-chan string, s string) string {
	t.Helper()
	for l := range logs {
		if strings.Contains(l, s) {
			return l
		}
	}
	t.Fatalf("serve ended without logging %q", s)
	return ""
}

// readiness reads /readyz.
func readiness(t *testing.T, url string) (int, map[string]any) {
	t.Helper()
	res, err := http.Get(url + "/readyz")
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var rd map[string]any
	b, _ := io.ReadAll(res.Body)
	if err := json.Unmarshal(b, &rd); err != nil {
		t.Fatalf("/readyz: %s", b)
	}
	return res.StatusCode, rd
}

// TestServeColdDiskFull: a cold `serve --corpus` whose store cannot grow
// (RLIMIT_FSIZE through prlimit, a full disk) serves the converted corpus
// early, and after the write fails never claims durability: /readyz stays
// 200 with "durable": false and the reason, /graphql says
// Skillgraph-Durable: false, mutations are 503; the store on disk holds
// nothing at version 0.
func TestServeColdDiskFull(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	prlimit, err := exec.LookPath("prlimit")
	if err != nil {
		t.Skip("prlimit (util-linux) is not installed")
	}
	tmp := t.TempDir()
	root := filepath.Join(tmp, "corpus")
	if _, err := gen.Write(root, gen.Options{Skills: 200, Seed: 8}); err != nil {
		t.Fatal(err)
	}
	db := filepath.Join(tmp, "g.db")
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cmd, url, logs := servedCold(t, ctx, []string{prlimit, fmt.Sprintf("--fsize=%d", 256<<10)}, root, db)
	waitLog(t, logs, "snapshot served before the store write")
	waitLog(t, logs, "the store write failed")
	code, rd := readiness(t, url)
	if code != 200 || rd["ready"] != true || rd["durable"] != false || !strings.Contains(fmt.Sprint(rd["reason"]), "store write failed") {
		t.Fatalf("/readyz after the failed write: %d %v, want 200, not durable, saying why", code, rd)
	}
	res, err := http.Post(url+"/graphql", "application/json", strings.NewReader(`{"query":"{ skills(first: 1) { totalCount } }"}`))
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != 200 || res.Header.Get("Skillgraph-Durable") != "false" || !strings.Contains(string(b), `"totalCount":200`) {
		t.Fatalf("/graphql after the failed write: %d durable %q %s", res.StatusCode, res.Header.Get("Skillgraph-Durable"), b)
	}
	req, _ := http.NewRequest(http.MethodPost, url+"/graphql", strings.NewReader(`{"query":"mutation { reingest { graphVersion } }"}`))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer s3cret")
	if res, err = http.DefaultClient.Do(req); err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusServiceUnavailable || res.Header.Get("Retry-After") == "" {
		t.Fatalf("a mutation after the failed write: %d, want 503 with Retry-After", res.StatusCode)
	}
	_ = cmd.Process.Signal(syscall.SIGTERM)
	_ = cmd.Wait()
	if v, got := storeGraphs(t, db); v != 0 || len(got) != 0 {
		t.Fatalf("the store after the failed write: version %d with %d graphs, want nothing at version 0", v, len(got))
	}
}

// TestServeColdKilled: a cold `serve --corpus` killed (SIGKILL) while its
// early answers are served and the store write runs leaves a store that
// serves nothing at version 0, or the whole corpus at version 1.
func TestServeColdKilled(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	tmp := t.TempDir()
	root := filepath.Join(tmp, "corpus")
	if _, err := gen.Write(root, gen.Options{Skills: 400, Seed: 9}); err != nil {
		t.Fatal(err)
	}
	want := map[string][2]string{}
	for l, g := range memGraphs(t, root) {
		want[l] = [2]string{g, ""}
	}
	db := filepath.Join(tmp, "g.db")
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cmd, url, logs := servedCold(t, ctx, nil, root, db)
	waitLog(t, logs, "snapshot served before the store write")
	if code, rd := readiness(t, url); code != 200 || rd["durable"] == true && rd["version"] != float64(1) {
		t.Fatalf("/readyz while the write runs: %d %v", code, rd)
	}
	_ = cmd.Process.Signal(syscall.SIGKILL)
	err := cmd.Wait()
	var ee *exec.ExitError
	if !errors.As(err, &ee) {
		t.Logf("serve: %v", err)
	}
	firstWriteHolds(t, db, want, "a killed cold serve")
}
