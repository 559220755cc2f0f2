package plugin

import (
	"fmt"
	"path"
	"strings"

	yaml "go.yaml.in/yaml/v3"

	"github.com/skillgraph/skillgraph/ingest/internal/ynode"
	"github.com/skillgraph/skillgraph/ingest/record"
)

// Marketplace source kinds (SPEC §1.3).
const (
	SourceLocal    = "local"
	SourceGitHub   = "github"
	SourceGit      = "git"
	SourceURL      = "url"
	SourceGitSubdi = "git-subdir"
	SourceNPM      = "npm"
)

// MarketplaceRoot is the folder a marketplace file's relative sources are
// relative to: the folder that holds .claude-plugin/ or .agents/plugins/.
func MarketplaceRoot(p string) string {
	dir := path.Dir(p)
	switch path.Base(dir) {
	case ".claude-plugin":
		return path.Dir(dir)
	case "plugins":
		if path.Base(path.Dir(dir)) == ".agents" {
			return path.Dir(path.Dir(dir))
		}
	}
	return dir
}

// Entries reads the entries of a marketplace without findings, for
// discovery: which local folders it makes plugins of, and their names.
func Entries(p string, data []byte) []record.MarketplaceEntry {
	root, err := ynode.ParseJSON(data)
	if err != nil || !ynode.IsMap(root) {
		return nil
	}
	var out []record.MarketplaceEntry
	base := MarketplaceRoot(p)
	pluginRoot := ynode.Str(ynode.Get(ynode.Get(root, "metadata"), "pluginRoot"))
	for _, it := range ynode.Items(ynode.Get(root, "plugins")) {
		if e, ok := entry(it, base, pluginRoot); ok {
			out = append(out, e)
		}
	}
	return out
}

// entry reads one plugins[] element; ok is false when it is not an object.
func entry(it *yaml.Node, base, pluginRoot string) (record.MarketplaceEntry, bool) {
	if !ynode.IsMap(it) {
		return record.MarketplaceEntry{}, false
	}
	e := record.MarketplaceEntry{Name: ynode.Str(ynode.Get(it, "name")), Line: ynode.Line(it),
		Description: ynode.Str(ynode.Get(it, "description"))}
	src := ynode.Get(it, "source")
	local := func(rel string) {
		e.SourceKind, e.Source = SourceLocal, rel
		if pluginRoot != "" && !strings.HasPrefix(rel, ".") && !strings.Contains(rel, "/") {
			rel = path.Join(pluginRoot, rel)
		}
		e.Folder = path.Join(base, strings.TrimPrefix(rel, "./"))
	}
	if s, ok := ynode.Scalar(src); ok {
		local(s)
		return e, true
	}
	if !ynode.IsMap(src) {
		return e, true
	}
	kind := ynode.Str(ynode.Get(src, "source"))
	switch kind {
	case SourceLocal:
		local(ynode.Str(ynode.Get(src, "path")))
	case SourceGitHub:
		e.SourceKind, e.Source = kind, ynode.Str(ynode.Get(src, "repo"))
	case SourceNPM:
		e.SourceKind, e.Source = kind, ynode.Str(ynode.Get(src, "package"))
	case SourceURL, SourceGit, SourceGitSubdi:
		u := ynode.Str(ynode.Get(src, "url"))
		if kind == SourceURL && isRelative(u) {
			local(u) // a url that is a path names a folder of this repository
			break
		}
		e.SourceKind, e.Source = kind, u
		if p := ynode.Str(ynode.Get(src, "path")); p != "" {
			e.Source += "#" + p
		}
	default:
		e.SourceKind = kind
	}
	return e, true
}

// isRelative reports a source URL that is a path: no scheme, no host.
func isRelative(u string) bool {
	return u != "" && !strings.Contains(u, "://") && !strings.HasPrefix(u, "git@") &&
		(strings.HasPrefix(u, ".") || !strings.Contains(u, ":"))
}

