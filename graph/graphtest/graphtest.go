// Package graphtest is the one test suite every store backend must pass
// (as Cayley's graph/graphtest is for its backends): each backend's test
// calls RunSuite with a Harness that opens fresh stores of it and says
// what it keeps. The suite goes through graph.Store, as every user does:
// version counter, atomic apply (readers never see two versions, a write
// failed or cancelled half-way leaves the previous one), checkpoint (equal
// to a full read, a kill while it is written, damaged or stale blocks not
// used), stamps, sources and digests, concurrent writers, and the tally
// records kept per version.
package graphtest

import (
	"context"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/cayleygraph/quad"

	"github.com/skillgraph/skillgraph/graph"
)

// Harness is one backend under test.
type Harness struct {
	// URL returns the URL of a fresh, empty store (cleaned up with t).
	URL func(t *testing.T) string
	// Persistent says a store survives Close and Open.
	Persistent bool
	// Shared says several Stores may open one store at once (as several
	// processes would).
	Shared bool
	// Stamps says the backend keeps stamps; without them Stamps is always
	// empty.
	Stamps bool
	// Checkpoint says the backend keeps a checkpoint; without one it is
	// never current.
	Checkpoint bool
	// FailsWrites says the backend consults graph.Hooks.FailWrite, so a
	// write can be failed (or cancelled) half-way.
	FailsWrites bool
	// EditCheckpoint, for a backend with a checkpoint, edits the raw
	// checkpoint of the closed store at url: the damage a disk or an older
	// skillgraph leaves behind.
	EditCheckpoint func(t *testing.T, url string, edit func(*RawCheckpoint))
	// CheckpointInTransaction says the checkpoint is written in the
	// ingest's own transaction (bbolt), not right after its commit
	// (PostgreSQL): a kill between the two leaves the previous version.
	CheckpointInTransaction bool
	// Slow says every write costs a round trip (a database server): the
	// suite writes smaller graphs.
	Slow bool
}

// RawCheckpoint is a checkpoint as the backend stores it.
type RawCheckpoint struct {
	// Stamp is the version it is stamped with (-1: no stamp).
	Stamp int64
	// Blocks are the encoded blocks by graph label.
	Blocks map[string][]byte
}

// RunSuite runs every test of the suite against h's backend. It must be
// called from a top-level test (a test of the checkpoint re-runs the test
// binary with that test's name).
func RunSuite(t *testing.T, h Harness) {
	if url := killHelperURL(); url != "" {
		t.Run("KillHelper", func(t *testing.T) { killHelper(t, url) })
		return
	}
	if url := os.Getenv(tallyKillEnv); url != "" {
		t.Run("TallyKillHelper", func(t *testing.T) { tallyKillHelper(t, url) })
		return
	}
	for _, tc := range []struct {
		name string
		fn   func(*testing.T, Harness)
	}{
		{"Version", testVersion},
		{"ApplyReplacesExactlyOneGraph", testApplyReplacesOneGraph},
		{"ReopenKeepsData", testReopenKeepsData},
		{"NQuadsRoundTrip", testNQuadsRoundTrip},
		{"ShrinkingGraph", testShrinkingGraph},
		{"LargeGraph", testLargeGraph},
		{"AtomicReadersDuringApply", testReadersDuringApply},
		{"AtomicReadersSeeOneVersion", testReadersSeeOneVersion},
		{"AtomicFailedWrite", testFailedWrite},
		{"AtomicCancelledWrite", testCancelledWrite},
		{"ConcurrentWriters", testConcurrentWriters},
		{"Checkpoint", testCheckpoint},
		{"CheckpointKill", testCheckpointKill},
		{"CorruptCheckpoint", testCorruptCheckpoint},
		{"Stamps", testStamps},
		{"SourcesOf", testSourcesOf},
		{"HasDigest", testHasDigest},
		{"Tallies", testTallies},
		{"TalliesInTransaction", testTalliesInTransaction},
		{"TallyKill", testTallyKill},
		{"TallyMerge", testTallyMerge},
	} {
		t.Run(tc.name, func(t *testing.T) { tc.fn(t, h) })
	}
}

// Open opens url for the length of t.
func Open(t *testing.T, url string) *graph.Store {
	t.Helper()
	return OpenWith(t, url, nil)
}

