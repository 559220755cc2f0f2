package api

import (
	"github.com/graphql-go/graphql"
)

// contractType is Contract: the input contract of a skill as the API shows it.
func contractType() *graphql.Object {
	return graphql.NewObject(graphql.ObjectConfig{Name: "Contract", Fields: graphql.Fields{
		"ref":      {Type: nn(graphql.String)},
		"readable": {Type: nn(graphql.Boolean)},
		"external": {Type: nn(graphql.Boolean)},
		"required": {Type: strList()},
	}})
}
