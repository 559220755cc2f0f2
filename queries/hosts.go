package queries

import (
	"path"
	"sort"
	"strings"

	"github.com/skillgraph/skillgraph/ingest/record"
	"github.com/skillgraph/skillgraph/jsonld"
)

// Agent-host components (SPEC §1.3): plugins, marketplaces, slash
// commands, subagents, hook handlers and MCP server declarations. They
// are linked here, in one place, from their decoded nodes; each kind is
// one hostEntity, so a new kind is one type and one case below.

// Plugin is one agent-host plugin.
type Plugin struct {
	IRI         string
	Name        string   `sg:"name"`
	Folder      string   `sg:"pluginFolder"`
	Version     string   `sg:"version"`
	Description string   `sg:"description"`
	Hosts       []string `sg:"host"`
	Manifest    string   `sg:"manifest"`
	Line        int      `sg:"line"`
	placement

	// Computed when linking.
	Listed   bool
	Skills   []*Skill
	Commands []*Command
	Agents   []*Agent
	Hooks    []*Hook
	Servers  []*McpServerConfig
	Findings []Finding
}

// Marketplace is one marketplace file.
type Marketplace struct {
	IRI   string
	Name  string `sg:"name"`
	Owner string `sg:"owner"`
	Line  int    `sg:"line"`
	placement
	Entries []*MarketplaceEntry
}

// MarketplaceEntry is one plugin a marketplace lists.
type MarketplaceEntry struct {
	IRI         string
	Name        string `sg:"name"`
	SourceKind  string `sg:"sourceKind"`
	SourceRef   string `sg:"sourceRef"`
	Folder      string `sg:"pluginFolder"`
	Description string `sg:"description"`
	Line        int    `sg:"line"`
	MarketIRI   string `sg:"inMarketplace"`
	placement
	// Plugin is the local plugin the entry installs (nil for a remote
	// source or a missing folder).
	Plugin *Plugin
}

// Command is one slash command.
type Command struct {
	IRI          string
	Name         string          `sg:"name"`
	PluginIRI    string          `sg:"inPlugin"`
	Folder       string          `sg:"pluginFolder"`
	Description  string          `sg:"description"`
	ArgumentHint string          `sg:"argumentHint"`
	AllowedTools []string        `sg:"allowedTool"`
	Model        string          `sg:"model"`
	Line         int             `sg:"line"`
	Refs         record.RefLines `sg:"refLines"`
	placement
	Plugin  *Plugin
	Witness []string
}

// Agent is one subagent.
type Agent struct {
	IRI         string
	Name        string          `sg:"name"`
	PluginIRI   string          `sg:"inPlugin"`
	Folder      string          `sg:"pluginFolder"`
	Description string          `sg:"description"`
	Tools       []string        `sg:"agentTool"`
	AllTools    bool            `sg:"allTools"`
	Model       string          `sg:"model"`
	SkillRefs   []string        `sg:"preloadsSkill"`
	Line        int             `sg:"line"`
	Refs        record.RefLines `sg:"refLines"`
	placement
	Plugin *Plugin
	// Skills are the skills it names that resolve.
	Skills  []*Skill
	Witness []string
}

// Hook is one hook handler.
type Hook struct {
	IRI       string
	Event     string `sg:"hookEvent"`
	Matcher   string `sg:"matcher"`
	Type      string `sg:"hookType"`
	Command   string `sg:"command"`
	Script    string `sg:"hookScript"`
	PluginIRI string `sg:"inPlugin"`
	Folder    string `sg:"pluginFolder"`
	Line      int    `sg:"line"`
	placement
	Plugin  *Plugin
	Witness []string
}

// McpServerConfig is one declared MCP server (.mcp.json, a manifest's
// mcpServers).
type McpServerConfig struct {
	IRI       string
	Name      string   `sg:"name"`
	Transport string   `sg:"transport"`
	Command   string   `sg:"command"`
	Args      []string `sg:"commandArgs"`
	URL       string   `sg:"url"`
	PluginIRI string   `sg:"inPlugin"`
	Folder    string   `sg:"pluginFolder"`
	Line      int      `sg:"line"`
	placement
	Plugin *Plugin
	// Snapshot is the tools/list snapshot of the server, when the corpus
	// has one.
	Snapshot *Server
}

// Key is the witness key of a command, an agent or a hook.
func (c *Command) Key() string { return "command:" + c.Name }

// Key is the witness key of an agent.
func (a *Agent) Key() string { return "agent:" + scopedName(a.Folder, a.Name) }

