package queries

import (
	"reflect"
	"strings"
	"testing"

	"github.com/cayleygraph/quad"
)

// TestDecoderPlans: every tagged model field names a term of the context
// whose kind can fill it.
func TestDecoderPlans(t *testing.T) {
	for _, v := range []any{Instance{}, Source{}, Skill{}, Triage{}, Port{}, Tool{}, Process{}, Activity{}, Bean{},
		Contract{}, ToolSkill{}, Server{}, Script{}, Finding{}} {
		typ := reflect.TypeOf(v)
		p, err := buildPlan(typ)
		if err != nil {
			t.Error(err)
		}
		if len(p) == 0 {
			t.Errorf("%s has no stored field", typ.Name())
		}
	}
}

func TestBuildPlanRejects(t *testing.T) {
	for _, c := range []struct {
		v    any
		want string
	}{
		{struct {
			X string `sg:"noSuchTerm"`
		}{}, "no term"},
		{struct {
			X int `sg:"satisfies"`
		}{}, "cannot fill"},
		{struct {
			X string `sg:"line"`
		}{}, "cannot fill"},
	} {
		if _, err := buildPlan(reflect.TypeOf(c.v)); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%T: %v, want %q", c.v, err, c.want)
		}
	}
}

// TestDecodeKinds decodes one subject of every kind of value.
func TestDecodeKinds(t *testing.T) {
	r := &raw{iri: "urn:x#tool/t", props: map[string][]quad.Value{
		term("key"):             {quad.String("t")},
		term("line"):            {quad.Int(7)},
		term("satisfies"):       {quad.IRI("urn:x#skill/b"), quad.IRI("urn:x#skill/a")},
		term("renders"):         {quad.String("b"), quad.String("a")},
		term("requiresNetwork"): {quad.Bool(false)},
		term("invokeShell"):     {quad.String(`["gh","pr"]`)},
		term("install"):         {quad.String(`{"cli":"gh"}`)},
	}}
	got := decode(r, &Tool{})
	if got.ID != "t" || got.Line != 7 || strings.Join(got.SatisfiesIRI, ",") != "urn:x#skill/a,urn:x#skill/b" ||
		strings.Join(got.Renders, ",") != "a,b" || got.Network == nil || *got.Network || got.ReadOnly != nil ||
		strings.Join(got.Shell, " ") != "gh pr" || got.InstallJSON != `{"cli":"gh"}` {
		t.Errorf("%+v", got)
	}
}
