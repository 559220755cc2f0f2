package server

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/fsnotify/fsnotify"

	"github.com/skillgraph/skillgraph/graph/ingest"
	"github.com/skillgraph/skillgraph/ingest/format"
)

// TestWatchIgnoresFilesNoParserReads: events for editor swap and backup
// files, images and permission changes start no ingest; events for files a
// parser reads, removed folders and new folders do.
func TestWatchIgnoresFilesNoParserReads(t *testing.T) {
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, "newdir"), 0o755); err != nil {
		t.Fatal(err)
	}
	w, err := fsnotify.NewWatcher()
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	s := NewService(nil, []string{dir}, ingest.Options{}, nil, nil)
	cases := []struct {
		name string
		op   fsnotify.Op
		want bool
	}{
		{"skills/a.md", fsnotify.Write, true},
		{"tools/t.yaml", fsnotify.Create, true},
		{"tools/t.json", fsnotify.Remove, true},
		{"processes/p.bpmn", fsnotify.Rename, true},
		{"tools/index.ts", fsnotify.Write, true},
		{"skills/a.md", fsnotify.Chmod, false},
		{"skills/.a.md.swp", fsnotify.Write, false},
		{"skills/a.md~", fsnotify.Write, false},
		{"skills/#a.md#", fsnotify.Create, false},
		{"skills/4913", fsnotify.Create, false},
		{"skills/diagram.png", fsnotify.Write, false},
		{"tools/types.d.ts", fsnotify.Write, false},
		{"skills/gone-folder", fsnotify.Remove, true},
		{"newdir", fsnotify.Create, true},
	}
	for _, c := range cases {
		t.Run(c.op.String()+" "+c.name, func(t *testing.T) {
			ev := fsnotify.Event{Name: filepath.Join(dir, filepath.FromSlash(c.name)), Op: c.op}
			if got := s.relevant(w, ev); got != c.want {
				t.Fatalf("relevant = %v, want %v", got, c.want)
			}
		})
	}
	if !slices.Contains(w.WatchList(), filepath.Join(dir, "newdir")) {
		t.Fatal("a new directory is not watched")
	}
}

// TestWatchAgreesWithFormatTable: a write to a file of every extension and
// name the format table reads starts an ingest (the watcher kept its own
// list of extensions before the table, which drifted from discovery's).
func TestWatchAgreesWithFormatTable(t *testing.T) {
	dir := t.TempDir()
	w, err := fsnotify.NewWatcher()
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	s := NewService(nil, []string{dir}, ingest.Options{}, nil, nil)
	exts, names := format.Watched()
	for _, n := range append(names, "plugins/p/.claude-plugin/plugin.json", "plugins/p/hooks/hooks.json") {
		exts = append(exts, "/"+n)
	}
	for _, e := range exts {
		name := "f" + e
		if strings.HasPrefix(e, "/") {
			name = e[1:]
		}
		ev := fsnotify.Event{Name: filepath.Join(dir, filepath.FromSlash(name)), Op: fsnotify.Write}
		if !s.relevant(w, ev) {
			t.Errorf("a write to %s starts no ingest, but the format table reads it", name)
		}
	}
}
