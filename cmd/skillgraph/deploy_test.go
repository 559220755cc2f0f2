package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestDockerfile (issue 25.9): docker build is not available here, so the
// Dockerfile is checked for what matters: a multi-stage build of
// ./cmd/skillgraph (the binary these tests run) with CGO_ENABLED=0, a
// final stage that runs as a non-root user, a HEALTHCHECK that is the
// binary's own healthcheck verb on /readyz, and an entry point and
// default command the real verbs parse.
func TestDockerfile(t *testing.T) {
	data, err := os.ReadFile("../../Dockerfile")
	if err != nil {
		t.Fatal(err)
	}
	src := strings.ReplaceAll(string(data), "\\\n", " ")
	var froms, users []string
	var build, health, entry, cmdLine string
	for _, l := range strings.Split(src, "\n") {
		l = strings.TrimSpace(l)
		word, rest, _ := strings.Cut(l, " ")
		switch strings.ToUpper(word) {
		case "FROM":
			froms = append(froms, rest)
			users = append(users, "") // USER is per stage
		case "USER":
			users[len(users)-1] = rest
		case "RUN":
			if strings.Contains(rest, "go build") {
				build = rest
			}
		case "HEALTHCHECK":
			health = rest
		case "ENTRYPOINT":
			entry = rest
		case "CMD":
			cmdLine = rest
		}
	}
	if len(froms) < 2 {
		t.Fatalf("not a multi-stage build: FROM %v", froms)
	}
	if !strings.Contains(build, "CGO_ENABLED=0") || !strings.HasSuffix(build, "./cmd/skillgraph") {
		t.Errorf("the build is not a static build of ./cmd/skillgraph: %q", build)
	}
	if u := users[len(users)-1]; u == "" || strings.HasPrefix(u, "root") || strings.HasPrefix(u, "0") {
		t.Errorf("the final stage runs as %q, not a non-root user", u)
	}
	var hc, ep, def []string
	_, hcJSON, _ := strings.Cut(health, "CMD ")
	for _, x := range []struct {
		s   string
		out *[]string
	}{{hcJSON, &hc}, {entry, &ep}, {cmdLine, &def}} {
		if err := json.Unmarshal([]byte(strings.TrimSpace(x.s)), x.out); err != nil {
			t.Fatalf("%q is not the exec (JSON) form: %v", x.s, err)
		}
	}
	if len(hc) < 2 || hc[0] != ep[0] || hc[1] != "healthcheck" || !strings.Contains(strings.Join(hc, " "), "/readyz") {
		t.Errorf("HEALTHCHECK %v is not the entry point's healthcheck of /readyz", hc)
	}
	if !regexp.MustCompile(`--interval=\S+ --timeout=\S+`).MatchString(health) {
		t.Errorf("HEALTHCHECK has no interval and timeout: %q", health)
	}
	for _, args := range [][]string{hc[1:], def} {
		parseVerb(t, args)
	}
}

// parseVerb parses a command line with the verb's real flag set.
func parseVerb(t *testing.T, args []string) {
	t.Helper()
	c := lookup(args[0])
	if c == nil {
		t.Fatalf("%v: no verb %q", args, args[0])
	}
	fs, _ := c.flags(os.Stderr)
	if _, err := parseArgs(fs, args[1:]); err != nil {
		t.Errorf("%v: %v", args, err)
	}
}

// TestSystemdUnit (issue 25.9): the example unit's ExecStart is a command
// line serve parses, and systemd-analyze verify (when installed) reports
// nothing about it.
func TestSystemdUnit(t *testing.T) {
	data, err := os.ReadFile("../../examples/skillgraph.service")
	if err != nil {
		t.Fatal(err)
	}
	var start string
	for _, l := range strings.Split(string(data), "\n") {
		if v, ok := strings.CutPrefix(l, "ExecStart="); ok {
			start = v
		}
	}
	f := strings.Fields(start)
	if len(f) < 2 || filepath.Base(f[0]) != "skillgraph" {
		t.Fatalf("ExecStart %q does not run skillgraph", start)
	}
	parseVerb(t, f[1:])
	sa, err := exec.LookPath("systemd-analyze")
	if err != nil {
		t.Skip("systemd-analyze not installed: the unit's syntax is not verified")
	}
	bin, err := os.Executable() // any executable stands in for the binary's path
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	unit := filepath.Join(dir, "skillgraph.service")
	if err := os.WriteFile(unit, []byte(strings.ReplaceAll(string(data), "/usr/local/bin/skillgraph", bin)), 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(sa, "verify", unit).CombinedOutput()
	if err != nil || len(strings.TrimSpace(string(out))) > 0 {
		t.Errorf("systemd-analyze verify: %v\n%s", err, out)
	}
}

// TestLicense: the repository is Apache-2.0, with the licence's full text.
func TestLicense(t *testing.T) {
	data, err := os.ReadFile("../../LICENSE")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"Apache License", "Version 2.0, January 2004", "TERMS AND CONDITIONS FOR USE, REPRODUCTION, AND DISTRIBUTION",
		"9. Accepting Warranty or Additional Liability.", "END OF TERMS AND CONDITIONS"} {
		if !strings.Contains(string(data), want) {
			t.Errorf("LICENSE lacks %q", want)
		}
	}
}
