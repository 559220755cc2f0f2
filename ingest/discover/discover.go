package discover

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"github.com/skillgraph/skillgraph/ingest/record"
)

// DefaultMaxFileSize caps every file read (SPEC §1.2).
const DefaultMaxFileSize = 4 << 20

// Source kinds: which parser reads a file.
const (
	KindDeclaration = "declaration"
	KindSkill       = "skill"
	KindTool        = "tool"
	KindBPMN        = "bpmn"
	KindMCP         = "mcp"
	KindBean        = "bean"
	KindContract    = "contract"
	KindVocabulary  = "vocabulary"
	KindPackage     = "package"
	// KindAny is a walk in which content decides the parser.
	KindAny = "any"
)

// Source is one file to parse.
type Source struct {
	Path    string // relative to the corpus root, slash-separated
	Abs     string
	Kind    string
	Package string // skills: the package name
}

// Corpus is one instance's root, its declaration and its source files.
type Corpus struct {
	Root     string
	Instance record.Instance
	// DeclarationData is the raw declaration (nil for the conventional layout).
	DeclarationData []byte
	Sources         []Source
	// Findings are discovery problems: directory-missing, path-escapes-root, …
	Findings []record.Finding
}

// Options tune discovery.
type Options struct {
	MaxFileSize int64 // 0 means DefaultMaxFileSize
}

// typologyKinds maps declared graph typologies to source kinds.
var typologyKinds = map[string]string{
	"skills": KindSkill, "kg": KindSkill, "tools": KindTool, "processes": KindBPMN,
	"beans": KindBean, "schemas": KindContract, "mcp": KindMCP,
}

