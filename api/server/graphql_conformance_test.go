package server_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/graphql-go/graphql"
	"github.com/graphql-go/graphql/language/ast"
	"github.com/graphql-go/graphql/language/parser"
	"github.com/graphql-go/graphql/language/source"

	"github.com/skillgraph/skillgraph/api"
	"github.com/skillgraph/skillgraph/cmd/loadgen/mix"
)

// dashboardQueries collects the GraphQL documents the page and the load
// generator send: every query and mutation of the page (pageQueries) and
// loadgen's mix (cmd/loadgen/mix).
func dashboardQueries(t *testing.T) []string {
	t.Helper()
	page := pageQueries(t)
	out := append([]string{}, page...)
	// loadgen's mix, and one query as -vary text sends it
	for _, q := range mix.Dashboard {
		out = append(out, q.Text)
	}
	out = append(out, mix.Vary(mix.Dashboard[0].Text, 1))
	if len(page) < 5 || len(out)-len(page) < 3 {
		t.Fatalf("found %d page queries and %d loadgen queries: the extraction no longer matches the sources", len(page), len(out)-len(page))
	}
	return out
}

var (
	// pageDoc is a template literal holding a GraphQL document.
	pageDoc = regexp.MustCompile("`((?:query|mutation|fragment)\\b[^`]*)`")
	// pageConst is a named document: export const NAME = `query …`.
	pageConst = regexp.MustCompile("export const ([A-Z][A-Z0-9_]*) = `((?:query|mutation)\\b[^`]*)`")
	// pageFragment is a fragment's definition, in web/assets/js/fragments.js.
	pageFragment = regexp.MustCompile("^fragment ([A-Za-z_][A-Za-z0-9_]*) on ")
	// pageCall is the first argument of a gql(…) call.
	pageCall = regexp.MustCompile(`\bgql\(\s*([^\s,)]+)`)
	// pageSpread is a named fragment spread (... on T is an inline fragment).
	pageSpread = regexp.MustCompile(`\.\.\.\s*([A-Za-z_][A-Za-z0-9_]*)`)
)

