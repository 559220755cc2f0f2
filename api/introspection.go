package api

import (
	"github.com/graphql-go/graphql"
)

// The introspection fields of the current GraphQL spec (October 2021 and
// the oneOf input objects of graphql-js 16.9) that graphql-go v0.8 lacks,
// so that graphql-js's getIntrospectionQuery with every option
// (descriptions, specifiedByUrl, directiveIsRepeatable, schemaDescription,
// inputValueDeprecation, oneOf) validates instead of failing with
// "Cannot query field" (issue 25.5). graphql-go's __ types are package
// variables shared by every schema of the process, so they are extended
// once, here, before any schema is built (NewSchema's description and
// deadline wrappers then apply to the fields as extended).
//
// The answers are what this schema has: no schema description, no
// custom scalar with a specifiedBy URL, no repeatable directive, no
// deprecated argument or input field (graphql-go cannot declare one) and
// no oneOf input object.
func init() {
	graphql.SchemaType.AddFieldConfig("description", &graphql.Field{
		Type:    graphql.String,
		Resolve: func(graphql.ResolveParams) (any, error) { return nil, nil },
	})
	graphql.TypeType.AddFieldConfig("specifiedByURL", &graphql.Field{
		Type:    graphql.String,
		Resolve: func(graphql.ResolveParams) (any, error) { return nil, nil },
	})
	graphql.TypeType.AddFieldConfig("isOneOf", &graphql.Field{
		Type: graphql.Boolean,
		Resolve: func(p graphql.ResolveParams) (any, error) {
			if _, ok := p.Source.(*graphql.InputObject); ok {
				return false, nil
			}
			return nil, nil // spec: null for every kind but INPUT_OBJECT
		},
	})
	graphql.DirectiveType.AddFieldConfig("isRepeatable", &graphql.Field{
		Type:    graphql.NewNonNull(graphql.Boolean),
		Resolve: func(graphql.ResolveParams) (any, error) { return false, nil },
	})
	graphql.InputValueType.AddFieldConfig("isDeprecated", &graphql.Field{
		Type:    graphql.NewNonNull(graphql.Boolean),
		Resolve: func(graphql.ResolveParams) (any, error) { return false, nil },
	})
	graphql.InputValueType.AddFieldConfig("deprecationReason", &graphql.Field{
		Type:    graphql.String,
		Resolve: func(graphql.ResolveParams) (any, error) { return nil, nil },
	})
	// args and inputFields take includeDeprecated (default false) as
	// fields and enumValues do; nothing of ours is deprecated, so the
	// argument changes nothing but is accepted.
	withIncludeDeprecated(graphql.FieldType, "args")
	withIncludeDeprecated(graphql.DirectiveType, "args")
	withIncludeDeprecated(graphql.TypeType, "inputFields")
	for _, o := range []*graphql.Object{graphql.SchemaType, graphql.TypeType, graphql.DirectiveType, graphql.InputValueType, graphql.FieldType} {
		o.Fields() // define the extended fields now, not in a request
	}
}

// withIncludeDeprecated gives an introspection list field the
// includeDeprecated argument, keeping its type and resolver.
func withIncludeDeprecated(o *graphql.Object, name string) {
	fd := o.Fields()[name]
	o.AddFieldConfig(name, &graphql.Field{
		Type:        fd.Type,
		Description: fd.Description,
		Resolve:     fd.Resolve,
		Args: graphql.FieldConfigArgument{
			"includeDeprecated": &graphql.ArgumentConfig{Type: graphql.Boolean, DefaultValue: false},
		},
	})
}
