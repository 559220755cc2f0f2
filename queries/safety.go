package queries

import (
	"fmt"

	"github.com/skillgraph/skillgraph/ingest/record"
	"github.com/skillgraph/skillgraph/ingest/safety"
)

// contentSafety is the part of "what a corpus can do to an agent" (issue
// #28) that needs more than one file: hooks and MCP servers that fetch
// and run code when a session starts (exec-fetches-code, with the host
// they reach), and subagents with every tool beside such a hook
// (permission-overbroad). The rules that read one file's text (hidden
// Unicode, hidden instructions, secrets, allowed-tools) run at parse time
// in ingest/safety, where the bytes and their lines are.
func (s *Snapshot) contentSafety(fs *findings) {
	// fetching hooks by plugin ("" for a project's own), first one kept.
	fetching := map[string]*Hook{}
	fetched := map[*Hook]safety.Fetch{}
	for _, h := range s.Hooks {
		if h.Type != "" && h.Type != "command" {
			continue
		}
		f, ok := safety.FetchesCode(h.Command, nil)
		if !ok {
			continue
		}
		fetched[h] = f
		if _, seen := fetching[h.PluginIRI]; !seen {
			fetching[h.PluginIRI] = h
		}
		fs.add(s.finding(record.CodeExecFetchesCode, h.Source, h.Line, h.IRI,
			"%s hook runs code it fetches: %s, from %s; the host runs it with the user's rights at every %s, whatever that host serves then: pin an exact version or ship the script in the plugin",
			hookEvent(h), f.What, hostName(f.Host), hookEvent(h)))
	}
	for _, m := range s.McpServers {
		if m.Command == "" {
			continue
		}
		f, ok := safety.FetchesCode(m.Command, m.Args)
		if !ok {
			continue
		}
		fs.add(s.finding(record.CodeExecFetchesCode, m.Source, m.Line, m.IRI,
			"MCP server %q starts by fetching code: %s, from %s; whatever that host serves when a session starts runs with the user's rights: pin an exact version",
			m.Name, f.What, hostName(f.Host)))
	}
	for _, a := range s.Agents {
		h := fetching[a.PluginIRI]
		if !a.AllTools || h == nil {
			continue
		}
		fs.add(s.finding(record.CodePermissionOverbroad, a.Source, a.Line, a.IRI,
			"agent %q has no tools: list, so it may use every tool (Bash included), beside a hook that runs fetched code (%s, %s line %d, from %s): name the tools it needs",
			a.Name, fetched[h].What, fileOf(h.Source), h.Line, hostName(fetched[h].Host)))
	}
}

func hookEvent(h *Hook) string {
	if h.Event == "" {
		return "hook"
	}
	return h.Event
}

// hostName names a fetch's host for a message.
func hostName(h string) string {
	if h == "" {
		return "a host the command does not name"
	}
	return fmt.Sprintf("%q", h)
}
