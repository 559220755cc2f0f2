package bean

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/skillgraph/skillgraph/ingest/record"
)

type wantFinding struct {
	code string
	sev  record.Severity
	line int
}

func findings(fs []record.Finding) []wantFinding {
	var out []wantFinding
	for _, f := range fs {
		out = append(out, wantFinding{f.Code, f.Severity, f.Line})
	}
	return out
}

func TestIDFromName(t *testing.T) {
	tests := []struct {
		name, id string
		ok       bool
	}{
		{"acme-a1b2--ship-the-release.md", "acme-a1b2", true},
		{"beans/defs/folio-assistant-7eak--dublin-core.md", "folio-assistant-7eak", true},
		{"acme-a1b2--v1.2-notes.md", "acme-a1b2", true},
		{"acme-a1b2.fix-it.md", "acme-a1b2", true},
		{"acme-a1b2-fix-it.md", "acme-a1b2", true},
		{"acme-abcd-fix-it.md", "acme-abcd", true},
		{"acme-abcd.fix-it.md", "acme-abcd", true},
		{"acme-a1b2-fix-v1.2.md", "acme-a1b2", true},
		{"a1b2-fix.md", "a1b2", true},
		{"a1b2.md", "a1b2", true},
		{"acme-a1b2.md", "acme-a1b2", true},
		{"README.md", "", false},
		{"notes.txt", "", false},
		{"--slug.md", "", false},
		{".md", "", false},
		{"-x.md", "", false},
	}
	for _, tc := range tests {
		id, ok := IDFromName(tc.name)
		if id != tc.id || ok != tc.ok {
			t.Errorf("IDFromName(%q) = %q, %v; want %q, %v", tc.name, id, ok, tc.id, tc.ok)
		}
	}
}

