package skill

import (
	"fmt"
	"slices"
	"testing"
)

func TestProseCommands(t *testing.T) {
	cases := []struct {
		name string
		body []string // after a 4-line front matter and "# T" (line 5), from line 6
		want []string // program@line text
	}{
		{"code span", []string{"Run `gh pr create --fill`."}, []string{"gh@6 gh pr create --fill"}},
		{"prompt in span", []string{"`$ beans update x --status done`"}, []string{"beans@6 beans update x --status done"}},
		{"plain line", []string{"Then gh pr merge it, and move on."}, []string{"gh@6 gh pr merge it"}},
		{"plain curl needs a URL", []string{"curl https://x.test/a then.", "curl is installed."}, []string{"curl@6 curl https://x.test/a then"}},
		{"plain npx", []string{"Use npx @scope/tool to check."}, []string{"npx@6 npx @scope/tool to check"}},
		{"English after a CLI", []string{"kubectl is installed; the git commit SHA changed; make sure."}, nil},
		{"one-word span names, does not invoke", []string{"The `gh` binary and `beans`."}, nil},
		{"unknown program kept for the analysis", []string{"Run `zork it`."}, []string{"zork@6 zork it"}},
		{"fenced block is not prose", []string{"```text", "gh pr create", "```", "after"}, nil},
		{"shell block is not prose", []string{"```sh", "gh pr create", "```"}, nil},
		{"allow marker", []string{"<!-- skillgraph: allow gh, beans -->", "`gh pr list` and `beans list` and `kubectl get pods`"}, []string{"kubectl@7 kubectl get pods"}},
		{"double backtick span", []string{"``gh api repos/`x` ``"}, []string{"gh@6 gh api repos/`x`"}},
		{"path is no program", []string{"`./scripts/x.sh --all` and `Foo bar`"}, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			lines := append([]string{"---", "name: a", "description: d", "---", "# T"}, c.body...)
			f := Parse("skills/core/a.md", md(lines...), Options{})
			var got []string
			for _, cm := range only(t, f).Commands {
				got = append(got, fmt.Sprintf("%s@%d %s", cm.Program, cm.Line, cm.Text))
			}
			if !slices.Equal(got, c.want) {
				t.Errorf("commands %q, want %q", got, c.want)
			}
		})
	}
}
