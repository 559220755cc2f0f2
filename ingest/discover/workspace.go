package discover

import (
	"encoding/json"
	"fmt"
	iofs "io/fs"
	"path"
	"path/filepath"
	"sort"
	"strings"
)

// MaxWorkspaceDepth bounds how deep below a workspace root instance
// declarations are looked for: harness repositories keep their instances
// one or two folders down.
const MaxWorkspaceDepth = 4

// Instance is one instance root found in a workspace.
type Instance struct {
	Root string // the instance root, as a path the caller can open
	// Exclude lists the folders under Root (slash-separated, relative) that
	// are other instances of the workspace: this instance does not read them.
	Exclude []string
}

// Probe is what the workspace search learnt of one *.json file: a regular
// file of this size and modification time that is not an instance
// declaration. A caller that remembers probes between searches (ingest,
// in the store beside its stamps) hands them back through
// Options.NotDeclaration, so that an unchanged file is not read again; any
// other size or time, and any file not remembered, is read.
type Probe struct {
	Path  string // slash path relative to the workspace root
	Size  int64  // bytes
	MTime int64  // Unix nanoseconds
}

// Workspace finds the instances of a root (SPEC §1.1): the root itself, and
// every folder under it that holds an instance declaration of its own. A
// root without a declaration of its own that holds declared instances is a
// workspace only: it is not an instance too. Symlinked folders are not
// followed and the usual skipped folders (.git, node_modules, …) are not
// entered. Each folder is listed once; a *.json file opt.NotDeclaration
// knows is not read.
func Workspace(root string, opt Options) ([]Instance, error) {
	r, err := OpenRoot(root, opt.MaxFileSize)
	if err != nil {
		return nil, fmt.Errorf("corpus %s: %w", root, err)
	}
	defer r.Close()
	// The listings are kept by the path Load opens an instance root at.
	base, err := filepath.Abs(root)
	if err == nil {
		base, err = filepath.EvalSymlinks(base)
	}
	if err != nil {
		opt.Listings = nil
	}
	var subs []string
	// The instances found so far, to tell a sibling instance from a file of
	// an enclosing one: a declaration inside a directory the enclosing
	// instance declares, or one that repeats its name (a beans/beans.json
	// declaring the beans folder's own split), belongs to that instance.
	type found struct {
		dir, name string
		dirs      []string
	}
	var enclosing []found
	rootRel, data, _ := findDeclaration(r)
	if rootRel != "" {
		n, d := declared(data)
		enclosing = append(enclosing, found{dir: ".", name: n, dirs: d})
	}
	// examine decides whether the folder p, listed as entries, is an
	// instance of its own.
	examine := func(p string, entries []iofs.DirEntry) {
		data := declarationIn(r, p, entries, opt)
		if data == nil {
			return
		}
		name, dirs := declared(data)
		var outer *found
		for i := range enclosing {
			e := &enclosing[i]
			if (e.dir == "." || strings.HasPrefix(p, e.dir+"/")) && (outer == nil || len(e.dir) > len(outer.dir)) {
				outer = e
			}
		}
		if outer != nil {
			if name == outer.name {
				return
			}
			for _, od := range outer.dirs {
				full := path.Clean(path.Join(outer.dir, od))
				if p == full || strings.HasPrefix(p, full+"/") {
					return
				}
			}
		}
		subs = append(subs, p)
		enclosing = append(enclosing, found{dir: p, name: name, dirs: dirs})
	}
	// visit lists a folder once, for its own declaration and its
	// subfolders, in the order of a lexical walk (outer before inner).
	var visit func(dir string)
	visit = func(dir string) {
		entries, err := iofs.ReadDir(r.FS(), dir)
		if err != nil {
			return
		}
		opt.Listings.put(filepath.Join(base, filepath.FromSlash(dir)), entries)
		if dir != "." {
			examine(dir, entries)
		}
		for _, e := range entries {
			if !e.IsDir() {
				continue
			}
			p := path.Join(dir, e.Name())
			if SkipDir(e.Name()) || strings.Count(p, "/") >= MaxWorkspaceDepth {
				continue
			}
			visit(p)
		}
	}
	visit(".")
	sort.Strings(subs)
	var out []Instance
	if rootRel != "" || len(subs) == 0 {
		out = append(out, Instance{Root: root, Exclude: subs})
	}
	for _, s := range subs {
		in := Instance{Root: filepath.Join(root, filepath.FromSlash(s))}
		for _, o := range subs {
			if o != s && strings.HasPrefix(o, s+"/") {
				in.Exclude = append(in.Exclude, strings.TrimPrefix(o, s+"/"))
			}
		}
		out = append(out, in)
	}
	return out, nil
}

// declarationIn returns the instance declaration a folder (listed as
// entries) holds: harness.json or a *.json with name and
// directories[].graphTypologies, the first by name; or nil. A file
// opt.NotDeclaration knows is not read; every regular file found not to be
// a declaration is reported to opt.Probed with its size and mtime from the
// listing, taken before the read (an edit between the two leaves a probe
// that no longer matches, never one that matches new content).
func declarationIn(r *Root, dir string, entries []iofs.DirEntry, opt Options) []byte {
	for _, e := range entries {
		if e.IsDir() || !e.Type().IsRegular() || !strings.HasSuffix(e.Name(), ".json") {
			continue
		}
		rel := path.Join(dir, e.Name())
		var pr *Probe
		if info, err := e.Info(); err == nil && info.Mode().IsRegular() {
			pr = &Probe{Path: rel, Size: info.Size(), MTime: info.ModTime().UnixNano()}
			if opt.NotDeclaration != nil && opt.NotDeclaration(*pr) {
				if opt.Probed != nil {
					opt.Probed(*pr)
				}
				continue
			}
		}
		data, err := r.ReadFile(rel)
		if err != nil {
			// Unreadable now (too large, no permission) is not "not a
			// declaration": a chmod keeps the mtime. It is read again.
			continue
		}
		if isDeclaration(data) {
			return data
		}
		if pr != nil && opt.Probed != nil {
			opt.Probed(*pr)
		}
	}
	return nil
}

// declared reads a declaration's name and directory paths.
func declared(data []byte) (name string, dirs []string) {
	var probe struct {
		Name        any `json:"name"`
		Directories []struct {
			Path string `json:"path"`
		} `json:"directories"`
	}
	_ = json.Unmarshal(data, &probe)
	name, _ = probe.Name.(string)
	for _, d := range probe.Directories {
		if d.Path != "" {
			dirs = append(dirs, d.Path)
		}
	}
	return name, dirs
}

// excluded reports whether a corpus-relative path lies in a folder of
// another instance of the workspace.
func (c *Corpus) excluded(p string) bool {
	for _, x := range c.exclude {
		if p == x || strings.HasPrefix(p, x+"/") {
			return true
		}
	}
	return false
}
