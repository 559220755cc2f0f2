package queries

import (
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/skillgraph/skillgraph/ingest/record"
)

// TestExampleMarketplace: the repository's example marketplace is read as
// the hosts read it: its plugins (one its marketplace entry alone
// defines), their components joined to them, the agent's skill, the
// declared servers joined to their snapshot, and commands, agents and
// hooks as reachability roots.
func TestExampleMarketplace(t *testing.T) {
	_, s := ingestBuild(t, filepath.Join("..", "examples", "marketplace"))
	var names []string
	for _, p := range s.Plugins {
		names = append(names, p.Name)
	}
	if !slices.Equal(names, []string{"Odd_One", "lsp-go", "review"}) {
		t.Fatalf("plugins %v", names)
	}
	review := s.Plugins[2]
	if len(review.Skills) != 1 || len(review.Commands) != 1 || len(review.Agents) != 2 || len(review.Hooks) != 3 || len(review.Servers) != 2 || !review.Listed {
		t.Fatalf("review: %d skills, %d commands, %d agents, %d hooks, %d servers, listed %v",
			len(review.Skills), len(review.Commands), len(review.Agents), len(review.Hooks), len(review.Servers), review.Listed)
	}
	if sk := review.Skills[0]; sk.Plugin != review || !slices.Equal(sk.Resources, []string{"plugins/review/skills/review-pr/references/checklist.md"}) {
		t.Errorf("skill %s: plugin %v, resources %v", sk.ID, sk.Plugin, sk.Resources)
	}
	// Its SKILL.md's findings (subject: the skill's id) are the skill's.
	var codes []string
	for _, f := range review.Skills[0].Findings {
		codes = append(codes, f.Code)
	}
	if !slices.Equal(codes, []string{"skill-metadata-invalid", "skill-resource-missing"}) {
		t.Errorf("review-pr's findings %v", codes)
	}
	if s.Plugins[0].Listed || !s.Plugins[1].Listed || s.Plugins[1].Manifest != "" {
		t.Error("Odd_One is unlisted; lsp-go is listed and has no manifest")
	}
	var triager *Agent
	for _, a := range s.Agents {
		if a.Name == "triager" {
			triager = a
		}
	}
	if triager == nil || len(triager.Skills) != 1 || triager.Skills[0].ID != "review-pr" {
		t.Fatalf("triager preloads %+v", triager)
	}
	for _, m := range s.McpServers {
		if (m.Name == "github") != (m.Snapshot != nil) {
			t.Errorf("server %s: snapshot %v", m.Name, m.Snapshot)
		}
	}
	for _, key := range []string{"command:/review:review", triager.Key(), s.Hooks[0].Key()} {
		if !slices.Contains(s.Reach.Roots, key) {
			t.Errorf("%s is not a root: %v", key, s.Reach.Roots)
		}
	}
	// The agent reaches the skill it preloads and the MCP listing it names.
	if w := triager.Skills[0].Witness; len(w) != 2 || w[0] != triager.Key() {
		t.Errorf("review-pr's witness %v, want it from %s", w, triager.Key())
	}
	if !s.Reach.hasEdge(triager.Key(), "mcp:github/list_prs") {
		t.Error("the triager reaches no mcp:github/list_prs")
	}
	if len(review.Findings) == 0 {
		t.Error("review has no findings of its files")
	}
}

// fixtureCounts reads "N skills …, N plugins, …" of a FIXTURE.md's
// expected reading.
func fixtureCounts(t *testing.T, root string) map[string]int {
	data, err := os.ReadFile(filepath.Join(root, "FIXTURE.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, exp, _ := strings.Cut(string(data), "Expected reading")
	out := map[string]int{}
	for _, m := range regexp.MustCompile(`(\d+) (skills|plugins?|commands|agents|MCP servers|hook handlers?)`).FindAllStringSubmatch(exp, -1) {
		n, _ := strconv.Atoi(m[1])
		out[strings.TrimSuffix(strings.TrimSuffix(m[2], "s"), "s")] = n
	}
	return out
}

// TestRealWorldHostLayouts reads the two agent-host repositories of
// ../shared/realworld (data-only copies; their FIXTURE.md gives the counts
// an independent reader of the hosts' conventions took): the skills are
// exactly the SKILL.md files, the commands and agents exactly their files,
// the plugins, MCP servers and hook handlers as counted, and no error sits
// on a file that is no component.
func TestRealWorldHostLayouts(t *testing.T) {
	for _, name := range []string{"claude-plugins-official", "superpowers"} {
		t.Run(name, func(t *testing.T) {
			root := filepath.Join("..", "..", "shared", "realworld", name)
			if _, err := os.Stat(root); err != nil {
				t.Skipf("%s not present (the realworld corpora live beside the project, not in it)", root)
			}
			want := fixtureCounts(t, root)
			_, s := ingestBuild(t, root)
			var skillFiles, commandFiles, agentFiles []string
			_ = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
				rel, _ := filepath.Rel(root, p)
				rel = filepath.ToSlash(rel)
				switch {
				case err != nil || d.IsDir():
				case d.Name() == "SKILL.md":
					skillFiles = append(skillFiles, rel)
				case strings.Contains(rel, "/skills/"):
				case strings.HasSuffix(rel, ".md") && path.Base(path.Dir(rel)) == "commands" && d.Name() != "README.md":
					commandFiles = append(commandFiles, rel)
				case strings.HasSuffix(rel, ".md") && path.Base(path.Dir(rel)) == "agents":
					agentFiles = append(agentFiles, rel)
				}
				return nil
			})
			sources := func(n int, src func(int) *Source) []string {
				var out []string
				for i := 0; i < n; i++ {
					out = append(out, fileOf(src(i)))
				}
				slices.Sort(out)
				return out
			}
			slices.Sort(skillFiles)
			if got := sources(len(s.Skills), func(i int) *Source { return s.Skills[i].Source }); !slices.Equal(got, skillFiles) || len(got) != want["skill"] {
				t.Errorf("skills read from %d files, want the %d SKILL.md (fixture: %d)", len(got), len(skillFiles), want["skill"])
			}
			if got := sources(len(s.Commands), func(i int) *Source { return s.Commands[i].Source }); !slices.Equal(got, commandFiles) {
				t.Errorf("commands %v\nwant %v", got, commandFiles)
			}
			if got := sources(len(s.Agents), func(i int) *Source { return s.Agents[i].Source }); !slices.Equal(got, agentFiles) {
				t.Errorf("agents %v\nwant %v", got, agentFiles)
			}
			for what, got := range map[string]int{"plugin": len(s.Plugins), "MCP server": len(s.McpServers), "hook handler": len(s.Hooks),
				"command": len(s.Commands), "agent": len(s.Agents)} {
				if n, ok := want[what]; ok && got != n {
					t.Errorf("%d %ss, the fixture counts %d", got, what, n)
				}
			}
			components := map[string]bool{}
			for _, src := range s.Sources {
				components[src.Path] = src.Parser != "" && src.Parser != "declaration"
			}
			for _, f := range s.Findings {
				if f.Severity == record.Error && !components[f.File] {
					t.Errorf("error on a file that is no component: %s:%d %s %s", f.File, f.Line, f.Code, f.Message)
				}
			}
		})
	}
}
