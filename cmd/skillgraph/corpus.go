package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"github.com/skillgraph/skillgraph/ingest/format"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/skillgraph/skillgraph/ingest/discover"
	"github.com/skillgraph/skillgraph/ingest/record"
)

// requireContent fails (exit 2) for a --corpus in which discovery finds
// nothing skillgraph reads and says nothing about why (an empty folder,
// docs/, the parent of the real corpus). A missing path is already an error
// of discovery; a corpus whose discovery reports findings (a declared
// directory that is missing, a broken declaration; not file-not-read, which
// is info) goes on, so the gate
// prints those findings and fails on them.
//
// With c.allowEmpty (a diff's base: a corpus that does not exist yet), a
// folder that holds nothing is left out of the ingest instead, so its
// snapshot is empty and everything in the change is new; a missing path
// is still an error.
func (c *common) requireContent() error {
	var kept corpusFlag
	defer func() {
		if c.allowEmpty {
			c.corpora = kept
		}
	}()
	for arg, root := range c.corpora {
		abs, _ := filepath.Abs(root)
		switch st, err := os.Stat(abs); {
		case errors.Is(err, fs.ErrNotExist):
			return fmt.Errorf("corpus %s: no such directory (looked for %s)", root, abs)
		case err != nil:
			return fmt.Errorf("corpus %s: %w", root, err)
		case !st.IsDir():
			return fmt.Errorf("corpus %s: %s is a file, not the folder that holds the corpus", root, abs)
		}
		// A workspace root stands for every instance declared under it, as
		// in ingest: it has content when any of them has.
		ws, err := discover.Workspace(root, discover.Options{MaxFileSize: c.maxSize})
		if err != nil {
			return err
		}
		var empty error
		var found []sarifCorpus
		for _, in := range ws {
			corpus, err := discover.Load(context.Background(), in.Root, discover.Options{MaxFileSize: c.maxSize, Exclude: in.Exclude})
			if err != nil {
				return err
			}
			if err := nothingFound(root, corpus, c.maxSize); err != nil && empty == nil {
				empty = err
			} else if err == nil {
				empty = nil
				found = append(found, sarifCorpus{Instance: corpus.Instance.Name, Root: corpus.Root, ArgRoot: abs, Arg: arg})
			}
			corpus.Close()
		}
		if len(found) == 0 {
			if c.allowEmpty {
				continue
			}
			if empty == nil {
				empty = fmt.Errorf("nothing found in corpus %s (%s): no instance in it", root, abs)
			}
			return empty
		}
		c.found = append(c.found, found...)
		kept = append(kept, root)
	}
	return nil
}

// nothingFound is the error for a discovered corpus without content, or nil.
func nothingFound(root string, corpus *discover.Corpus, maxSize int64) error {
	for _, f := range corpus.Findings {
		if f.Severity != record.Info { // file-not-read alone explains nothing
			return nil
		}
	}
	docs := 0
	for _, s := range corpus.Sources {
		switch {
		case !format.IsContent(s.Kind):
			// A declaration, a vocabulary or a package.json alone is not a
			// corpus (the format table says which kinds carry knowledge).
		case s.Kind == discover.KindSkill && corpus.DeclarationData == nil && isDocument(corpus, s, maxSize):
			docs++
		default:
			return nil
		}
	}
	where := root
	if corpus.Root != root {
		where = fmt.Sprintf("%s (%s)", root, corpus.Root)
	}
	if corpus.DeclarationData != nil {
		var dirs []string
		for _, d := range corpus.Instance.Directories {
			dirs = append(dirs, d.Path)
		}
		return fmt.Errorf("nothing found in corpus %s: its declaration %s names the directories %s, and they hold no skill (*.md), Tool, BPMN process, MCP snapshot, bean or contract",
			where, corpus.Instance.File, strings.Join(dirs, ", "))
	}
	return fmt.Errorf("nothing found in corpus %s: looked for an instance declaration (harness.json, or a root *.json with name and directories[].graphTypologies), "+
		"the conventional directories (skills/, .claude/skills/, tools/, processes/, schemas/skills/, mcp/, beans/), "+
		"and then every file under it, and found no skill, Tool, BPMN process, MCP snapshot, bean or contract%s; is --corpus the folder that holds them?", where, docNote(docs))
}

// isDocument reports whether a markdown file that discovery's whole-root
// scan took for a skill is a plain document instead: outside any skills/
// folder, not SKILL.md, and without front matter. A folder of such files
// (docs/, a wiki) is not a corpus, and a gate over it must not pass.
func isDocument(corpus *discover.Corpus, s discover.Source, maxSize int64) bool {
	if base := path.Base(s.Path); base == "SKILL.md" || base == "skill.md" {
		return false
	}
	for _, seg := range strings.Split(path.Dir(s.Path), "/") {
		if seg == "skills" {
			return false
		}
	}
	root, err := discover.OpenRoot(corpus.Root, maxSize)
	if err != nil {
		return false
	}
	defer root.Close()
	data, err := root.ReadFile(s.Path)
	if err != nil {
		return false // unreadable: the ingest reports it as a finding
	}
	data = bytes.TrimPrefix(data, []byte("\ufeff"))
	return !bytes.HasPrefix(data, []byte("---\n")) && !bytes.HasPrefix(data, []byte("---\r\n"))
}

func docNote(docs int) string {
	if docs == 0 {
		return ""
	}
	return fmt.Sprintf(" (only %d markdown document(s) without front matter outside a skills/ folder, which are not skills)", docs)
}
