// Package plugin reads the files agent hosts read in a plugin or a project
// (SPEC §1.3): plugin manifests (Claude Code, Codex), marketplaces, slash
// commands, subagents, hook handlers and MCP server declarations. Each
// reader returns a record.File; a malformed file is a finding, never a
// crash, and the rest of the file is still read.
package plugin

import (
	"fmt"
	"path"
	"regexp"
	"sort"
	"strings"

	yaml "go.yaml.in/yaml/v3"

	"github.com/skillgraph/skillgraph/ingest/internal/ynode"
	"github.com/skillgraph/skillgraph/ingest/record"
)

// Parser names (record.File.Parser) of this package's readers.
const (
	ParserPlugin      = "plugin"
	ParserMarketplace = "marketplace"
	ParserCommand     = "command"
	ParserAgent       = "agent"
	ParserHooks       = "hooks"
	ParserMcpConfig   = "mcp-config"
)

// Context is what a reader needs beyond the file: the plugin the file
// belongs to and a way to ask whether a corpus path exists (a manifest
// path, a hook script, a marketplace source).
type Context struct {
	// Plugin is the plugin's folder relative to the corpus root ("." for
	// the root), "" in a project (.claude/) or a bare library.
	Plugin string
	// Name is the plugin's name (its package), "" outside a plugin.
	Name string
	// Hosts are the hosts the folder is packaged for (manifests beside it).
	Hosts []string
	// Exists reports whether a slash path relative to the corpus root is a
	// file or folder; nil means nothing exists.
	Exists func(rel string) bool
}

func (c Context) exists(rel string) bool { return c.Exists != nil && c.Exists(rel) }

// nameRE is the plugin name rule of the hosts: kebab-case.
var nameRE = regexp.MustCompile(`^[a-z0-9]+(-[a-z0-9]+)*$`)

// ComponentKeys are the manifest keys that name component paths, with the
// component each names (SPEC §1.3).
var ComponentKeys = []string{"commands", "agents", "skills", "hooks", "mcpServers", "lspServers", "apps"}

// Manifest is what discovery needs of a plugin manifest before any file of
// the plugin is read: its name and the component paths its keys name.
type Manifest struct {
	Name string
	// Paths maps a component key to the paths it names, relative to the
	// plugin folder, cleaned ("commands/x.md", "custom-agents").
	Paths map[string][]string
}

// ReadManifest reads the name and component paths of a plugin manifest;
// it never fails (a broken manifest has no paths, and its reader reports
// why).
func ReadManifest(data []byte) Manifest {
	m := Manifest{Paths: map[string][]string{}}
	root, err := ynode.ParseJSON(data)
	if err != nil || !ynode.IsMap(root) {
		return m
	}
	m.Name = ynode.Str(ynode.Get(root, "name"))
	for _, k := range ComponentKeys {
		for _, p := range pathsOf(ynode.Get(root, k)) {
			m.Paths[k] = append(m.Paths[k], p.rel)
		}
	}
	return m
}

// compPath is one path a manifest key names, with its line.
type compPath struct {
	rel  string // relative to the plugin folder, cleaned
	line int
}

// pathsOf reads a component value: a path, a list of paths; an inline
// object names no path.
func pathsOf(n *yaml.Node) []compPath {
	var out []compPath
	add := func(v *yaml.Node) {
		s, ok := ynode.Scalar(v)
		if !ok || s == "" {
			return
		}
		s = strings.TrimPrefix(s, "${CLAUDE_PLUGIN_ROOT}/")
		out = append(out, compPath{rel: path.Clean(strings.TrimPrefix(s, "./")), line: ynode.Line(v)})
	}
	switch {
	case ynode.IsSeq(n):
		for _, it := range ynode.Items(n) {
			add(it)
		}
	case n != nil && !ynode.IsMap(n):
		add(n)
	}
	return out
}

