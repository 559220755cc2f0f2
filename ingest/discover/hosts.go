package discover

import (
	"io/fs"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/skillgraph/skillgraph/ingest/format"
	"github.com/skillgraph/skillgraph/ingest/plugin"
	"github.com/skillgraph/skillgraph/ingest/record"
)

// Repositories laid out for agent hosts (SPEC §1.3): Agent Skills
// libraries, Claude Code and Codex plugins, marketplaces and projects with
// .claude/. Without a declaration, a root that holds any SKILL.md, plugin
// manifest, marketplace or .claude/commands|agents is read as the hosts
// read it; every other root keeps the conventional layout (§1.1).

// hostSkipDir are folders never searched for host components, besides
// SkipDir's: vendored and built copies, and CI configuration (SPEC §1.3).
func hostSkipDir(name string) bool {
	switch name {
	case "vendor", "dist", "build", ".github":
		return true
	}
	return SkipDir(name)
}

// IsDocument reports the files that are documents, never skills or
// components, at any depth (SPEC §1.3): README, CHANGELOG, LICENSE,
// NOTICE, SECURITY, CONTRIBUTING, CODE_OF_CONDUCT (any case, any
// extension, or in capitals with a suffix: README-dev.md, LICENSE-MIT),
// AGENTS.md, CLAUDE.md, GEMINI.md. "security-auditor.md" is no document.
func IsDocument(base string) bool {
	stem := strings.TrimSuffix(base, path.Ext(base))
	for _, d := range []string{"README", "CHANGELOG", "LICENSE", "LICENCE", "NOTICE", "SECURITY", "CONTRIBUTING", "CODE_OF_CONDUCT"} {
		if strings.EqualFold(stem, d) {
			return true
		}
		if rest, ok := strings.CutPrefix(base, d); ok && rest != "" && strings.ContainsRune(".-_", rune(rest[0])) {
			return true
		}
	}
	switch strings.ToUpper(base) {
	case "AGENTS.MD", "CLAUDE.MD", "GEMINI.MD":
		return true
	}
	return false
}

// manifestDirs are the folders of the manifests that make a plugin, in
// priority order: the first present is the plugin's manifest.
var manifestDirs = []string{".claude-plugin", ".codex-plugin"}

// hostManifests are other hosts' manifests: beside a plugin manifest they
// add a host; alone they make no plugin.
var hostManifests = []string{".cursor-plugin/plugin.json", ".kimi-plugin/plugin.json", "gemini-extension.json", ".opencode/plugin.json"}

// pluginDir is one plugin folder found by discovery.
type pluginDir struct {
	folder    string
	name      string
	manifests []string // plugin manifests present, primary first
	hosts     []string
	paths     map[string][]string // component key → paths relative to the folder
}

// hostInventory is every file of a host-layout root, by path.
type hostInventory struct {
	files []string // sorted
	set   map[string]bool
	dirs  map[string]bool
}

func (inv *hostInventory) has(rel string) bool { return inv.set[rel] }

// under lists the files below dir (all when dir is ".").
func (inv *hostInventory) under(dir string) []string {
	if dir == "." || dir == "" {
		return inv.files
	}
	i, _ := slices.BinarySearch(inv.files, dir+"/")
	j := i
	for j < len(inv.files) && strings.HasPrefix(inv.files[j], dir+"/") {
		j++
	}
	return inv.files[i:j]
}

// inventory lists every file of the root a host would see.
func (c *Corpus) inventory() *hostInventory {
	inv := &hostInventory{set: map[string]bool{}, dirs: map[string]bool{".": true}}
	fsys := c.fs.FS()
	if c.listings != nil {
		fsys = listedFS{fsys: fsys, dir: c.Root, l: c.listings}
	}
	_ = fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			c.Findings = append(c.Findings, record.New(record.CodeFileUnreadable, p, 1, "", "cannot read: "+err.Error()))
			return nil
		}
		if d.IsDir() {
			if p != "." && (hostSkipDir(d.Name()) || c.excluded(p)) {
				return fs.SkipDir
			}
			inv.dirs[p] = true
			return nil
		}
		if !c.followable(p, d) {
			return nil
		}
		inv.files = append(inv.files, p)
		inv.set[p] = true
		return nil
	})
	sort.Strings(inv.files)
	return inv
}