func TestFindings(t *testing.T) {
	const ok = "---\ntitle: T\nstatus: todo\ntype: task\npriority: low\n---\nbody\n"
	tests := []struct {
		name, file, input string
		want              []wantFinding
	}{
		{"valid", "acme-a1b2--x.md", ok, nil},
		{"no front matter", "acme-a1b2--x.md", "# Just a title\n", []wantFinding{{record.CodeBeanInvalid, record.Error, 1}}},
		{"empty file", "acme-a1b2--x.md", "", []wantFinding{{record.CodeBeanInvalid, record.Error, 1}}},
		{"front matter not closed", "acme-a1b2--x.md", "---\ntitle: T\nbody\n", []wantFinding{{record.CodeBeanInvalid, record.Error, 1}}},
		{"blank line before fence", "acme-a1b2--x.md", "\n---\ntitle: T\n---\n", []wantFinding{{record.CodeBeanInvalid, record.Error, 1}}},
		{"unclosed quote", "acme-a1b2--x.md", "---\n# c\ntitle: \"Half\nstatus: todo\n---\n", []wantFinding{{record.CodeBeanInvalid, record.Error, 3}}},
		{"bad indentation", "acme-a1b2--x.md", "---\ntitle: T\nstatus: todo\n  type: task\n---\n", []wantFinding{{record.CodeBeanInvalid, record.Error, 4}}},
		{"tab indentation", "acme-a1b2--x.md", "---\ntitle: T\ntags:\n\t- a\n---\n", []wantFinding{{record.CodeBeanInvalid, record.Error, 4}}},
		{"not a mapping", "acme-a1b2--x.md", "---\n- a\n- b\n---\n", []wantFinding{{record.CodeBeanInvalid, record.Error, 2}}},
		{"scalar front matter", "acme-a1b2--x.md", "---\n\njust text\n---\n", []wantFinding{{record.CodeBeanInvalid, record.Error, 3}}},
		{"name without id", "README.md", ok, []wantFinding{{record.CodeBeanInvalid, record.Error, 1}}},
		{"unknown status", "acme-a1b2--x.md", "---\ntitle: T\n\nstatus: waiting\n---\n", []wantFinding{{record.CodeBeanUnknownValue, record.Warning, 4}}},
		{"unknown type and priority", "acme-a1b2--x.md", "---\ntype: story\npriority: urgent\n---\n", []wantFinding{{record.CodeBeanUnknownValue, record.Warning, 2}, {record.CodeBeanUnknownValue, record.Warning, 3}}},
		{"list status", "acme-a1b2--x.md", "---\nstatus: [todo]\n---\n", []wantFinding{{record.CodeBeanUnknownValue, record.Warning, 2}}},
		{"self parent", "acme-a1b2--x.md", "---\ntitle: T\nparent: acme-a1b2\n---\n", []wantFinding{{record.CodeBeanSelfLink, record.Error, 3}}},
		{"self blocking", "acme-a1b2--x.md", "---\nblocking:\n  - acme-c3d4\n  - acme-a1b2\n---\n", []wantFinding{{record.CodeBeanSelfLink, record.Error, 4}}},
		{"self blocks (legacy)", "acme-a1b2--x.md", "---\nblocks: [acme-a1b2]\n---\n", []wantFinding{{record.CodeBeanSelfLink, record.Error, 2}}},
		{"self in links", "acme-a1b2--x.md", "---\nlinks:\n  - related: acme-a1b2\n  - blocks: acme-a1b2\n---\n", []wantFinding{{record.CodeBeanSelfLink, record.Error, 4}}},
		{"self blocked_by", "acme-a1b2--x.md", "---\nblocked_by: acme-a1b2\n---\n", []wantFinding{{record.CodeBeanSelfLink, record.Error, 2}}},
		{"CRLF and BOM", "acme-a1b2--x.md", "\xef\xbb\xbf---\r\ntitle: T\r\nparent: acme-a1b2\r\n---\r\n", []wantFinding{{record.CodeBeanSelfLink, record.Error, 3}}},
		{"invalid UTF-8", "acme-a1b2--x.md", "---\ntitle: T\nstatus: \xff\xfe\n---\n", []wantFinding{{record.CodeBeanInvalid, record.Error, 3}}},
		{"NUL byte", "acme-a1b2--x.md", "---\ntitle: a\x00b\n---\n", []wantFinding{{record.CodeBeanInvalid, record.Error, 2}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := Parse("beans/"+tc.file, []byte(tc.input))
			if got.Parser != "bean" || got.Path != "beans/"+tc.file || len(got.Beans) != 1 {
				t.Fatalf("Parser %q, Path %q, %d beans", got.Parser, got.Path, len(got.Beans))
			}
			if have := findings(got.Findings); !slices.Equal(have, tc.want) {
				t.Errorf("findings = %v, want %v (%+v)", have, tc.want, got.Findings)
			}
			for _, f := range got.Findings {
				if f.File != got.Path || f.Message == "" {
					t.Errorf("finding %+v: want File and Message", f)
				}
			}
		})
	}
}

func TestAcceptanceBeans(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "defs", "*.md"))
	if err != nil || len(files) != 8 {
		t.Fatalf("fixtures: %v, %v", files, err)
	}
	var all []string
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		got := Parse("beans/defs/"+filepath.Base(f), data)
		for _, fi := range got.Findings {
			all = append(all, strings.SplitN(filepath.Base(f), "--", 2)[0]+" "+fi.Code)
		}
		if id, _ := IDFromName(f); got.Beans[0].ID != id {
			t.Errorf("%s: id %q", f, got.Beans[0].ID)
		}
	}
	want := []string{"acme-i9j0 bean-unknown-value", "acme-i9j0 bean-self-link", "acme-k1l2 bean-invalid"}
	if !slices.Equal(all, want) {
		t.Errorf("findings = %v, want %v", all, want)
	}
}

