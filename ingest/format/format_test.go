package format_test

import (
	"context"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/skillgraph/skillgraph/ingest/discover"
	"github.com/skillgraph/skillgraph/ingest/format"
)

// TestPreCommitHookAgrees fails when the pre-commit hook's files pattern
// is not the table's: a hook that misses an extension lets a broken file
// through (it missed .mjs, .js, .mts and .bpmn2 before the table).
func TestPreCommitHookAgrees(t *testing.T) {
	data, err := os.ReadFile("../../.pre-commit-hooks.yaml")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?m)^\s*files:\s*(.+)$`).FindSubmatch(data)
	if m == nil {
		t.Fatal("no files: line in .pre-commit-hooks.yaml")
	}
	if got, want := strings.TrimSpace(string(m[1])), format.PreCommitPattern(); got != want {
		t.Fatalf(".pre-commit-hooks.yaml files: %s\nthe format table says:     %s", got, want)
	}
	re := regexp.MustCompile(format.PreCommitPattern())
	exts, names := format.Watched()
	for _, e := range exts {
		if !re.MatchString("dir/file" + e) {
			t.Errorf("pattern misses %s", e)
		}
	}
	for _, n := range names {
		if !re.MatchString("dir/" + n) {
			t.Errorf("pattern misses %s", n)
		}
	}
}

// TestDiscoveryAgrees builds a declared corpus with one file per
// typology and extension of the table and fails unless discovery reads
// each as the table's kind, and reads no file of an extension the table
// does not list there.
func TestDiscoveryAgrees(t *testing.T) {
	root := t.TempDir()
	dirs := map[string]string{}
	want := map[string]string{}
	var decl []string
	for _, f := range format.Formats {
		for _, ty := range f.Typologies {
			dir := "d-" + ty
			if _, ok := dirs[ty]; !ok {
				dirs[ty] = dir
				decl = append(decl, `{"id": "`+ty+`", "path": "`+dir+`", "graphTypologies": ["`+ty+`"]}`)
			}
			for _, e := range f.Exts {
				rel := path.Join(dir, "f-"+f.Kind+strings.ReplaceAll(e, ".", "-")+e)
				if f.Accept != nil && !f.Accept(rel) {
					// A format that reads only some names of the extension
					// (Plane page exports end .plane.json).
					rel = path.Join(dir, "f-"+f.Kind+".plane"+e)
				}
				want[rel] = f.Kind
			}
			want[path.Join(dir, "not-read.png")] = ""
		}
	}
	write := func(rel, body string) {
		p := filepath.Join(root, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("harness.json", `{"name": "formats", "directories": [`+strings.Join(decl, ",")+`]}`)
	for rel := range want {
		write(rel, "x\n")
	}
	c, err := discover.Load(context.Background(), root, discover.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	for rel, kind := range want {
		s, ok := c.Source(rel)
		switch {
		case kind == "" && ok:
			t.Errorf("%s read as %s; the table reads no such file there", rel, s.Kind)
		case kind != "" && !ok:
			t.Errorf("%s not read; the table reads it as %s", rel, kind)
		case kind != "" && s.Kind != kind:
			t.Errorf("%s read as %s; the table says %s", rel, s.Kind, kind)
		}
	}
}

// TestEveryKindParses fails when a kind discovery can give a source has
// no parser in the table (the switch the table replaced had a default
// that silently read nothing).
func TestEveryKindParses(t *testing.T) {
	for _, k := range []string{discover.KindDeclaration, discover.KindSkill, discover.KindTool, discover.KindBPMN, discover.KindMCP,
		discover.KindBean, discover.KindContract, discover.KindVocabulary, discover.KindPackage, discover.KindPlugin,
		discover.KindMarketplace, discover.KindCommand, discover.KindAgent, discover.KindHooks, discover.KindMcpConfig} {
		f, ok := format.Lookup(k)
		if !ok || f.Parse == nil || f.Where == "" {
			t.Errorf("kind %q has no format with a parser and a place", k)
			continue
		}
		if got := format.Parse(k, format.Input{Path: "x", Data: []byte("{}")}); got.Path != "x" {
			t.Errorf("kind %q: parse of x gave path %q", k, got.Path)
		}
	}
}

// TestIsWatched: every extension and name the table reads is watched;
// an editor's backup file and a declaration file of TypeScript are not.
func TestIsWatched(t *testing.T) {
	exts, names := format.Watched()
	for _, e := range exts {
		if !format.IsWatched("a" + e) {
			t.Errorf("%s not watched", e)
		}
	}
	for _, n := range names {
		if !format.IsWatched(n) {
			t.Errorf("%s not watched", n)
		}
	}
	for _, n := range []string{"a.md~", "a.swp", "types.d.ts", "image.png"} {
		if format.IsWatched(n) {
			t.Errorf("%s watched", n)
		}
	}
}
