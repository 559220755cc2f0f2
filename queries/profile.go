package queries

import (
	"fmt"
	"sort"

	"github.com/skillgraph/skillgraph/ingest/record"
)

// Transports a Tool can be invoked through, for profiles.
func (t *Tool) Transports() []string {
	var out []string
	if t.McpTool != "" || t.Origin == "mcp" {
		out = append(out, "mcp")
	}
	if len(t.Shell) > 0 {
		out = append(out, "shell")
	}
	if t.Container != "" {
		out = append(out, "container")
	}
	if t.InProcess != "" {
		out = append(out, "inProcess")
	}
	if t.Manual {
		out = append(out, "manual")
	}
	return out
}

// ProfileNames lists the exposure profiles declared by every instance.
func (s *Snapshot) ProfileNames() []string {
	seen := map[string]bool{}
	var out []string
	for _, in := range s.Instances {
		for n := range in.Profiles {
			if !seen[n] {
				seen[n] = true
				out = append(out, n)
			}
		}
	}
	sort.Strings(out)
	return out
}

// ProfileOf returns a declared profile by name.
func (s *Snapshot) ProfileOf(name string) (record.Profile, *Instance, bool) {
	for _, in := range s.Instances {
		if p, ok := in.Profiles[name]; ok {
			return p, in, true
		}
	}
	return record.Profile{}, nil, false
}

// exposed reports whether a profile keeps a Tool (SPEC §5.5): an exact
// tool list, read-only (MCP readOnlyHint stated true, or an authored
// readOnly: true — never an unstated hint), and allowed transports.
func exposed(p record.Profile, t *Tool) bool {
	if len(p.Tools) > 0 && !contains(p.Tools, t.ID) {
		return false
	}
	if p.ReadOnly != nil && *p.ReadOnly && (t.ReadOnly == nil || !*t.ReadOnly) {
		return false
	}
	if len(p.Transports) > 0 {
		ok := false
		for _, tr := range t.Transports() {
			ok = ok || contains(p.Transports, tr)
		}
		if !ok {
			return false
		}
	}
	return true
}

// WithProfile returns the view of this graph version under an exposure
// profile: only the Tools the profile exposes count, and coverage,
// reachability and workflow coverage are recomputed. "" is the snapshot
// itself. Views are computed once and cached.
func (s *Snapshot) WithProfile(name string) (*Snapshot, error) {
	if name == "" || s.Profile != "" {
		return s, nil
	}
	p, _, ok := s.ProfileOf(name)
	if !ok {
		return nil, fmt.Errorf("no profile %q (declared: %v)", name, s.ProfileNames())
	}
	s.profileMu.Lock()
	defer s.profileMu.Unlock()
	if v := s.profiled[name]; v != nil {
		return v, nil
	}
	v := link(s.nodes, nil) // its own lookups: indexTools changes them
	v.Version, v.Profile, v.BuiltAt = s.Version, name, s.BuiltAt
	kept := v.Tools[:0]
	for _, t := range v.Tools {
		if exposed(p, t) {
			kept = append(kept, t)
		}
	}
	v.Tools = kept
	v.indexTools()
	v.analyse()
	if s.profiled == nil {
		s.profiled = map[string]*Snapshot{}
	}
	s.profiled[name] = v
	return v, nil
}

// checkProfiles reports profile tool ids that name no Tool.
func (s *Snapshot) checkProfiles(out *findings) {
	if s.Profile != "" {
		return
	}
	for _, in := range s.Instances {
		names := make([]string, 0, len(in.Profiles))
		for n := range in.Profiles {
			names = append(names, n)
		}
		sort.Strings(names)
		src := s.sourceByPath(in, in.File)
		for _, n := range names {
			for _, id := range in.Profiles[n].Tools {
				if s.resolveToolID(in, id) == nil {
					out.add(s.finding(record.CodeProfileUnknownTool, src, 1, "",
						"profile %s lists tool %q, which is no Tool", n, id))
				}
			}
		}
	}
}
