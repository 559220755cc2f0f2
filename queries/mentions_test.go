package queries_test

import (
	"testing"

	"github.com/skillgraph/skillgraph/ingest/corpustest"
	"github.com/skillgraph/skillgraph/queries/querytest"
)

// TestMentionsResolve: allowed-tools entries are weak mentionsTool edges
// linked to the Tools they name (a host tool like Read links nothing), and
// a bean's body mentions link the skills, Tools and processes they name
// (issue 23.7; SPEC §2.1b, §2.6).
func TestMentionsResolve(t *testing.T) {
	root := corpustest.Write(t, map[string]string{
		"skills/core/publish/SKILL.md": "---\nname: publish\ndescription: Publish the site.\nallowed-tools: Read Bash(git:*) deploy-site deploy-site\n---\n# Publish\n",
		"tools/deploy.json":            `{"id": "deploy-site", "title": "Deploy", "install": {"none": true}, "invoke": {"shell": ["deploy"]}}`,
		"tools/git.json":               `{"id": "Bash", "title": "a Tool that happens to share a host tool's name", "install": {"none": true}, "invoke": {"shell": ["bash"]}}`,
		"processes/release.bpmn": `<?xml version="1.0"?><definitions xmlns="http://www.omg.org/spec/BPMN/20100524/MODEL" id="d">
<process id="release" isExecutable="false"><startEvent id="s"/></process></definitions>`,
		".beans/b-1--ship.md": "---\ntitle: Ship\nstatus: todo\ntype: task\n---\nRun `deploy-site` after `publish`, per the `release` process; `nothing-here` is prose.\n",
	})
	s := querytest.Build(t, root)
	sk := s.Skill("publish")
	if sk == nil {
		t.Fatal("no skill publish")
	}
	var ids []string
	for _, tl := range sk.MentionsTools {
		ids = append(ids, tl.ID)
	}
	if len(ids) != 2 || ids[0] != "Bash" || ids[1] != "deploy-site" {
		t.Errorf("publish mentions Tools %v, want [Bash deploy-site]", ids)
	}
	if len(s.Beans) != 1 {
		t.Fatalf("beans %d", len(s.Beans))
	}
	b := s.Beans[0]
	if len(b.MentionsSkills) != 1 || b.MentionsSkills[0] != sk || len(b.MentionsTools) != 1 || b.MentionsTools[0].ID != "deploy-site" ||
		len(b.MentionsProcesses) != 1 || b.MentionsProcesses[0].ID != "release" {
		t.Errorf("bean mentions: skills %v tools %v processes %v (names %v)", b.MentionsSkills, b.MentionsTools, b.MentionsProcesses, b.Mentions)
	}
}
