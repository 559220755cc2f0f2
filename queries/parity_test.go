package queries

import (
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/skillgraph/skillgraph/ingest/record"
)

// TestParityFindings: each kind of disagreement of testdata/parity is
// reported once, with its code, at the line of the authored Tool's port
// (or the Tool's own line when the port is on the server only), and the
// agreeing pair (issues-list ↔ list_issues, a repeated and an integer port
// among them) and the Tool naming an unrecorded server give none.
func TestParityFindings(t *testing.T) {
	s := build(t, "memory", "testdata/parity")
	type at struct {
		code, file string
		line       int
		about      string // a word of the message
	}
	var got []at
	for _, f := range s.Findings {
		if strings.HasPrefix(f.Code, "mcp-parity-") || f.Code == record.CodeMCPToolUnlisted || f.Code == record.CodeMCPToolUnauthored {
			about := ""
			for _, w := range []string{`"heading"`, `"body"`, `"title"`, `"revision"`, `"etag"`, "description", `"delete_repo"`, `"list_repos"`} {
				if strings.Contains(f.Message, w) {
					about = w
					break
				}
			}
			got = append(got, at{f.Code, f.File, f.Line, about})
		}
	}
	want := []at{
		{record.CodeMCPToolUnauthored, "mcp/github.json", 38, `"list_repos"`},
		{record.CodeMCPToolUnlisted, "tools/elsewhere.json", 2, `"delete_repo"`},
		{record.CodeMCPParityDescription, "tools/pr-create.json", 1, "description"},
		{record.CodeMCPParityInput, "tools/pr-create.json", 1, `"body"`},
		{record.CodeMCPParityInput, "tools/pr-create.json", 10, `"heading"`},
		{record.CodeMCPParityRequired, "tools/pr-create.json", 11, `"title"`},
		{record.CodeMCPParityType, "tools/pr-create.json", 11, `"title"`},
		{record.CodeMCPParityType, "tools/publish.json", 12, `"revision"`},
		{record.CodeMCPParityOutput, "tools/publish.json", 13, `"etag"`},
	}
	key := func(xs []at) {
		sort.Slice(xs, func(i, j int) bool {
			a, b := xs[i], xs[j]
			if a.file != b.file {
				return a.file < b.file
			}
			if a.line != b.line {
				return a.line < b.line
			}
			return a.code < b.code
		})
	}
	key(got)
	key(want)
	if !reflect.DeepEqual(got, want) {
		t.Errorf("parity findings:\n got %v\nwant %v", got, want)
	}
}

// TestParityStates: Tool.Parity says, for both sides of each pair, whether
// it agrees, with whom, and which findings are its own.
func TestParityStates(t *testing.T) {
	s := build(t, "memory", "testdata/parity")
	cases := []struct {
		tool, state string
		against     []string
		findings    int
	}{
		{"pr-create", ParityDisagrees, []string{"github.create-pr"}, 5},
		{"page-publish", ParityDisagrees, []string{"github.publish-page"}, 2},
		{"issues-list", ParityAgrees, []string{"github.list-issues"}, 0},
		{"repo-delete", ParityUnlisted, nil, 1},
		{"ticket-open", ParityUnrecorded, nil, 0},
		{"github.create-pr", ParityDisagrees, []string{"pr-create"}, 5},
		{"github.list-issues", ParityAgrees, []string{"issues-list"}, 0},
		{"github.list-repos", ParityUnauthored, nil, 1},
	}
	byID := map[string]*Tool{}
	for _, tl := range s.Tools {
		byID[tl.ID] = tl
	}
	for _, c := range cases {
		t.Run(c.tool, func(t *testing.T) {
			tl := byID[c.tool]
			if tl == nil || tl.Parity == nil {
				t.Fatalf("tool %s: %+v", c.tool, tl)
			}
			var against []string
			for _, o := range tl.Parity.Against {
				against = append(against, o.ID)
			}
			if tl.Parity.State != c.state || !reflect.DeepEqual(against, c.against) || len(tl.Parity.Findings) != c.findings {
				t.Errorf("parity = %s against %v with %d findings, want %s against %v with %d",
					tl.Parity.State, against, len(tl.Parity.Findings), c.state, c.against, c.findings)
			}
		})
	}
}

// TestFits: the JSON type rule (integer within number, unknown never a
// disagreement).
func TestFits(t *testing.T) {
	for _, c := range []struct {
		narrow, wide string
		want         bool
	}{
		{"string", "string", true}, {"integer", "number", true}, {"number", "integer", false},
		{"string", "integer", false}, {"", "integer", true}, {"boolean", "", true}, {"array", "string", false},
	} {
		if got := fits(c.narrow, c.wide); got != c.want {
			t.Errorf("fits(%q, %q) = %v, want %v", c.narrow, c.wide, got, c.want)
		}
	}
}

// TestParityPorts: each authored port carries the codes of its own
// disagreements; outputs are listed only when the listing states an
// outputSchema.
func TestParityPorts(t *testing.T) {
	s := build(t, "memory", "testdata/parity")
	want := map[string][]PortParity{
		"pr-create": {{Name: "heading", Codes: []string{record.CodeMCPParityInput}},
			{Name: "title", Codes: []string{record.CodeMCPParityRequired, record.CodeMCPParityType}}},
		"page-publish": {{Name: "page"}, {Name: "url", Output: true},
			{Name: "revision", Output: true, Codes: []string{record.CodeMCPParityType}},
			{Name: "etag", Output: true, Codes: []string{record.CodeMCPParityOutput}}},
		"issues-list": {{Name: "repo"}, {Name: "limit"}, {Name: "labels"}},
	}
	for _, tl := range s.Tools {
		w, ok := want[tl.ID]
		if !ok {
			continue
		}
		delete(want, tl.ID)
		if !reflect.DeepEqual(tl.Parity.Ports, w) {
			t.Errorf("%s ports = %+v, want %+v", tl.ID, tl.Parity.Ports, w)
		}
	}
	if len(want) > 0 {
		t.Errorf("tools not found: %v", want)
	}
}
