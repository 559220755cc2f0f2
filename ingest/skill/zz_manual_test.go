package skill

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestManualCorpus(t *testing.T) {
	root := os.Getenv("SKILL_ROOT")
	if root == "" {
		t.Skip()
	}
	verbose := os.Getenv("SKILL_V") != ""
	counts := map[string]int{}
	filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".md") {
			return nil
		}
		data, _ := os.ReadFile(p)
		rel, _ := filepath.Rel(root, p)
		rel = filepath.ToSlash(rel)
		f := Parse(rel, data, Options{Package: filepath.Base(filepath.Dir(p)), Exists: func(r string) bool {
			_, err := os.Stat(filepath.Join(root, r))
			return err == nil
		}})
		kind := f.Parser
		for _, s := range f.Skills {
			kind = s.Flavour
			if verbose {
				fmt.Printf("SKILL %s %s id=%s title=%q desc=%d in=%s out=%s tools=%v lines=%d sh=%v inc=%v\n", rel, s.Flavour, s.ID, s.Title, len(s.Description), s.Input, s.Output, s.AllowedTools, s.BodyLines, s.ShellBlocks, s.Includes)
			}
		}
		for _, s := range f.ToolSkills {
			kind = "toolskill"
			if verbose {
				fmt.Printf("TS %s %+v\n", rel, s)
			}
		}
		for _, tl := range f.Tools {
			if verbose {
				fmt.Printf("TOOL %s %s %v %+v\n", rel, tl.ID, tl.Invoke.Shell, tl.Inputs)
			}
		}
		counts[kind]++
		for _, fi := range f.Findings {
			fmt.Printf("%s:%d %s %s %s\n", fi.File, fi.Line, fi.Severity, fi.Code, fi.Message)
		}
		return nil
	})
	fmt.Println(counts)
}
