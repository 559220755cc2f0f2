package api

import (
	"github.com/graphql-go/graphql"

	"github.com/skillgraph/skillgraph/queries"
)

// The agent-host components (SPEC §1.3): Plugin, Command, Agent, Hook and
// McpServerDeclaration, each with the file it was read from (source,
// relative to the corpus folder).

func nilPlugin(p *queries.Plugin) any {
	if p == nil {
		return nil
	}
	return p
}

// pluginType is Plugin: a folder packaged for agent hosts, and its
// components.
func pluginType(t *types) *graphql.Object {
	return graphql.NewObject(graphql.ObjectConfig{
		Name:        "Plugin",
		Description: "An agent-host plugin (Claude Code, Codex, …): a package of skills, commands, subagents, hooks and MCP servers.",
		Fields: graphql.FieldsThunk(func() graphql.Fields {
			return graphql.Fields{
				"name":        field[*queries.Plugin](nn(graphql.String), "", func(p *queries.Plugin) any { return p.Name }),
				"iri":         field[*queries.Plugin](nn(graphql.String), "", func(p *queries.Plugin) any { return p.IRI }),
				"folder":      field[*queries.Plugin](nn(graphql.String), "its folder, relative to the corpus folder", func(p *queries.Plugin) any { return p.Folder }),
				"version":     field[*queries.Plugin](graphql.String, "", func(p *queries.Plugin) any { return nilIfEmpty(p.Version) }),
				"description": field[*queries.Plugin](graphql.String, "", func(p *queries.Plugin) any { return nilIfEmpty(p.Description) }),
				"hosts":       field[*queries.Plugin](strList(), "the hosts it is packaged for", func(p *queries.Plugin) any { return strs(p.Hosts) }),
				"manifest":    field[*queries.Plugin](graphql.String, "its manifest; null when a marketplace entry alone defines it", func(p *queries.Plugin) any { return nilIfEmpty(p.Manifest) }),
				"listed":      field[*queries.Plugin](nn(graphql.Boolean), "whether a marketplace of the repository lists it", func(p *queries.Plugin) any { return p.Listed }),
				"source":      field[*queries.Plugin](graphql.String, "the file it was read from", func(p *queries.Plugin) any { return srcPath(p.Source) }),
				"line":        field[*queries.Plugin](nn(graphql.Int), "", func(p *queries.Plugin) any { return p.Line }),
				"skills":      field[*queries.Plugin](list(t.skill), "", func(p *queries.Plugin) any { return p.Skills }),
				"commands":    field[*queries.Plugin](list(t.command), "", func(p *queries.Plugin) any { return p.Commands }),
				"agents":      field[*queries.Plugin](list(t.agent), "", func(p *queries.Plugin) any { return p.Agents }),
				"hooks":       field[*queries.Plugin](list(t.hook), "", func(p *queries.Plugin) any { return p.Hooks }),
				"mcpServers":  field[*queries.Plugin](list(t.mcpServer), "", func(p *queries.Plugin) any { return p.Servers }),
				"findings":    field[*queries.Plugin](list(t.finding), "the findings of its files", func(p *queries.Plugin) any { return p.Findings }),
			}
		}),
	})
}

