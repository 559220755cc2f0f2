package queries

import (
	"context"
	"testing"

	"github.com/cayleygraph/quad"

	"github.com/skillgraph/skillgraph/jsonld"
)

// TestOneNodePerPackagedSkill: skills/grp/alpha/deploy.md and
// skills/grp/beta/deploy.md are two skills with their own IRIs; a Tool's
// `beta/deploy` reaches the beta node in the stored edges, not only in the
// snapshot; the bare name is ambiguous (warning) and resolves to the first
// package; two files of one package and name really collide
// (duplicate-node) (issue #11).
func TestOneNodePerPackagedSkill(t *testing.T) {
	root := corpus(t, map[string]string{
		"skills/grp/alpha/deploy.md": skillMD("deploy", ""),
		"skills/grp/beta/deploy.md":  skillMD("deploy", ""),
		"skills/one/same/review.md":  skillMD("review", ""),
		"skills/two/same/review.md":  skillMD("review", ""),
		"tools/beta.json":            toolJSON("beta-deployer", "beta/deploy", ""),
		"tools/bare.json":            toolJSON("bare-deployer", "deploy", ""),
		"tools/unknown.json":         toolJSON("gamma-deployer", "gamma/deploy", ""),
		"skills/grp/beta/README.md":  "# not a skill\n",
		"skills/grp/alpha/extra.md":  skillMD("extra", ""),
	})
	ctx := context.Background()
	st, s := ingestBuild(t, root)
	doc := s.Instances[0].IRI
	alpha, beta := jsonld.SkillIRI(doc, "alpha", "deploy"), jsonld.SkillIRI(doc, "beta", "deploy")
	var deploys []string
	for _, sk := range s.Skills {
		if sk.ID == "deploy" {
			deploys = append(deploys, sk.IRI)
		}
	}
	if len(deploys) != 2 || deploys[0] == deploys[1] {
		t.Fatalf("deploy skills %v, want two nodes", deploys)
	}
	if sk := s.Skill("beta/deploy"); sk == nil || sk.IRI != beta || len(sk.Tools) != 1 || sk.Tools[0].ID != "beta-deployer" {
		t.Errorf("beta/deploy = %+v, want %s covered by beta-deployer only", sk, beta)
	}
	// The bare reference names both: it credits neither (issue 23.1; it
	// once credited the first by IRI order) and is skill-ref-ambiguous.
	if sk := s.Skill("alpha/deploy"); sk == nil || sk.IRI != alpha || len(sk.Tools) != 0 {
		t.Errorf("alpha/deploy = %+v, want %s covered by nothing", sk, alpha)
	}
	if !has(codes(s), "skill-ref-ambiguous") {
		t.Error("the bare reference deploy is not skill-ref-ambiguous")
	}
	// The stored edge names the beta node itself, which has triples.
	qs, err := st.Subject(ctx, jsonld.Mint(doc, "tool", "beta-deployer"))
	if err != nil {
		t.Fatal(err)
	}
	var objs []string
	for _, q := range qs {
		if q.Predicate == quad.IRI(jsonld.NS+"satisfies") {
			objs = append(objs, string(q.Object.(quad.IRI)))
		}
	}
	if len(objs) != 1 || objs[0] != beta {
		t.Errorf("stored satisfies %v, want [%s]", objs, beta)
	}
	if node, _ := st.Subject(ctx, beta); len(node) == 0 {
		t.Errorf("%s has no triples", beta)
	}
	count := map[string]int{}
	for _, f := range s.Findings {
		count[f.Code]++
		if f.Code == "satisfies-unknown-skill" && f.Subject != jsonld.Mint(doc, "tool", "gamma-deployer") {
			t.Errorf("unexpected %+v", f)
		}
	}
	if count["skill-name-ambiguous"] != 1 {
		t.Errorf("skill-name-ambiguous %d times, want once (deploy); findings %v", count["skill-name-ambiguous"], codes(s))
	}
	if count["duplicate-node"] != 1 {
		t.Errorf("duplicate-node %d times, want once (same/review in two folders); findings %v", count["duplicate-node"], codes(s))
	}
	if count["satisfies-unknown-skill"] != 1 {
		t.Errorf("satisfies-unknown-skill %d times, want once (gamma/deploy)", count["satisfies-unknown-skill"])
	}
}