// Key is the witness key of a hook.
func (h *Hook) Key() string {
	if _, _, id, ok := jsonld.Split(h.IRI); ok {
		return "hook:" + jsonld.Unescape(id)
	}
	return "hook:" + h.IRI
}

func scopedName(folder, name string) string {
	if folder == "" || folder == "." {
		return name
	}
	return folder + "/" + name
}

// hostEntity is a decoded host component: linking copies it into the
// snapshot with its place.
type hostEntity interface {
	link(s *Snapshot, in *Instance, src *Source)
}

// placement is a host component's instance and source file, set when a
// snapshot links its own copy (the analyses write into it; the decoded
// nodes are shared between snapshots).
type placement struct {
	Instance *Instance
	Source   *Source
}

func (p *placement) setPlace(in *Instance, src *Source) { p.Instance, p.Source = in, src }

// placed is a copy of e with its place.
func placed[T any, P interface {
	*T
	setPlace(*Instance, *Source)
}](e *T, in *Instance, src *Source) *T {
	c := *e
	P(&c).setPlace(in, src)
	return &c
}

func (p *Plugin) link(s *Snapshot, in *Instance, src *Source) {
	s.Plugins = append(s.Plugins, placed(p, in, src))
}

func (m *Marketplace) link(s *Snapshot, in *Instance, src *Source) {
	s.Marketplaces = append(s.Marketplaces, placed(m, in, src))
}

func (e *MarketplaceEntry) link(s *Snapshot, in *Instance, src *Source) {
	s.entries = append(s.entries, placed(e, in, src))
}

func (cm *Command) link(s *Snapshot, in *Instance, src *Source) {
	s.Commands = append(s.Commands, placed(cm, in, src))
}

func (a *Agent) link(s *Snapshot, in *Instance, src *Source) {
	s.Agents = append(s.Agents, placed(a, in, src))
}

func (h *Hook) link(s *Snapshot, in *Instance, src *Source) {
	s.Hooks = append(s.Hooks, placed(h, in, src))
}

func (m *McpServerConfig) link(s *Snapshot, in *Instance, src *Source) {
	s.McpServers = append(s.McpServers, placed(m, in, src))
}

// decodeHost decodes a host component node; nil for any other node.
func decodeHost(r *raw) any {
	switch {
	case r.is("Plugin"):
		return decode(r, &Plugin{IRI: r.iri})
	case r.is("Marketplace"):
		return decode(r, &Marketplace{IRI: r.iri})
	case r.is("MarketplaceEntry"):
		return decode(r, &MarketplaceEntry{IRI: r.iri})
	case r.is("Command"):
		return decode(r, &Command{IRI: r.iri})
	case r.is("Agent"):
		return decode(r, &Agent{IRI: r.iri})
	case r.is("Hook"):
		return decode(r, &Hook{IRI: r.iri})
	case r.is("McpServerConfig"):
		return decode(r, &McpServerConfig{IRI: r.iri})
	}
	return nil
}

