package queries

import "strings"

// Skill returns the skill with that id ("package/name" also works), or nil.
func (s *Snapshot) Skill(id string) *Skill {
	if sk := s.skillByID[id]; sk != nil {
		return sk
	}
	if pkg, name, ok := strings.Cut(id, "/"); ok {
		for _, sk := range s.Skills {
			if sk.ID == name && sk.Package == pkg {
				return sk
			}
		}
	}
	return nil
}

// Tool returns the tool with that id, or nil.
func (s *Snapshot) Tool(id string) *Tool { return s.toolByID[id] }

// Process returns the process with that process/@id or file stem, or nil.
func (s *Snapshot) Process(id string) *Process {
	if p := s.procByID[id]; p != nil {
		return p
	}
	for _, p := range s.Processes {
		if p.Stem == id {
			return p
		}
	}
	return nil
}

// Bean returns the bean with that id, or nil.
func (s *Snapshot) Bean(id string) *Bean { return s.beanByID[id] }

// Instance returns the instance of that name, or nil.
func (s *Snapshot) Instance(name string) *Instance { return s.instByName[name] }
