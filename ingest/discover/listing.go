package discover

import (
	"io/fs"
	"path/filepath"
)

// Listings are the folder listings of one discovery, shared by the
// workspace search, which lists every folder down to MaxWorkspaceDepth,
// and the corpus walks of its instances, which list the same folders
// again: at 10 000 skills 2 800 folders and 21 000 entries, each entry an
// lstat under os.Root. A walk uses the search's listing of a folder, taken
// moments before (as if the walk had run then), and lists any other
// folder itself. The zero value and nil share nothing; not safe for
// concurrent use.
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

// get is the listing of the folder at abs, if one is kept.
func (l *Listings) get(abs string) ([]fs.DirEntry, bool) {
	if l == nil {
		return nil, false
	}
	es, ok := l.dirs[abs]
	return es, ok
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
	if es, ok := f.l.get(filepath.Join(f.dir, filepath.FromSlash(name))); ok {
		return es, nil
	}
	return fs.ReadDir(f.fsys, name)
}
