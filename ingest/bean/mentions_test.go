package bean

import (
	"slices"
	"strings"
	"testing"
	"time"
)

func TestMentions(t *testing.T) {
	tests := []struct {
		body string
		want []string
	}{
		{"`a` and `b` and `a`", []string{"a", "b"}},
		{"``double`` `single`", []string{"single"}},
		{"`unclosed and `closed`", nil},
		{"`a`` b`", nil},
		{"`two words` `--flag` `x-y_z.v1` `mcp:github/list_issues`", []string{"x-y_z.v1", "mcp:github/list_issues"}},
		{"```\n`in-fence` [f](in-fence.md)\n```\n`after`", []string{"after"}},
		{"~~~~ go\n`x`\n~~~\n`still-in`\n~~~~\n`out`", []string{"out"}},
		{"[a](../skills/foo/SKILL.md) [b](tools/bar.json#x) [c](c.md?q=1) [d](dir/)", []string{"foo", "bar", "c", "dir"}},
		{"[w](https://x.org/a.md) [m](mailto:a@b) [h](#top) [abs](/etc/passwd) ![i](pic.png)", nil},
		{"[t](notes/plan.md \"Title\")", []string{"plan"}},
		{"`[n](x.md)`", nil},
	}
	for _, tc := range tests {
		if got := Mentions(tc.body); !slices.Equal(got, tc.want) {
			t.Errorf("Mentions(%q) = %q, want %q", tc.body, got, tc.want)
		}
	}
}

func TestMentionsHostile(t *testing.T) {
	var b strings.Builder
	for n := 1; n < 2500; n++ {
		b.WriteString(strings.Repeat("`", n))
		b.WriteString("x")
	}
	b.WriteString(strings.Repeat("[", 100000))
	b.WriteString(strings.Repeat("](", 100000))
	start := time.Now()
	Mentions(b.String())
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("Mentions took %v on a hostile line", d)
	}
}
