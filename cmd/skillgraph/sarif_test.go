package main

import (
	"encoding/json"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// checkSARIF runs `check --format sarif` in-process over the corpora and
// decodes the log.
func checkSARIF(t *testing.T, corpora ...string) (sarifLog, string) {
	t.Helper()
	args := []string{"check", "--format", "sarif", "--fail-on", "info"}
	for _, c := range corpora {
		args = append(args, "--corpus", c)
	}
	out, errs, code := runCLI(t, args...)
	if code != 1 {
		t.Fatalf("check: exit %d (want 1: the corpora have findings): %s", code, errs)
	}
	var log sarifLog
	if err := json.Unmarshal([]byte(out), &log); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, out)
	}
	return log, out
}

// secondCorpus is a small corpus outside the repository with findings of
// its own (an unknown skill, an unreachable Tool).
func secondCorpus(t *testing.T) string {
	return write(t, map[string]string{
		"skills/ops/deploy.md": "---\nname: deploy\ndescription: Deploys the site.\n---\nDeploy the site.\n",
		"tools/deploy.yaml":    "tools:\n  - id: deployer\n    title: Deployer\n    description: Deploys.\n    satisfies: [deploy, nosuch]\n    invoke:\n      shell: [deploy]\n",
	})
}

const exampleCorpus = "../../examples/harness"

// TestSARIFConformance validates the log with the independent validator
// and GitHub's rule kind: no error may remain.
func TestSARIFConformance(t *testing.T) {
	nm := os.Getenv("SKILLGRAPH_NODE_MODULES")
	if nm == "" {
		if os.Getenv("SKILLGRAPH_REQUIRE_CONFORMANCE") == "1" {
			t.Fatal("SKILLGRAPH_REQUIRE_CONFORMANCE=1 but SKILLGRAPH_NODE_MODULES is unset")
		}
		t.Skip("SKILLGRAPH_NODE_MODULES unset: cd scripts/conformance && npm ci, then export it")
	}
	_, out := checkSARIF(t, exampleCorpus, secondCorpus(t))
	dir := t.TempDir()
	in, res := filepath.Join(dir, "check.sarif"), filepath.Join(dir, "validation.sarif")
	if err := os.WriteFile(in, []byte(out), 0o644); err != nil {
		t.Fatal(err)
	}
	// The npm wrapper runs the tool through a shell: the semicolon list is
	// quoted for it, as its own docs do.
	cmd := exec.Command(filepath.Join(nm, ".bin", "sarif-multitool"), "validate", "--rule-kind", `"Sarif;Gh"`, "-o", res, in)
	msgs, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("sarif-multitool: %v\n%s", err, msgs)
	}
	data, err := os.ReadFile(res)
	if err != nil {
		t.Fatalf("no validation log: %v\n%s", err, msgs)
	}
	var v struct {
		Runs []struct {
			Results []struct {
				RuleID  string `json:"ruleId"`
				Level   string `json:"level"`
				Message struct {
					Text string   `json:"text"`
					Args []string `json:"arguments"`
				} `json:"message"`
			} `json:"results"`
		} `json:"runs"`
	}
	if err := json.Unmarshal(data, &v); err != nil {
		t.Fatal(err)
	}
	if len(v.Runs) == 0 {
		t.Fatalf("validator wrote no run:\n%s", msgs)
	}
	for _, r := range v.Runs[0].Results {
		// The level is absent for the default, which is warning.
		if r.Level == "error" {
			t.Errorf("validator: %s %v", r.RuleID, r.Message.Args)
		} else {
			t.Logf("validator %s: %s %v", r.Level, r.RuleID, r.Message.Args)
		}
	}
	if t.Failed() {
		t.Logf("validator output:\n%s", msgs)
	}
}