// isHostLayout reports whether the inventory holds anything only agent
// hosts read.
func isHostLayout(inv *hostInventory) bool {
	for _, f := range inv.files {
		base := path.Base(f)
		dir := path.Base(path.Dir(f))
		switch {
		case base == "SKILL.md":
			return true
		case base == "plugin.json" && slices.Contains(manifestDirs, dir):
			return true
		case base == "marketplace.json" && isMarketplace(f):
			return true
		case strings.HasPrefix(f, ".claude/commands/") || strings.HasPrefix(f, ".claude/agents/"):
			return true
		}
	}
	return false
}

func isMarketplace(f string) bool {
	return path.Base(f) == "marketplace.json" &&
		(path.Base(path.Dir(f)) == ".claude-plugin" || strings.HasSuffix(path.Dir(f), ".agents/plugins") || path.Dir(f) == ".agents/plugins")
}

// hostLayout discovers a host-layout root: it adds every source and
// resource and reports the folders no reader reads.
func (c *Corpus) hostLayout(inv *hostInventory, seen map[string]bool) {
	read := map[string]bool{} // files some reader reads (sources and resources)
	add := func(s Source) {
		s.Abs = filepath.Join(c.Root, filepath.FromSlash(s.Path))
		read[s.Path] = true
		c.add(s, seen)
	}
	// Plugins: manifests first, then the marketplaces' local entries.
	plugins := map[string]*pluginDir{}
	for _, f := range inv.files {
		dir := path.Dir(f)
		if path.Base(f) != "plugin.json" || !slices.Contains(manifestDirs, path.Base(dir)) {
			continue
		}
		folder := path.Dir(dir)
		p := plugins[folder]
		if p == nil {
			p = &pluginDir{folder: folder, paths: map[string][]string{}}
			plugins[folder] = p
		}
		p.manifests = append(p.manifests, f)
	}
	for _, p := range plugins {
		sort.Slice(p.manifests, func(i, j int) bool { return manifestRank(p.manifests[i]) < manifestRank(p.manifests[j]) })
		for _, m := range p.manifests {
			p.hosts = append(p.hosts, plugin.HostOf(m))
			data, err := c.fs.ReadFile(m)
			if err != nil {
				continue // the manifest's own source reports it
			}
			man := plugin.ReadManifest(data)
			if p.name == "" {
				p.name = man.Name
			}
			for k, v := range man.Paths {
				p.paths[k] = append(p.paths[k], v...)
			}
		}
		for _, hm := range hostManifests {
			if rel := path.Join(p.folder, hm); inv.has(rel) {
				p.hosts = append(p.hosts, plugin.HostOf(rel))
				read[rel] = true // it adds a host: read for that
			}
		}
		sort.Strings(p.hosts)
		p.hosts = slices.Compact(p.hosts)
	}
	var markets []string
	for _, f := range inv.files {
		if isMarketplace(f) {
			markets = append(markets, f)
		}
	}
	for _, m := range markets {
		data, err := c.fs.ReadFile(m)
		if err != nil {
			continue
		}
		for _, e := range plugin.Entries(m, data) {
			if e.SourceKind != plugin.SourceLocal || e.Folder == "" || strings.HasPrefix(e.Folder, "..") || !inv.dirs[e.Folder] {
				continue
			}
			if _, ok := plugins[e.Folder]; !ok {
				plugins[e.Folder] = &pluginDir{folder: e.Folder, name: e.Name, hosts: []string{plugin.MarketplaceHost(m)}, paths: map[string][]string{}}
			}
		}
	}
	folders := make([]string, 0, len(plugins))
	for f, p := range plugins {
		if p.name == "" {
			p.name = path.Base(f)
			if f == "." {
				p.name = defaultName(c.Root)
			}
		}
		folders = append(folders, f)
	}
	sort.Strings(folders)
	// The plugin a path belongs to: the deepest plugin folder at or above
	// it (found by walking up: a repository has thousands of files).
	pluginOf := func(rel string) *pluginDir {
		for d := rel; ; d = path.Dir(d) {
			if p := plugins[d]; p != nil {
				return p
			}
			if d == "." || d == "/" || d == "" {
				return nil
			}
		}
	}
	ctx := func(s Source, p *pluginDir) Source {
		if p != nil {
			s.Plugin, s.Package, s.Hosts = p.folder, p.name, p.hosts
		}
		return s
	}
	for _, f := range folders {
		p := plugins[f]
		for i, m := range p.manifests {
			add(ctx(Source{Path: m, Kind: KindPlugin, Secondary: i > 0}, p))
		}
	}
	for _, m := range markets {
		add(ctx(Source{Path: m, Kind: KindMarketplace}, pluginOf(m)))
	}
	// Agent Skill folders: every SKILL.md; the other files of its folder
	// (and below, up to a nested SKILL.md) are its resources.
	var skillDirs []string
	for _, f := range inv.files {
		if path.Base(f) == "SKILL.md" {
			skillDirs = append(skillDirs, path.Dir(f))
		}
	}
	isSkillDir := make(map[string]bool, len(skillDirs))
	for _, d := range skillDirs {
		isSkillDir[d] = true
	}
	skillOf := func(rel string) string { // the deepest skill folder above rel
		for d := path.Dir(rel); ; d = path.Dir(d) {
			if isSkillDir[d] {
				return d
			}
			if d == "." || d == "/" || d == "" {
				return ""
			}
		}
	}
	resources := map[string][]string{}
	for _, f := range inv.files {
		d := skillOf(f)
		if d == "" || (path.Base(f) == "SKILL.md" && path.Dir(f) == d) {
			continue // no skill's, or the skill itself
		}
		resources[d] = append(resources[d], f)
		read[f] = true
	}
	for _, d := range skillDirs {
		s := Source{Path: path.Join(d, "SKILL.md"), Kind: KindSkill, Resources: resources[d]}
		p := pluginOf(s.Path)
		s = ctx(s, p)
		if p == nil {
			// Outside a plugin a skill's package is its folder's, as in
			// the conventional layout (a package-manifest.json's name).
			s.Package = c.packageOf(d, map[string]string{})
		}
		add(s)
	}
	// Components of each plugin, and of the project (.claude/).
	type place struct {
		p      *pluginDir
		folder string // where the default component folders are
	}
	places := []place{}
	for _, f := range folders {
		places = append(places, place{plugins[f], f})
	}
	if inv.dirs[".claude"] {
		places = append(places, place{nil, ".claude"})
	}
	inSkill := func(f string) bool { return skillOf(f) != "" }
	for _, pl := range places {
		join := func(rel string) string { return path.Join(pl.folder, rel) }
		compDirs := func(key, def string) []string {
			out := []string{join(def)}
			if pl.p != nil {
				for _, rel := range pl.p.paths[key] {
					out = append(out, join(rel))
				}
			}
			return out
		}
		owner := pl.p
		mine := func(f string) bool { // not a file of a nested plugin
			q := pluginOf(f)
			return q == owner || (owner == nil && q == nil)
		}
		for _, d := range compDirs("commands", "commands") {
			for _, f := range filesAt(inv, d, true) {
				if strings.HasSuffix(f, ".md") && !IsDocument(path.Base(f)) && !inSkill(f) && mine(f) {
					dir := d
					if inv.has(d) {
						dir = path.Dir(d)
					}
					add(ctx(Source{Path: f, Kind: KindCommand, Dir: dir}, owner))
				}
			}
		}
		for _, d := range compDirs("agents", "agents") {
			for _, f := range filesAt(inv, d, false) {
				if strings.HasSuffix(f, ".md") && !IsDocument(path.Base(f)) && !inSkill(f) && mine(f) {
					add(ctx(Source{Path: f, Kind: KindAgent}, owner))
				}
			}
		}
		hookFiles := []string{join("hooks/hooks.json")}
		mcpFiles := []string{}
		if pl.p != nil {
			for _, rel := range pl.p.paths["hooks"] {
				hookFiles = append(hookFiles, join(rel))
			}
			for _, rel := range pl.p.paths["mcpServers"] {
				mcpFiles = append(mcpFiles, join(rel))
			}
		}
		if pl.folder == ".claude" {
			mcpFiles = append(mcpFiles, ".mcp.json")
		} else {
			mcpFiles = append(mcpFiles, join(".mcp.json"))
		}
		for _, f := range hookFiles {
			if inv.has(f) && strings.HasSuffix(f, ".json") {
				add(ctx(Source{Path: f, Kind: KindHooks}, owner))
			}
		}
		for _, f := range mcpFiles {
			if inv.has(f) && strings.HasSuffix(f, ".json") {
				add(ctx(Source{Path: f, Kind: KindMcpConfig}, owner))
			}
		}
		if pl.p != nil {
			for _, rel := range append([]string{".lsp.json"}, pl.p.paths["lspServers"]...) {
				if f := join(rel); inv.has(f) {
					read[f] = true // LSP servers: known, not modelled (docs/decisions.md)
				}
			}
		}
	}
	// Harness skills: markdown of the conventional skills trees (skills/,
	// .claude/skills/) when the tree holds no Agent Skill at all (SPEC
	// §1.3; docs/decisions.md: a skills/ folder elsewhere, a plugin's or a
	// generated copy under src/, is the hosts' and holds only SKILL.md
	// skills).
	harnessTree := map[string]bool{}
	for _, t := range []string{"skills", ".claude/skills"} {
		harnessTree[t] = inv.dirs[t] && !slices.ContainsFunc(skillDirs, func(d string) bool { return d == t || strings.HasPrefix(d, t+"/") })
	}
	for _, f := range inv.files {
		if read[f] || !strings.HasSuffix(f, ".md") || IsDocument(path.Base(f)) || inSkill(f) {
			continue
		}
		if harnessTree["skills"] && strings.HasPrefix(f, "skills/") || harnessTree[".claude/skills"] && strings.HasPrefix(f, ".claude/skills/") {
			s := Source{Path: f, Kind: KindSkill}
			p := pluginOf(f)
			s = ctx(s, p)
			if p == nil {
				s.Package = c.packageOf(path.Dir(f), map[string]string{})
			}
			add(s)
		}
	}
	// The conventional directories at the root (tools/, processes/, mcp/,
	// beans/, schemas/skills/) are read as in the conventional layout;
	// a YAML or JSON file in tools/ only with a Tool's shape.
	for _, d := range c.conventional() {
		if d.Path == "skills" || d.Path == ".claude/skills" || !inv.dirs[d.Path] {
			continue
		}
		before := len(c.Sources)
		c.walk(d.Path, kindsOf(d), seen)
		for _, s := range c.Sources[before:] {
			read[s.Path] = true
		}
	}
	if inv.has("package.json") {
		add(Source{Path: "package.json", Kind: KindPackage})
	}
	// Documents and dot-files (.gitignore, …) are known: neither read nor
	// reported, as the conventional walk does not report dot-files.
	for _, f := range inv.files {
		if IsDocument(path.Base(f)) || strings.HasPrefix(path.Base(f), ".") {
			read[f] = true
		}
	}
	c.notRead(inv, read, seen)
}

