package jsonld

import (
	"strconv"

	"github.com/skillgraph/skillgraph/ingest/record"
)

// The nodes of agent-host components (SPEC §1.3): plugins, marketplaces
// and their entries, slash commands, subagents, hook handlers and MCP
// server declarations. A component of a plugin names it (inPlugin), by
// the plugin's name, as a skill names its package.

// PluginIRI is the IRI of the plugin of a name.
func PluginIRI(doc, name string) string { return Mint(doc, "plugin", name) }

// scoped is a component's id within the instance: its plugin's name and
// its own (two plugins may each have an agent "reviewer").
func scoped(pkg, name string) string {
	if pkg == "" {
		return name
	}
	return pkg + "/" + name
}

func hostNodes(doc string, f record.File) []node {
	var out []node
	inPlugin := func(n node, folder, pkg string) {
		if folder != "" && pkg != "" {
			n["inPlugin"] = PluginIRI(doc, pkg)
		}
		n.set("pluginFolder", folder)
	}
	for _, p := range f.Plugins {
		n := node{"id": PluginIRI(doc, p.Name), "type": "Plugin", "name": p.Name, "line": p.Line}
		n.set("pluginFolder", p.Folder)
		n.set("version", p.Version)
		n.set("description", p.Description)
		n.set("host", sortedCopy(p.Hosts))
		n.set("manifest", p.Manifest)
		out = append(out, n)
	}
	for _, m := range f.Marketplaces {
		mIRI := Mint(doc, "marketplace", f.Path)
		n := node{"id": mIRI, "type": "Marketplace", "name": m.Name, "line": m.Line}
		n.set("owner", m.Owner)
		out = append(out, n)
		for _, e := range m.Entries {
			en := node{"id": Mint(doc, "marketplace", f.Path+"/"+e.Name), "type": "MarketplaceEntry", "name": e.Name,
				"line": e.Line, "inMarketplace": mIRI, "sourceKind": e.SourceKind}
			en.set("sourceRef", e.Source)
			en.set("pluginFolder", e.Folder)
			en.set("description", e.Description)
			out = append(out, en)
		}
	}
	for _, c := range f.Commands {
		n := node{"id": Mint(doc, "command", c.Name), "type": "Command", "name": c.Name, "line": c.Line}
		inPlugin(n, c.Plugin, c.Package)
		n.set("description", c.Description)
		n.set("argumentHint", c.ArgumentHint)
		n.set("allowedTool", sortedCopy(c.AllowedTools))
		n.set("model", c.Model)
		setRefLines(n, c.Refs)
		out = append(out, n)
	}
	for _, a := range f.Agents {
		n := node{"id": Mint(doc, "agent", scoped(a.Package, a.Name)), "type": "Agent", "name": a.Name, "line": a.Line}
		inPlugin(n, a.Plugin, a.Package)
		n.set("description", a.Description)
		n.set("agentTool", sortedCopy(a.Tools))
		if a.AllTools {
			n["allTools"] = true
		}
		n.set("model", a.Model)
		n.set("preloadsSkill", sortedCopy(a.Skills))
		setRefLines(n, a.Refs)
		out = append(out, n)
	}
	for _, h := range f.Hooks {
		n := node{"id": Mint(doc, "hook", f.Path+"/"+strconv.Itoa(h.Index)), "type": "Hook", "hookEvent": h.Event, "line": h.Line}
		inPlugin(n, h.Plugin, h.Package)
		n.set("matcher", h.Matcher)
		n.set("hookType", h.Type)
		n.set("command", h.Command)
		n.set("hookScript", h.Script)
		out = append(out, n)
	}
	for _, s := range f.McpConfigs {
		n := node{"id": Mint(doc, "mcp-server", scoped(s.Package, s.Name)), "type": "McpServerConfig", "name": s.Name, "line": s.Line}
		inPlugin(n, s.Plugin, s.Package)
		n.set("transport", s.Transport)
		n.set("command", s.Command)
		if len(s.Args) > 0 {
			n["commandArgs"] = jsonValue(s.Args)
		}
		n.set("url", s.URL)
		out = append(out, n)
	}
	return out
}
