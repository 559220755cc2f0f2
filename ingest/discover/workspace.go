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

// Workspace finds the instances of a root (SPEC §1.1): the root itself, and
// every folder under it that holds an instance declaration of its own. A
// root without a declaration of its own that holds declared instances is a
// workspace only: it is not an instance too. Symlinked folders are not
// followed and the usual skipped folders (.git, node_modules, …) are not
// entered.
func Workspace(root string, opt Options) ([]Instance, error) {
	r, err := OpenRoot(root, opt.MaxFileSize)
	if err != nil {
		return nil, fmt.Errorf("corpus %s: %w", root, err)
	}
	defer r.Close()
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
	if rel, data, _ := findDeclaration(r); rel != "" {
		n, d := declared(data)
		enclosing = append(enclosing, found{dir: ".", name: n, dirs: d})
	}
	err = iofs.WalkDir(r.FS(), ".", func(p string, d iofs.DirEntry, err error) error {
		if err != nil || !d.IsDir() || p == "." {
			return nil
		}
		if SkipDir(d.Name()) || strings.Count(p, "/") >= MaxWorkspaceDepth {
			return iofs.SkipDir
		}
		data := declarationIn(r, p)
		if data == nil {
			return nil
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
				return nil
			}
			for _, od := range outer.dirs {
				full := path.Clean(path.Join(outer.dir, od))
				if p == full || strings.HasPrefix(p, full+"/") {
					return nil
				}
			}
		}
		subs = append(subs, p)
		enclosing = append(enclosing, found{dir: p, name: name, dirs: dirs})
		return nil
	})
	sort.Strings(subs)
	var out []Instance
	rootRel, _, _ := findDeclaration(r)
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

// declarationIn returns the instance declaration a folder holds
// (harness.json or a *.json with name and directories[].graphTypologies),
// or nil.
func declarationIn(r *Root, dir string) []byte {
	entries, err := iofs.ReadDir(r.FS(), dir)
	if err != nil {
		return nil
	}
	for _, e := range entries {
		if e.IsDir() || !e.Type().IsRegular() || !strings.HasSuffix(e.Name(), ".json") {
			continue
		}
		data, err := r.ReadFile(path.Join(dir, e.Name()))
		if err == nil && isDeclaration(data) {
			return data
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
