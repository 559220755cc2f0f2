package ingest

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cayleygraph/quad"
	"github.com/cayleygraph/quad/nquads"

	"github.com/skillgraph/skillgraph/ingest/corpustest"
	"github.com/skillgraph/skillgraph/jsonld"
	"github.com/skillgraph/skillgraph/queries"

	"github.com/skillgraph/skillgraph/ingest/bean"
	"github.com/skillgraph/skillgraph/ingest/bpmn"
	"github.com/skillgraph/skillgraph/ingest/record"
	"github.com/skillgraph/skillgraph/ingest/skill"
)

// TestHostileIDsAreFindings: an id with a quote, angle brackets, a NUL, a
// newline or a bidi override is a finding at its line in every format
// whose ids the corpus writes (issue #16.5); a plain id is not.
func TestHostileIDsAreFindings(t *testing.T) {
	bpmnDoc := func(pid, tid string) []byte {
		return fmt.Appendf(nil, `<?xml version="1.0"?>
<definitions xmlns="http://www.omg.org/spec/BPMN/20100524/MODEL">
<process id="%s">
<task id="%s"/>
</process>
</definitions>`, pid, tid)
	}
	cases := []struct {
		name string
		file record.File
		code string
		line int // 0: no finding of code expected
	}{
		{"harness stem with quote", skill.Parse(`skills/p/q"uo<te>.md`, []byte("# Q\n"), skill.Options{}), "skill-id-invalid", 1},
		{"harness stem upper case", skill.Parse("skills/p/Deploy.md", []byte("# D\n"), skill.Options{}), "skill-id-invalid", 1},
		{"harness stem fine", skill.Parse("skills/p/deploy.md", []byte("# D\n"), skill.Options{}), "skill-id-invalid", 0},
		{"hard skill id with RTL override", skill.Parse("skills/h/SKILL.md", []byte("---\ndescription: d\nskill: \"abc\\u202Etxt\"\n---\n"), skill.Options{}), "skill-id-invalid", 3},
		{"tool skill key with newline", skill.Parse("skills/t.md", []byte("---\ntrigger:\n  tool: x\nkey: \"a\\nb\"\n---\n"), skill.Options{}), "tool-skill-invalid", 4},
		{"BPMN process id decoded to <x>", bpmn.Parse("processes/p.bpmn", bpmnDoc("P&lt;x&gt;", "T1")), "bpmn-invalid", 3},
		{"BPMN task id with NUL reference", bpmn.Parse("processes/p.bpmn", bpmnDoc("P", "T&#x202E;1")), "bpmn-invalid", 4},
		{"BPMN ids fine", bpmn.Parse("processes/p.bpmn", bpmnDoc("P", "Task_1")), "bpmn-invalid", 0},
		{"bean id with quote", bean.Parse(`beans/b"1--x.md`, []byte("---\ntitle: b\n---\n")), "bean-invalid", 1},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got := 0
			for _, f := range tc.file.Findings {
				if f.Code == tc.code {
					got = f.Line
				}
			}
			if got != tc.line {
				t.Errorf("%s at line %d, want %d; findings %+v", tc.code, got, tc.line, tc.file.Findings)
			}
		})
	}
}

