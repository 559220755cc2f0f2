package diff

import (
	"bytes"
	"strings"
	"testing"

	"github.com/skillgraph/skillgraph/ingest/record"
)

// TestRender: the text and markdown forms name the verdict, the totals and
// each non-empty list, worse lists marked when they fail.
func TestRender(t *testing.T) {
	base := snapshot(t, shop)
	head := snapshot(t, edit(map[string]string{"tools/ops.yaml": strings.Split(shop["tools/ops.yaml"], "  - id: notifier")[0]}))
	r := Compare(base, head, Options{})
	failing := r.Worse(record.Error)

	var md bytes.Buffer
	r.WriteMarkdown(&md, failing)
	for _, w := range []string{"### ❌ skillgraph diff: worse: uncovered, workflows", "| covered | 2 | 1 | ▼ worse |",
		"<b>❌ Skills newly uncovered</b> (1)", "- `ops/notify`", "Process_Release (processes/release.bpmn): 2/2 (100%) → 1/2 (50%)", "<b>Tools removed</b> (1)"} {
		if !strings.Contains(md.String(), w) {
			t.Errorf("markdown lacks %q:\n%s", w, md.String())
		}
	}
	var txt bytes.Buffer
	r.WriteText(&txt, nil) // nothing configured to fail
	for _, w := range []string{"skillgraph diff: no answer got worse", "Skills newly uncovered (1):\n  ops/notify"} {
		if !strings.Contains(txt.String(), w) {
			t.Errorf("text lacks %q:\n%s", w, txt.String())
		}
	}
}

func TestParseCategories(t *testing.T) {
	cases := []struct {
		in   string
		n    int
		fail bool
	}{{"all", len(Categories()), false}, {"none", 0, false}, {"uncovered, workflows", 2, false}, {"uncoverd", 0, true}}
	for _, tc := range cases {
		got, err := ParseCategories(tc.in)
		if (err != nil) != tc.fail || (err == nil && len(got) != tc.n) {
			t.Errorf("%q: %v, %v", tc.in, got, err)
		}
	}
}

// TestRenderMoves: a moved finding is listed as a move, from the base's
// file and line to the change's, in text and markdown.
func TestRenderMoves(t *testing.T) {
	base := snapshot(t, edit(map[string]string{"tools/extra.yaml": stray}))
	head := snapshot(t, edit(map[string]string{"tools/stray.yaml": stray}))
	r := Compare(base, head, Options{})
	want := `tools/extra.yaml:5 → tools/stray.yaml:5: error satisfies-unknown-skill: tool stray satisfies "ghost", which is no skill`
	var txt, md bytes.Buffer
	r.WriteText(&txt, r.Worse(record.Error))
	r.WriteMarkdown(&md, r.Worse(record.Error))
	for _, out := range []string{txt.String(), md.String()} {
		if !strings.Contains(out, "Moved findings") || !strings.Contains(out, want) || strings.Contains(out, "New findings") {
			t.Errorf("want the move %q and no new finding:\n%s", want, out)
		}
	}
}