// pageQueries returns every GraphQL document the page sends (web/assets,
// its vendored bundles aside), each with the fragments it spreads
// appended as api.js's gql() appends them. Every document must be static
// text: a query that splices ${…} into itself, or a gql() call given
// anything but a named document or a literal query, is a failure, so no
// query the page sends escapes the check (issue 26.7).
func pageQueries(t *testing.T) []string {
	t.Helper()
	var docs []string
	consts := map[string]bool{}
	fragments := map[string]string{}
	err := filepath.WalkDir("../../web/assets", func(path string, d fs.DirEntry, err error) error {
		if err == nil && d.IsDir() && d.Name() == "vendor" {
			return filepath.SkipDir // third-party bundles (GraphiQL, pictures): not the page's queries
		}
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".js") {
			return err
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		src := string(b)
		for _, m := range pageDoc.FindAllStringSubmatch(src, -1) {
			if strings.Contains(m[1], "${") {
				return fmt.Errorf("%s: a GraphQL document splices text into itself (pass variables, or spread a fragment of fragments.js):\n%s", path, m[1])
			}
			if f := pageFragment.FindStringSubmatch(m[1]); f != nil {
				fragments[f[1]] = m[1]
				continue
			}
			docs = append(docs, m[1])
		}
		for _, m := range pageConst.FindAllStringSubmatch(src, -1) {
			consts[m[1]] = true
		}
		for _, m := range pageCall.FindAllStringSubmatch(src, -1) {
			arg := m[1]
			switch {
			case strings.HasPrefix(arg, "`"):
			case strings.HasPrefix(arg, `"`), strings.HasPrefix(arg, "'"):
				return fmt.Errorf("%s: gql(%s…): a query in a quoted string is not checked; make it an export const query", path, arg)
			default:
				if path != "../../web/assets/js/api.js" {
					consts["?"+arg] = true // resolved below, once every file is read
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for k := range consts {
		if name, ok := strings.CutPrefix(k, "?"); ok && !consts[name] {
			t.Errorf("gql(%s): not an export const query of web/assets, so not checked", name)
		}
	}
	out := make([]string, 0, len(docs))
	for _, q := range docs {
		out = append(out, withPageFragments(t, q, fragments))
	}
	return out
}

// withPageFragments appends to q the fragments it spreads, transitively,
// each once (fragments.js withFragments); an unknown spread is a failure.
func withPageFragments(t *testing.T, q string, fragments map[string]string) string {
	t.Helper()
	var names []string
	var visit func(string)
	visit = func(text string) {
		for _, m := range pageSpread.FindAllStringSubmatch(text, -1) {
			name := m[1]
			if name == "on" || slices.Contains(names, name) {
				continue
			}
			f, ok := fragments[name]
			if !ok {
				t.Errorf("page query spreads ...%s, which fragments.js does not define:\n%s", name, q)
				continue
			}
			names = append(names, name)
			visit(f)
		}
	}
	visit(q)
	for _, n := range names {
		q += "\n" + fragments[n]
	}
	return q
}

// TestPageQueriesValidate checks, without Node, that every GraphQL document
// the page sends (interpolations resolved) validates against the served
// schema with graphql-go's own rules; TestGraphQLConformance repeats it
// with graphql-js against the introspected schema.
func TestPageQueriesValidate(t *testing.T) {
	s, err := api.NewSchema()
	if err != nil {
		t.Fatal(err)
	}
	schema := s.GraphQL()
	qs := pageQueries(t)
	names := map[string]bool{}
	for _, q := range qs {
		doc, err := parser.Parse(parser.ParseParams{Source: source.NewSource(&source.Source{Body: []byte(q), Name: "page"})})
		if err != nil {
			t.Errorf("page query does not parse: %v\n%s", err, q)
			continue
		}
		for _, def := range doc.Definitions {
			if op, ok := def.(*ast.OperationDefinition); ok && op.Name != nil {
				names[op.Name.Value] = true
			}
		}
		if r := graphql.ValidateDocument(&schema, doc, nil); !r.IsValid {
			var msgs []string
			for _, e := range r.Errors {
				msgs = append(msgs, e.Message)
			}
			t.Errorf("page query does not validate: %s\n%s", strings.Join(msgs, "; "), q)
		}
	}
	// The largest views (they spread fragments) and the small rule and
	// version queries are all found.
	for _, want := range []string{"Skill", "Tool", "Queue", "Plugins", "Plugin", "PluginCount", "Overview", "Findings", "Process", "Viewer", "Version", "TriageOrder", "FindingRules", "Record"} {
		if !names[want] {
			t.Errorf("no page query named %s was extracted (found %v)", want, names)
		}
	}
}

// TestGraphQLConformance runs independent clients against the live
// server on loopback: graphql-js's standard introspection query
// (getIntrospectionQuery, as GraphiQL, Apollo and codegen send it), with
// every option of the current spec (descriptions, specifiedByUrl,
// directiveIsRepeatable, schemaDescription, inputValueDeprecation, oneOf:
// each was a 400 before issue 25.5), must pass the limits and answer its
// keys in selection order, buildClientSchema must succeed and printSchema must
// equal docs/schema.graphql; the dashboard queries must validate against
// the client schema; every graphql-http server audit must pass (warnings
// are listed in docs/decisions.md).
func TestGraphQLConformance(t *testing.T) {
	node, mods := nodeClients(t)
	e := start(t, "", nil)
	defer e.srv.Close()
	qs, _ := json.Marshal(dashboardQueries(t))
	qfile := filepath.Join(t.TempDir(), "queries.json")
	if err := os.WriteFile(qfile, qs, 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, node, "testdata/graphql_conformance.mjs", e.srv.URL+"/graphql", "../../docs/schema.graphql", qfile)
	cmd.Env = append(os.Environ(), "SKILLGRAPH_NODE_MODULES="+mods)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	outb, err := cmd.Output()
	if err != nil {
		t.Fatalf("node: %v\n%s", err, stderr.String())
	}
	var out struct {
		IntrospectionStatus int              `json:"introspectionStatus"`
		IntrospectionErrors []map[string]any `json:"introspectionErrors"`
		SchemaKeys          []string         `json:"schemaKeys"`
		TypeKeys            []string         `json:"typeKeys"`
		Printed, Committed  string
		Invalid             []struct {
			Query  string
			Errors []string
		}
		Audits []struct{ ID, Name, Status, Reason string }
	}
	if err := json.Unmarshal(outb, &out); err != nil {
		t.Fatalf("node output: %v\n%s", err, outb)
	}
	if out.IntrospectionErrors != nil || out.IntrospectionStatus != 200 {
		t.Fatalf("introspection refused (status %d): %v", out.IntrospectionStatus, out.IntrospectionErrors)
	}
	// graphql-js 16's selection of __schema and of its FullType fragment
	if got, want := strings.Join(out.SchemaKeys, " "), "description queryType mutationType subscriptionType types directives"; got != want {
		t.Errorf("__schema keys %q, want the selection order %q", got, want)
	}
	if got, want := strings.Join(out.TypeKeys, " "), "kind name description specifiedByURL isOneOf fields inputFields interfaces enumValues possibleTypes"; got != want {
		t.Errorf("__type keys %q, want the selection order %q", got, want)
	}
	if out.Printed != out.Committed {
		t.Errorf("the live schema, printed by graphql-js, differs from docs/schema.graphql:\n%s", lineDiff(out.Printed, out.Committed))
	}
	for _, q := range out.Invalid {
		t.Errorf("dashboard query does not validate: %v\n%s", q.Errors, q.Query)
	}
	for _, a := range out.Audits {
		switch a.Status {
		case "ok":
		case "error":
			t.Errorf("graphql-http audit %s failed: %s: %s", a.ID, a.Name, a.Reason)
		default:
			t.Logf("graphql-http audit %s %s: %s: %s", a.ID, a.Status, a.Name, a.Reason)
		}
	}
}

// lineDiff lists the lines only in a (-) or only in b (+), in order.
func lineDiff(a, b string) string {
	count := func(s string) map[string]int {
		m := map[string]int{}
		for _, l := range strings.Split(s, "\n") {
			m[l]++
		}
		return m
	}
	ca, cb := count(a), count(b)
	var out strings.Builder
	for _, l := range strings.Split(a, "\n") {
		if cb[l] == 0 {
			out.WriteString("- live: " + l + "\n")
		}
	}
	for _, l := range strings.Split(b, "\n") {
		if ca[l] == 0 {
			out.WriteString("+ docs: " + l + "\n")
		}
	}
	return out.String()
}
