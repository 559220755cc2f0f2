package ingest

import (
	"bytes"
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/skillgraph/skillgraph/ingest/discover"
)

// The size-and-mtime skip (SPEC §3.3, issue #14: "unchanged size and
// modification time skip the read; the content hash stays the truth when
// they differ"). Each file ingest reads gets a stamp, stored with its graph
// (graph.Change.Stamp): its size and modification time, and those of every
// file its parse read elsewhere (a Tool module's sibling modules), the
// answers to what it asked about others (a hard skill's includes), its
// package and the context salt (parser version, declaration, vocabulary).
// A full re-ingest does not read a file whose stamp still holds in every
// part; anything that differs reads it, and the digest decides as before.
//
// Coarse clocks (docs/decisions.md "Same-second edits"): a file, or a file
// its parse read, whose modification time is within racyWindow of the
// ingest's start (or after it) gets no stamp, so an edit in the same tick
// as that ingest's read can never be mistaken for no edit; it is read
// again next time and stamped then.

// stampVersion changes when the stamp's meaning changes: older stamps then
// match nothing and every file is read once.
const stampVersion = 1

// racyWindow is how close to an ingest's start a modification time must be
// for its file to get no stamp: filesystems keep mtimes to 1 s or 2 s (FAT)
// and a clock can step a little.
const racyWindow = 2 * time.Second

// stamp is what the size-and-mtime skip compares.
type stamp struct {
	V     int        `json:"v"`
	Kind  string     `json:"k"`           // the kind discovery gave the file
	Size  int64      `json:"s"`           // bytes
	MTime int64      `json:"m"`           // Unix nanoseconds
	Salt  string     `json:"salt"`        // the context salt of the parse
	Pkg   string     `json:"p,omitempty"` // the package discovery gave a skill
	Reads []depStamp `json:"r,omitempty"` // files the parse read elsewhere
	Asked []asked    `json:"a,omitempty"` // what it asked about other files
	Refs  []string   `json:"c,omitempty"` // contracts its skills name (to read those too)
}

// depStamp is the size and mtime of a file a parse read besides its own.
type depStamp struct {
	Path  string `json:"f"`
	Size  int64  `json:"s"`
	MTime int64  `json:"m"`
}

// asked is one answer a parse got about another file: whether it exists.
type asked struct {
	Path   string `json:"f"`
	Exists bool   `json:"e"`
}

// stamper makes and checks the stamps of one ingest.
type stamper struct {
	start  time.Time
	stored map[string][]byte // by graph label; nil: no skipping (a partial ingest)
	// listed are the folder listings of this ingest's discovery: the
	// check of a stamp compares the lstat its folder's listing took
	// moments before (as if the check had run then), saving one stat per
	// file; a file not listed is stat'ed.
	listed *discover.Listings
}

// statFile describes a corpus file as a read of it would see it: its own
// lstat, or for a symlink what it points to inside the root. The stat is
// taken before the read: an edit between the two then leaves a stamp that
// no longer matches, never one that matches stale content.
func statFile(c *discover.Corpus, rel string) (fs.FileInfo, error) {
	st, err := os.Lstat(filepath.Join(c.Root, filepath.FromSlash(rel)))
	if err == nil && st.Mode()&fs.ModeSymlink != 0 {
		return c.Stat(rel)
	}
	return st, err
}

// racy reports a modification time too close to the ingest's start to
// tell an edit in the same tick from no edit.
func (sp *stamper) racy(st fs.FileInfo) bool {
	return !st.ModTime().Before(sp.start.Add(-racyWindow))
}

// make encodes the stamp of a file read with st; nil when it must not be
// skipped next time (no stat, not a regular file, a racy mtime, in it or
// in what its parse read).
func (sp *stamper) make(st fs.FileInfo, s discover.Source, salt string, deps *depLog, refs []string) []byte {
	if st == nil || !st.Mode().IsRegular() || sp.racy(st) || deps.racy {
		return nil
	}
	b, err := json.Marshal(stamp{V: stampVersion, Kind: s.Kind, Size: st.Size(), MTime: st.ModTime().UnixNano(),
		Salt: salt, Pkg: s.StampKey(), Reads: deps.reads, Asked: deps.asked, Refs: refs})
	if err != nil {
		return nil
	}
	return b
}

// holds reports whether the stored stamp of label still describes s and
// everything its parse depended on, so the read can be skipped; it returns
// the stamp for the contracts it names.
func (sp *stamper) holds(c *discover.Corpus, label string, s discover.Source, salt string, exists func(string) bool) (stamp, bool) {
	raw := sp.stored[label]
	if raw == nil {
		return stamp{}, false
	}
	var old stamp
	if json.Unmarshal(raw, &old) != nil || old.V != stampVersion || old.Kind != s.Kind || old.Salt != salt || old.Pkg != s.StampKey() {
		return stamp{}, false
	}
	if !sp.sameFile(c, s.Path, old.Size, old.MTime) {
		return stamp{}, false
	}
	for _, d := range old.Reads {
		if !sp.sameFile(c, d.Path, d.Size, d.MTime) {
			return stamp{}, false
		}
	}
	for _, a := range old.Asked {
		if exists(a.Path) != a.Exists {
			return stamp{}, false
		}
	}
	return old, true
}

// sameFile reports whether rel is a regular file of that size and mtime:
// by its folder's listing when it lists rel as a regular file, else by
// statFile (a symlink, a file the listings do not know).
func (sp *stamper) sameFile(c *discover.Corpus, rel string, size, mtime int64) bool {
	st, ok := sp.listed.Lstat(filepath.Join(c.Root, filepath.FromSlash(rel)))
	if !ok || !st.Mode().IsRegular() {
		var err error
		if st, err = statFile(c, rel); err != nil {
			return false
		}
	}
	return st.Mode().IsRegular() && st.Size() == size && st.ModTime().UnixNano() == mtime
}

// depLog records, for a parse's stamp, the files it read besides its own
// and what it asked about others.
type depLog struct {
	reads []depStamp
	asked []asked
	racy  bool // a file it read has a racy mtime, or could not be described
}

// read records the file rel about to be read (stat before read, as for
// the file itself).
func (d *depLog) read(c *discover.Corpus, rel string, sp *stamper) {
	if d == nil {
		return
	}
	st, err := statFile(c, rel)
	if err != nil || !st.Mode().IsRegular() || sp.racy(st) {
		d.racy = true
		return
	}
	d.reads = append(d.reads, depStamp{Path: rel, Size: st.Size(), MTime: st.ModTime().UnixNano()})
}

// ask records an answer about another file.
func (d *depLog) ask(rel string, ok bool) {
	if d != nil {
		d.asked = append(d.asked, asked{Path: rel, Exists: ok})
	}
}

// sameStamp reports whether two encoded stamps are equal.
func sameStamp(a, b []byte) bool { return bytes.Equal(a, b) }
