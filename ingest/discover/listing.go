package discover

import (
	"io/fs"
	"path/filepath"
	"slices"
	"strings"
)

// Listings are the folder listings of one discovery, shared by the
// workspace search, which lists every folder down to MaxWorkspaceDepth,
// and the corpus walks of its instances, which list the same folders
// again: at 10 000 skills 2 800 folders and 21 000 entries, each entry an
// lstat under os.Root. A walk uses the search's listing of a folder, taken
// moments before (as if the walk had run then), and lists any other
// folder itself (and keeps that listing too). The lstat each listing took
// of its entries answers Lstat. The zero value shares nothing yet, nil
// nothing at all; not safe for concurrent use.
type Listings struct {
	dirs map[string][]fs.DirEntry // by absolute path, symlinks of the root resolved
}

// put keeps the listing of the folder at abs.
func (l *Listings) put(abs string, entries []fs.DirEntry) {
	if l == nil {
		return
	}
	if l.dirs == nil {
		l.dirs = map[string][]fs.DirEntry{}
	}
	l.dirs[abs] = entries
}

// Drop forgets every listing kept: once the files are read, nothing
// asks them again, and a large corpus's listings (an entry and its lstat
// per file: 140 MB at 100k skills) would stay live for the whole write.
// Later listings are kept again.
func (l *Listings) Drop() {
	if l != nil {
		l.dirs = nil
	}
}

// get is the listing of the folder at abs, if one is kept.
func (l *Listings) get(abs string) ([]fs.DirEntry, bool) {
	if l == nil {
		return nil, false
	}
	es, ok := l.dirs[abs]
	return es, ok
}

// Lstat is the lstat the listing of abs's folder took of the entry abs
// (an absolute path, the root's symlinks resolved): false when that folder
// was not listed, abs was not in it, or its lstat failed.
func (l *Listings) Lstat(abs string) (fs.FileInfo, bool) {
	es, ok := l.get(filepath.Dir(abs))
	if !ok {
		return nil, false
	}
	name := filepath.Base(abs)
	i, ok := slices.BinarySearchFunc(es, name, func(e fs.DirEntry, n string) int { return strings.Compare(e.Name(), n) })
	if !ok {
		return nil, false
	}
	info, err := es[i].Info()
	return info, err == nil
}

// listedFS is a confined root's file system whose ReadDir answers from the
// listings where it can; every other call goes to the root.
type listedFS struct {
	fsys fs.FS
	dir  string // the root's absolute path
	l    *Listings
}

func (f listedFS) Open(name string) (fs.File, error) { return f.fsys.Open(name) }

func (f listedFS) Stat(name string) (fs.FileInfo, error) { return fs.Stat(f.fsys, name) }

func (f listedFS) ReadDir(name string) ([]fs.DirEntry, error) {
	abs := filepath.Join(f.dir, filepath.FromSlash(name))
	if es, ok := f.l.get(abs); ok {
		return es, nil
	}
	es, err := fs.ReadDir(f.fsys, name)
	if err == nil {
		f.l.put(abs, es)
	}
	return es, err
}