// ParseManifest reads a plugin manifest (.claude-plugin/plugin.json or
// .codex-plugin/plugin.json). The plugin's name is required and
// kebab-case (plugin-invalid); a component path that does not exist is
// plugin-path-missing.
func ParseManifest(p string, data []byte, c Context) (out record.File) {
	out = record.File{Path: p, Parser: ParserPlugin}
	defer recoverInto(&out, p)
	root, ok := parseJSON(&out, p, data, record.CodePluginInvalid, "plugin manifest")
	if !ok {
		return out
	}
	pl := record.Plugin{Folder: c.Plugin, Manifest: p, Line: ynode.Line(root), Hosts: sortedHosts(c.Hosts)}
	nameNode := ynode.Get(root, "name")
	pl.Name = ynode.Str(nameNode)
	switch {
	case nameNode == nil:
		out.Findings = append(out.Findings, record.New(record.CodePluginInvalid, p, pl.Line, "", "plugin manifest has no name"))
	case !nameRE.MatchString(pl.Name):
		out.Findings = append(out.Findings, record.New(record.CodePluginInvalid, p, ynode.Line(nameNode), pl.Name,
			fmt.Sprintf("plugin name %q must be kebab-case (lower-case letters and digits separated by single hyphens)", pl.Name)))
	}
	if pl.Name == "" {
		pl.Name = path.Base(c.Plugin)
	}
	pl.Version = ynode.Str(ynode.Get(root, "version"))
	pl.Description = ynode.Str(ynode.Get(root, "description"))
	for _, k := range ComponentKeys {
		for _, cp := range pathsOf(ynode.Get(root, k)) {
			rel := path.Join(c.Plugin, cp.rel)
			if strings.HasPrefix(rel, "../") || rel == ".." {
				out.Findings = append(out.Findings, record.New(record.CodePathEscapesRoot, p, cp.line, pl.Name,
					fmt.Sprintf("manifest %s path %q leaves the corpus root; not read", k, cp.rel)))
				continue
			}
			if !c.exists(rel) {
				out.Findings = append(out.Findings, record.New(record.CodePluginPathMissing, p, cp.line, pl.Name,
					fmt.Sprintf("manifest %s path %q does not exist (looked for %s)", k, cp.rel, rel)))
			}
		}
	}
	out.Plugins = append(out.Plugins, pl)
	// Inline MCP servers and hooks in the manifest are components too.
	if n := ynode.Get(root, "mcpServers"); ynode.IsMap(n) {
		out.McpConfigs = append(out.McpConfigs, mcpServers(&out, p, n, c)...)
	}
	if n := ynode.Get(root, "hooks"); ynode.IsMap(n) {
		out.Hooks = append(out.Hooks, hookHandlers(&out, p, n, c)...)
	}
	return out
}

// HostOf names the host a manifest path is for: claude-code, codex,
// cursor, gemini, kimi, or the folder's name without its dot and
// "-plugin" suffix.
func HostOf(manifest string) string {
	dir := path.Base(path.Dir(manifest))
	switch {
	case dir == ".claude-plugin":
		return "claude-code"
	case path.Base(manifest) == "gemini-extension.json":
		return "gemini"
	}
	return strings.TrimSuffix(strings.TrimPrefix(dir, "."), "-plugin")
}

func sortedHosts(h []string) []string {
	out := append([]string(nil), h...)
	sort.Strings(out)
	return out
}

// parseJSON parses data as JSON, reporting a syntax error as code (with
// its line) and a value that is not an object likewise.
func parseJSON(out *record.File, p string, data []byte, code, what string) (*yaml.Node, bool) {
	root, err := ynode.ParseJSON(data)
	if err != nil {
		line, msg := 1, err.Error()
		if pe, ok := err.(*ynode.Error); ok {
			line, msg = pe.Line, pe.Msg
		}
		out.Findings = append(out.Findings, record.New(record.CodeParseError, p, line, "", fmt.Sprintf("%s is not valid JSON: %s", what, msg)))
		return nil, false
	}
	for _, pr := range ynode.Problems(root) {
		out.Findings = append(out.Findings, record.New(record.CodeParseError, p, pr.Line, "", what+": "+pr.Msg))
	}
	if !ynode.IsMap(root) {
		out.Findings = append(out.Findings, record.New(code, p, ynode.Line(root), "", what+" must be a JSON object"))
		return nil, false
	}
	return root, true
}

// recoverInto turns a reader's panic into a finding: a bug must not stop
// the ingest of the other files.
func recoverInto(out *record.File, p string) {
	if r := recover(); r != nil {
		out.Findings = append(out.Findings, record.New(record.CodeParseError, p, 1, "", fmt.Sprintf("internal error while reading %s: %v", p, r)))
	}
}