// Load discovers one corpus rooted at root.
func Load(root string, opt Options) (*Corpus, error) {
	if opt.MaxFileSize <= 0 {
		opt.MaxFileSize = DefaultMaxFileSize
	}
	abs, err := filepath.Abs(root)
	if err != nil {
		return nil, fmt.Errorf("corpus %s: %w", root, err)
	}
	st, err := os.Stat(abs)
	if err != nil {
		return nil, fmt.Errorf("corpus %s: %w", root, err)
	}
	if !st.IsDir() {
		return nil, fmt.Errorf("corpus %s: not a directory", root)
	}
	if real, err := filepath.EvalSymlinks(abs); err == nil {
		abs = real
	}
	c := &Corpus{Root: abs}
	dirs := []record.Directory(nil)
	rel, data, escaped := findDeclaration(abs, opt.MaxFileSize)
	for _, name := range escaped {
		c.Findings = append(c.Findings, escapeFinding(name))
	}
	if rel != "" {
		in, fs, ok := parseDeclaration(rel, data)
		c.Findings = append(c.Findings, fs...)
		if ok {
			c.Instance = in
			c.DeclarationData = data
			dirs = in.Directories
			c.Sources = append(c.Sources, Source{Path: rel, Abs: filepath.Join(abs, rel), Kind: KindDeclaration})
		}
	}
	if c.Instance.Name == "" {
		c.Instance.Name = defaultName(abs)
	}
	if c.DeclarationData == nil {
		dirs = conventional(abs)
	}
	seen := map[string]bool{}
	if c.DeclarationData == nil && !anyExists(abs, dirs) {
		// Neither a declaration nor the conventional layout: scan the whole
		// root and let content decide, rather than report a clean run over
		// nothing.
		c.walk(abs, []string{KindAny}, seen, opt)
	}
	for _, d := range dirs {
		var kinds []string
		for _, t := range d.Typologies {
			if k, ok := typologyKinds[t]; ok {
				kinds = append(kinds, k)
			}
		}
		dir := filepath.Join(abs, filepath.FromSlash(strings.TrimSuffix(d.Path, "/")))
		if !within(abs, dir) {
			file := c.Instance.File
			if d.Conventional {
				file = ".beans.yml" // the only conventional directory read from a file
			}
			c.Findings = append(c.Findings, record.Finding{Code: "path-escapes-root", Severity: record.Error,
				Message: fmt.Sprintf("declared directory %q leaves the corpus root", d.Path), File: file, Line: max(d.Line, 1)})
			continue
		}
		if _, err := os.Stat(dir); err != nil {
			if !d.Conventional {
				c.Findings = append(c.Findings, record.Finding{Code: "directory-missing", Severity: record.Error,
					Message: fmt.Sprintf("declared directory %q (%s) does not exist: nothing was scanned there", d.Path, d.ID),
					File:    c.Instance.File, Line: max(d.Line, 1)})
			}
			continue
		}
		if len(kinds) == 0 {
			continue // a typology skillgraph does not read
		}
		c.walk(dir, kinds, seen, opt)
	}
	if c.DeclarationData != nil {
		// The beans path of .beans.yml is read even when undeclared.
		if p := beansPath(abs); p != "" {
			if dir := filepath.Join(abs, filepath.FromSlash(p)); within(abs, dir) {
				if _, err := os.Stat(dir); err == nil {
					c.walk(dir, []string{KindBean}, seen, opt)
				}
			}
		}
	}
	// A root package.json: its scripts are tier-C evidence.
	if p := filepath.Join(abs, "package.json"); !inside(abs, p) {
		c.Findings = append(c.Findings, escapeFinding("package.json"))
	} else if fileExists(p) {
		c.add(Source{Path: "package.json", Abs: p, Kind: KindPackage}, seen)
	}
	voc := c.Instance.Vocabulary
	if voc == "" {
		voc = "schemas/tool-types.schema.json"
	}
	if p := filepath.Join(abs, filepath.FromSlash(voc)); !inside(abs, p) {
		c.Findings = append(c.Findings, record.Finding{Code: "path-escapes-root", Severity: record.Error,
			Message: fmt.Sprintf("vocabulary %q leaves the corpus root; not read, the built-in vocabulary is used", voc), File: voc, Line: 1})
		if !within(abs, p) && c.Instance.File != "" {
			c.Findings[len(c.Findings)-1].File = c.Instance.File // a declared path, not a file
		}
		c.Instance.Vocabulary = ""
	} else {
		if _, err := os.Stat(p); err == nil {
			c.Instance.Vocabulary = voc
			c.add(Source{Path: voc, Abs: p, Kind: KindVocabulary}, seen)
		} else if c.Instance.Vocabulary != "" {
			c.Findings = append(c.Findings, record.Finding{Code: "file-unreadable", Severity: record.Error,
				Message: fmt.Sprintf("vocabulary %q does not exist", voc), File: c.Instance.File, Line: 1})
			c.Instance.Vocabulary = ""
		}
	}
	sort.Slice(c.Sources, func(i, j int) bool { return c.Sources[i].Path < c.Sources[j].Path })
	return c, nil
}

func (c *Corpus) add(s Source, seen map[string]bool) {
	if seen[s.Path] {
		// A file under two declared directories: the first kind wins,
		// except that a vocabulary is never read as a contract.
		if s.Kind == KindVocabulary {
			for i := range c.Sources {
				if c.Sources[i].Path == s.Path {
					c.Sources[i].Kind = KindVocabulary
				}
			}
		}
		return
	}
	seen[s.Path] = true
	c.Sources = append(c.Sources, s)
}

func defaultName(abs string) string {
	base := strings.ToLower(filepath.Base(abs))
	var b strings.Builder
	for _, r := range base {
		switch {
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9':
			b.WriteRune(r)
		default:
			b.WriteByte('-')
		}
	}
	name := strings.Trim(b.String(), "-")
	if name == "" || name[0] < 'a' || name[0] > 'z' {
		name = "corpus-" + name
	}
	return name
}

// conventional is the layout used without a declaration.
func conventional(abs string) []record.Directory {
	d := func(p string, t ...string) record.Directory {
		return record.Directory{ID: p, Path: p, Typologies: t, Conventional: true}
	}
	dirs := []record.Directory{
		d("skills", "skills"), d(".claude/skills", "skills"), d("tools", "tools"), d("processes", "processes"),
		d("schemas/skills", "schemas"), d("mcp", "mcp"),
	}
	if p := beansPath(abs); p != "" {
		dirs = append(dirs, d(p, "beans"))
	} else {
		dirs = append(dirs, d("beans", "beans"), d(".beans", "beans"))
	}
	return dirs
}

