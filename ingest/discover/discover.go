package discover

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/skillgraph/skillgraph/ingest/format"
	"github.com/skillgraph/skillgraph/ingest/record"
)

// DefaultMaxFileSize caps every file read (SPEC §1.2).
const DefaultMaxFileSize = 4 << 20

// Source kinds: which format reads a file (the table is ingest/format's).
const (
	KindDeclaration = format.KindDeclaration
	KindSkill       = format.KindSkill
	KindTool        = format.KindTool
	KindBPMN        = format.KindBPMN
	KindMCP         = format.KindMCP
	KindBean        = format.KindBean
	KindContract    = format.KindContract
	KindVocabulary  = format.KindVocabulary
	KindPackage     = format.KindPackage
	KindPlugin      = format.KindPlugin
	KindMarketplace = format.KindMarketplace
	KindCommand     = format.KindCommand
	KindAgent       = format.KindAgent
	KindHooks       = format.KindHooks
	KindMcpConfig   = format.KindMcpConfig
	// KindAny is a walk in which content decides the parser.
	KindAny = "any"
)

// Source is one file to parse.
type Source struct {
	Path    string // relative to the corpus root, slash-separated
	Abs     string
	Kind    string
	Package string // skills: the package name; plugin components: the plugin's name
	// Host layouts (SPEC §1.3): the plugin folder of a component, the
	// hosts it is packaged for, the commands folder a command was found
	// under, a manifest beside the plugin's primary one, and an Agent
	// Skill's resources (the other files of its folder).
	Plugin    string
	Hosts     []string
	Dir       string
	Secondary bool
	Resources []string
}

// StampKey is what discovery decided about the source besides its kind:
// a parse depends on it as on the file, so a change of it re-reads the
// file (the stamp keeps it).
func (s Source) StampKey() string {
	if s.Plugin == "" && len(s.Hosts) == 0 && s.Dir == "" && !s.Secondary && len(s.Resources) == 0 {
		return s.Package
	}
	b, _ := json.Marshal([]any{s.Package, s.Plugin, s.Hosts, s.Dir, s.Secondary, s.Resources})
	return string(b)
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

	// notRead are the walks' file-not-read groups, reported once the
	// vocabulary (and what it imports) is known (notread.go).
	pendingNotRead []notReadGroup

	fs       *Root     // every read under Root goes through it
	exclude  []string  // folders of other workspace instances
	listings *Listings // while Load walks: the workspace search's listings
}

// Options tune discovery.
type Options struct {
	MaxFileSize int64 // 0 means DefaultMaxFileSize
	// Exclude lists folders (slash-separated, relative to the root) that
	// belong to other instances of a workspace and are not read.
	Exclude []string
	// NotDeclaration, if set, tells the workspace search (Workspace) that
	// a *.json file it lists, a regular file of this size and modification
	// time, was read before and is not an instance declaration: it is not
	// read again (issue #14, re-ingest; see Probe).
	NotDeclaration func(Probe) bool
	// Probed, if set, is called by Workspace for each regular *.json file
	// it found not to be a declaration (read, or skipped by
	// NotDeclaration), for the caller to remember.
	Probed func(Probe)
	// Listings, if set, keeps the folders Workspace lists for the walks of
	// the Loads that follow it (one discovery; see Listings).
	Listings *Listings
}