func commandType(t *types) *graphql.Object {
	return graphql.NewObject(graphql.ObjectConfig{
		Name:        "Command",
		Description: "A slash command: a root of reachability (a person invokes it).",
		Fields: graphql.FieldsThunk(func() graphql.Fields {
			return graphql.Fields{
				"name":         field[*queries.Command](nn(graphql.String), "/<plugin>:<name>, or /<name> in a project", func(c *queries.Command) any { return c.Name }),
				"iri":          field[*queries.Command](nn(graphql.String), "", func(c *queries.Command) any { return c.IRI }),
				"description":  field[*queries.Command](graphql.String, "", func(c *queries.Command) any { return nilIfEmpty(c.Description) }),
				"argumentHint": field[*queries.Command](graphql.String, "", func(c *queries.Command) any { return nilIfEmpty(c.ArgumentHint) }),
				"allowedTools": field[*queries.Command](strList(), "", func(c *queries.Command) any { return strs(c.AllowedTools) }),
				"model":        field[*queries.Command](graphql.String, "", func(c *queries.Command) any { return nilIfEmpty(c.Model) }),
				"plugin":       field[*queries.Command](t.plugin, "", func(c *queries.Command) any { return nilPlugin(c.Plugin) }),
				"witness":      field[*queries.Command](strList(), "", func(c *queries.Command) any { return strs(c.Witness) }),
				"source":       field[*queries.Command](graphql.String, "", func(c *queries.Command) any { return srcPath(c.Source) }),
				"line":         field[*queries.Command](nn(graphql.Int), "", func(c *queries.Command) any { return c.Line }),
			}
		}),
	})
}

func agentType(t *types) *graphql.Object {
	return graphql.NewObject(graphql.ObjectConfig{
		Name:        "Agent",
		Description: "A subagent: a root of reachability (the host delegates to it by its description).",
		Fields: graphql.FieldsThunk(func() graphql.Fields {
			return graphql.Fields{
				"name":        field[*queries.Agent](nn(graphql.String), "", func(a *queries.Agent) any { return a.Name }),
				"iri":         field[*queries.Agent](nn(graphql.String), "", func(a *queries.Agent) any { return a.IRI }),
				"description": field[*queries.Agent](graphql.String, "", func(a *queries.Agent) any { return nilIfEmpty(a.Description) }),
				"tools":       field[*queries.Agent](strList(), "the tools it may use", func(a *queries.Agent) any { return strs(a.Tools) }),
				"allTools":    field[*queries.Agent](nn(graphql.Boolean), "true when it names no tools: it may use every tool", func(a *queries.Agent) any { return a.AllTools }),
				"model":       field[*queries.Agent](graphql.String, "", func(a *queries.Agent) any { return nilIfEmpty(a.Model) }),
				"skills":      field[*queries.Agent](list(t.skill), "the skills it preloads that resolve", func(a *queries.Agent) any { return a.Skills }),
				"plugin":      field[*queries.Agent](t.plugin, "", func(a *queries.Agent) any { return nilPlugin(a.Plugin) }),
				"witness":     field[*queries.Agent](strList(), "", func(a *queries.Agent) any { return strs(a.Witness) }),
				"source":      field[*queries.Agent](graphql.String, "", func(a *queries.Agent) any { return srcPath(a.Source) }),
				"line":        field[*queries.Agent](nn(graphql.Int), "", func(a *queries.Agent) any { return a.Line }),
			}
		}),
	})
}

func hookType(t *types) *graphql.Object {
	return graphql.NewObject(graphql.ObjectConfig{
		Name:        "Hook",
		Description: "A hook handler: a trigger (a root) under a host event.",
		Fields: graphql.FieldsThunk(func() graphql.Fields {
			return graphql.Fields{
				"event":   field[*queries.Hook](nn(graphql.String), "", func(h *queries.Hook) any { return h.Event }),
				"iri":     field[*queries.Hook](nn(graphql.String), "", func(h *queries.Hook) any { return h.IRI }),
				"matcher": field[*queries.Hook](graphql.String, "", func(h *queries.Hook) any { return nilIfEmpty(h.Matcher) }),
				"type":    field[*queries.Hook](graphql.String, "command, prompt, http, …", func(h *queries.Hook) any { return nilIfEmpty(h.Type) }),
				"command": field[*queries.Hook](graphql.String, "as written; never run", func(h *queries.Hook) any { return nilIfEmpty(h.Command) }),
				"script":  field[*queries.Hook](graphql.String, "the plugin file the command runs, when it names one that exists", func(h *queries.Hook) any { return nilIfEmpty(h.Script) }),
				"plugin":  field[*queries.Hook](t.plugin, "", func(h *queries.Hook) any { return nilPlugin(h.Plugin) }),
				"source":  field[*queries.Hook](graphql.String, "", func(h *queries.Hook) any { return srcPath(h.Source) }),
				"line":    field[*queries.Hook](nn(graphql.Int), "", func(h *queries.Hook) any { return h.Line }),
			}
		}),
	})
}

