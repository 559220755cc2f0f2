package ingest_test

import (
	"strconv"
	"strings"
	"testing"

	"github.com/skillgraph/skillgraph/ingest/corpustest"
)

// TestSilentDataChanges (issue #16.7): a key given twice in a JSON file and
// a number no float64 holds are findings on their lines; the number is
// stored as the text written, never as the text of a Go error.
func TestSilentDataChanges(t *testing.T) {
	root := t.TempDir()
	big := strings.Repeat("9", 100000)
	files := map[string]string{
		"skills/p/s.md": "---\nname: s\ndescription: d\n---\n",
		"tools/t.json": "{\"id\": \"t\",\n\"title\": \"First\",\n\"title\": \"Second\",\n\"description\": \"D\", \"satisfies\": [\"s\"], \"install\": {\"none\": true}, \"invoke\": {\"shell\": \"x\"},\n" +
			"\"x-big\": " + big + "}\n",
		"mcp/m.json": "{\"tools\": [{\"name\": \"a\", \"inputSchema\": {\"type\": \"object\"},\n\"name\": \"b\"}]}\n",
	}
	corpustest.WriteInto(t, root, files)
	st := ingestMemory(t, root)
	snap := snapshotOf(t, st)
	want := map[string]bool{"tools/t.json:3": false, "tools/t.json:5": false, "mcp/m.json:2": false}
	for _, f := range snap.Findings {
		if k := f.File + ":" + strconv.Itoa(f.Line); f.Code == "parse-error" {
			if _, ok := want[k]; ok {
				want[k] = true
			}
		}
	}
	for k, ok := range want {
		if !ok {
			t.Errorf("no parse-error at %s; findings %+v", k, snap.Findings)
		}
	}
	for _, quads := range dump(t, st) {
		for _, q := range quads {
			if strings.Contains(q, "strconv") || strings.Contains(q, "Canonicalization error") {
				t.Fatalf("an error message was stored as data: %.200s", q)
			}
		}
	}
}
