package main

import (
	"os"
	"path/filepath"
)

// The one rule for where a finding's file is printed (issue 25.7, 23.7).
// A finding carries its file relative to the root of the instance that
// reported it; a workspace --corpus holds many instances, each in its own
// subfolder, so that path alone names no file anyone can open. Every output
// joins it to its instance's root and makes it relative to one base:
//
//   - text and json's `path`: the working directory, so terminal links,
//     vim's quickfix and pre-commit open it;
//   - json's `file` (SPEC §9, "relative to its corpus root"): the --corpus
//     folder it was found under, so a workspace's findings keep their
//     instance's subfolder;
//   - SARIF and GitHub annotations: SRCROOT (the git work tree), or the
//     --corpus folder under a CORPUSn base when it lies outside.

// findingPath is a finding's file relative to base, as a slash path; an
// empty base means the --corpus folder its instance was found under. local
// reports that the file lies inside base (no "../"); ok is false when no
// corpus declares the finding's instance (a --store without --corpus), and
// p is then the file as the finding has it. A finding on no file stays "".
func findingPath(f jsonFinding, corpora []sarifCorpus, base string) (p string, local, ok bool) {
	if f.File == "" {
		return "", true, true
	}
	c, ok := corpusOf(f, corpora)
	if !ok {
		return f.File, false, false
	}
	if base == "" {
		base = c.ArgRoot
	}
	abs := filepath.Join(realDir(c.Root), filepath.FromSlash(f.File))
	rel, err := filepath.Rel(realDir(base), abs)
	if err != nil { // another volume: nothing relative names it
		return filepath.ToSlash(abs), false, true
	}
	return filepath.ToSlash(rel), filepath.IsLocal(rel), true
}

// corpusOf is the corpus a finding's instance was found in; with one
// corpus, every finding is its.
func corpusOf(f jsonFinding, corpora []sarifCorpus) (sarifCorpus, bool) {
	for _, c := range corpora {
		if c.Instance == f.Instance {
			return c, true
		}
	}
	if len(corpora) == 1 {
		return corpora[0], true
	}
	return sarifCorpus{}, false
}

// realDir resolves a directory's symlinks (the working directory may be
// reached through one, a corpus root through another), leaving it as it is
// when that fails.
func realDir(dir string) string {
	if abs, err := filepath.Abs(dir); err == nil {
		dir = abs
	}
	if real, err := filepath.EvalSymlinks(dir); err == nil {
		return real
	}
	return dir
}

// workingDir is the base of text output: the working directory, or "." when
// it cannot be read (paths are then relative to the --corpus folders).
func workingDir() string {
	wd, err := os.Getwd()
	if err != nil {
		return ""
	}
	return wd
}