// TestExportRoundTripHostileCorpus: a corpus whose Tool id, skill file name
// and BPMN ids hold ", <, >, a NUL reference and a bidi override ingests
// into a store whose N-Quads export Cayley's own reader takes back quad for
// quad, and whose JSON-LD export compacts (issue #16.5).
func TestExportRoundTripHostileCorpus(t *testing.T) {
	root := t.TempDir()
	write := func(rel, text string) {
		p := filepath.Join(root, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(`skills/p/q"uo<te>.md`, "# Quote\n")
	write("tools/t.json", `{"id": "a\"b", "title": "t", "description": "d", "satisfies": ["q\"uo<te>", "x\u202Ey"], "install": {"none": true}, "invoke": {"shell": "x"}}`)
	write("processes/p.bpmn", `<?xml version="1.0"?>
<definitions xmlns="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:x="urn:x">
<process id="P&lt;x&gt;"><task id="T&#x202E;1"><extensionElements><x:skill ref="a&quot;b&#10;c"/></extensionElements></task></process>
</definitions>`)
	ctx := context.Background()
	st := openBackend(t, "memory")
	if _, err := Run(ctx, st, []string{root}, Options{}); err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	n, err := st.WriteNQuads(ctx, &b)
	if err != nil {
		t.Fatal(err)
	}
	r := nquads.NewReader(strings.NewReader(b.String()), true)
	var back []quad.Quad
	for {
		q, err := r.ReadQuad()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("cayley's N-Quads reader refuses the export: %v", err)
		}
		back = append(back, q)
	}
	if len(back) != n {
		t.Fatalf("read back %d quads of %d", len(back), n)
	}
	exp, err := jsonld.FromQuads(back)
	if err != nil {
		t.Fatalf("json-ld export: %v", err)
	}
	if _, err := jsonld.Compact(exp); err != nil {
		t.Fatalf("json-ld compact: %v", err)
	}
}

// TestSourceSHA256IsTheFileHash: sg:sha256 of a source file is the SHA-256
// of its bytes, so a consumer can check it with sha256sum; the salted
// change-detection digest is stored under its own name (issue #11).
func TestSourceSHA256IsTheFileHash(t *testing.T) {
	ctx := context.Background()
	root, err := filepath.Abs("../../ingest/testdata/mini")
	if err != nil {
		t.Fatal(err)
	}
	st := openBackend(t, "memory")
	if _, err := Run(ctx, st, []string{root}, Options{}); err != nil {
		t.Fatal(err)
	}
	sources := map[string]string{} // source IRI → path
	err = st.Each(ctx, func(q quad.Quad) error {
		if q.Predicate == quad.IRI(jsonld.NS+"path") {
			sources[string(q.Subject.(quad.IRI))] = string(q.Object.(quad.String))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	for iri, rel := range sources {
		data, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(rel)))
		if err != nil {
			continue // the declaration graph of a conventional layout has no file
		}
		qs, err := st.Subject(ctx, iri)
		if err != nil {
			t.Fatal(err)
		}
		sum := sha256.Sum256(data)
		var sha, digest string
		for _, sq := range qs {
			switch sq.Predicate {
			case quad.IRI(jsonld.NS + "sha256"):
				sha = fmt.Sprint(sq.Object.Native())
			case quad.IRI(jsonld.NS + "digest"):
				digest = fmt.Sprint(sq.Object.Native())
			}
		}
		if sha != hex.EncodeToString(sum[:]) {
			t.Errorf("%s: sha256 %s, want %x", rel, sha, sum)
		}
		if digest == "" || digest == sha {
			t.Errorf("%s: change-detection digest %q is missing or not salted", rel, digest)
		}
		checked++
	}
	if checked == 0 {
		t.Fatal("no source file checked")
	}
}

// TestSecondCorpusOfOneName: a second corpus declaring the name and iriBase
// of an instance already stored from another root replaces its graphs, and
// says so (instance-replaced); one with another iriBase coexists, and the
// shared name is reported (instance-name-duplicate) (issue #16.7).
func TestSecondCorpusOfOneName(t *testing.T) {
	mk := func(decl string, skills ...string) string {
		files := map[string]string{"harness.json": decl}
		for _, sk := range skills {
			files["skills/p/"+sk+".md"] = "# " + sk + "\n"
		}
		return corpustest.Write(t, files)
	}
	const dirs = `"directories": [{"id": "s", "path": "skills", "graphTypologies": ["skills"]}]`
	first := mk(`{"name": "same", `+dirs+`}`, "a", "b", "c")
	moved := mk(`{"name": "same", `+dirs+`}`, "a", "b", "c", "d")
	second := mk(`{"name": "same", `+dirs+`}`, "x", "y")
	other := mk(`{"name": "same", "iriBase": "https://elsewhere.example/", `+dirs+`}`, "z")
	ctx := context.Background()
	st := openBackend(t, "memory")
	findings := func() map[string][]string {
		s, err := queries.Build(ctx, st)
		if err != nil {
			t.Fatal(err)
		}
		out := map[string][]string{}
		for _, f := range s.Findings {
			out[f.Code] = append(out[f.Code], f.File+": "+f.Message)
		}
		return out
	}
	for _, step := range []struct {
		root        string
		replaced    bool
		nameShared  bool
		description string
	}{
		{first, false, false, "the first corpus"},
		{first, false, false, "the first corpus again"},
		{moved, false, false, "the first corpus moved to another root and edited"},
		{second, true, false, "another root of the same name and iriBase"},
		// The replacement stays reported in the second corpus's
		// declaration graph until that corpus is ingested again.
		{other, true, true, "the same name under another iriBase"},
		{second, false, true, "the second corpus again"},
	} {
		if _, err := Run(ctx, st, []string{step.root}, Options{}); err != nil {
			t.Fatal(err)
		}
		got := findings()
		if (len(got["instance-replaced"]) > 0) != step.replaced {
			t.Errorf("%s: instance-replaced %v, want %v", step.description, got["instance-replaced"], step.replaced)
		}
		if (len(got["instance-name-duplicate"]) > 0) != step.nameShared {
			t.Errorf("%s: instance-name-duplicate %v, want %v", step.description, got["instance-name-duplicate"], step.nameShared)
		}
	}
}

// TestHardSkillIncludesADirectory: an include naming a directory means
// everything under it (realworld/hard-skills includes `scripts`), so only
// the include that names nothing is include-missing (issue #11).
func TestHardSkillIncludesADirectory(t *testing.T) {
	root := t.TempDir()
	for rel, text := range map[string]string{
		"skills/deploy/SKILL.md":          "---\nskill: deploy\ndescription: d\nincludes: scripts, scripts/, nothing-here\n---\n# Deploy\n",
		"skills/deploy/scripts/deploy.sh": "echo deploy\n",
	} {
		p := filepath.Join(root, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	ctx := context.Background()
	st := openBackend(t, "memory")
	if _, err := Run(ctx, st, []string{root}, Options{}); err != nil {
		t.Fatal(err)
	}
	s, err := queries.Build(ctx, st)
	if err != nil {
		t.Fatal(err)
	}
	var missing []string
	for _, f := range s.Findings {
		if f.Code == "include-missing" {
			missing = append(missing, f.Message)
		}
	}
	if len(missing) != 1 || !strings.Contains(missing[0], "nothing-here") {
		t.Errorf("include-missing %q, want only nothing-here", missing)
	}
}
