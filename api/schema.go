// Package api exposes the analysis snapshot through GraphQL
// (github.com/graphql-go/graphql). Every resolver reads the immutable
// snapshot carried in the request context: lists are answered from the
// in-memory index, never with one store round trip per item.
package api

import (
	"fmt"
	"strings"
	"sync"

	"github.com/graphql-go/graphql"
)

// Schema is the skillgraph GraphQL schema.
type Schema struct {
	gql   graphql.Schema
	intro introWeights
	// flights holds the root fields ExecuteShared is computing
	// (flightKey → chan struct{}, closed when done).
	flights sync.Map
}

// GraphQL returns the underlying graphql-go schema.
func (s *Schema) GraphQL() graphql.Schema { return s.gql }

// types holds the object types that refer to each other; each is built
// by its own function (one file per GraphQL type) and their fields are
// thunks, read once every type exists.
type types struct {
	node                                      *graphql.Interface
	skill, tool, process, step, bean          *graphql.Object
	finding, findingConn, port, invoke        *graphql.Object
	selection, toolSkill, contract, triage    *graphql.Object
	tieredSkill, tier, coverage, reach, group *graphql.Object
	alternatives, instance, source            *graphql.Object
	plugin, command, agent, hook, mcpServer   *graphql.Object
}

// NewSchema builds the schema.
func NewSchema() (*Schema, error) {
	t := &types{}
	t.node = nodeInterface(t)
	t.finding = findingType()
	t.findingConn = findingConnection(t)
	t.port = portType(t)
	t.invoke = invokeType(t)
	t.selection = selectionType(t)
	t.toolSkill = toolSkillType(t)
	t.contract = contractType()
	t.triage = triageType()
	t.plugin = pluginType(t)
	t.command = commandType(t)
	t.agent = agentType(t)
	t.hook = hookType(t)
	t.mcpServer = mcpServerType(t)
	t.skill = skillType(t)
	t.tool = toolType(t)
	t.step = stepType(t)
	t.process = processType(t)
	t.bean = beanType(t)
	t.tieredSkill = tieredSkillType(t)
	t.tier = tierType(t)
	t.coverage = coverageType(t)
	t.reach = reachabilityType(t)
	t.group = groupType(t)
	t.alternatives = alternativesType(t)
	t.instance = instanceType(t)
	t.source = sourceType(t)
	gql, err := graphql.NewSchema(graphql.SchemaConfig{Query: queryType(t), Mutation: mutationType()})
	if err != nil {
		return nil, fmt.Errorf("build schema: %w", err)
	}
	watchDeadline(&gql)
	introspectionOnce.Do(func() { nullEmptyDescriptions(&gql) })
	return &Schema{gql: gql, intro: newIntroWeights(&gql)}, nil
}

// watchDeadline makes every resolver of the schema's own types return the
// context's error once the request deadline has passed: graphql-go runs
// the resolvers synchronously in a goroutine it does not stop, so without
// this a request whose client left would keep a core busy to the end.
// graphql's own __ types are shared by every schema of the process and
// are bounded by the introspection limits instead.
func watchDeadline(s *graphql.Schema) {
	for name, t := range s.TypeMap() {
		o, ok := t.(*graphql.Object)
		if !ok || strings.HasPrefix(name, "__") {
			continue
		}
		for _, fd := range o.Fields() {
			next := fd.Resolve
			if next == nil {
				next = graphql.DefaultResolveFn
			}
			fd.Resolve = func(p graphql.ResolveParams) (any, error) {
				if err := p.Context.Err(); err != nil {
					return nil, err
				}
				return next(p)
			}
		}
	}
}

var introspectionOnce sync.Once

// nullEmptyDescriptions makes introspection answer null, not "", for a
// missing description, as the GraphQL spec has it: graphql-go answers "",
// which graphql-js's printSchema prints as an empty block string on every
// type, field and argument. graphql's __ types are shared by every schema
// of the process, so this is done once.
func nullEmptyDescriptions(s *graphql.Schema) {
	for _, name := range []string{"__Type", "__Field", "__InputValue", "__EnumValue", "__Directive", "__Schema"} {
		o, ok := s.Type(name).(*graphql.Object)
		if !ok {
			continue
		}
		for _, key := range []string{"description", "deprecationReason"} {
			fd := o.Fields()[key]
			if fd == nil {
				continue
			}
			next := fd.Resolve
			if next == nil {
				next = graphql.DefaultResolveFn
			}
			fd.Resolve = func(p graphql.ResolveParams) (any, error) {
				v, err := next(p)
				if str, ok := v.(string); ok && str == "" {
					return nil, err
				}
				return v, err
			}
		}
	}
}
