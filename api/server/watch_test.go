package server_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/skillgraph/skillgraph/api/server"
	"github.com/skillgraph/skillgraph/api/server/servertest"
	"github.com/skillgraph/skillgraph/graph"
	"github.com/skillgraph/skillgraph/graph/ingest"
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
	// rewrites a read file every 10 ms, far inside the debounce
	defer rewriteEvery(filepath.Join(e.root, "skills/core/open-change.md"), 10*time.Millisecond, "Rewrite")()
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

// TestWatchRetriesAFailedRound: the changed paths of a re-ingest that
// fails (the store cannot be written) are kept and ingested again with
// backoff until a round commits, without another edit of theirs; while
// they wait Readiness and the lagging gauge say the answers lag the files
// (issue 28.5: the round was dropped for good and /readyz said ready and
// durable).
func TestWatchRetriesAFailedRound(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	root := copyTree(t, testCorpus)
	hooks := &graph.Hooks{}
	st, err := graph.OpenWith(ctx, "bbolt:"+filepath.Join(t.TempDir(), "g.db"), hooks)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	m := server.NewMetrics()
	svc := server.NewService(st, []string{root}, ingest.Options{}, nil, m)
	if _, err := svc.Ingest(ctx); err != nil {
		t.Fatal(err)
	}
	var failing atomic.Bool
	failing.Store(true)
	hooks.FailWrite = func() error {
		if failing.Load() {
			return errors.New("no space left on device (injected)")
		}
		return nil
	}
	done, err := svc.Watch(ctx, server.WatchOptions{RetryMin: 50 * time.Millisecond, RetryMax: 200 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer func() { cancel(); <-done }()
	p := filepath.Join(root, "skills/core/review.md")
	b, _ := os.ReadFile(p)
	if err := os.WriteFile(p, []byte(strings.Replace(string(b), "Review a change.", "Edited while the disk was full.", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	wctx, wcancel := context.WithTimeout(ctx, 60*time.Second)
	defer wcancel()
	if err := svc.WaitFor(wctx, func(_ *queries.Snapshot, r server.Readiness) bool { return r.Lagging > 0 }); err != nil {
		t.Fatalf("a failed round is not said to lag: %v", err)
	}
	r := svc.Readiness()
	if !strings.Contains(r.Reason, "lag") || !strings.Contains(r.Reason, "no space left") {
		t.Fatalf("readiness while lagging: %+v", r)
	}
	if g := gaugeValue(t, m, "skillgraph_watch_lagging_paths"); g < 1 {
		t.Fatalf("skillgraph_watch_lagging_paths = %v while lagging", g)
	}
	if sk := svc.Snapshot().Skill("review"); sk == nil || sk.Description == "Edited while the disk was full." {
		t.Fatal("a failed round's edit is served")
	}
	failing.Store(false) // the disk has room again; no further edit
	waitSkill(t, svc, func(s *queries.Snapshot) bool {
		sk := s.Skill("review")
		return sk != nil && sk.Description == "Edited while the disk was full."
	})
	if err := svc.WaitFor(wctx, func(_ *queries.Snapshot, r server.Readiness) bool { return r.Lagging == 0 }); err != nil {
		t.Fatalf("still lagging after the retry committed: %+v", svc.Readiness())
	}
	if g := gaugeValue(t, m, "skillgraph_watch_lagging_paths"); g != 0 {
		t.Fatalf("skillgraph_watch_lagging_paths = %v after the retry committed", g)
	}
}

// gaugeValue reads one gauge of m's registry.
func gaugeValue(t *testing.T, m *server.Metrics, name string) float64 {
	t.Helper()
	mfs, err := m.Registry.Gather()
	if err != nil {
		t.Fatal(err)
	}
	for _, mf := range mfs {
		if mf.GetName() == name && len(mf.GetMetric()) > 0 {
			return mf.GetMetric()[0].GetGauge().GetValue()
		}
	}
	t.Fatalf("no metric %s", name)
	return 0
}

// TestWatchedEditDoesNotWaitForAFullIngest: an edit seen while a full
// ingest of the corpus prepares (the reconcile of a warm `serve --corpus
// --watch` start) is committed and served first; the full ingest then
// prepares again and ends (issue #27: the first edit after a warm start
// waited for the whole reconcile, 3.45× a steady edit). The full ingest is
// held in its prepare until the watch round interrupts it, so without the
// yield the edit is never served while it is held.
func TestWatchedEditDoesNotWaitForAFullIngest(t *testing.T) {
	e := start(t, "", nil)
	var calls atomic.Int32
	var servedBeforeRetry atomic.Bool
	held := make(chan struct{})
	edited := func(s *queries.Snapshot) bool {
		sk := s.Skill("review")
		return sk != nil && sk.Description == "Watched edit."
	}
	server.SetPreparing(e.svc, func(ctx context.Context) {
		if calls.Add(1) > 1 {
			// The second attempt runs through, once the round it
			// yielded to has served the edit.
			servedBeforeRetry.Store(edited(e.svc.Snapshot()))
			return
		}
		close(held)
		select {
		case <-ctx.Done(): // interrupted by the watch round
		case <-time.After(30 * time.Second): // never interrupted: the test fails below
		}
	})
	ctx, cancel := context.WithCancel(context.Background())
	done, err := e.svc.Watch(ctx, server.WatchOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer func() { cancel(); <-done }()
	full := make(chan error, 1)
	go func() {
		_, err := e.svc.Ingest(ctx)
		full <- err
	}()
	<-held
	before := e.svc.Snapshot().Version
	p := filepath.Join(e.root, "skills/core/review.md")
	b, _ := os.ReadFile(p)
	if err := os.WriteFile(p, []byte(strings.Replace(string(b), "Review a change.", "Watched edit.", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	wctx, wcancel := context.WithTimeout(ctx, 10*time.Second)
	defer wcancel()
	if err := e.svc.WaitFor(wctx, func(s *queries.Snapshot, _ server.Readiness) bool {
		return s != nil && edited(s)
	}); err != nil {
		t.Fatalf("the edit was not served while the full ingest prepared (it waited for it): %v", err)
	}
	if err := <-full; err != nil {
		t.Fatalf("the full ingest, after yielding: %v", err)
	}
	if n := calls.Load(); n != 2 || !servedBeforeRetry.Load() {
		t.Fatalf("the full ingest prepared %d times, want 2 (once interrupted, once to its end after the edit was served: %v)", n, servedBeforeRetry.Load())
	}
	s := e.svc.Snapshot()
	if !edited(s) || s.Version != before+1 {
		t.Fatalf("after the full ingest: version %d (want %d: the edit's, nothing else changed), edit served %v", s.Version, before+1, edited(s))
	}
}

// TestFullIngestYieldsAtMostMaxYields: edits made faster than a full
// ingest prepares interrupt it a bounded number of times, then it holds
// its turn and ends.
func TestFullIngestYieldsAtMostMaxYields(t *testing.T) {
	e := start(t, "", nil)
	var calls atomic.Int32
	server.SetPreparing(e.svc, func(ctx context.Context) {
		calls.Add(1)
		select {
		case <-ctx.Done():
		case <-time.After(300 * time.Millisecond): // long enough for the next edit to interrupt
		}
	})
	ctx, cancel := context.WithCancel(context.Background())
	done, err := e.svc.Watch(ctx, server.WatchOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer func() { cancel(); <-done }()
	// edits every 50 ms, far more often than the full ingest prepares
	defer rewriteEvery(filepath.Join(e.root, "skills/core/open-change.md"), 50*time.Millisecond, "Edit")()
	full := make(chan error, 1)
	go func() {
		_, err := e.svc.Ingest(ctx)
		full <- err
	}()
	select {
	case err := <-full:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("the full ingest never ended while edits went on")
	}
	if n := calls.Load(); n > server.MaxYields+1 {
		t.Fatalf("the full ingest prepared %d times, want at most %d", n, server.MaxYields+1)
	}
}

// rewriteEvery rewrites the file at p every interval, its text plus a
// numbered line ("<word> <n>."), until the returned stop is called; stop
// returns once the writer has.
func rewriteEvery(p string, interval time.Duration, word string) (stop func()) {
	done, stopped := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(stopped)
		orig, _ := os.ReadFile(p)
		tick := time.NewTicker(interval)
		defer tick.Stop()
		for i := 0; ; i++ {
			select {
			case <-done:
				return
			case <-tick.C:
				_ = os.WriteFile(p, fmt.Appendf(append([]byte(nil), orig...), "\n%s %d.\n", word, i), 0o644)
			}
		}
	}()
	return func() { close(done); <-stopped }
}
