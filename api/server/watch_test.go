package server_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/skillgraph/skillgraph/api/server"
	"github.com/skillgraph/skillgraph/api/server/servertest"
	"github.com/skillgraph/skillgraph/queries"
)

// waitSkill waits, on the service's change events, until the snapshot
// served satisfies ok; the deadline only guards against a hang.
func waitSkill(t *testing.T, svc *server.Service, ok func(*queries.Snapshot) bool) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	if err := svc.WaitFor(ctx, func(s *queries.Snapshot, _ server.Readiness) bool { return s != nil && ok(s) }); err != nil {
		t.Fatalf("the edit was never served: %v", err)
	}
}

// TestWatchServesEdits: Watch returns once it is registered, so an edit
// made right after it is served, without sleeping first.
func TestWatchServesEdits(t *testing.T) {
	e := start(t, "", nil)
	ctx, cancel := context.WithCancel(context.Background())
	done, err := e.svc.Watch(ctx, server.WatchOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer func() { cancel(); <-done }()
	p := filepath.Join(e.root, "skills/core/review.md")
	b, _ := os.ReadFile(p)
	if err := os.WriteFile(p, []byte(strings.Replace(string(b), "Review a change.", "Watched edit.", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	waitSkill(t, e.svc, func(s *queries.Snapshot) bool {
		sk := s.Skill("review")
		return sk != nil && sk.Description == "Watched edit."
	})
	_, r, _ := e.post(t, `{ skill(id: "review") { description } }`, nil)
	if d := r.Data["skill"].(map[string]any)["description"]; d != "Watched edit." {
		t.Fatalf("GraphQL serves %q", d)
	}
}

// TestWatchIsNotStarvedByARewrittenFile: a file rewritten more often than
// the debounce no longer postpones every ingest; a new skill is served
// while the rewriting goes on (issue #16.7: it waited until the rewriting
// stopped).
func TestWatchIsNotStarvedByARewrittenFile(t *testing.T) {
	e := start(t, "", nil)
	ctx, cancel := context.WithCancel(context.Background())
	done, err := e.svc.Watch(ctx, server.WatchOptions{Debounce: time.Second, MaxWait: 300 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer func() { cancel(); <-done }()
	stop := make(chan struct{})
	rewriter := make(chan struct{})
	go func() { // rewrites a read file every 10 ms, far inside the debounce
		defer close(rewriter)
		p := filepath.Join(e.root, "skills/core/open-change.md")
		orig, _ := os.ReadFile(p)
		tick := time.NewTicker(10 * time.Millisecond)
		defer tick.Stop()
		for i := 0; ; i++ {
			select {
			case <-stop:
				return
			case <-tick.C:
				_ = os.WriteFile(p, fmt.Appendf(append([]byte(nil), orig...), "\nRewrite %d.\n", i), 0o644)
			}
		}
	}()
	defer func() { close(stop); <-rewriter }()
	ship := "---\nname: ship\ndescription: Ship a reviewed change.\n---\n\n# Ship\n"
	if err := os.WriteFile(filepath.Join(e.root, "skills/core/ship.md"), []byte(ship), 0o644); err != nil {
		t.Fatal(err)
	}
	waitSkill(t, e.svc, func(s *queries.Snapshot) bool { return s.Skill("ship") != nil })
}

// TestWatchHostLayout: under --watch, a repository laid out for agent
// hosts (SPEC §1.3) serves a new SKILL.md as a skill of its plugin, a new
// file beside it as that skill's resource, and a new slash command.
func TestWatchHostLayout(t *testing.T) {
	srv := servertest.Start(t, servertest.Options{Corpus: servertest.CopyTree(t, "../../examples/marketplace"), Metrics: server.NewMetrics()})
	ctx, cancel := context.WithCancel(context.Background())
	done, err := srv.Service.Watch(ctx, server.WatchOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer func() { cancel(); <-done }()
	write := func(rel, body string) {
		t.Helper()
		p := filepath.Join(srv.Corpus, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	skillOf := func(s *queries.Snapshot) *queries.Skill { return s.Skill("review/triage-notes") }
	write("plugins/review/skills/triage-notes/SKILL.md", "---\nname: triage-notes\ndescription: Notes on triage\n---\n# Triage notes\n")
	waitSkill(t, srv.Service, func(s *queries.Snapshot) bool {
		sk := skillOf(s)
		return sk != nil && sk.Plugin != nil && sk.Plugin.Name == "review"
	})
	write("plugins/review/skills/triage-notes/references/more.md", "# more\n")
	waitSkill(t, srv.Service, func(s *queries.Snapshot) bool {
		sk := skillOf(s)
		return sk != nil && len(sk.Resources) == 1 && sk.Resources[0] == "plugins/review/skills/triage-notes/references/more.md"
	})
	write("plugins/review/commands/triage.md", "---\ndescription: Triage\n---\n")
	waitSkill(t, srv.Service, func(s *queries.Snapshot) bool { return len(s.Commands) == 2 })
}
