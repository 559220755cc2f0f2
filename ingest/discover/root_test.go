package discover

import (
	"bytes"
	"context"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"testing/iotest"
	"time"
	"unicode/utf8"
)

// put writes data at rel below dir.
func put(t *testing.T, dir, rel, data string) {
	t.Helper()
	p := filepath.Join(dir, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}

// mkfifo makes a FIFO at rel below dir (skips where there are none).
func mkfifo(t *testing.T, dir, rel string) {
	t.Helper()
	p := filepath.Join(dir, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(p, 0o644); err != nil {
		t.Skipf("no FIFOs here: %v", err)
	}
}

// bounded runs f and fails the test if it has not returned within a
// generous bound: a read that blocks on a FIFO never returns at all.
func bounded(t *testing.T, f func()) {
	t.Helper()
	done := make(chan struct{})
	go func() { defer close(done); f() }()
	select {
	case <-done:
	case <-time.After(30 * time.Second):
		t.Fatal("blocked: a read waited on a FIFO")
	}
}

// TestSwapAfterDiscovery: a file discovered (and checked) inside the root,
// then swapped for a symlink out of it — or its directory swapped for one
// — before it is read, is refused; the secret outside is never read.
func TestSwapAfterDiscovery(t *testing.T) {
	base := t.TempDir()
	root, outside := filepath.Join(base, "corpus"), filepath.Join(base, "outside")
	put(t, outside, "secret.md", "---\nname: secret\ndescription: stolen\n---\n")
	put(t, outside, "p/a.md", "---\nname: stolen\ndescription: stolen\n---\n")
	put(t, root, "skills/p/a.md", "---\nname: a\ndescription: d\n---\n")
	put(t, root, "skills/q/b.md", "---\nname: b\ndescription: d\n---\n")
	c, err := Load(context.Background(), root, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if len(c.Sources) != 2 {
		t.Fatalf("sources %+v", c.Sources)
	}
	// The swaps happen after discovery checked every path.
	a := filepath.Join(root, "skills/p/a.md")
	if err := os.Remove(a); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(outside, "secret.md"), a); err != nil {
		t.Skipf("no symlinks: %v", err)
	}
	q := filepath.Join(root, "skills/q")
	if err := os.RemoveAll(q); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(outside, "p"), q); err != nil {
		t.Fatal(err)
	}
	for _, rel := range []string{"skills/p/a.md", "skills/q/b.md", "skills/q/a.md", "../outside/secret.md", "/etc/passwd"} {
		data, err := c.ReadFile(rel)
		if !errors.Is(err, ErrEscapes) {
			t.Errorf("%s: err = %v (read %q), want ErrEscapes", rel, err, data)
		}
	}
}

// TestOnlyRegularFilesAreRead: a FIFO or a directory is refused at once
// (the open itself must not wait for a writer); a file over the cap is
// refused without reading it.
func TestOnlyRegularFilesAreRead(t *testing.T) {
	dir := t.TempDir()
	mkfifo(t, dir, "fifo.json")
	put(t, dir, "big.json", strings.Repeat("x", 100))
	put(t, dir, "ok.json", "{}")
	if err := os.Symlink("fifo.json", filepath.Join(dir, "link.json")); err != nil {
		t.Skipf("no symlinks: %v", err)
	}
	r, err := OpenRoot(dir, 64)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	for _, c := range []struct {
		rel  string
		want error
	}{
		{"fifo.json", ErrNotRegular},
		{"link.json", ErrNotRegular},
		{"big.json", ErrTooLarge},
		{"missing.json", fs.ErrNotExist},
		{"ok.json", nil},
	} {
		bounded(t, func() {
			_, err := r.ReadFile(c.rel)
			if (c.want == nil) != (err == nil) || (c.want != nil && !errors.Is(err, c.want)) {
				t.Errorf("%s: err = %v, want %v", c.rel, err, c.want)
			}
		})
	}
	if _, err := r.ReadFile("."); err == nil {
		t.Error("a directory was read as a file")
	}
	if r.Exists("fifo.json") || !r.Exists("ok.json") || !r.Exists(".") || r.Exists("missing.json") {
		t.Error("Exists: a FIFO does not count, a file and a directory do")
	}
}

// TestFIFOsNamedByDiscovery: every file discovery reads by name (the
// declaration, .beans.yml, package-manifest.json) and every file it lists
// that is a FIFO is a finding, never a hang.
func TestFIFOsNamedByDiscovery(t *testing.T) {
	for _, c := range []struct {
		name  string
		setup func(t *testing.T, dir string)
		want  string // "code file"
	}{
		{"harness.json", func(t *testing.T, dir string) { mkfifo(t, dir, "harness.json") }, "file-unreadable harness.json"},
		{".beans.yml", func(t *testing.T, dir string) {
			mkfifo(t, dir, ".beans.yml")
			put(t, dir, "skills/p/a.md", "---\nname: a\ndescription: d\n---\n")
		}, "file-unreadable .beans.yml"},
		{"package-manifest.json", func(t *testing.T, dir string) {
			mkfifo(t, dir, "skills/p/package-manifest.json")
			put(t, dir, "skills/p/a.md", "---\nname: a\ndescription: d\n---\n")
		}, "file-unreadable skills/p/package-manifest.json"},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			c.setup(t, dir)
			bounded(t, func() {
				cp, err := Load(context.Background(), dir, Options{})
				if err != nil {
					t.Fatal(err)
				}
				defer cp.Close()
				for _, f := range cp.Findings {
					if f.Code+" "+f.File == c.want {
						return
					}
				}
				t.Errorf("want %s; findings %+v", c.want, cp.Findings)
			})
		})
	}
}