// Load discovers one corpus rooted at root. The corpus keeps the root open
// for confined reading (Corpus.ReadFile) until Close. A cancelled ctx stops
// it before it reads anything.
func Load(ctx context.Context, root string, opt Options) (*Corpus, error) {
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("corpus %s: %w", root, err)
	}
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
	r, err := OpenRoot(abs, opt.MaxFileSize)
	if err != nil {
		return nil, err
	}
	c := &Corpus{Root: abs, fs: r, exclude: opt.Exclude, listings: opt.Listings}
	defer func() { c.listings = nil }() // a discovery's, not the corpus's
	dirs := []record.Directory(nil)
	rel, data, fs := findDeclaration(r)
	c.Findings = append(c.Findings, fs...)
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
		dirs = c.conventional()
	}
	seen := map[string]bool{}
	if _, err := r.Lstat("harness.json"); c.DeclarationData == nil && rel == "" && err != nil {
		// No declaration, and none meant (an unreadable harness.json is
		// still a harness layout): a repository of agent-host layouts is
		// read as the hosts read it (SPEC §1.3).
		if inv := c.inventory(); isHostLayout(inv) {
			c.hostLayout(inv, seen)
			c.vocabulary(seen)
			c.flushNotRead(seen)
			sort.Slice(c.Sources, func(i, j int) bool { return c.Sources[i].Path < c.Sources[j].Path })
			return c, nil
		}
	}
	if c.DeclarationData == nil && !c.anyExists(dirs) {
		// Neither a declaration nor the conventional layout: scan the whole
		// root and let content decide, rather than report a clean run over
		// nothing.
		c.walk(".", []string{KindAny}, seen)
	}
	for _, d := range dirs {
		var kinds []string
		for _, t := range d.Typologies {
			kinds = append(kinds, format.OfTypology(t)...)
		}
		file := c.Instance.File
		if d.Conventional {
			file = ".beans.yml" // the only conventional directory read from a file
		}
		dir, ok := c.relDir(d.Path)
		if !ok {
			c.Findings = append(c.Findings, record.Finding{Code: record.CodePathEscapesRoot, Severity: record.SeverityOf(record.CodePathEscapesRoot),
				Message: fmt.Sprintf("declared directory %q leaves the corpus root", d.Path), File: file, Line: max(d.Line, 1)})
			continue
		}
		st, err := r.Stat(dir)
		if errors.Is(err, ErrEscapes) {
			c.Findings = append(c.Findings, record.Finding{Code: record.CodePathEscapesRoot, Severity: record.SeverityOf(record.CodePathEscapesRoot),
				Message: fmt.Sprintf("declared directory %q is a symlink out of the corpus root; not followed", d.Path), File: file, Line: max(d.Line, 1)})
			continue
		}
		if err != nil || !st.IsDir() {
			if !d.Conventional {
				c.Findings = append(c.Findings, record.Finding{Code: record.CodeDirectoryMissing, Severity: record.SeverityOf(record.CodeDirectoryMissing),
					Message: fmt.Sprintf("declared directory %q (%s) does not exist: nothing was scanned there", d.Path, d.ID),
					File:    c.Instance.File, Line: max(d.Line, 1)})
			}
			continue
		}
		if len(kinds) == 0 {
			continue // a typology skillgraph does not read
		}
		c.walk(dir, kinds, seen)
	}
	if c.DeclarationData != nil {
		// The beans path of .beans.yml is read even when undeclared.
		if p := c.beansPath(); p != "" {
			if dir, ok := c.relDir(p); ok && r.IsDir(dir) {
				c.walk(dir, []string{KindBean}, seen)
			}
		}
	}
	// A root package.json: its scripts are tier-C evidence.
	if _, err := r.Stat("package.json"); errors.Is(err, ErrEscapes) {
		c.Findings = append(c.Findings, escapeFinding("package.json"))
	} else if _, err := r.Lstat("package.json"); err == nil {
		// Anything but a regular file is file-unreadable when read.
		c.add(Source{Path: "package.json", Abs: filepath.Join(abs, "package.json"), Kind: KindPackage}, seen)
	}
	c.vocabulary(seen)
	c.flushNotRead(seen)
	sort.Slice(c.Sources, func(i, j int) bool { return c.Sources[i].Path < c.Sources[j].Path })
	return c, nil
}

