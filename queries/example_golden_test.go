package queries_test

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/skillgraph/skillgraph/graph"
	"github.com/skillgraph/skillgraph/graph/ingest"
	"github.com/skillgraph/skillgraph/queries"
)

// update rewrites testdata/golden/example-*.txt from the current output.
// The files are reviewed by hand against SPEC §5 before they are accepted:
// the leading "#" comment block of each file is the review note. -update
// keeps it only when the body is unchanged; otherwise it writes the
// unreviewed marker, and the test fails until a person reviews the diff and
// replaces the marker with a note.
var update = flag.Bool("update", false, "rewrite the example golden files")

// exampleSnapshot ingests examples/harness into a memory store and builds
// the analysis snapshot.
func exampleSnapshot(t *testing.T) *queries.Snapshot {
	t.Helper()
	ctx := context.Background()
	st, err := graph.Open(ctx, "memory")
	if err != nil {
		t.Fatalf("open store: %v", err)
	}
	t.Cleanup(func() { _ = st.Close() })
	if _, err := ingest.Run(ctx, st, []string{"../examples/harness"}, ingest.Options{}); err != nil {
		t.Fatalf("ingest examples/harness: %v", err)
	}
	snap, err := queries.Build(ctx, st)
	if err != nil {
		t.Fatalf("build snapshot: %v", err)
	}
	return snap
}

func TestExampleGolden(t *testing.T) {
	snap := exampleSnapshot(t)
	for _, g := range []struct {
		name   string
		render func(*queries.Snapshot) string
	}{
		{"coverage", renderCoverage},
		{"alternatives", renderAlternatives},
		{"reachability", renderReachability},
	} {
		t.Run(g.name, func(t *testing.T) {
			checkGolden(t, "example-"+g.name+".txt", g.render(snap))
		})
	}
}

