package queries

import (
	"strings"
	"testing"
)

// TestAmbiguousBareName: a bare name two packages define resolves to no
// skill and is skill-ref-ambiguous at the reference's line, whatever the
// packages are called; package/name resolves; text names the skills
// package/id (issue 23.1).
func TestAmbiguousBareName(t *testing.T) {
	const bpmn = `<?xml version="1.0" encoding="UTF-8"?>
<bpmn2:definitions xmlns:bpmn2="http://www.omg.org/spec/BPMN/20100524/MODEL"
                   xmlns:q="https://x.example/ns#" id="D" targetNamespace="https://x.example">
  <bpmn2:process id="P" name="P">
    <bpmn2:serviceTask id="Step" name="Step">
      <bpmn2:extensionElements><q:skill ref="foo"/></bpmn2:extensionElements>
    </bpmn2:serviceTask>
  </bpmn2:process>
</bpmn2:definitions>
`
	files := func(first string) map[string]string {
		return map[string]string{
			"skills/one/package-manifest.json": `{"name": "` + first + `"}`,
			"skills/one/foo.md":                skillMD("foo", ""),
			"skills/two/package-manifest.json": `{"name": "pkg-b"}`,
			"skills/two/foo.md":                skillMD("foo", ""),
			"tools/bare.json":                  "{\"id\": \"bare\", \"title\": \"T\", \"description\": \"D\",\n \"satisfies\": [\"foo\"],\n \"install\": {\"none\": true}, \"invoke\": {\"shell\": \"bin/bare\"}}",
			"tools/named.json":                 toolJSON("named", "pkg-b/foo", ""),
			"processes/p.bpmn":                 bpmn,
		}
	}
	for _, first := range []string{"alpha", "zeta"} {
		t.Run(first, func(t *testing.T) {
			s := build(t, "memory", corpus(t, files(first)))
			if got := toolIDs(s.Skill(first + "/foo").Tools); got != "" {
				t.Errorf("%s/foo is covered by %s: a bare name two packages define credits neither", first, got)
			}
			if got := toolIDs(s.Skill("pkg-b/foo").Tools); got != "named" {
				t.Errorf("pkg-b/foo is covered by %q, want named only", got)
			}
			if got := s.Tool("bare").Satisfies; len(got) != 0 {
				t.Errorf("bare resolves to %v", got)
			}
			var at []string
			for _, f := range s.Findings {
				switch f.Code {
				case "skill-ref-ambiguous":
					at = append(at, f.File+":"+itoa(f.Line))
					if !strings.Contains(f.Message, first+"/foo and pkg-b/foo") && !strings.Contains(f.Message, "pkg-b/foo and "+first+"/foo") {
						t.Errorf("message %q does not name both skills", f.Message)
					}
				case "satisfies-unknown-skill", "skill-ref-unknown":
					t.Errorf("%s: %s (an ambiguous name is not an unknown one)", f.Code, f.Message)
				}
			}
			if got := strings.Join(at, " "); got != "processes/p.bpmn:6 tools/bare.json:2" && got != "tools/bare.json:2 processes/p.bpmn:6" {
				t.Errorf("skill-ref-ambiguous at %q, want tools/bare.json:2 and processes/p.bpmn:6", got)
			}
			var labels []string
			for _, sk := range s.Coverage.Covered {
				labels = append(labels, sk.Label())
			}
			if got := strings.Join(labels, ","); got != "pkg-b/foo" {
				t.Errorf("covered labels %q, want pkg-b/foo", got)
			}
			if l := s.Skill(first + "/foo").Label(); l != first+"/foo" {
				t.Errorf("label %q", l)
			}
		})
	}
}

// TestAmbiguousNameInOwnPackage: a subagent naming a bare name two plugins
// define preloads its own plugin's skill, whichever plugin's IRI sorts
// first; a Tool outside both packages credits neither.
func TestAmbiguousNameInOwnPackage(t *testing.T) {
	agentSkill := func(n string) string {
		return "---\nname: foo\ndescription: does foo for " + n + "\n---\n\n# foo\n"
	}
	for _, own := range []string{"aaa", "zzz"} {
		other := map[string]string{"aaa": "zzz", "zzz": "aaa"}[own]
		s := build(t, "memory", corpus(t, map[string]string{
			"plugins/aaa/.claude-plugin/plugin.json": `{"name": "aaa"}`,
			"plugins/aaa/skills/foo/SKILL.md":        agentSkill("aaa"),
			"plugins/zzz/.claude-plugin/plugin.json": `{"name": "zzz"}`,
			"plugins/zzz/skills/foo/SKILL.md":        agentSkill("zzz"),
			"plugins/" + own + "/agents/helper.md":   "---\nname: helper\ndescription: helps\nskills: foo\n---\n\nHelp.\n",
		}))
		var a *Agent
		for _, x := range s.Agents {
			if x.Name == "helper" {
				a = x
			}
		}
		if a == nil {
			t.Fatal("agent helper not read")
		}
		if len(a.Skills) != 1 || a.Skills[0].Package != own {
			var pk []string
			for _, sk := range a.Skills {
				pk = append(pk, sk.Package+"/"+sk.ID)
			}
			t.Errorf("agent in %s preloads %v, want %s/foo (not %s/foo)", own, pk, own, other)
		}
		if has(codes(s), "skill-ref-ambiguous") {
			t.Errorf("agent in %s: its own plugin settles the name", own)
		}
	}

	s := build(t, "memory", corpus(t, map[string]string{
		"skills/alpha/foo.md": skillMD("foo", ""),
		"skills/beta/foo.md":  skillMD("foo", ""),
		"tools/t.json":        toolJSON("t", "foo", ""),
	}))
	if toolIDs(s.Skill("alpha/foo").Tools) != "" || toolIDs(s.Skill("beta/foo").Tools) != "" {
		t.Error("a Tool outside both packages credits neither")
	}
	// Unambiguous names are unchanged: the label is the id.
	s2 := build(t, "memory", corpus(t, map[string]string{
		"skills/alpha/foo.md": skillMD("foo", ""),
		"tools/t.json":        toolJSON("t", "foo", ""),
	}))
	if sk := s2.Skill("foo"); sk == nil || toolIDs(sk.Tools) != "t" || sk.Label() != "foo" {
		t.Errorf("a unique bare name resolves and is labelled by its id: %+v", sk)
	}
}

// TestTopLevelSkillPackage: a harness skill directly in the skills
// directory has no package (it was "skills", the directory's name), unless
// a package-manifest.json there names one (issue 23.7).
func TestTopLevelSkillPackage(t *testing.T) {
	cases := []struct {
		name     string
		manifest string // of skills/ itself, "" for none
		want     string
	}{
		{"no manifest", "", ""},
		{"manifest", `{"name": "house"}`, "house"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			files := map[string]string{
				"skills/foo.md":      skillMD("foo", ""),
				"skills/core/bar.md": skillMD("bar", ""),
			}
			if c.manifest != "" {
				files["skills/package-manifest.json"] = c.manifest
			}
			s := build(t, "memory", corpus(t, files))
			if sk := s.Skill("foo"); sk == nil || sk.Package != c.want {
				t.Errorf("skills/foo.md: %+v, want package %q", sk, c.want)
			}
			if sk := s.Skill("bar"); sk == nil || sk.Package != "core" {
				t.Errorf("skills/core/bar.md: %+v, want package core", sk)
			}
		})
	}
}
