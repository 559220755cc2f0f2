package queries

import (
	"slices"
	"strings"

	"github.com/skillgraph/skillgraph/ingest/record"
)

// checkTriggers matches tool-skill trigger leaves against the graph.
func (s *Snapshot) checkTriggers(out *findings) {
	servers := map[string]bool{}
	for _, sv := range s.Servers {
		servers[sv.Name] = true
	}
	// The Tools a leaf can name, indexed once in Tool order (a scan of
	// every Tool per leaf is O(tool skills × Tools)): by id or MCP name,
	// and the MCP Tools of each server.
	byName := map[string][]*Tool{}
	byServer := map[string][]*Tool{}
	for _, t := range s.Tools {
		byName[t.ID] = append(byName[t.ID], t)
		if t.Origin == "mcp" {
			if t.McpName != t.ID {
				byName[t.McpName] = append(byName[t.McpName], t)
			}
			byServer[t.Server] = append(byServer[t.Server], t)
		}
	}
	for _, ts := range s.ToolSkills {
		var live, dead []string
		deadLine := 0 // the first dead leaf's line: the finding sits on it
		dies := func(field, name string) {
			dead = append(dead, field+": "+name)
			if deadLine == 0 {
				deadLine = ts.Refs.Line("trigger."+field, name)
			}
		}
		seen := map[*Tool]bool{}
		var walk func(m map[string]any)
		walk = func(m map[string]any) {
			if name, ok := m["tool"].(string); ok {
				hits := byName[name]
				if len(hits) > 0 {
					live = append(live, "tool: "+name)
				} else {
					dies("tool", name)
				}
				for _, t := range hits {
					if !seen[t] {
						seen[t] = true
						ts.Guides = append(ts.Guides, t)
					}
				}
			}
			if name, ok := m["mcp_server"].(string); ok {
				if servers[name] {
					live = append(live, "mcp_server: "+name)
					for _, t := range byServer[name] {
						if !seen[t] {
							seen[t] = true
							ts.Guides = append(ts.Guides, t)
						}
					}
				} else {
					dies("mcp_server", name)
				}
			}
			for _, k := range []string{"any_of", "all_of"} {
				if xs, ok := m[k].([]any); ok {
					for _, x := range xs {
						if c, ok := x.(map[string]any); ok {
							walk(c)
						}
					}
				}
			}
		}
		walk(ts.Trigger)
		ts.Matches = triggerMatches(ts.Trigger, func(name string) bool { return len(byName[name]) > 0 }, func(name string) bool { return servers[name] })
		for _, t := range ts.Guides {
			t.GuidedBy = append(t.GuidedBy, ts)
		}
		switch {
		case len(dead) > 0 && len(live) > 0:
			out.add(s.finding(record.CodeTriggerDanglingTools, ts.Source, leafLine(deadLine, ts.Line), ts.IRI,
				"tool skill %s: trigger leaves %s match nothing while %s are live (name drift?)",
				ts.Key, strings.Join(dead, ", "), strings.Join(live, ", ")))
		case len(dead) > 0:
			out.add(s.finding(record.CodeTriggerInert, ts.Source, leafLine(deadLine, ts.Line), ts.IRI,
				"tool skill %s: no trigger leaf matches anything (%s)", ts.Key, strings.Join(dead, ", ")))
		}
	}
}

// triggerMatches evaluates a trigger against the graph's surface (the
// tool-skill document: tool fires when the Tool exists, mcp_server when
// the server does, any_of when one sub-trigger fires, all_of when every
// one does). An empty all_of, or a node that is none of these, fires
// never: a misauthored trigger gates nothing rather than everything.
func triggerMatches(m map[string]any, tool, server func(string) bool) bool {
	if name, ok := m["tool"].(string); ok {
		return tool(name)
	}
	if name, ok := m["mcp_server"].(string); ok {
		return server(name)
	}
	sub := func(x any) bool {
		c, ok := x.(map[string]any)
		return ok && triggerMatches(c, tool, server)
	}
	if xs, ok := m["any_of"].([]any); ok {
		return slices.ContainsFunc(xs, sub)
	}
	if xs, ok := m["all_of"].([]any); ok {
		return len(xs) > 0 && !slices.ContainsFunc(xs, func(x any) bool { return !sub(x) })
	}
	return false
}

// leafLine is the line of a finding about a trigger leaf: the leaf's own
// line when it was recorded, else the tool skill's.
func leafLine(leaf, node int) int {
	if leaf > 0 {
		return leaf
	}
	return node
}