// kindsOf lists the kinds a conventional directory is read as.
func kindsOf(d record.Directory) []string {
	var kinds []string
	for _, t := range d.Typologies {
		kinds = append(kinds, format.OfTypology(t)...)
	}
	return kinds
}

// filesAt lists a component path's files: the file itself, or the files
// of the folder (below it when deep, else only its own).
func filesAt(inv *hostInventory, p string, deep bool) []string {
	if inv.has(p) {
		return []string{p}
	}
	if !inv.dirs[p] {
		return nil
	}
	var out []string
	for _, f := range inv.under(p) {
		if deep || path.Dir(f) == p {
			out = append(out, f)
		}
	}
	return out
}

func manifestRank(m string) int {
	return slices.Index(manifestDirs, path.Base(path.Dir(m)))
}

// notRead reports, once per folder, the files of a host-layout root that
// no reader reads: the topmost folder whose files are all unread, or the
// folder of an unread file beside read ones (SPEC §1.3: nothing is
// skipped silently).
func (c *Corpus) notRead(inv *hostInventory, read, seen map[string]bool) {
	hasRead := map[string]bool{} // folders with a read file at or below them
	for f := range read {
		for d := path.Dir(f); ; d = path.Dir(d) {
			if hasRead[d] {
				break
			}
			hasRead[d] = true
			if d == "." {
				break
			}
		}
	}
	groups := map[string][]string{}
	var order []string
	for _, f := range inv.files {
		if read[f] || seen[f] {
			continue
		}
		key := path.Dir(f)
		for d := key; d != "."; d = path.Dir(d) {
			if !hasRead[d] {
				key = d // the topmost folder nothing of which is read
			}
		}
		if _, ok := groups[key]; !ok {
			order = append(order, key)
		}
		groups[key] = append(groups[key], f)
	}
	sort.Strings(order)
	for _, k := range order {
		c.Findings = append(c.Findings, notReadFolder(k, groups[k]))
	}
}

// notReadFolder is the one file-not-read finding (info) of a folder.
func notReadFolder(dir string, files []string) record.Finding {
	what := "1 file"
	if len(files) > 1 {
		what = strconv.Itoa(len(files)) + " files"
	}
	where := dir + "/"
	if dir == "." {
		where = "the corpus root"
	}
	return record.New(record.CodeFileNotRead, files[0], 1, "",
		what+" under "+where+" not read: no reader reads this kind of file there (first: "+files[0]+")")
}