// linkHosts sorts the host components, joins each to its plugin, the
// marketplace entries to their marketplaces and plugins, the declared
// servers to their snapshots and the agents to the skills they preload,
// and checks what needs more than one file (SPEC §1.3): plugin-unlisted,
// the mcp__server__tool names, mcp-tools-unlisted, an agent's skills.
func (s *Snapshot) linkHosts(out *findings) {
	sort.SliceStable(s.Plugins, func(i, j int) bool { return s.Plugins[i].Name < s.Plugins[j].Name })
	sort.SliceStable(s.Marketplaces, func(i, j int) bool { return fileOf(s.Marketplaces[i].Source) < fileOf(s.Marketplaces[j].Source) })
	sort.SliceStable(s.Commands, func(i, j int) bool { return s.Commands[i].Name < s.Commands[j].Name })
	sort.SliceStable(s.Agents, func(i, j int) bool { return s.Agents[i].Key() < s.Agents[j].Key() })
	sort.SliceStable(s.Hooks, func(i, j int) bool {
		a, b := s.Hooks[i], s.Hooks[j]
		if fileOf(a.Source) != fileOf(b.Source) {
			return fileOf(a.Source) < fileOf(b.Source)
		}
		return a.Line < b.Line
	})
	sort.SliceStable(s.McpServers, func(i, j int) bool {
		return scopedName(s.McpServers[i].Folder, s.McpServers[i].Name) < scopedName(s.McpServers[j].Folder, s.McpServers[j].Name)
	})
	byIRI := map[string]*Plugin{}
	byFolder := map[[2]string]*Plugin{} // instance IRI, folder
	for _, p := range s.Plugins {
		if _, dup := byIRI[p.IRI]; !dup {
			byIRI[p.IRI] = p
		}
		byFolder[[2]string{instIRI(p.Instance), p.Folder}] = p
	}
	for _, sk := range s.Skills {
		if p := byIRI[sk.PluginIRI]; p != nil {
			sk.Plugin = p
			p.Skills = append(p.Skills, sk)
		}
	}
	for _, c := range s.Commands {
		if c.Plugin = byIRI[c.PluginIRI]; c.Plugin != nil {
			c.Plugin.Commands = append(c.Plugin.Commands, c)
		}
	}
	for _, a := range s.Agents {
		if a.Plugin = byIRI[a.PluginIRI]; a.Plugin != nil {
			a.Plugin.Agents = append(a.Plugin.Agents, a)
		}
	}
	for _, h := range s.Hooks {
		if h.Plugin = byIRI[h.PluginIRI]; h.Plugin != nil {
			h.Plugin.Hooks = append(h.Plugin.Hooks, h)
		}
	}
	snapshots := map[[2]string]*Server{} // instance IRI, server name
	for _, sv := range s.Servers {
		snapshots[[2]string{instIRI(sv.Instance), sv.Name}] = sv
	}
	declared := map[[2]string][]*McpServerConfig{} // instance IRI, name as a tool name says it
	for _, m := range s.McpServers {
		if m.Plugin = byIRI[m.PluginIRI]; m.Plugin != nil {
			m.Plugin.Servers = append(m.Plugin.Servers, m)
		}
		in := instIRI(m.Instance)
		m.Snapshot = snapshots[[2]string{in, m.Name}]
		declared[[2]string{in, m.Name}] = append(declared[[2]string{in, m.Name}], m)
		if m.Plugin != nil {
			// Claude Code names a plugin's server's tools
			// mcp__plugin_<plugin>_<server>__<tool>.
			k := [2]string{in, "plugin_" + m.Plugin.Name + "_" + m.Name}
			declared[k] = append(declared[k], m)
		}
		if m.Snapshot == nil {
			out.add(s.finding(record.CodeMcpToolsUnlisted, m.Source, m.Line, m.IRI,
				"MCP server %q has no tools/list snapshot in the corpus: the tools it serves are not known", m.Name))
		}
	}
	// Marketplaces: entries to their files and plugins; a plugin folder
	// no marketplace of its instance lists is plugin-unlisted.
	markets := map[string]*Marketplace{}
	for _, m := range s.Marketplaces {
		markets[m.IRI] = m
	}
	listed := map[[2]string]bool{}
	marketFiles := map[string][]string{} // instance IRI → marketplace files
	for _, m := range s.Marketplaces {
		in := instIRI(m.Instance)
		marketFiles[in] = append(marketFiles[in], fileOf(m.Source))
	}
	for _, e := range s.entries {
		if m := markets[e.MarketIRI]; m != nil {
			m.Entries = append(m.Entries, e)
		}
		if e.SourceKind == "local" {
			k := [2]string{instIRI(e.Instance), e.Folder}
			listed[k] = true
			e.Plugin = byFolder[k]
		}
	}
	for _, p := range s.Plugins {
		in := instIRI(p.Instance)
		p.Listed = listed[[2]string{in, p.Folder}]
		if !p.Listed && len(marketFiles[in]) > 0 {
			out.add(s.finding(record.CodePluginUnlisted, p.Source, 1, p.IRI,
				"plugin %q (%s) is not listed by the marketplace %s: nobody can install it from here", p.Name, p.Folder, strings.Join(marketFiles[in], ", ")))
		}
	}
	// Tool names in allowed-tools and tools lists.
	check := func(src *Source, in *Instance, who, subject string, names []string, refs record.RefLines, field string, line int) {
		for _, n := range names {
			server, tool, ok := mcpToolName(n)
			if !ok {
				continue
			}
			at := refs.Line(field, n)
			if at == 0 {
				at = line
			}
			decl := declared[[2]string{instIRI(in), server}]
			if len(decl) == 0 {
				out.add(s.finding(record.CodeMcpServerUnknown, src, at, subject,
					"%s names %s, but no MCP server %q is declared", who, n, server))
				continue
			}
			snap := decl[0].Snapshot
			if snap == nil || tool == "" || strings.ContainsAny(tool, "*?") {
				continue
			}
			if !contains(snap.Tools, tool) {
				out.add(s.finding(record.CodeMcpToolUnknown, src, at, subject,
					"%s names %s, but MCP server %q serves no tool %q", who, n, decl[0].Name, tool))
			}
		}
	}
	for _, c := range s.Commands {
		check(c.Source, c.Instance, c.Name, c.IRI, c.AllowedTools, c.Refs, "allowedTools", c.Line)
	}
	for _, a := range s.Agents {
		check(a.Source, a.Instance, "agent "+a.Name, a.IRI, a.Tools, a.Refs, "tools", a.Line)
		for _, ref := range a.SkillRefs {
			sk := s.resolveSkillID(a.Instance, ref)
			if sk == nil && a.Plugin != nil && !strings.Contains(ref, "/") {
				sk = s.resolveSkillID(a.Instance, a.Plugin.Name+"/"+ref)
			}
			if amb := s.ambiguousID(a.Instance, ref); sk == nil && amb != nil {
				out.add(s.finding(record.CodeSkillRefAmbiguous, a.Source, max(a.Refs.Line("skills", ref), a.Line), a.IRI,
					"agent %s preloads skill %s", a.Name, ambiguousRef(ref, amb)))
				continue
			}
			if sk == nil {
				at := a.Refs.Line("skills", ref)
				out.add(s.finding(record.CodeSkillRefUnknown, a.Source, max(at, a.Line), a.IRI,
					"agent %s preloads skill %q, which is not a skill of this corpus", a.Name, ref))
				continue
			}
			a.Skills = append(a.Skills, sk)
		}
	}
}