// TestSARIFShape: what GitHub needs beyond the schema, checked without
// the validator: absolute helpUri, rule texts, a real version, locations
// relative to the repository that name files that exist, a base per corpus
// outside it, every corpus's results told apart, stable fingerprints.
func TestSARIFShape(t *testing.T) {
	other := secondCorpus(t)
	log, _ := checkSARIF(t, exampleCorpus, other)
	if log.Version != "2.1.0" || len(log.Runs) != 1 {
		t.Fatalf("version %q, %d runs; want 2.1.0 and one run", log.Version, len(log.Runs))
	}
	run := log.Runs[0]
	d := run.Tool.Driver
	if d.Version == "" || d.Version == "dev" || !strings.HasPrefix(d.InformationURI, "https://") {
		t.Errorf("driver version %q, informationUri %q", d.Version, d.InformationURI)
	}
	for _, r := range d.Rules {
		u, err := url.Parse(r.HelpURI)
		if err != nil || !u.IsAbs() || u.Fragment != r.ID {
			t.Errorf("rule %s: helpUri %q is not an absolute link to its entry", r.ID, r.HelpURI)
		}
		if r.ShortDescription.Text == "" || r.FullDescription.Text == "" || r.Help.Text == "" || r.Help.Markdown == "" {
			t.Errorf("rule %s lacks a description or help: %+v", r.ID, r)
		}
	}
	base, ok := run.OriginalURIBaseIDs[srcRoot]
	if !ok {
		t.Fatalf("no %s base: %+v", srcRoot, run.OriginalURIBaseIDs)
	}
	baseDir := fromFileURI(t, base.URI)
	instances := map[string]int{}
	fps := map[string]bool{}
	for _, r := range run.Results {
		loc := r.Locations[0].PhysicalLocation.ArtifactLocation
		b, ok := run.OriginalURIBaseIDs[loc.URIBaseID]
		if !ok {
			t.Fatalf("result %s: uriBaseId %q is not declared", r.RuleID, loc.URIBaseID)
		}
		rel, err := url.PathUnescape(loc.URI)
		if err != nil || strings.HasPrefix(rel, "/") || strings.Contains(rel, "..") {
			t.Errorf("result %s: uri %q is not a relative path inside its base", r.RuleID, loc.URI)
		}
		if _, err := os.Stat(filepath.Join(fromFileURI(t, b.URI), filepath.FromSlash(rel))); err != nil {
			t.Errorf("result %s points at a file that does not exist: %s + %s", r.RuleID, b.URI, rel)
		}
		if loc.URIBaseID == srcRoot && !strings.HasPrefix(rel, "examples/harness/") {
			t.Errorf("result %s: %q is not relative to the repository", r.RuleID, rel)
		}
		inst, _ := r.Properties["instance"].(string)
		instances[inst]++
		fp := r.PartialFingerprints[fingerprintKey]
		if fp == "" || fps[fp] {
			t.Errorf("result %s: fingerprint %q missing or repeated", r.RuleID, fp)
		}
		fps[fp] = true
	}
	if len(instances) != 2 {
		t.Errorf("results of %d instances, want both corpora's: %v", len(instances), instances)
	}
	if realOther, _ := filepath.EvalSymlinks(other); len(run.OriginalURIBaseIDs) != 2 || !strings.Contains(run.OriginalURIBaseIDs["CORPUS1"].URI, filepath.ToSlash(realOther)) {
		t.Errorf("the corpus outside %s (%s) has no base of its own: %+v", baseDir, other, run.OriginalURIBaseIDs)
	}
}

func fromFileURI(t *testing.T, s string) string {
	t.Helper()
	u, err := url.Parse(s)
	if err != nil || u.Scheme != "file" || !strings.HasSuffix(u.Path, "/") {
		t.Fatalf("base %q is not an absolute file URI ending in /", s)
	}
	return filepath.FromSlash(u.Path)
}

// TestSARIFFingerprintsSurviveLineMoves: an edit above a finding moves its
// line, not its alert.
func TestSARIFFingerprintsSurviveLineMoves(t *testing.T) {
	dir := secondCorpus(t)
	prints := func() map[string]int {
		log, _ := checkSARIF(t, dir)
		m := map[string]int{}
		for _, r := range log.Runs[0].Results {
			m[r.PartialFingerprints[fingerprintKey]] = r.Locations[0].PhysicalLocation.Region.StartLine
		}
		return m
	}
	before := prints()
	p := filepath.Join(dir, "tools", "deploy.yaml")
	data, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, append([]byte("# a comment\n\n"), data...), 0o644); err != nil {
		t.Fatal(err)
	}
	after := prints()
	moved := 0
	for fp, line := range before {
		l2, ok := after[fp]
		if !ok {
			t.Errorf("fingerprint %s (line %d) is gone after a comment above it", fp, line)
		}
		if ok && l2 != line {
			moved++
		}
	}
	if moved == 0 {
		t.Fatal("no finding moved: the test edit did not shift lines")
	}
}

// TestCheckExplain: --explain prints the registry's entry and its link.
func TestCheckExplain(t *testing.T) {
	out, errs, code := runCLI(t, "check", "--explain", "tool-unreachable")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, w := range []string{"tool-unreachable (warning, SPEC §5.3", "Why it matters:", "Example", "docs/findings.md#tool-unreachable"} {
		if !strings.Contains(out, w) {
			t.Errorf("--explain lacks %q:\n%s", w, out)
		}
	}
	if _, errs, code := runCLI(t, "check", "--explain", "no-such-code"); code != 2 || !strings.Contains(errs, "not a finding code") {
		t.Errorf("unknown code: exit %d, %q", code, errs)
	}
}
