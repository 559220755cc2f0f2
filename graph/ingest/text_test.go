package ingest

import (
	"context"
	"testing"

	"github.com/skillgraph/skillgraph/ingest/corpustest"
	"github.com/skillgraph/skillgraph/ingest/discover"
)

// TestNotTextYieldsNoRecords: a file under a skills, beans or tools
// directory with a NUL byte or invalid UTF-8 anywhere (here in the body,
// far from the front matter) is file-not-text at the line of the first bad
// byte and yields no records (SPEC §1.2); BPMN, which declares its own
// encoding, is left to its parser.
func TestNotTextYieldsNoRecords(t *testing.T) {
	root := t.TempDir()
	files := map[string]string{
		"skills/p/bin.md":         "---\nname: bin\ndescription: d\n---\n# Bin\nline six \xff\xfe\n",
		"skills/p/ok.md":          "---\nname: ok\ndescription: d\n---\n# OK ünïcode\n",
		"beans/acme-a1a1--nul.md": "---\ntitle: T\nstatus: todo\n---\nbody\n\x00\n",
		"tools/t.yaml":            "id: t\nsatisfies: [ok]\ntitle: \"\xc3\x28\"\n",
	}
	corpustest.WriteInto(t, root, files)
	c, err := discover.Load(context.Background(), root, discover.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	units, err := parseCorpus(context.Background(), c, Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]int{"skills/p/bin.md": 6, "beans/acme-a1a1--nul.md": 6, "tools/t.yaml": 3}
	for _, u := range units {
		f := u.file
		line, bad := want[f.Path]
		got := 0
		for _, x := range f.Findings {
			if x.Code == "file-not-text" {
				got = x.Line
			}
		}
		if got != line {
			t.Errorf("%s: file-not-text at line %d, want %d (%+v)", f.Path, got, line, f.Findings)
		}
		if records := len(f.Skills) + len(f.Beans) + len(f.Tools); bad && records != 0 {
			t.Errorf("%s: %d records from a file that is not text", f.Path, records)
		}
		if f.Path == "skills/p/ok.md" && len(f.Skills) != 1 {
			t.Errorf("ok.md: %d skills", len(f.Skills))
		}
	}
}
