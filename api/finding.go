package api

import (
	"github.com/graphql-go/graphql"

	"github.com/skillgraph/skillgraph/queries"
)

var severityEnum = graphql.NewEnum(graphql.EnumConfig{
	Name:        "Severity",
	Description: "Severity of a finding.",
	Values: graphql.EnumValueConfigMap{
		"ERROR":   {Value: "error"},
		"WARNING": {Value: "warning"},
		"INFO":    {Value: "info"},
	},
})

// findingType is Finding: an integrity or analysis finding with a stable code.
func findingType() *graphql.Object {
	return graphql.NewObject(graphql.ObjectConfig{
		Name:        "Finding",
		Description: "An integrity or analysis finding with a stable code.",
		Fields: graphql.Fields{
			"code":     field[queries.Finding](nn(graphql.String), "Stable code, see docs/findings.md.", func(f queries.Finding) any { return f.Code }),
			"severity": field[queries.Finding](nn(severityEnum), "", func(f queries.Finding) any { return string(f.Severity) }),
			"message":  field[queries.Finding](nn(graphql.String), "", func(f queries.Finding) any { return f.Message }),
			"file":     field[queries.Finding](graphql.String, "Relative to the corpus root.", func(f queries.Finding) any { return nilIfEmpty(f.File) }),
			"line":     field[queries.Finding](graphql.Int, "1-based line.", func(f queries.Finding) any { return f.Line }),
			"subject":  field[queries.Finding](graphql.String, "IRI of the node concerned.", func(f queries.Finding) any { return nilIfEmpty(f.Subject) }),
			"instance": field[queries.Finding](graphql.String, "", func(f queries.Finding) any { return nilIfEmpty(f.Instance) }),
		},
	})
}

// findingConnection is FindingConnection, the page type of Query.findings.
func findingConnection(t *types) *graphql.Object {
	edge := graphql.NewObject(graphql.ObjectConfig{Name: "FindingEdge", Fields: graphql.Fields{
		"node":   {Type: nn(t.finding)},
		"cursor": {Type: nn(graphql.String)},
	}})
	return graphql.NewObject(graphql.ObjectConfig{Name: "FindingConnection", Fields: graphql.Fields{
		"totalCount": {Type: nn(graphql.Int)},
		"edges":      {Type: list(edge)},
		"nodes":      {Type: list(t.finding)},
		"pageInfo":   {Type: nn(pageInfoType)},
	}})
}

// findingsField is Query.findings: the findings, filtered, one page.
func findingsField(t *types) *graphql.Field {
	args := pagingArgs()
	args["severity"] = &graphql.ArgumentConfig{Type: severityEnum}
	args["code"] = &graphql.ArgumentConfig{Type: graphql.String}
	args["file"] = &graphql.ArgumentConfig{Type: graphql.String}
	return &graphql.Field{Type: nn(t.findingConn), Args: args, Resolve: resolveFindings}
}

func resolveFindings(p graphql.ResolveParams) (any, error) {
	s := snap(p)
	sev, _ := p.Args["severity"].(string)
	code, _ := p.Args["code"].(string)
	file, _ := p.Args["file"].(string)
	keep := func(f queries.Finding) bool {
		return (sev == "" || string(f.Severity) == sev) && (code == "" || f.Code == code) && (file == "" || f.File == file)
	}
	pick := func() []queries.Finding {
		var all []queries.Finding
		for _, f := range s.Findings {
			if keep(f) {
				all = append(all, f)
			}
		}
		return all
	}
	switch {
	case sev == "" && code == "" && file == "":
		return pageOf(s.Findings, p.Args)
	case code == "" && file == "":
		// the dashboard's filter: a severity has three values, so its
		// lists are kept per snapshot (codes and files are the caller's
		// text: those are filtered each time)
		return pageOf(memoList(memoOf(s), "findings/"+sev, pick), p.Args)
	}
	return pageOf(pick(), p.Args)
}