// TestFileNotRead: files under a typed directory that no parser reads are
// one info finding per directory and kind; read files, hidden files and the
// files read beside sources on purpose are not.
func TestFileNotRead(t *testing.T) {
	dir := t.TempDir()
	put(t, dir, "skills/p/a.md", "---\nname: a\ndescription: d\n---\n")
	put(t, dir, "skills/p/package-manifest.json", `{"name": "p"}`)
	put(t, dir, "skills/p/logo.png", "png")
	put(t, dir, "skills/q/logo.png", "png")
	put(t, dir, "skills/.DS_Store", "x")
	put(t, dir, "processes/a.bpmn", "<definitions/>")
	put(t, dir, "processes/d1.dmn", "<dmn/>")
	put(t, dir, "processes/d2.DMN", "<dmn/>")
	put(t, dir, "processes/x.ts", "export {}")
	put(t, dir, "tools/t.ts", "export {}")
	put(t, dir, "tools/t.mjs", "export {}")
	put(t, dir, "tools/Makefile", "all:")
	c, err := Load(context.Background(), dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	var got []string
	for _, f := range c.Findings {
		if f.Code == "file-not-read" {
			if f.Severity != "info" {
				t.Errorf("%s: severity %s", f.File, f.Severity)
			}
			got = append(got, f.File)
		}
	}
	want := []string{"skills/p/logo.png", "tools/Makefile", "processes/d1.dmn", "processes/x.ts"} // conventional directory order
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("file-not-read on %v, want %v; findings %+v", got, want, c.Findings)
	}
}

// FuzzNotText: file-not-text is reported exactly for data with a NUL byte
// or invalid UTF-8, on a line inside the data.
func FuzzNotText(f *testing.F) {
	f.Add([]byte("plain\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		fi, bad := NotText("x.md", KindSkill, data)
		if want := !utf8.Valid(data) || bytes.IndexByte(data, 0) >= 0; bad != want {
			t.Fatalf("bad = %v, want %v", bad, want)
		}
		if bad && (fi.Line < 1 || fi.Line > bytes.Count(data, []byte("\n"))+1 || fi.Code != "file-not-text") {
			t.Fatalf("finding %+v", fi)
		}
	})
}

