package api

import (
	"github.com/graphql-go/graphql"

	"github.com/skillgraph/skillgraph/queries"
)

var profileArg = graphql.FieldConfigArgument{
	"profile": {Type: graphql.String, Description: "an exposure profile declared by an instance (SPEC §5.5)"},
}

// profiled returns the snapshot under the requested profile.
func profiled(p graphql.ResolveParams) (*queries.Snapshot, error) {
	name, _ := p.Args["profile"].(string)
	return snap(p).WithProfile(name)
}

var profileType = graphql.NewObject(graphql.ObjectConfig{Name: "Profile", Fields: graphql.Fields{
	"name":       {Type: nn(graphql.String)},
	"tools":      {Type: strList()},
	"readOnly":   {Type: graphql.Boolean},
	"transports": {Type: strList()},
}})

func workflowType(processType, stepType, skillType *graphql.Object) *graphql.Object {
	wstep := graphql.NewObject(graphql.ObjectConfig{Name: "WorkflowStep", Fields: graphql.Fields{
		"step":     field[queries.WorkflowStep](nn(stepType), "", func(w queries.WorkflowStep) any { return w.Step }),
		"skillRef": field[queries.WorkflowStep](nn(graphql.String), "the skill as the step names it", func(w queries.WorkflowStep) any { return w.SkillRef }),
		"skill": field[queries.WorkflowStep](skillType, "null when the name resolves to no skill", func(w queries.WorkflowStep) any {
			if w.Skill == nil {
				return nil
			}
			return w.Skill
		}),
		"state": field[queries.WorkflowStep](nn(graphql.String), "performed, manual or gap", func(w queries.WorkflowStep) any { return w.State }),
	}})
	return graphql.NewObject(graphql.ObjectConfig{Name: "Workflow", Fields: graphql.Fields{
		"process":   field[*queries.Workflow](nn(processType), "", func(w *queries.Workflow) any { return w.Process }),
		"ratio":     field[*queries.Workflow](nn(graphql.Float), "performed / skill-naming steps, callees included", func(w *queries.Workflow) any { return w.Ratio() }),
		"total":     field[*queries.Workflow](nn(graphql.Int), "skill-naming steps", func(w *queries.Workflow) any { return w.Total() }),
		"performed": field[*queries.Workflow](nn(graphql.Int), "", func(w *queries.Workflow) any { return w.Performed }),
		"manual":    field[*queries.Workflow](nn(graphql.Int), "", func(w *queries.Workflow) any { return w.Manual }),
		"gap":       field[*queries.Workflow](nn(graphql.Int), "", func(w *queries.Workflow) any { return w.Gap }),
		"firstGap": field[*queries.Workflow](wstep, "the first gap in sequence-flow order", func(w *queries.Workflow) any {
			if w.FirstGap == nil {
				return nil
			}
			return *w.FirstGap
		}),
		"steps": field[*queries.Workflow](list(wstep), "in sequence-flow order, called processes in place", func(w *queries.Workflow) any { return w.Steps() }),
	}})
}

func programType(toolType, skillType *graphql.Object) *graphql.Object {
	return graphql.NewObject(graphql.ObjectConfig{Name: "Program", Fields: graphql.Fields{
		"name":      field[*queries.Program](nn(graphql.String), "first argv word", func(p *queries.Program) any { return p.Name }),
		"dynamic":   field[*queries.Program](nn(graphql.Boolean), "the word contains a parameter", func(p *queries.Program) any { return p.Dynamic }),
		"installed": field[*queries.Program](nn(graphql.Boolean), "", func(p *queries.Program) any { return p.Installed }),
		"tools":     field[*queries.Program](list(toolType), "", func(p *queries.Program) any { return p.Tools }),
		"skills":    field[*queries.Program](list(skillType), "skills that break if it is missing", func(p *queries.Program) any { return p.Skills }),
	}})
}

func gateType(toolType, toolSkillType *graphql.Object) *graphql.Object {
	return graphql.NewObject(graphql.ObjectConfig{Name: "Gate", Fields: graphql.Fields{
		"tool":           field[*queries.Tool](nn(toolType), "", func(t *queries.Tool) any { return t }),
		"requiredSkills": field[*queries.Tool](list(toolSkillType), "", func(t *queries.Tool) any { return t.GatedBy }),
	}})
}
