package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/skillgraph/skillgraph/api/server"
	"github.com/skillgraph/skillgraph/graph"
	"github.com/skillgraph/skillgraph/graph/ingest"
	"github.com/skillgraph/skillgraph/graph/pgtest"
	"github.com/skillgraph/skillgraph/queries"
)

// sourceStore is a bbolt store holding the example corpus and one triage
// decision, recorded the way the page records it.
func sourceStore(t *testing.T) string {
	t.Helper()
	ctx := context.Background()
	url := "bbolt:" + filepath.Join(t.TempDir(), "graph.db")
	st, err := graph.Open(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	log := slog.New(slog.DiscardHandler)
	svc := server.NewService(st, []string{exampleCorpus}, ingest.Options{}, log, server.NewMetrics())
	if _, err := svc.Ingest(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := svc.RecordTriage(ctx, "proofread", "judgement", "a person reads every page"); err != nil {
		t.Fatal(err)
	}
	return url
}

// exportOf is `skillgraph export --store url --format f`.
func exportOf(t *testing.T, url, format string) string {
	t.Helper()
	out, errs, code := runCLI(t, "export", "--store", url, "--format", format)
	if code != 0 {
		t.Fatalf("export %s: exit %d %s", url, code, errs)
	}
	return out
}

// sortedLines makes N-Quads comparable across stores that list quads in
// different orders.
func sortedLines(s string) string {
	l := strings.Split(strings.TrimSpace(s), "\n")
	sort.Strings(l)
	return strings.Join(l, "\n")
}

// answers is what a user asks of a store: coverage, findings, workflows
// and the triage decisions.
func answers(t *testing.T, url string) string {
	t.Helper()
	ctx := context.Background()
	st, err := graph.Open(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	return answersOf(t, st)
}

// answersOf is answers of an open store.
func answersOf(t *testing.T, st *graph.Store) string {
	t.Helper()
	s, err := queries.Build(context.Background(), st)
	if err != nil {
		t.Fatal(err)
	}
	triage := map[string]any{}
	for _, sk := range s.Skills {
		if sk.Triage != nil {
			triage[sk.ID] = sk.Triage
		}
	}
	cov := coverageJSON(s)
	delete(cov, "graphVersion") // the target store's own counter
	b, err := json.Marshal(map[string]any{"coverage": cov, "workflows": workflowsJSON(s)["workflows"],
		"findings": s.Findings, "triage": triage, "unreachable": ids(s.Reach.UnreachableTools)})
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestImportRoundTrip: export from a bbolt store and import into another
// store gives the same answers and the same export, triage included.
func TestImportRoundTrip(t *testing.T) {
	src := sourceStore(t)
	nq, ld := exportOf(t, src, "nquads"), exportOf(t, src, "jsonld")
	if !strings.Contains(nq, "urn:skillgraph:triage") {
		t.Fatal("the source export has no triage graph; the test would prove nothing")
	}
	want := answers(t, src)
	if !strings.Contains(want, "a person reads every page") {
		t.Fatal("the triage decision is not among the source's answers")
	}
	dir := t.TempDir()
	files := map[string]string{"nquads": filepath.Join(dir, "g.nq"), "jsonld": filepath.Join(dir, "g.jsonld")}
	if err := os.WriteFile(files["nquads"], []byte(nq), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(files["jsonld"], []byte(ld), 0o644); err != nil {
		t.Fatal(err)
	}
	targets := map[string]func(t *testing.T) string{
		"memory": func(*testing.T) string { return "memory" },
		"bbolt":  func(t *testing.T) string { return "bbolt:" + filepath.Join(t.TempDir(), "copy.db") },
		"postgres": func(t *testing.T) string {
			return "postgres:" + pgtest.Scratch(t)
		},
	}
	for _, target := range []string{"memory", "bbolt", "postgres"} {
		for _, format := range []string{"nquads", "jsonld"} {
			t.Run(target+"/"+format, func(t *testing.T) {
				url := targets[target](t)
				if target == "memory" {
					// A memory store lives in one process: import and read
					// it here, through the same code as the verb.
					checkMemoryImport(t, files[format], format, want, nq, ld)
					return
				}
				out, errs, code := runCLI(t, "import", files[format], "--store", url)
				if code != 0 {
					t.Fatalf("import: exit %d %s", code, errs)
				}
				if !strings.Contains(out, "imported") {
					t.Errorf("no summary: %q", out)
				}
				if got := answers(t, url); got != want {
					t.Errorf("answers differ after import:\n got %.400s\nwant %.400s", got, want)
				}
				if got := exportOf(t, url, "nquads"); format == "nquads" && sortedLines(got) != sortedLines(nq) {
					t.Errorf("the N-Quads export differs after import")
				}
				if got := exportOf(t, url, "jsonld"); !jsonEqual(t, got, ld) {
					t.Errorf("the JSON-LD export differs after import")
				}
				// Importing again over the same store changes nothing.
				if _, errs, code := runCLI(t, "import", files[format], "--store", url); code != 0 || answers(t, url) != want {
					t.Errorf("a second import: exit %d %s, answers equal %v", code, errs, answers(t, url) == want)
				}
			})
		}
	}
}

// checkMemoryImport imports into one memory store and compares it.
func checkMemoryImport(t *testing.T, file, format, want, nq, ld string) {
	t.Helper()
	ctx := context.Background()
	f, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	changes, _, err := readExport(context.Background(), bufioReader(f), "auto")
	if err != nil {
		t.Fatal(err)
	}
	st, err := graph.Open(ctx, "memory")
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if _, err := st.Apply(ctx, changes); err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if _, err := st.WriteNQuads(ctx, &buf); err != nil {
		t.Fatal(err)
	}
	if format == "nquads" && sortedLines(buf.String()) != sortedLines(nq) {
		t.Errorf("memory store: the N-Quads export differs after import")
	}
	var ldBuf bytes.Buffer
	if err := server.ExportJSONLD(ctx, st, &ldBuf, 0); err != nil {
		t.Fatal(err)
	}
	if !jsonEqual(t, ldBuf.String(), ld) {
		t.Errorf("memory store: the JSON-LD export differs after import")
	}
	if got := answersOf(t, st); got != want {
		t.Errorf("memory store: answers differ after import:\n got %.400s\nwant %.400s", got, want)
	}
}

func jsonEqual(t *testing.T, a, b string) bool {
	t.Helper()
	var x, y any
	if json.Unmarshal([]byte(a), &x) != nil || json.Unmarshal([]byte(b), &y) != nil {
		return false
	}
	xa, _ := json.Marshal(x)
	ya, _ := json.Marshal(y)
	return bytes.Equal(xa, ya)
}

// TestImportRefuses: bad input is a clear error, and the store keeps what
// it held.
func TestImportRefuses(t *testing.T) {
	dir := t.TempDir()
	bad := map[string]string{
		"garbage.nq":  "this is not n-quads\n",
		"default.nq":  "<urn:a> <urn:b> <urn:c> .\n",
		"empty.nq":    "",
		"broken.json": `{"@graph": [`,
	}
	url := "bbolt:" + filepath.Join(dir, "g.db")
	for name, body := range bad {
		t.Run(name, func(t *testing.T) {
			p := filepath.Join(dir, name)
			if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
				t.Fatal(err)
			}
			if _, errs, code := runCLI(t, "import", p, "--store", url); code != 2 || !strings.Contains(errs, name) {
				t.Errorf("exit %d, stderr %q; want 2 naming the file", code, errs)
			}
		})
	}
	if _, errs, code := runCLI(t, "import", filepath.Join(dir, "garbage.nq")); code != 2 || !strings.Contains(errs, "--store") {
		t.Errorf("without --store: exit %d %q", code, errs)
	}
}

func bufioReader(f *os.File) *bufio.Reader { return bufio.NewReader(f) }