// vocabulary adds the type vocabulary (declared, else the conventional
// schemas/tool-types.schema.json) to the sources.
func (c *Corpus) vocabulary(seen map[string]bool) {
	voc := c.Instance.Vocabulary
	if voc == "" {
		voc = "schemas/tool-types.schema.json"
		// A Zod module is the vocabulary when there is no JSON one (SPEC §2.8).
		if !c.fs.Exists(voc) && c.fs.Exists("schemas/tool-types.ts") {
			voc = "schemas/tool-types.ts"
		}
	}
	rel, ok := c.relDir(voc)
	_, err := c.fs.Stat(rel)
	if !ok || errors.Is(err, ErrEscapes) {
		c.Findings = append(c.Findings, record.Finding{Code: record.CodePathEscapesRoot, Severity: record.SeverityOf(record.CodePathEscapesRoot),
			Message: fmt.Sprintf("vocabulary %q leaves the corpus root; not read, the built-in vocabulary is used", voc), File: voc, Line: 1})
		if !ok && c.Instance.File != "" {
			c.Findings[len(c.Findings)-1].File = c.Instance.File // a declared path, not a file
		}
		c.Instance.Vocabulary = ""
		return
	}
	if _, err := c.fs.Lstat(rel); err == nil {
		c.Instance.Vocabulary = rel
		c.add(Source{Path: rel, Abs: filepath.Join(c.Root, filepath.FromSlash(rel)), Kind: KindVocabulary}, seen)
	} else if c.Instance.Vocabulary != "" {
		c.Findings = append(c.Findings, record.Finding{Code: record.CodeFileUnreadable, Severity: record.SeverityOf(record.CodeFileUnreadable),
			Message: fmt.Sprintf("vocabulary %q does not exist", voc), File: c.Instance.File, Line: 1})
		c.Instance.Vocabulary = ""
	}
}

// relDir turns a declared path (relative, or absolute meaning below the
// root) into a slash path relative to the root; ok is false when it leaves
// the root lexically.
func (c *Corpus) relDir(declared string) (string, bool) {
	p := filepath.Join(c.Root, filepath.FromSlash(strings.TrimSuffix(declared, "/")))
	if !within(c.Root, p) {
		return "", false
	}
	return c.rel(p), true
}

// ReadFile reads a corpus file by its slash path relative to the root,
// confined to the root (see Root.ReadFile).
func (c *Corpus) ReadFile(rel string) ([]byte, error) { return c.fs.ReadFile(rel) }

// Exists reports whether rel is a regular file or a directory inside the
// corpus root, without reading it.
func (c *Corpus) Exists(rel string) bool { return c.fs.Exists(rel) }

// Stat describes rel (slash-separated, relative to the root), following
// symlinks only inside the root (see Root.Stat).
func (c *Corpus) Stat(rel string) (fs.FileInfo, error) { return c.fs.Stat(rel) }

// Close releases the corpus root.
func (c *Corpus) Close() error { return c.fs.Close() }

// Reopen is a copy of the discovered corpus over a freshly opened root, for
// another ingest of the same discovery without walking the tree again
// (serve --watch). The copy's Findings are its own: appending to them does
// not change c's. c's own root may be closed.
func (c *Corpus) Reopen() (*Corpus, error) {
	r, err := OpenRoot(c.Root, c.fs.maxSize)
	if err != nil {
		return nil, err
	}
	cc := *c
	cc.fs = r
	cc.Findings = slices.Clone(c.Findings)
	return &cc, nil
}

