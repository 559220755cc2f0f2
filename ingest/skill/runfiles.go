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
// carry (SPEC §2.1c: "a tool that runs uv run handle.py needs handle.py;
// includes: is where a skill says so"). A file under an included directory
// is carried. The message says whether the file is in the skill folder at
// all, which tells a missing file from a forgotten include.
func (p *parser) checkRunFiles(subject string, includes, words []string, lines []int) {
	dir := path.Dir(p.path)
	seen := map[string]bool{}
	for i, w := range words {
		rel := runFile(w)
		if rel == "" || seen[rel] || carried(rel, includes) {
			continue
		}
		seen[rel] = true
		where := path.Join(dir, rel)
		msg := fmt.Sprintf("run names %s, which includes: does not carry and which is not in the skill folder (looked for %s)", w, where)
		if p.opt.Exists != nil && p.opt.Exists(where) {
			msg = fmt.Sprintf("run names %s, which is in the skill folder but not in includes:, so it does not travel with the skill", w)
		}
		p.add(record.CodeHardSkillRunNotIncluded, lines[i], subject, msg)
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
