package skill

import (
	"fmt"
	"path"
	"strings"

	"github.com/skillgraph/skillgraph/ingest/record"
)

// scriptExts are the extensions that make a run word a file the skill must
// carry: the interpreters' script files (`uv run handle.py`, `node y.js`,
// `bash z.sh`). Data arguments (`--config rules.txt`) are not counted: a
// missing data file is the Tool's business, a missing program is the skill's.
var scriptExts = map[string]bool{
	".py": true, ".sh": true, ".bash": true, ".zsh": true, ".js": true, ".mjs": true, ".cjs": true,
	".ts": true, ".mts": true, ".rb": true, ".pl": true, ".php": true, ".lua": true, ".ps1": true,
}

// runFile returns the skill-relative path a run word names as a program or
// script, or "" when the word is not one: a word with a script extension,
// or one written ./x. Words with a $param, a URL, an absolute or home path
// are left alone: what they name is not known before the call.
func runFile(w string) string {
	if w == "" || strings.ContainsAny(w, "$=`") || strings.Contains(w, "://") ||
		w[0] == '/' || w[0] == '~' || w[0] == '-' || strings.Contains(w, "..") {
		return ""
	}
	rel := strings.TrimPrefix(w, "./")
	if rel == "" {
		return ""
	}
	if strings.HasPrefix(w, "./") || scriptExts[strings.ToLower(path.Ext(rel))] {
		return path.Clean(rel)
	}
	return ""
}

// checkRunFiles reports each file a run line names that `includes:` does not
// carry and that is not in the skill folder either (SPEC §2.1c: "a tool that
// runs uv run handle.py needs handle.py; includes: is where a skill says
// so"). A file under an included directory is carried. Only a skill that
// says what it carries (has `includes:`) is checked: one without makes no
// claim about its files (the hard-skill document's first example runs
// waitlist/handle.py with no includes:), and a file that is there is there.
func (p *parser) checkRunFiles(subject string, includes, words []string, lines []int) {
	if !p.fm.Root.Has("includes") {
		return
	}
	dir := path.Dir(p.path)
	seen := map[string]bool{}
	for i, w := range words {
		rel := runFile(w)
		if rel == "" || seen[rel] || carried(rel, includes) {
			continue
		}
		seen[rel] = true
		where := path.Join(dir, rel)
		if p.opt.Exists != nil && p.opt.Exists(where) {
			continue
		}
		p.add(record.CodeHardSkillRunNotIncluded, lines[i], subject,
			fmt.Sprintf("run names %s, which includes: does not carry and which is not in the skill folder (looked for %s)", w, where))
	}
}

// carried reports whether rel is an include or lies under one (an include is
// whatever is at its path: a directory carries everything under it).
func carried(rel string, includes []string) bool {
	for _, inc := range includes {
		inc = path.Clean(strings.TrimSuffix(strings.TrimSpace(inc), "/"))
		if inc == "." || rel == inc || strings.HasPrefix(rel, inc+"/") {
			return true
		}
	}
	return false
}