// beansPath reads `beans.path` (or `path`) from .beans.yml; "" when absent.
func beansPath(abs string) string {
	data, err := readIn(abs, filepath.Join(abs, ".beans.yml"), 1<<20)
	if err != nil {
		return ""
	}
	// A tiny reader for the two keys we need; a full YAML parse is overkill
	// and a broken file must not stop discovery.
	inBeans := false
	for _, line := range strings.Split(strings.ReplaceAll(string(data), "\r\n", "\n"), "\n") {
		trim := strings.TrimSpace(line)
		indented := len(line) > 0 && (line[0] == ' ' || line[0] == '\t')
		if !indented {
			inBeans = strings.HasPrefix(trim, "beans:")
		}
		if k, v, ok := strings.Cut(trim, ":"); ok && k == "path" && (inBeans || !indented) {
			v = strings.Trim(strings.TrimSpace(v), `"'`)
			if v != "" {
				return strings.TrimSuffix(v, "/")
			}
		}
	}
	return ".beans"
}

// within reports whether p is root or below it.
func within(root, p string) bool {
	rel, err := filepath.Rel(root, p)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}

// skipDirs are never walked.
var skipDirs = map[string]bool{".git": true, "node_modules": true, ".skillgraph": true}

func (c *Corpus) walk(dir string, kinds []string, seen map[string]bool, opt Options) {
	manifests := map[string]string{} // dir → package-manifest name
	_ = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		rel := c.rel(p)
		if err != nil {
			c.Findings = append(c.Findings, record.Finding{Code: "file-unreadable", Severity: record.Error,
				Message: fmt.Sprintf("cannot read: %v", err), File: rel, Line: 1})
			return nil
		}
		if d.IsDir() {
			if p != dir && skipDirs[d.Name()] {
				return filepath.SkipDir
			}
			return nil
		}
		if d.Type()&fs.ModeSymlink != 0 {
			target, err := filepath.EvalSymlinks(p)
			if err != nil || !within(c.Root, target) {
				c.Findings = append(c.Findings, record.Finding{Code: "path-escapes-root", Severity: record.Error,
					Message: "symlink points outside the corpus root (or nowhere); not followed", File: rel, Line: 1})
				return nil
			}
			if st, err := os.Stat(target); err != nil || st.IsDir() {
				return nil // symlinked directories are not followed: no loops
			}
		} else if !d.Type().IsRegular() {
			return nil
		}
		for _, k := range kinds {
			if s, ok := classify(rel, k); ok {
				s.Abs = p
				if s.Kind == KindSkill {
					s.Package = c.packageOf(filepath.Dir(p), manifests, opt)
				}
				c.add(s, seen)
				break
			}
		}
		return nil
	})
}

func (c *Corpus) rel(p string) string {
	r, err := filepath.Rel(c.Root, p)
	if err != nil {
		return filepath.ToSlash(p)
	}
	return filepath.ToSlash(r)
}

// classify decides by extension whether a file under a directory of one
// kind is read, and by which parser; the parsers then decide by content.
func classify(rel, kind string) (Source, bool) {
	ext := strings.ToLower(path.Ext(rel))
	base := path.Base(rel)
	switch kind {
	case KindSkill:
		if ext == ".md" {
			return Source{Path: rel, Kind: KindSkill}, true
		}
	case KindTool:
		switch ext {
		case ".json", ".yaml", ".yml", ".ts", ".mts", ".js":
			if strings.HasSuffix(base, ".d.ts") {
				return Source{}, false
			}
			return Source{Path: rel, Kind: KindTool}, true
		}
	case KindBPMN:
		if ext == ".bpmn" || ext == ".bpmn2" {
			return Source{Path: rel, Kind: KindBPMN}, true
		}
	case KindBean:
		if ext == ".md" && base != "README.md" {
			return Source{Path: rel, Kind: KindBean}, true
		}
	case KindContract:
		if ext == ".json" {
			if base == "tool-types.schema.json" {
				return Source{Path: rel, Kind: KindVocabulary}, true
			}
			return Source{Path: rel, Kind: KindContract}, true
		}
	case KindMCP:
		if ext == ".json" {
			return Source{Path: rel, Kind: KindMCP}, true
		}
	case KindAny:
		switch ext {
		case ".md":
			return Source{Path: rel, Kind: KindSkill}, true
		case ".bpmn", ".bpmn2":
			return Source{Path: rel, Kind: KindBPMN}, true
		case ".json", ".yaml", ".yml":
			return Source{Path: rel, Kind: KindAny}, true // sniffed when read
		}
	}
	return Source{}, false
}

