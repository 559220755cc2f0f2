package api

import (
	"encoding/base64"
	"strings"

	"github.com/graphql-go/graphql"

	"github.com/skillgraph/skillgraph/queries"
)

// The Relay Node interface. Its id field is globalId, not id: `id` on
// Skill, Tool, Process and Bean is the corpus id that dashboards and the
// acceptance kit read (SPEC §9), and Relay's compiler names the field of
// its choice (nodeInterfaceIdField).

// globalID is the opaque global id of an entity: base64 of Type:IRI. The
// IRI, not the corpus id, because a corpus id is unique only within its
// package: two skills "glossary" of two packages shared one global id, and
// a normalised client cache (Apollo, Relay) merged them (issue 25.1). The
// IRI is stable across versions as long as the node is the same node.
func globalID(typ, id string) string {
	return base64.URLEncoding.EncodeToString([]byte(typ + ":" + id))
}

func parseGlobalID(g string) (typ, id string, ok bool) {
	b, err := base64.URLEncoding.DecodeString(g)
	if err != nil {
		return "", "", false
	}
	return strings.Cut(string(b), ":")
}

// nodeInterface is Node.
func nodeInterface(t *types) *graphql.Interface {
	return graphql.NewInterface(graphql.InterfaceConfig{
		Name:        "Node",
		Description: "An entity with a global id, fetched again with node(id:).",
		Fields: graphql.Fields{
			"globalId": {Type: nn(graphql.ID), Description: "opaque global id (Relay); id is the corpus id"},
		},
		ResolveType: func(p graphql.ResolveTypeParams) *graphql.Object {
			switch p.Value.(type) {
			case *queries.Skill:
				return t.skill
			case *queries.Tool:
				return t.tool
			case *queries.Process:
				return t.process
			case *queries.Bean:
				return t.bean
			}
			return nil
		},
	})
}

// globalIDField is the globalId field of a Node type.
func globalIDField[T any](typ string, id func(T) string) *graphql.Field {
	return field[T](nn(graphql.ID), "opaque global id (Relay Node); id is the corpus id", func(x T) any { return globalID(typ, id(x)) })
}

// nodeField is Query.node: the entity of a global id, null when none.
func nodeField(t *types) *graphql.Field {
	return &graphql.Field{
		Type:        t.node,
		Description: "The entity of a global id (Relay), null when it names none.",
		Args:        graphql.FieldConfigArgument{"id": {Type: nn(graphql.ID)}},
		Resolve: func(p graphql.ResolveParams) (any, error) {
			typ, id, ok := parseGlobalID(p.Args["id"].(string))
			if !ok {
				return nil, nil
			}
			s := snap(p)
			// A global id made before it held the IRI holds the corpus id:
			// still answered, by the corpus id's rule.
			switch typ {
			case "Skill":
				if x := s.SkillByIRI(id); x != nil {
					return x, nil
				}
				if x := s.Skill(id); x != nil {
					return x, nil
				}
			case "Tool":
				if x := s.ToolByIRI(id); x != nil {
					return x, nil
				}
				if x := s.Tool(id); x != nil {
					return x, nil
				}
			case "Process":
				if x := s.ProcessByIRI(id); x != nil {
					return x, nil
				}
				if x := s.Process(id); x != nil {
					return x, nil
				}
			case "Bean":
				if x := s.BeanByIRI(id); x != nil {
					return x, nil
				}
				if x := s.Bean(id); x != nil {
					return x, nil
				}
			}
			return nil, nil
		},
	}
}