// OpenWith opens url with hooks for the length of t.
func OpenWith(t *testing.T, url string, h *graph.Hooks) *graph.Store {
	t.Helper()
	s, err := graph.OpenWith(context.Background(), url, h)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// Q is a quad with a plain string object.
func Q(s, p, o, g string) quad.Quad {
	return quad.Quad{Subject: quad.IRI(s), Predicate: quad.IRI(p), Object: quad.String(o), Label: quad.IRI(g)}
}

// MixedQuads has every kind of value the ingest writes and a few it does
// not: typed and language strings, numbers, booleans, blank nodes, a NUL.
func MixedQuads(tag string) []quad.Quad {
	g := quad.IRI("urn:g:" + tag)
	s := quad.IRI("urn:s:" + tag)
	return []quad.Quad{
		{Subject: s, Predicate: quad.IRI("urn:p:str"), Object: quad.String("plain " + tag), Label: g},
		{Subject: s, Predicate: quad.IRI("urn:p:typed"), Object: quad.TypedString{Value: "3", Type: "http://www.w3.org/2001/XMLSchema#integer"}, Label: g},
		{Subject: s, Predicate: quad.IRI("urn:p:lang"), Object: quad.LangString{Value: "hallo", Lang: "de"}, Label: g},
		{Subject: s, Predicate: quad.IRI("urn:p:int"), Object: quad.Int(42), Label: g},
		{Subject: s, Predicate: quad.IRI("urn:p:bool"), Object: quad.Bool(true), Label: g},
		{Subject: quad.BNode("b0"), Predicate: quad.IRI("urn:p:iri"), Object: s, Label: g},
		{Subject: s, Predicate: quad.IRI("urn:p:nul"), Object: quad.String("a\x00b \"q\" <x>"), Label: g},
	}
}

// Versioned is a store content where every quad of every graph names the
// version it is written for, so that a reader can tell a mix of versions.
func Versioned(graphs, perGraph int, v int64) []graph.Change {
	out := make([]graph.Change, graphs)
	for g := range out {
		c := graph.Change{Graph: fmt.Sprintf("urn:g:%d", g)}
		for i := range perGraph {
			c.Quads = append(c.Quads, Q(fmt.Sprintf("urn:s:%d:%d", g, i), "urn:p", fmt.Sprintf("v%d:%d", v, i), ""))
		}
		out[g] = c
	}
	return out
}

// CheckVersioned reads s once and checks that every quad is of the version
// Read announces, and that all of that version's want quads are there.
func CheckVersioned(ctx context.Context, s *graph.Store, want int) (int64, error) {
	var seen []string
	cnt := 0
	v, err := s.Read(ctx, func(x quad.Quad) error {
		if x.Label == quad.IRI(graph.MetaGraph) {
			return nil
		}
		cnt++
		o, _ := x.Object.(quad.String)
		seen = append(seen, string(o))
		return nil
	})
	if err != nil {
		return 0, err
	}
	prefix := fmt.Sprintf("v%d:", v)
	for _, o := range seen {
		if !strings.HasPrefix(o, prefix) {
			return v, fmt.Errorf("version %d served data of another version (%q)", v, o)
		}
	}
	if v > 0 && cnt != want {
		return v, fmt.Errorf("version %d served %d quads, it wrote %d", v, cnt, want)
	}
	return v, nil
}

// ApplyVersioned writes Versioned content of the next version to s.
func ApplyVersioned(t *testing.T, s *graph.Store, graphs, per int) int64 {
	t.Helper()
	ctx := context.Background()
	v, err := s.Version(ctx)
	if err != nil {
		t.Fatal(err)
	}
	got, err := s.Apply(ctx, Versioned(graphs, per, v+1))
	if err != nil {
		t.Fatal(err)
	}
	if got != v+1 {
		t.Fatalf("Apply announced version %d, want %d", got, v+1)
	}
	return got
}

// ReadAll returns the version and the sorted N-Quads (exactly as read,
// the version quad included) a read hands out: through the checkpoint
// when allowed (Read), or from the store's own indexes (ReadStore).
func ReadAll(t *testing.T, s *graph.Store, useCheckpoint bool) (int64, []string) {
	t.Helper()
	read := s.ReadStore
	if useCheckpoint {
		read = s.Read
	}
	var out []string
	v, err := read(context.Background(), func(x quad.Quad) error {
		out = append(out, x.NQuad())
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(out)
	return v, out
}

// SortedNQuads are qs as sorted, normalized N-Quads.
func SortedNQuads(qs []quad.Quad) []string {
	out := make([]string, 0, len(qs))
	for _, x := range qs {
		out = append(out, graph.Normalize(x).NQuad())
	}
	slices.Sort(out)
	return out
}

// WithLabel labels every quad of qs with g.
func WithLabel(qs []quad.Quad, g string) []quad.Quad {
	for i := range qs {
		qs[i].Label = quad.IRI(g)
	}
	return qs
}

func count(t *testing.T, s *graph.Store) int {
	t.Helper()
	n := 0
	if err := s.Each(context.Background(), func(quad.Quad) error { n++; return nil }); err != nil {
		t.Fatal(err)
	}
	return n
}