func anyExists(abs string, dirs []record.Directory) bool {
	for _, d := range dirs {
		if _, err := os.Stat(filepath.Join(abs, filepath.FromSlash(d.Path))); err == nil {
			return true
		}
	}
	return false
}

// Sniff decides the parser of a JSON or YAML file found outside any typed
// directory by its content: an MCP tools/list, a Tool node, a JSON Schema
// contract, or nothing skillgraph reads ("").
func Sniff(data []byte) string {
	s := string(data[:min(len(data), 64<<10)])
	switch {
	case strings.Contains(s, `"inputSchema"`):
		return KindMCP
	case strings.Contains(s, "satisfies"):
		return KindTool
	case strings.Contains(s, `"$schema"`) && strings.Contains(s, `"properties"`):
		return KindContract
	}
	return ""
}

// packageOf is the `name` of a package-manifest.json in dir, else dir's name.
func (c *Corpus) packageOf(dir string, cache map[string]string, opt Options) string {
	if p, ok := cache[dir]; ok {
		return p
	}
	name := filepath.Base(dir)
	if data, err := readIn(c.Root, filepath.Join(dir, "package-manifest.json"), opt.MaxFileSize); err == nil {
		var m struct {
			Name string `json:"name"`
		}
		if json.Unmarshal(data, &m) == nil && m.Name != "" {
			name = m.Name
		}
	}
	cache[dir] = name
	return name
}

// ErrTooLarge is returned by ReadFile for a file over the size cap.
var ErrTooLarge = errors.New("file too large")

// ReadFile reads a file with a size cap; over the cap it returns ErrTooLarge
// without reading the rest.
func ReadFile(p string, maxSize int64) ([]byte, error) {
	if maxSize <= 0 {
		maxSize = DefaultMaxFileSize
	}
	return readCapped(p, maxSize)
}

// ErrEscapes is returned by ReadFileIn for a path that leaves the corpus
// root, lexically or through a symlink.
var ErrEscapes = errors.New("path leaves the corpus root (a symlink out of it, or ..); not read")

// ReadFileIn reads rel (slash-separated, relative to root) with a size cap,
// refusing a path that leaves root lexically or through a symlink. root
// must be absolute with its own symlinks resolved (Corpus.Root is).
func ReadFileIn(root, rel string, maxSize int64) ([]byte, error) {
	if maxSize <= 0 {
		maxSize = DefaultMaxFileSize
	}
	return readIn(root, filepath.Join(root, filepath.FromSlash(rel)), maxSize)
}

// inside reports whether p is within root after resolving symlinks; a path
// that does not exist is judged lexically.
func inside(root, p string) bool {
	if !within(root, p) {
		return false
	}
	if _, err := os.Lstat(p); err != nil {
		return true // nothing there: nothing to follow
	}
	real, err := filepath.EvalSymlinks(p)
	return err == nil && within(root, real)
}

func readIn(root, p string, maxSize int64) ([]byte, error) {
	if !inside(root, p) {
		return nil, ErrEscapes
	}
	return readCapped(p, maxSize)
}

func escapeFinding(rel string) record.Finding {
	return record.Finding{Code: "path-escapes-root", Severity: record.Error,
		Message: "symlink points outside the corpus root (or nowhere); not followed", File: rel, Line: 1}
}

func readCapped(p string, maxSize int64) ([]byte, error) {
	f, err := os.Open(p)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxSize+1))
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > maxSize {
		return nil, fmt.Errorf("%w: over %d bytes", ErrTooLarge, maxSize)
	}
	return data, nil
}

func fileExists(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.Mode().IsRegular()
}