// Source returns the source at rel (a slash path relative to the root),
// found by binary search: Load sorts Sources by path.
func (c *Corpus) Source(rel string) (Source, bool) {
	i, ok := slices.BinarySearchFunc(c.Sources, rel, func(s Source, p string) int { return strings.Compare(s.Path, p) })
	if !ok {
		return Source{}, false
	}
	return c.Sources[i], true
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
func (c *Corpus) conventional() []record.Directory {
	d := func(p string, t ...string) record.Directory {
		return record.Directory{ID: p, Path: p, Typologies: t, Conventional: true}
	}
	dirs := []record.Directory{
		d("skills", "skills"), d(".claude/skills", "skills"), d("tools", "tools"), d("processes", "processes"),
		d("schemas/skills", "schemas"), d("mcp", "mcp"),
	}
	if p := c.beansPath(); p != "" {
		dirs = append(dirs, d(p, "beans"))
	} else {
		dirs = append(dirs, d("beans", "beans"), d(".beans", "beans"))
	}
	return dirs
}

// beansPath reads `beans.path` (or `path`) from .beans.yml; "" when absent.
func (c *Corpus) beansPath() string {
	data, err := c.fs.ReadFile(".beans.yml")
	if err != nil {
		if !errors.Is(err, fs.ErrNotExist) {
			c.Findings = append(c.Findings, readError(".beans.yml", err))
		}
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

// SkipDir reports the directories that are never walked (nor watched):
// version control, installed packages and skillgraph's own store.
func SkipDir(name string) bool {
	switch name {
	case ".git", "node_modules", ".skillgraph":
		return true
	}
	return false
}

// walk adds the files below dir (a slash path relative to the root) that
// one of kinds reads. It walks through the confined root, so a directory
// swapped for a symlink mid-walk cannot lead it out. Files under a typed
// directory that no parser reads are reported once per directory and
// extension (file-not-read, SPEC §1.2).
func (c *Corpus) walk(dir string, kinds []string, seen map[string]bool) {
	manifests := map[string]string{} // dir → package-manifest name
	notRead := map[string][]string{} // extension → files, in walk order
	var exts []string
	fsys := c.fs.FS()
	if c.listings != nil {
		fsys = listedFS{fsys: fsys, dir: c.Root, l: c.listings}
	}
	_ = fs.WalkDir(fsys, dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			c.Findings = append(c.Findings, record.Finding{Code: record.CodeFileUnreadable, Severity: record.SeverityOf(record.CodeFileUnreadable),
				Message: fmt.Sprintf("cannot read: %v", err), File: p, Line: 1})
			return nil
		}
		if d.IsDir() {
			if p != dir && (SkipDir(d.Name()) || c.excluded(p)) {
				return fs.SkipDir
			}
			return nil
		}
		if !c.followable(p, d) {
			return nil
		}
		// Anything else that is not a regular file (a FIFO, a device) is
		// classified like a file and refused when read: file-unreadable.
		for _, k := range kinds {
			if s, ok := classify(p, k); ok {
				s.Abs = filepath.Join(c.Root, filepath.FromSlash(p))
				if s.Kind == KindSkill {
					if pd := path.Dir(p); pd == dir && dir != "." {
						// The skills directory's own name is no package
						// (issue 23.7: skills/foo.md was in "skills"); a
						// package-manifest.json there may name one.
						if s.Package = c.packageOf(pd, manifests); s.Package == path.Base(pd) && !c.hasManifest(pd) {
							s.Package = ""
						}
					} else {
						s.Package = c.packageOf(pd, manifests)
					}
				}
				c.add(s, seen)
				return nil
			}
		}
		if kinds[0] != KindAny && !strings.HasPrefix(d.Name(), ".") && !ignoredBeside(p, kinds) {
			ext := kindOfFile(d.Name())
			if _, ok := notRead[ext]; !ok {
				exts = append(exts, ext)
			}
			notRead[ext] = append(notRead[ext], p)
		}
		return nil
	})
	for _, ext := range exts {
		c.pendingNotRead = append(c.pendingNotRead, notReadGroup{dir: dir, ext: ext, files: notRead[ext]})
	}
}

// followable reports whether a walk reads the entry at p: a symlink is
// followed only to a file inside the root (one that leaves it, or points
// nowhere, is path-escapes-root), never to a directory (no loops).
func (c *Corpus) followable(p string, d fs.DirEntry) bool {
	if d.Type()&fs.ModeSymlink == 0 {
		return true
	}
	st, err := c.fs.Stat(p)
	if err != nil {
		c.Findings = append(c.Findings, escapeFinding(p))
		return false
	}
	return !st.IsDir()
}

// kindOfFile names a file's kind for file-not-read: its extension
// (".dmn", ".png"), or the name itself when it has none ("Makefile").
func kindOfFile(base string) string {
	if ext := strings.ToLower(path.Ext(base)); ext != "" {
		return ext
	}
	return base
}

// ignoredBeside reports files that sit beside sources on purpose and are
// not content: a package-manifest.json in a skills directory (read for the
// package name) and a README.md in a beans directory.
func ignoredBeside(p string, kinds []string) bool {
	base := path.Base(p)
	for _, k := range kinds {
		if (k == KindSkill && base == "package-manifest.json") || (k == KindBean && base == "README.md") {
			return true
		}
	}
	return false
}

// notReadFinding is the one file-not-read finding (info) of a directory and
// a kind of file: nothing under a declared directory is skipped silently
// (SPEC §1.2).
func notReadFinding(dir, ext string, files []string) record.Finding {
	what := fmt.Sprintf("%d %q files", len(files), ext)
	if len(files) == 1 {
		what = fmt.Sprintf("1 %q file", ext)
	}
	return record.Finding{Code: record.CodeFileNotRead, Severity: record.SeverityOf(record.CodeFileNotRead), File: files[0], Line: 1,
		Message: fmt.Sprintf("%s under %s/ not read: no parser reads this kind of file there (first: %s)", what, dir, files[0])}
}

func (c *Corpus) rel(p string) string {
	r, err := filepath.Rel(c.Root, p)
	if err != nil {
		return filepath.ToSlash(p)
	}
	return filepath.ToSlash(r)
}

// classify decides by the format table whether a file under a directory
// of one kind is read, and by which parser; the parsers then decide by
// content. A contract directory's tool-types.schema.json is the
// vocabulary, never a contract.
func classify(rel, kind string) (Source, bool) {
	ext := strings.ToLower(path.Ext(rel))
	if kind == KindAny {
		switch ext {
		case ".md":
			return Source{Path: rel, Kind: KindSkill}, true
		case ".bpmn", ".bpmn2":
			return Source{Path: rel, Kind: KindBPMN}, true
		case ".json", ".yaml", ".yml":
			return Source{Path: rel, Kind: KindAny}, true // sniffed when read
		}
		return Source{}, false
	}
	if !format.Reads(kind, rel) {
		return Source{}, false
	}
	if kind == KindContract && path.Base(rel) == "tool-types.schema.json" {
		return Source{Path: rel, Kind: KindVocabulary}, true
	}
	return Source{Path: rel, Kind: kind}, true
}

func (c *Corpus) anyExists(dirs []record.Directory) bool {
	for _, d := range dirs {
		if _, err := c.fs.Stat(d.Path); err == nil {
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

// hasManifest reports whether dir holds a package-manifest.json.
func (c *Corpus) hasManifest(dir string) bool {
	_, err := c.fs.Stat(path.Join(dir, "package-manifest.json"))
	return err == nil
}

// packageOf is the `name` of a package-manifest.json in dir, else dir's name.
func (c *Corpus) packageOf(dir string, cache map[string]string) string {
	if p, ok := cache[dir]; ok {
		return p
	}
	name := path.Base(dir)
	if dir == "." {
		name = filepath.Base(c.Root)
	}
	manifest := path.Join(dir, "package-manifest.json")
	data, err := c.fs.ReadFile(manifest)
	switch {
	case err == nil:
		var m struct {
			Name string `json:"name"`
		}
		if json.Unmarshal(data, &m) == nil && m.Name != "" {
			name = m.Name
		}
	case !errors.Is(err, fs.ErrNotExist):
		c.Findings = append(c.Findings, readError(manifest, err))
	}
	cache[dir] = name
	return name
}

func escapeFinding(rel string) record.Finding {
	return record.Finding{Code: record.CodePathEscapesRoot, Severity: record.SeverityOf(record.CodePathEscapesRoot),
		Message: "symlink points outside the corpus root (or nowhere); not followed", File: rel, Line: 1}
}

// readError is the finding of a file that could not be read: too large,
// a symlink out of the root, or unreadable (a FIFO, a device, no permission).
func readError(rel string, err error) record.Finding {
	switch {
	case errors.Is(err, ErrTooLarge):
		return record.Finding{Code: record.CodeFileTooLarge, Severity: record.SeverityOf(record.CodeFileTooLarge), Message: err.Error(), File: rel, Line: 1}
	case errors.Is(err, ErrEscapes):
		return escapeFinding(rel)
	}
	return record.Finding{Code: record.CodeFileUnreadable, Severity: record.SeverityOf(record.CodeFileUnreadable), Message: err.Error(), File: rel, Line: 1}
}

// ReadError is the finding for an error of Corpus.ReadFile on rel.
func ReadError(rel string, err error) record.Finding { return readError(rel, err) }
