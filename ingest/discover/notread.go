package discover

import (
	"path"
	"regexp"
	"strings"
)

// notReadGroup is one walk's files of one kind under one directory that no
// parser reads there: one file-not-read finding, unless every file of it is
// read after all.
type notReadGroup struct {
	dir, ext string
	files    []string
}

// flushNotRead reports the walks' file-not-read groups, leaving out the
// files that are read by other means (issue 23.7): a source found under
// another directory, the declaration (a declared "." directory holds it),
// and the Zod vocabulary with the modules it imports. Run after the
// vocabulary is added.
func (c *Corpus) flushNotRead(seen map[string]bool) {
	read := map[string]bool{}
	if c.Instance.File != "" {
		read[c.Instance.File] = true
	}
	// The modules evaluation starts from: the vocabulary and the Tool
	// modules (tools/index.ts imports ../schemas/tool.js).
	var roots []string
	if v := c.Instance.Vocabulary; v != "" {
		roots = append(roots, v)
	}
	for _, s := range c.Sources {
		if s.Kind == KindTool && isModule(s.Path) {
			roots = append(roots, s.Path)
		}
	}
	for _, p := range c.moduleClosure(roots) {
		read[p] = true
	}
	for _, g := range c.pendingNotRead {
		var files []string
		for _, f := range g.files {
			if !seen[f] && !read[f] {
				files = append(files, f)
			}
		}
		if len(files) > 0 {
			c.Findings = append(c.Findings, notReadFinding(g.dir, g.ext, files))
		}
	}
	c.pendingNotRead = nil
}

// relImport matches the specifier of a relative import or re-export of a
// TypeScript/JavaScript module: import … from "./x.js", export * from
// "../y", import "./z".
var relImport = regexp.MustCompile(`(?m)(?:\bfrom|^\s*import)\s*["'](\.{1,2}/[^"'\n]+)["']`)

// moduleExts are the files a module specifier may name, in the order the
// module evaluator tries them (a .js specifier names its .ts source).
var moduleExts = []string{".ts", ".mts", ".js", ".mjs"}

// maxClosure bounds the modules followed from the vocabulary.
const maxClosure = 256

// moduleClosure lists the modules of roots that are TypeScript or
// JavaScript and the corpus modules they import relatively, transitively
// (what their evaluation reads). A module that cannot be read ends its
// branch: the evaluation reports it.
func (c *Corpus) moduleClosure(roots []string) []string {
	seen := map[string]bool{}
	var queue []string
	for _, r := range roots {
		if isModule(r) && !seen[r] {
			seen[r] = true
			queue = append(queue, r)
		}
	}
	for i := 0; i < len(queue) && len(queue) < maxClosure; i++ {
		data, err := c.fs.ReadFile(queue[i])
		if err != nil {
			continue
		}
		for _, m := range relImport.FindAllStringSubmatch(string(data), -1) {
			if p := c.resolveModule(path.Dir(queue[i]), m[1]); p != "" && !seen[p] {
				seen[p] = true
				queue = append(queue, p)
			}
		}
	}
	return queue
}

// resolveModule resolves a relative specifier from dir to a corpus file:
// as written, or with its extension swapped or added (./x.js → x.ts).
func (c *Corpus) resolveModule(dir, spec string) string {
	p := path.Join(dir, spec)
	if strings.HasPrefix(p, "../") || p == ".." {
		return ""
	}
	stem := strings.TrimSuffix(p, path.Ext(p))
	cands := []string{p}
	for _, e := range moduleExts {
		cands = append(cands, stem+e, p+e)
	}
	for _, cand := range cands {
		if isModule(cand) && c.fs.Exists(cand) {
			return cand
		}
	}
	return ""
}

// isModule reports a TypeScript or JavaScript module path.
func isModule(p string) bool {
	switch strings.ToLower(path.Ext(p)) {
	case ".ts", ".mts", ".js", ".mjs":
		return true
	}
	return false
}