func mcpServerType(t *types) *graphql.Object {
	return graphql.NewObject(graphql.ObjectConfig{
		Name:        "McpServerDeclaration",
		Description: "An MCP server a plugin or project declares (.mcp.json, a manifest's mcpServers): a transport.",
		Fields: graphql.FieldsThunk(func() graphql.Fields {
			return graphql.Fields{
				"name":      field[*queries.McpServerConfig](nn(graphql.String), "", func(m *queries.McpServerConfig) any { return m.Name }),
				"iri":       field[*queries.McpServerConfig](nn(graphql.String), "", func(m *queries.McpServerConfig) any { return m.IRI }),
				"transport": field[*queries.McpServerConfig](graphql.String, "stdio, http or sse", func(m *queries.McpServerConfig) any { return nilIfEmpty(m.Transport) }),
				"command":   field[*queries.McpServerConfig](graphql.String, "as written; never run", func(m *queries.McpServerConfig) any { return nilIfEmpty(m.Command) }),
				"args":      field[*queries.McpServerConfig](strList(), "", func(m *queries.McpServerConfig) any { return strs(m.Args) }),
				"url":       field[*queries.McpServerConfig](graphql.String, "", func(m *queries.McpServerConfig) any { return nilIfEmpty(m.URL) }),
				"tools": field[*queries.McpServerConfig](graphql.NewList(nn(graphql.String)), "the tools its snapshot lists; null when the corpus has no snapshot of it",
					func(m *queries.McpServerConfig) any {
						if m.Snapshot == nil {
							return nil
						}
						return strs(m.Snapshot.Tools)
					}),
				"plugin": field[*queries.McpServerConfig](t.plugin, "", func(m *queries.McpServerConfig) any { return nilPlugin(m.Plugin) }),
				"source": field[*queries.McpServerConfig](graphql.String, "", func(m *queries.McpServerConfig) any { return srcPath(m.Source) }),
				"line":   field[*queries.McpServerConfig](nn(graphql.Int), "", func(m *queries.McpServerConfig) any { return m.Line }),
			}
		}),
	})
}

// hostFields are the Query's connections of host components.
func hostFields(t *types) graphql.Fields {
	return graphql.Fields{
		"plugins": connection("Plugin", t.plugin, nil, func(s *queries.Snapshot) []any { return anyList(s.Plugins) }),
		"plugin": {Type: t.plugin, Description: "The plugin of a name (and folder, when two plugins share the name), null when none.",
			Args: graphql.FieldConfigArgument{"name": {Type: nn(graphql.String)}, "folder": {Type: graphql.String}},
			Resolve: func(p graphql.ResolveParams) (any, error) {
				name, _ := p.Args["name"].(string)
				folder, byFolder := p.Args["folder"].(string)
				for _, pl := range snap(p).Plugins {
					if pl.Name == name && (!byFolder || pl.Folder == folder) {
						return pl, nil
					}
				}
				return nil, nil
			}},
		"commands":   connection("Command", t.command, nil, func(s *queries.Snapshot) []any { return anyList(s.Commands) }),
		"agents":     connection("Agent", t.agent, nil, func(s *queries.Snapshot) []any { return anyList(s.Agents) }),
		"hooks":      connection("Hook", t.hook, nil, func(s *queries.Snapshot) []any { return anyList(s.Hooks) }),
		"mcpServers": connection("McpServerDeclaration", t.mcpServer, nil, func(s *queries.Snapshot) []any { return anyList(s.McpServers) }),
	}
}