// checkGolden compares got with the golden file, ignoring its leading "#"
// comment block; with -update it rewrites the file (see goldenHeader).
func checkGolden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", "golden", name)
	old, err := os.ReadFile(path)
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	header, want := splitHeader(string(old))
	if *update {
		header = goldenHeader(header, want, got)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(header+got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if err != nil {
		t.Fatalf("%s is missing; run go test ./queries/ -run Golden -update and review it", path)
	}
	if header == unreviewedHeader {
		t.Errorf("%s was rewritten by -update and not reviewed: review it against SPEC §5 and replace its first line with the review note", path)
	}
	if got != want {
		t.Errorf("%s differs from the current output (review, then -update):\n%s", path, diff(want, got))
	}
}

// unreviewedHeader marks a golden file whose body -update changed.
const unreviewedHeader = "# NOT REVIEWED: rewritten by -update; review against SPEC §5, then replace this line with the review note.\n"

// goldenHeader is the header -update writes: the review note only while it
// still describes the body it reviewed.
func goldenHeader(header, oldBody, newBody string) string {
	if header != "" && oldBody == newBody {
		return header
	}
	return unreviewedHeader
}

// splitHeader splits the leading block of "#" lines from the body.
func splitHeader(s string) (header, body string) {
	lines := strings.SplitAfter(s, "\n")
	i := 0
	for i < len(lines) && strings.HasPrefix(lines[i], "#") {
		i++
	}
	return strings.Join(lines[:i], ""), strings.Join(lines[i:], "")
}

// diff lists the first lines that differ.
func diff(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	var b strings.Builder
	n := 0
	for i := 0; i < max(len(w), len(g)) && n < 20; i++ {
		var wl, gl string
		if i < len(w) {
			wl = w[i]
		}
		if i < len(g) {
			gl = g[i]
		}
		if wl != gl {
			fmt.Fprintf(&b, "line %d\n  want: %s\n  got:  %s\n", i+1, wl, gl)
			n++
		}
	}
	return b.String()
}

func skillName(s *queries.Skill) string {
	src := ""
	if s.Source != nil {
		src = s.Source.Path
	}
	return fmt.Sprintf("%s [%s]", s.ID, src)
}

func toolName(t *queries.Tool) string {
	src := ""
	if t.Source != nil {
		src = t.Source.Path
	}
	return fmt.Sprintf("%s [%s]", t.ID, src)
}

func toolIDs(ts []*queries.Tool) string {
	ids := make([]string, 0, len(ts))
	for _, t := range ts {
		ids = append(ids, t.ID)
	}
	return strings.Join(ids, ", ")
}

func skillList(b *strings.Builder, title string, ss []*queries.Skill) {
	fmt.Fprintf(b, "%s: %d\n", title, len(ss))
	for _, s := range ss {
		fmt.Fprintf(b, "  %s\n", skillName(s))
	}
}

func renderCoverage(s *queries.Snapshot) string {
	var b strings.Builder
	c := s.Coverage
	fmt.Fprintf(&b, "total %d, covered %d, contradicted %d, uncovered %d\n",
		c.Total, len(c.Covered), len(c.Contradicted), len(c.Uncovered))
	fmt.Fprintf(&b, "\ncovered: %d\n", len(c.Covered))
	for _, sk := range c.Covered {
		fmt.Fprintf(&b, "  %s by %s\n", skillName(sk), toolIDs(sk.Tools))
	}
	fmt.Fprintf(&b, "\ncontradicted: %d\n", len(c.Contradicted))
	for _, sk := range c.Contradicted {
		fmt.Fprintf(&b, "  %s by %s\n", skillName(sk), toolIDs(sk.Contradicted))
	}
	for _, tier := range c.Tiers {
		fmt.Fprintf(&b, "\ntier %s: %d\n", tier.Tier, len(tier.Skills))
		for _, sk := range tier.Skills {
			var flags []string
			if sk.IsContradict {
				flags = append(flags, "contradicted")
			}
			if sk.Exempt {
				flags = append(flags, "exempt")
			}
			extra := ""
			if len(flags) > 0 {
				extra = " (" + strings.Join(flags, ", ") + ")"
			}
			fmt.Fprintf(&b, "  %s%s\n", skillName(sk), extra)
			if len(sk.Evidence) == 0 {
				fmt.Fprintf(&b, "    evidence: none\n")
			}
			for _, e := range sk.Evidence {
				fmt.Fprintf(&b, "    evidence: %s\n", e)
			}
		}
	}
	b.WriteString("\n")
	skillList(&b, "both halves", c.BothHalves)
	b.WriteString("\n")
	skillList(&b, "exempt", c.Exempt)
	return b.String()
}

func renderAlternatives(s *queries.Snapshot) string {
	var b strings.Builder
	a := s.Alternatives
	fmt.Fprintf(&b, "groups: %d\n", len(a.Groups))
	for _, g := range a.Groups {
		fmt.Fprintf(&b, "  %s\n", skillName(g.Skill))
		for _, t := range g.Tools {
			sel := "no selection"
			if t.HasSelection() {
				sel = "selection"
			}
			fmt.Fprintf(&b, "    %s: %s\n", toolName(t), sel)
		}
	}
	fmt.Fprintf(&b, "\nmissing selection: %d\n", len(a.MissingSelection))
	for _, t := range a.MissingSelection {
		fmt.Fprintf(&b, "  %s (alternatives: %s)\n", toolName(t), toolIDs(t.Alternatives))
	}
	fmt.Fprintf(&b, "\ncomplementary: %d\n", len(a.Complementary))
	for _, g := range a.Complementary {
		fmt.Fprintf(&b, "  %s\n", skillName(g.Skill))
		for _, t := range g.Tools {
			fmt.Fprintf(&b, "    %s\n", toolName(t))
		}
	}
	return b.String()
}

func witness(w []string) string {
	if w == nil {
		return "unreachable"
	}
	return strings.Join(w, " -> ")
}

func renderReachability(s *queries.Snapshot) string {
	var b strings.Builder
	r := s.Reach
	fmt.Fprintf(&b, "roots: %d\n", len(r.Roots))
	for _, k := range r.Roots {
		fmt.Fprintf(&b, "  %s\n", k)
	}
	b.WriteString("\n")
	skillList(&b, "covered not reachable", r.CoveredNotReachable)
	for _, l := range []struct {
		title string
		tools []*queries.Tool
	}{{"unreachable tools", r.UnreachableTools}, {"tools without command", r.ToolsWithoutCommand}} {
		fmt.Fprintf(&b, "\n%s: %d\n", l.title, len(l.tools))
		for _, t := range l.tools {
			fmt.Fprintf(&b, "  %s\n", toolName(t))
		}
	}
	fmt.Fprintf(&b, "\nunreachable processes: %d\n", len(r.UnreachableProcesses))
	for _, p := range r.UnreachableProcesses {
		src := ""
		if p.Source != nil {
			src = p.Source.Path
		}
		fmt.Fprintf(&b, "  %s [%s]\n", p.ID, src)
	}
	fmt.Fprintf(&b, "\nskill witnesses: %d\n", len(s.Skills))
	for _, sk := range s.Skills {
		fmt.Fprintf(&b, "  %s\n    %s\n", skillName(sk), witness(sk.Witness))
	}
	fmt.Fprintf(&b, "\ntool witnesses: %d\n", len(s.Tools))
	for _, t := range s.Tools {
		fmt.Fprintf(&b, "  %s\n    %s\n", toolName(t), witness(t.Witness))
	}
	return b.String()
}

func TestGoldenHeader(t *testing.T) {
	const note = "# Reviewed: ok.\n"
	for _, c := range []struct {
		name, header, old, new, want string
	}{
		{"unchanged body keeps the note", note, "a\n", "a\n", note},
		{"changed body loses the note", note, "a\n", "b\n", unreviewedHeader},
		{"new file is unreviewed", "", "", "a\n", unreviewedHeader},
		{"unreviewed stays unreviewed", unreviewedHeader, "a\n", "a\n", unreviewedHeader},
	} {
		if got := goldenHeader(c.header, c.old, c.new); got != c.want {
			t.Errorf("%s: %q", c.name, got)
		}
	}
}
