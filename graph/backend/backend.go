// Package backend is the boundary between graph.Store and the storage under
// it: the Backend interface every store backend implements, the registry
// backends add themselves to (as Cayley's graph/registry.go does), and what
// backends share — the Change being written, the delta plan of an Apply,
// the checkpoint blocks and the subject registry of backends without a
// label index. A new backend is one package that implements Backend and
// calls Register from its init, blank-imported by graph, and passes the
// shared suite in graph/graphtest.
package backend

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"

	"github.com/cayleygraph/quad"
)

// Backend is one store's storage. graph.Store serialises the calls: a
// write (Apply, PutStamps, RefreshCheckpoint, BeginFirst until its writer
// is closed) holds the store's lock exclusively, reads share it (or hold
// it exclusively when the registration says ExclusiveReads). Other
// processes sharing the storage are the backend's own business (database
// transactions, locks).
type Backend interface {
	// Scan calls fn for every stored quad whose dir is v (every quad when
	// dir is quad.Any), the backend's own bookkeeping included.
	Scan(ctx context.Context, dir quad.Direction, v quad.Value, fn func(quad.Quad) error) error
	// GraphQuads returns every quad labelled with the named graph.
	GraphQuads(ctx context.Context, label string) ([]quad.Quad, error)
	// Read reads every quad of the current graph version (see ReadRequest)
	// and returns that version and whether the checkpoint served it.
	Read(ctx context.Context, r ReadRequest) (v int64, fromCheckpoint bool, err error)
	// Apply replaces each changed graph and bumps the version in one
	// atomic write (see graph.Store.Apply), and returns the new version.
	Apply(ctx context.Context, changes []Change) (int64, error)
	// Close releases the storage.
	Close() error
}

// ReadRequest says how Backend.Read hands out the quads of a version.
type ReadRequest struct {
	// UseCheckpoint allows serving the read from the checkpoint when it
	// is stamped with the current version.
	UseCheckpoint bool
	// Workers bounds the goroutines that decode checkpoint blocks.
	Workers int
	// Blocks receives each checkpoint block's quads (from up to Workers
	// goroutines at once); the version quad is not among them.
	Blocks func(label string, quads []quad.Quad) error
	// Quad receives each quad read from the store itself, the version
	// quad included and the subject registry left out, on the calling
	// goroutine.
	Quad func(quad.Quad) error
}

// Stamper is a Backend that keeps stamps (see graph.Store.Stamps); a
// backend without one keeps none and a re-ingest reads every file.
type Stamper interface {
	// Stamps returns every graph's stamp, by graph label.
	Stamps(ctx context.Context) (map[string][]byte, error)
	// PutStamps records stamps without a new graph version; a nil stamp
	// deletes the graph's.
	PutStamps(ctx context.Context, stamps map[string][]byte) error
}

// Checkpointer is a Backend that keeps a checkpoint: every source graph's
// quads in compact form, stamped with the version they belong to.
type Checkpointer interface {
	// CheckpointCurrent reports whether a Read would be served from the
	// checkpoint: stamped with v (the version the caller just read; a
	// backend shared by several processes reads it again itself), every
	// block verifying.
	CheckpointCurrent(ctx context.Context, v int64) bool
	// RefreshCheckpoint rebuilds the checkpoint from the store when it is
	// not current and reports whether it did; the version stays.
	RefreshCheckpoint(ctx context.Context) (bool, error)
}

// DeltaReader is a Backend that can say which graphs changed since an
// earlier version, from its checkpoint, so a follower (a replica) updates
// its snapshot from them instead of reading every graph again.
type DeltaReader interface {
	// ReadSince reads, in one consistent state, the current version v and,
	// when the checkpoint records what changed after version since (its
	// blocks and deletions carry the version that wrote them), calls fn
	// once per graph written after since with its quads (from up to
	// workers goroutines at once) and once per graph deleted after since
	// with gone true. ok false means it cannot tell (the checkpoint not
	// current, rebuilt after since, or written by a skillgraph that did
	// not record versions): read everything. v == since calls fn never.
	ReadSince(ctx context.Context, since int64, workers int, fn func(label string, quads []quad.Quad, gone bool) error) (v int64, ok bool, err error)
}

// Verifier is a Backend opened with Hooks.VerifyLater: VerifyStore walks
// every page once (the first call runs it, later calls wait for it and
// return its result) and returns ErrCorrupt for damage.
type Verifier interface {
	VerifyStore(ctx context.Context) error
}

// Finder is a Backend with its own lookups for what ingest asks per file;
// without it they are answered through Scan.
type Finder interface {
	// HasDigest reports whether the source graph label is stored with
	// exactly this (non-empty) digest.
	HasDigest(ctx context.Context, label, digest string) (bool, error)
	// SourcesOf lists, in any order, the source graphs stored for one
	// instance document IRI.
	SourcesOf(ctx context.Context, docIRI string) ([]string, error)
}

// FirstWriting is a Backend that can write a first ingest while it is
// still being converted (see graph.FirstWriter).
type FirstWriting interface {
	// BeginFirst returns a FirstWriter when the store is empty (version 0,
	// no quad, no checkpoint block), else nil.
	BeginFirst(ctx context.Context) (FirstWriter, error)
}