// ParseMarketplace reads a marketplace (.claude-plugin/marketplace.json or
// .agents/plugins/marketplace.json): its entries, plugin-duplicate for two
// entries of one name, plugin-source-missing for a local source that is no
// folder, plugin-source-remote (info) for a source that is never fetched,
// and the plugins its entries define where the folder holds no manifest.
func ParseMarketplace(p string, data []byte, c Context) (out record.File) {
	out = record.File{Path: p, Parser: ParserMarketplace}
	defer recoverInto(&out, p)
	root, ok := parseJSON(&out, p, data, record.CodeMarketplaceInvalid, "marketplace")
	if !ok {
		return out
	}
	m := record.Marketplace{Name: ynode.Str(ynode.Get(root, "name")), Line: ynode.Line(root)}
	if o := ynode.Get(root, "owner"); ynode.IsMap(o) {
		m.Owner = ynode.Str(ynode.Get(o, "name"))
	} else {
		m.Owner = ynode.Str(o)
	}
	if m.Name == "" {
		out.Findings = append(out.Findings, record.New(record.CodeMarketplaceInvalid, p, m.Line, "", "marketplace has no name"))
		m.Name = path.Base(MarketplaceRoot(p))
	}
	list := ynode.Get(root, "plugins")
	if !ynode.IsSeq(list) {
		out.Findings = append(out.Findings, record.New(record.CodeMarketplaceInvalid, p, m.Line, m.Name, "marketplace has no plugins list"))
	}
	if n, over := ynode.TooMany(list); over {
		out.Findings = append(out.Findings, record.New(record.CodeMarketplaceInvalid, p, ynode.Line(list), m.Name,
			fmt.Sprintf("marketplace lists %d plugins, over the limit of %d one file may hold; none is read", n, ynode.MaxItems)))
		list = nil
	}
	base := MarketplaceRoot(p)
	pluginRoot := ynode.Str(ynode.Get(ynode.Get(root, "metadata"), "pluginRoot"))
	first := map[string]int{}
	for _, it := range ynode.Items(list) {
		e, ok := entry(it, base, pluginRoot)
		if !ok {
			out.Findings = append(out.Findings, record.New(record.CodeMarketplaceInvalid, p, ynode.Line(it), m.Name, "a plugins[] entry must be an object"))
			continue
		}
		if e.Name == "" {
			out.Findings = append(out.Findings, record.New(record.CodeMarketplaceInvalid, p, e.Line, m.Name, "a plugins[] entry has no name"))
			continue
		}
		if l, dup := first[e.Name]; dup {
			out.Findings = append(out.Findings, record.New(record.CodePluginDuplicate, p, e.Line, e.Name,
				fmt.Sprintf("plugin %q is listed twice (first at line %d); the host installs one of them", e.Name, l)))
			continue
		}
		first[e.Name] = e.Line
		switch {
		case e.SourceKind == SourceLocal:
			switch {
			case strings.HasPrefix(e.Folder, "../") || e.Folder == "..":
				out.Findings = append(out.Findings, record.New(record.CodePathEscapesRoot, p, e.Line, e.Name,
					fmt.Sprintf("plugin %q: source %q leaves the corpus root; not read", e.Name, e.Source)))
			case !c.exists(e.Folder):
				out.Findings = append(out.Findings, record.New(record.CodePluginSourceMissing, p, e.Line, e.Name,
					fmt.Sprintf("plugin %q: local source %q holds no plugin (looked for %s/)", e.Name, e.Source, e.Folder)))
			case !c.exists(path.Join(e.Folder, ".claude-plugin/plugin.json")) && !c.exists(path.Join(e.Folder, ".codex-plugin/plugin.json")):
				// The entry alone defines the plugin (strict: false).
				out.Plugins = append(out.Plugins, record.Plugin{Name: e.Name, Folder: e.Folder, Description: e.Description,
					Version: ynode.Str(ynode.Get(it, "version")), Hosts: []string{MarketplaceHost(p)}, Line: e.Line})
			}
		case e.SourceKind == "":
			out.Findings = append(out.Findings, record.New(record.CodeMarketplaceInvalid, p, e.Line, e.Name,
				fmt.Sprintf("plugin %q has no source", e.Name)))
		default:
			out.Findings = append(out.Findings, record.New(record.CodePluginSourceRemote, p, e.Line, e.Name,
				fmt.Sprintf("plugin %q comes from a %s source (%s): recorded, never fetched", e.Name, e.SourceKind, e.Source)))
		}
		m.Entries = append(m.Entries, e)
	}
	out.Marketplaces = append(out.Marketplaces, m)
	return out
}

// MarketplaceHost is the host whose marketplace file p is.
func MarketplaceHost(p string) string {
	if path.Base(path.Dir(p)) == ".claude-plugin" {
		return "claude-code"
	}
	return "codex"
}