// attachPluginFindings gives each plugin the findings of its files: those
// whose file is below its folder and no nested plugin's (the deepest
// plugin folder above the file, found by walking up from it).
func (s *Snapshot) attachPluginFindings() {
	if len(s.Plugins) == 0 {
		return
	}
	byFolder := make(map[[2]string]*Plugin, len(s.Plugins)) // instance name, folder
	for _, p := range s.Plugins {
		k := [2]string{nameOf(p.Instance), p.Folder}
		if byFolder[k] == nil {
			byFolder[k] = p
		}
	}
	for _, f := range s.Findings {
		for d := path.Clean(f.File); ; d = path.Dir(d) { // "" cleans to "."
			if p := byFolder[[2]string{f.Instance, d}]; p != nil {
				p.Findings = append(p.Findings, f)
				break
			}
			if d == "." || d == "/" || d == "" {
				break
			}
		}
	}
}

// mcpToolName splits mcp__<server>__<tool> (the tool may be empty or a
// wildcard: a whole server); ok is false for any other tool name.
func mcpToolName(n string) (server, tool string, ok bool) {
	rest, ok := strings.CutPrefix(n, "mcp__")
	if !ok {
		return "", "", false
	}
	server, tool, _ = strings.Cut(rest, "__")
	return server, tool, server != ""
}

func instIRI(in *Instance) string {
	if in == nil {
		return ""
	}
	return in.IRI
}

// hostRoots adds the host components to the dispatch graph (SPEC §1.3,
// §5.3): a command (a person invokes it), an agent (the host delegates to
// it) and a hook (its event fires it) are roots; an agent reaches the
// skills it preloads, and a command or agent the MCP listings it names.
func (s *Snapshot) hostRoots(r *Reachability, roots map[int32]bool, edge func(a, b int32)) {
	listing := func(in *Instance, names []string, from int32) {
		for _, n := range names {
			server, tool, ok := mcpToolName(n)
			if !ok || tool == "" {
				continue
			}
			for _, m := range s.McpServers {
				if m.Instance == in && m.Snapshot != nil && (m.Name == server || (m.Plugin != nil && "plugin_"+m.Plugin.Name+"_"+m.Name == server)) {
					if id, ok := r.lookup("mcp:" + m.Snapshot.Name + "/" + tool); ok {
						edge(from, id)
					}
				}
			}
		}
	}
	for _, c := range s.Commands {
		id := r.id(c.Key())
		roots[id] = true
		listing(c.Instance, c.AllowedTools, id)
	}
	for _, a := range s.Agents {
		id := r.id(a.Key())
		roots[id] = true
		for _, sk := range a.Skills {
			edge(id, sk.rid)
		}
		listing(a.Instance, a.Tools, id)
	}
	for _, h := range s.Hooks {
		roots[r.id(h.Key())] = true
	}
}

// hostWitnesses records the witness of each host component.
func (s *Snapshot) hostWitnesses(r *Reachability) {
	for _, c := range s.Commands {
		c.Witness = r.Witness(c.Key())
	}
	for _, a := range s.Agents {
		a.Witness = r.Witness(a.Key())
	}
	for _, h := range s.Hooks {
		h.Witness = r.Witness(h.Key())
	}
}
