package bean

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func FuzzParse(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("testdata", "defs", "*.md"))
	for _, name := range files {
		if data, err := os.ReadFile(name); err == nil {
			f.Add(data)
		}
	}
	f.Add([]byte("---\nlinks:\n  - blocks: acme-a1b2\n  - parent: acme-a1b2\nblocks: &a [acme-a1b2, x]\nblocked_by: *a\n---\n`x` [y](z.md)\n```\n`no`\n```\n"))
	f.Add([]byte("\xef\xbb\xbf---\r\ntitle: t\r\n...\r\nbody ``a`` `b` [c](d/SKILL.md)"))
	f.Add([]byte("---\na: &a [*a]\n---\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		const p = "beans/acme-a1b2--fuzz.md"
		got := Parse(p, data)
		if got.Parser != Parser || got.Path != p || len(got.Beans) != 1 {
			t.Fatalf("Parser %q, Path %q, %d beans", got.Parser, got.Path, len(got.Beans))
		}
		b := got.Beans[0]
		if b.ID != "acme-a1b2" || b.Line != 1 {
			t.Fatalf("id %q line %d", b.ID, b.Line)
		}
		if b.Parent == b.ID || slices.Contains(b.Blocking, b.ID) || slices.Contains(b.BlockedBy, b.ID) {
			t.Fatalf("self link kept: %+v", b)
		}
		if b.Parent != "" && b.ParentLine < 2 || len(b.Blocking) > 0 && b.BlockingLine < 2 {
			t.Fatalf("relation without a line: %+v", b)
		}
		// Lines as the parser counts them (ynode.Lines: CRLF, a lone CR
		// and LF each end one, as in CommonMark and YAML).
		lines := strings.Count(strings.ReplaceAll(string(data), "\r\n", "\n"), "\n") + strings.Count(strings.ReplaceAll(string(data), "\r\n", ""), "\r") + 1
		for _, fi := range got.Findings {
			if fi.File != p || fi.Line < 1 || fi.Line > lines || fi.Message == "" || fi.Severity.Rank() == 0 {
				t.Fatalf("bad finding %+v (file has %d lines)", fi, lines)
			}
		}
		name := string(data)
		if len(name) > 200 {
			name = name[:200]
		}
		if id, ok := IDFromName(name + ".md"); ok && (id == "" || strings.ContainsAny(id, "/") && !strings.HasPrefix(name, id)) {
			t.Fatalf("IDFromName(%q) = %q", name, id)
		}
	})
}