// FirstWriter is the backend's half of graph.FirstWriter: graph holds the
// store's lock around it.
type FirstWriter interface {
	// Add plans changes and commits every full step.
	Add(ctx context.Context, changes []Change) error
	// AddPacked is Add for packed changes.
	AddPacked(ctx context.Context, changes []Packed) error
	// Steps is the number of step transactions committed so far.
	Steps() int
	// Commit writes the rest and the version bump to 1, and returns 1.
	Commit(ctx context.Context) (int64, error)
	// Abort drops what is not committed.
	Abort()
}

// Hooks are what tests reach into a backend with; the zero value (or a
// nil *Hooks) changes nothing. Backends that cannot fail half-way
// (memory) or write in one statement batch (PostgreSQL) ignore FailWrite.
type Hooks struct {
	// FailWrite, when set, is consulted before each write of an ingest's
	// transaction: a disk that fills up mid-ingest.
	FailWrite func() error
	// BlockWritten, when set, is called after each checkpoint block is
	// written, before the checkpoint is stamped: the moment a kill leaves
	// a half-written checkpoint behind.
	BlockWritten func()
	// FailRead, when set, is consulted before each quad a Read hands
	// out, with the number handed out before it: a page found damaged
	// midway through a read.
	FailRead func(n int) error
	// VerifyPages makes the open of an existing store read every page of
	// it first (bbolt: every key of every bucket, in order), so damage
	// under intact page headers is ErrCorrupt before anything is served.
	// Not only a test hook: graph.OpenVerified sets it for the commands
	// that only read a store they did not just write.
	VerifyPages bool
	// VerifyLater is VerifyPages without the walk on open (bbolt): the
	// checkpoint a warm start reads proves itself whole (its manifest), and
	// everything else waits for the walk, which Verifier.VerifyStore runs
	// once (a replica starts it in the background once it is ready). A
	// store opened so that is never read unverified, only read earlier.
	VerifyLater bool
	// StepDeltas, when positive, replaces the number of deltas per step
	// transaction of a first ingest (bbolt), so a test takes steps.
	StepDeltas int
}

// Fail calls FailWrite, if set.
func (h *Hooks) Fail() error {
	if h == nil || h.FailWrite == nil {
		return nil
	}
	return h.FailWrite()
}

// Written calls BlockWritten, if set.
func (h *Hooks) Written() {
	if h != nil && h.BlockWritten != nil {
		h.BlockWritten()
	}
}

// Opener opens (creating if needed) the storage named by url, whose part
// after the scheme is arg; h is the store's hooks (never nil).
type Opener func(ctx context.Context, url, arg string, h *Hooks) (Backend, error)

// Registration is one backend as it registers itself.
type Registration struct {
	// Name is the URL scheme ("bbolt" in "bbolt:PATH"); Aliases are more.
	Name    string
	Aliases []string
	// WholeURL are URL prefixes opened with the whole URL as arg
	// ("postgres://…" is "postgres:postgres://…").
	WholeURL []string
	// Usage is how the help and the unknown-backend error name it.
	Usage string
	// Open opens a store.
	Open Opener
	// ExclusiveReads says reads must hold the store's lock exclusively
	// (memstore has no locking of its own and writes caches on reads).
	ExclusiveReads bool
	// Fragile says a damaged store can make reads panic or fault (bbolt):
	// graph recovers, marks the store broken and returns ErrCorrupt.
	Fragile bool
}

var (
	regMu   sync.RWMutex
	byName  = map[string]*Registration{}
	ordered []*Registration
)

// Register adds a backend; it panics on a name registered twice (a
// programming error, found at start).
func Register(r Registration) {
	regMu.Lock()
	defer regMu.Unlock()
	if r.Open == nil {
		panic("backend: Register " + r.Name + " without Open")
	}
	reg := r
	names := append([]string{r.Name}, r.Aliases...)
	for _, n := range names {
		if _, dup := byName[n]; dup {
			panic("backend: " + n + " registered twice")
		}
	}
	for _, n := range names {
		byName[n] = &reg
	}
	ordered = append(ordered, &reg)
	// By name: init order is not the reader's to guess.
	slices.SortFunc(ordered, func(a, b *Registration) int { return strings.Compare(a.Name, b.Name) })
}

// Lookup finds the backend of a store URL and the argument it opens:
// "kind:arg", or a URL with one of a backend's WholeURL prefixes.
func Lookup(url string) (*Registration, string, error) {
	regMu.RLock()
	defer regMu.RUnlock()
	for _, r := range ordered {
		for _, p := range r.WholeURL {
			if strings.HasPrefix(url, p) {
				return r, url, nil
			}
		}
	}
	kind, arg, _ := strings.Cut(url, ":")
	if r, ok := byName[kind]; ok {
		return r, arg, nil
	}
	return nil, "", fmt.Errorf("store %q: unknown backend %q (want %s)", url, kind, usage())
}

// usage lists the registered backends' Usage by name: "a, b or c".
func usage() string {
	var names []string
	for _, r := range ordered {
		names = append(names, r.Usage)
	}
	if len(names) < 2 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
}

// Names are the registered backends' names, sorted.
func Names() []string {
	regMu.RLock()
	defer regMu.RUnlock()
	return slices.Sorted(maps.Keys(byName))
}
