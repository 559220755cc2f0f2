package main

import (
	"encoding/json"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// TestLogFormatJSON (issue 25.9): --log-format json makes every log line
// one JSON object (slog's JSONHandler); a value other than text or json is
// a usage error (exit 2).
func TestLogFormatJSON(t *testing.T) {
	_, errs, code := runCLI(t, "ingest", "-v", "--log-format", "json", "--corpus", exampleCorpus, "--store", "memory")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	lines := strings.Split(strings.TrimSpace(errs), "\n")
	if len(lines) == 0 || lines[0] == "" {
		t.Fatal("ingest -v logged nothing")
	}
	for _, l := range lines {
		var rec map[string]any
		if err := json.Unmarshal([]byte(l), &rec); err != nil || rec["msg"] == nil || rec["level"] == nil {
			t.Errorf("not a JSON log record: %q (%v)", l, err)
		}
	}
	if _, errs, code := runCLI(t, "check", "--log-format", "yaml", "--corpus", exampleCorpus); code != 2 || !strings.Contains(errs, "text or json") {
		t.Errorf("--log-format yaml: exit %d, %q", code, errs)
	}
}

// TestHealthcheck (issue 25.9): the probe a static image's HEALTHCHECK
// runs exits 0 on a ready server's 200, 1 on a 503 and on a refused
// connection.
func TestHealthcheck(t *testing.T) {
	ready := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/readyz" {
			http.NotFound(w, r)
			return
		}
		w.Write([]byte(`{"ready":true}`))
	}))
	defer ready.Close()
	notReady := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		http.Error(w, `{"ready":false}`, http.StatusServiceUnavailable)
	}))
	defer notReady.Close()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	refused := "http://" + ln.Addr().String() + "/readyz"
	ln.Close()
	tests := []struct {
		name, url string
		code      int
	}{
		{"ready", ready.URL + "/readyz", 0},
		{"not ready", notReady.URL + "/readyz", 1},
		{"refused", refused, 1},
		{"not a URL", "::", 2},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			out, errs, code := runCLI(t, "healthcheck", "--url", tc.url, "--timeout", "2s")
			if code != tc.code {
				t.Errorf("exit %d, want %d (stdout %q, stderr %q)", code, tc.code, out, errs)
			}
		})
	}
}

// TestFlagErrorsEchoWhatWasTyped (issue 25.11): a bad flag is named with
// the dashes the user typed (the flag package always wrote one).
func TestFlagErrorsEchoWhatWasTyped(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"check", "--nosuchflag"}, "flag provided but not defined: --nosuchflag\n"},
		{[]string{"check", "-nosuchflag"}, "flag provided but not defined: -nosuchflag\n"},
		{[]string{"check", "--log-format=yaml"}, "invalid value \"yaml\" for flag --log-format:"},
		{[]string{"query", "--corpus"}, "flag needs an argument: --corpus\n"},
	} {
		_, errs, code := runCLI(t, tc.args...)
		if code != 2 || !strings.HasPrefix(errs, tc.want) {
			t.Errorf("%v: exit %d, stderr starts %q, want %q", tc.args, code, errs[:min(len(errs), 80)], tc.want)
		}
	}
}

// TestServeBindFailureExits1 (issue 25.11): an address already in use is
// a failure to run (exit 1), not a usage mistake (exit 2).
func TestServeBindFailureExits1(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	_, errs, code := runCLI(t, "serve", "--corpus", exampleCorpus, "--store", "memory", "--addr", ln.Addr().String())
	if code != 1 || !strings.Contains(errs, "listen on "+ln.Addr().String()) {
		t.Errorf("exit %d (want 1), stderr %q", code, errs)
	}
}