func TestFields(t *testing.T) {
	input := `---
# acme-c3d4
title: Fix the validator's contract
status: todo
type: bug
priority: high
tags: [release, "q4"]
created_at: 2026-11-05T09:00:00Z
updated_at: 2026-11-05T09:00:00Z
parent: acme-a1b2
blocking: [acme-zzzz, acme-zzzz]
blocks: acme-yyyy
blocked_by:
  - acme-e5f6
links:
  - blocks: acme-xxxx
  - related: acme-rrrr
  - parent: acme-other
order: VV
---

` + "`po-validator` claims `validate-content`, not ``double``; see [the skill](../skills/validate-content/SKILL.md),\n" +
		"[the tool](../../tools/po-validator.json#inputs), [web](https://example.com/x.md), ![img](diagram.png), `two words`.\n" +
		"```sh\n`fenced` [f](fenced.md)\n```\n`po-validator` again, [rel](notes/release-plan.md \"title\")\n"
	got := Parse("beans/acme-c3d4--fix.md", []byte(input))
	if len(got.Findings) != 0 {
		t.Fatalf("findings %+v", got.Findings)
	}
	b := got.Beans[0]
	want := record.Bean{
		ID: "acme-c3d4", Title: "Fix the validator's contract", Status: "todo", Type: "bug", Priority: "high",
		Tags: []string{"release", "q4"}, CreatedAt: "2026-11-05T09:00:00Z", UpdatedAt: "2026-11-05T09:00:00Z",
		Parent: "acme-a1b2", ParentLine: 10,
		Blocking: []string{"acme-zzzz", "acme-yyyy", "acme-xxxx"}, BlockingLine: 11,
		BlockedBy: []string{"acme-e5f6"},
	}
	if b.ID != want.ID || b.Title != want.Title || b.Status != want.Status || b.Type != want.Type ||
		b.Priority != want.Priority || !slices.Equal(b.Tags, want.Tags) || b.CreatedAt != want.CreatedAt ||
		b.UpdatedAt != want.UpdatedAt || b.Parent != want.Parent || b.ParentLine != want.ParentLine ||
		!slices.Equal(b.Blocking, want.Blocking) || b.BlockingLine != want.BlockingLine ||
		!slices.Equal(b.BlockedBy, want.BlockedBy) || b.Line != 1 {
		t.Errorf("bean = %+v", b)
	}
	// Each reference keeps the line it is written on (SPEC §4).
	wantRefs := record.RefLinesOf(map[string]map[string]int{"parent": {"acme-a1b2": 10},
		"blocking":   {"acme-zzzz": 11, "acme-yyyy": 12, "acme-xxxx": 16},
		"blocked_by": {"acme-e5f6": 14}})
	if !reflect.DeepEqual(b.Refs, wantRefs) {
		t.Errorf("reference lines = %v, want %v", b.Refs, wantRefs)
	}
	if m := []string{"po-validator", "validate-content", "release-plan"}; !slices.Equal(b.Mentions, m) {
		t.Errorf("mentions = %q, want %q", b.Mentions, m)
	}
}

// TestAliasedFields: tags, a title and relations written as YAML aliases or
// brought in by a merge key are read, not dropped (issue #16.7); a bomb is
// refused as yaml-alias-limit, not as invalid YAML.
func TestAliasedFields(t *testing.T) {
	f := Parse("acme-a1b2--x.md", []byte("---\nx-tags: &tags [release, infra]\nx-base: &base {title: Shared, parent: acme-e5f6}\n<<: *base\nstatus: todo\ntags: *tags\n---\n"))
	if len(f.Findings) != 0 {
		t.Fatalf("findings %+v", f.Findings)
	}
	b := f.Beans[0]
	if !reflect.DeepEqual(b.Tags, []string{"release", "infra"}) || b.Title != "Shared" || b.Parent != "acme-e5f6" {
		t.Errorf("bean %+v", b)
	}
	var bomb strings.Builder
	bomb.WriteString("---\ntitle: T\na0: &a0 [x, x, x, x, x, x, x, x, x, x]\n")
	for i := 1; i <= 6; i++ {
		fmt.Fprintf(&bomb, "a%d: &a%d [%s]\n", i, i, strings.TrimSuffix(strings.Repeat(fmt.Sprintf("*a%d, ", i-1), 10), ", "))
	}
	bomb.WriteString("---\n")
	got := findings(Parse("acme-a1b2--x.md", []byte(bomb.String())).Findings)
	if want := []wantFinding{{"yaml-alias-limit", record.Error, 7}}; !reflect.DeepEqual(got, want) {
		t.Errorf("bomb findings %v, want %v", got, want)
	}
}