// TestFileNotReadSkipsWhatIsRead: files read by other means are not
// file-not-read (issue 23.7): the Zod vocabulary and the modules it and
// the Tool modules import, and the declaration inside a declared "."
// directory. A module nothing imports still is.
func TestFileNotReadSkipsWhatIsRead(t *testing.T) {
	cases := []struct {
		name  string
		files map[string]string
		want  []string
	}{
		{"zod vocabulary and its imports", map[string]string{
			"harness.json":          `{"name": "h", "directories": [{"path": "schemas", "graphTypologies": ["schemas"]}, {"path": "tools", "graphTypologies": ["tools"]}]}`,
			"schemas/tool-types.ts": "import { z } from \"zod\";\nimport { A } from \"./a.js\";\nexport const X = z.object({});\n",
			"schemas/a.ts":          "export * from './b';\n",
			"schemas/b.ts":          "export const B = 1;\n",
			"schemas/tool.ts":       "export function defineTool(t) { return t; }\n",
			"schemas/orphan.ts":     "export const O = 1;\n",
			"tools/index.ts":        "import { defineTool } from \"../schemas/tool.js\";\nexport default [defineTool({id: \"x\"})];\n",
			"schemas/loop/one.ts":   "import './two.js';\n",
			"schemas/loop/two.ts":   "import './one.js';\n",
		}, []string{"schemas/loop/one.ts (3)"}}, // loop/one, loop/two, orphan: nothing starts there
		{"declaration in a declared . directory", map[string]string{
			"harness.json": `{"name": "h", "directories": [{"path": ".", "graphTypologies": ["skills"]}]}`,
			"notes.txt":    "x",
			"a.md":         "---\nname: a\ndescription: d\n---\n",
		}, []string{"notes.txt (1)"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			for p, body := range c.files {
				put(t, dir, p, body)
			}
			co, err := Load(context.Background(), dir, Options{})
			if err != nil {
				t.Fatal(err)
			}
			defer co.Close()
			var got []string
			for _, f := range co.Findings {
				if f.Code == "file-not-read" {
					n, _, _ := strings.Cut(f.Message, " ")
					got = append(got, f.File+" ("+n+")")
				}
			}
			if strings.Join(got, " ") != strings.Join(c.want, " ") {
				t.Errorf("file-not-read on %v, want %v; findings %+v", got, c.want, co.Findings)
			}
		})
	}
}

// TestReadSizedReadsWhatIsThere: a read sized from a stat returns the
// bytes there are, whether the file is as large as the stat said, grew
// after it or shrank.
func TestReadSizedReadsWhatIsThere(t *testing.T) {
	for _, c := range []struct {
		name string
		size int64
		data string
	}{
		{"as stated", 11, "hello world"},
		{"empty", 0, ""},
		{"grew", 3, strings.Repeat("x", 5000)},
		{"shrank", 100, "short"},
	} {
		got, err := readSized(iotest.OneByteReader(strings.NewReader(c.data)), c.size)
		if err != nil || string(got) != c.data {
			t.Errorf("%s: read %d bytes (%v), want %d", c.name, len(got), err, len(c.data))
		}
		got, err = readSized(strings.NewReader(c.data), c.size)
		if err != nil || string(got) != c.data {
			t.Errorf("%s, whole reads: read %d bytes (%v), want %d", c.name, len(got), err, len(c.data))
		}
	}
	// A file that grew past the cap after its stat: ReadFile's limit of
	// one byte over the cap reads that byte, which it then refuses.
	if got, err := readSized(io.LimitReader(strings.NewReader(strings.Repeat("y", 500)), 65), 10); err != nil || len(got) != 65 {
		t.Errorf("a grown file under the limit: read %d bytes (%v), want the limit's 65", len(got), err)
	}
	if _, err := readSized(iotest.ErrReader(errors.New("disk gone")), 10); err == nil {
		t.Error("a failing read returned no error")
	}
}
