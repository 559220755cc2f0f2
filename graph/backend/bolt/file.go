package bolt

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"os"
	"path/filepath"
	"runtime/debug"
	"time"
	"unsafe"

	"github.com/cayleygraph/cayley/graph"
	ckv "github.com/cayleygraph/cayley/graph/kv"
	hkv "github.com/hidal-go/hidalgo/kv"
	hbolt "github.com/hidal-go/hidalgo/kv/bbolt"
	bolt "go.etcd.io/bbolt"

	"github.com/skillgraph/skillgraph/graph/backend"
)

// boltFile is the database file inside a bbolt store directory (Cayley's
// layout: the store URL names a directory).
const boltFile = "indexes.bolt"

// openBolt opens (creating if needed) the bbolt store in dir through our own
// KV wrapper, so that one ingest is one bbolt transaction (see txKV). The
// file is checked before bbolt maps it: bbolt trusts its pages and panics
// or faults on a damaged file.
func openBolt(dir string, h *backend.Hooks) (graph.QuadStore, *txKV, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, nil, err
	}
	path := filepath.Join(dir, boltFile)
	if err := checkRegular(path); err != nil {
		return nil, nil, err
	}
	if err := checkNotLocked(dir); err != nil {
		return nil, nil, err
	}
	// A late-verified open (VerifyLater) leaves the page headers to the
	// walk too: reading them is a pass over the whole file (at 100k skills
	// 1–2 CPU-s of the start), and every read before the walk is
	// protected (a page that faults or panics is ErrCorrupt, see Protect).
	_, statErr0 := os.Stat(path)
	late := statErr0 == nil && h.VerifyLater && !h.VerifyPages
	if err := checkBoltFile(path, !late); err != nil {
		return nil, nil, err
	}
	_, statErr := os.Stat(path)
	existing := statErr == nil
	var (
		qs  graph.QuadStore
		kv  *txKV
		err error
	)
	perr := backend.Protect(func() error {
		// The lock was free a moment ago; the timeout only covers a race.
		db, err := bolt.Open(path, 0o644, &bolt.Options{Timeout: 2 * time.Second})
		if err != nil {
			if errors.Is(err, bolt.ErrTimeout) {
				return fmt.Errorf("%w (%s)", ErrStoreBusy, dir)
			}
			if errors.Is(err, bolt.ErrInvalid) || errors.Is(err, bolt.ErrChecksum) || errors.Is(err, bolt.ErrVersionMismatch) {
				return backend.Corruptf("%s: %v", path, err)
			}
			return err
		}
		if existing && h.VerifyPages {
			if err := checkPages(context.Background(), db); err != nil {
				db.Close()
				return backend.Corruptf("%s: %v", path, err)
			}
		}
		kv = &txKV{db: hbolt.New(db), bolt: db, hooks: h}
		// An existing store opened unwalked (VerifyLater) is never
		// initialised: Init writes Cayley's buckets afresh when it cannot
		// find them, which on a damaged file replaces the damaged page
		// before the walk could see it.
		late := existing && h.VerifyLater && !h.VerifyPages
		if !late {
			if err := ckv.Init(kv, kvOptions); err != nil && !errors.Is(err, graph.ErrDatabaseExists) {
				db.Close()
				return fmt.Errorf("init: %w", err)
			}
		}
		qs, err = ckv.New(kv, kvOptions)
		if late && err != nil {
			// bbolt opened it, Cayley cannot read its own buckets.
			db.Close()
			return backend.Corruptf("%s: %v", path, err)
		}
		if err != nil {
			db.Close()
			return fmt.Errorf("open: %w", err)
		}
		return nil
	})
	if perr != nil {
		return nil, nil, perr
	}
	return qs, kv, err
}

// checkRegular fails unless path is absent or a regular file (a symbolic
// link to one is): opening a FIFO waits for a writer that never comes, and
// a device or socket is no store (issue 28.6: every command hung on a FIFO
// and ignored SIGTERM). It looks with stat, which never blocks.
func checkRegular(path string) error {
	info, err := os.Stat(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil // a new store
	}
	if err != nil {
		return err
	}
	if !info.Mode().IsRegular() {
		return fmt.Errorf("%w: %s is not a regular file (%s)", ErrNotStore, path, info.Mode().Type())
	}
	return nil
}

// bbolt's meta page layout (go.etcd.io/bbolt, file format version 2): a
// 16-byte page header, then magic, version, page size, flags, the root
// bucket (root page, sequence), the freelist page, the high-water page id,
// the transaction id and an FNV-64a checksum of the preceding 56 bytes.
const (
	boltMagic       = 0xED0CDAED
	boltVersion     = 2
	boltMetaFlag    = 0x04
	boltPageHeader  = 16
	boltMetaSumSpan = 56
)

type boltMeta struct {
	pageSize uint32
	root     uint64 // the root bucket's page
	freelist uint64 // the freelist's page
	pgid     uint64 // pages in use: the file must hold at least this many
	txid     uint64
}

// checkBoltFile validates both meta pages and the file length before bbolt
// opens the file. bbolt silently falls back to the other meta page when one
// is invalid (rolling the store back one transaction, so one ingest, without
// a word) and maps a truncated file without checking its length (a fault on
// the first page past the end). skillgraph writes every meta page whole, so
// either is damage from outside and is reported, never papered over.
//
// With headers false, every page header is left unread (the meta pages,
// the length and the freelist, which bbolt reads as it opens, are still
// checked).
func checkBoltFile(path string, headers bool) error {
	f, err := os.Open(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil // a new store
	}
	if err != nil {
		return err
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return err
	}
	if info.Size() == 0 {
		// bbolt would take it for a new store and write one over it
		// (issue 28.8: `query` answered version 0 and rewrote the file, a
		// replica served version 0). bbolt writes a new file's first pages
		// right after creating it, so an empty file is someone else's (or
		// a kill in that instant): said, never written over.
		return fmt.Errorf("%w: %s is empty (delete it to start a new store)", ErrNotStore, path)
	}
	head := make([]byte, 2*64*1024) // two meta pages of the largest page size
	n, err := io.ReadFull(f, head)
	if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) {
		return err
	}
	head = head[:n]
	m0, err0 := parseBoltMeta(head, 0)
	if err0 != nil {
		return backend.Corruptf("%s: meta page 0: %v", path, err0)
	}
	m1, err1 := parseBoltMeta(head, int(m0.pageSize))
	if err1 != nil {
		return backend.Corruptf("%s: meta page 1: %v", path, err1)
	}
	if m1.pageSize != m0.pageSize {
		return backend.Corruptf("%s: the meta pages disagree on the page size (%d, %d)", path, m0.pageSize, m1.pageSize)
	}
	m := m0
	if m1.txid > m0.txid {
		m = m1
	}
	if need := int64(m.pgid) * int64(m.pageSize); info.Size() < need {
		return backend.Corruptf("%s: the file is truncated: %d bytes, its meta page needs %d", path, info.Size(), need)
	}
	if err := checkBoltPages(f, m, headers); err != nil {
		return backend.Corruptf("%s: %v", path, err)
	}
	return nil
}

// checkPages walks every bucket of the file with bbolt's cursors before
// anything else reads it, when the open asks (backend.Hooks.VerifyPages): every key of every leaf page, in every nested
// bucket, must come after the one before it. checkBoltPages sees only page
// headers; a page body overwritten under an intact header (issue 28.7:
// flipped bytes served an 87 KB "complete" export of a 12 MB one, and a
// replica stayed up unready for good) shows here as keys out of order, as
// a walk that never ends (bounded by the most keys the file can hold), or
// as a panic or fault on an element that points outside its page, which
// Protect (the caller runs it inside) turns into ErrCorrupt. bbolt's own
// tx.Check checks the same orders but on a goroutine of its own, where
// such a panic would end the process. It reads every page once; the cost
// at 10k skills is in docs/security.md.
//
// ctx stops the walk (checked every few thousand keys): a walk in the
// background must not hold a store's close up.
func checkPages(ctx context.Context, db *bolt.DB) error {
	return db.View(func(tx *bolt.Tx) error {
		// Each element of a page takes at least 16 bytes.
		budget := tx.Size() / 16
		// The walk reads every page through bbolt's map: dropped as it
		// goes (this transaction holds the map in place), they are not
		// all counted in the process's RSS at its end (4.8 GB at 100k
		// skills, issue #27).
		drop := func() { _ = dropResident(db.Info().Data, tx.Size()) }
		defer drop()
		return tx.ForEach(func(name []byte, b *bolt.Bucket) error {
			return walkBucket(ctx, b, name, &budget, drop)
		})
	})
}

// walkDrop is how many keys the walk reads between two drops of the
// mapped pages.
const walkDrop = 1 << 13

// walkBucket reads every key of b and of the buckets nested in it, in
// order, spending one of budget per key and calling drop every walkDrop
// keys.
func walkBucket(ctx context.Context, b *bolt.Bucket, name []byte, budget *int64, drop func()) error {
	c := b.Cursor()
	var prev []byte
	for k, v := c.First(); k != nil; k, v = c.Next() {
		if *budget--; *budget < 0 {
			return fmt.Errorf("bucket %q: more keys than the file can hold (a page refers back)", name)
		}
		if *budget%4096 == 0 && ctx.Err() != nil {
			return ctx.Err()
		}
		if *budget%walkDrop == 0 {
			drop()
		}
		if prev != nil && bytes.Compare(prev, k) >= 0 {
			return fmt.Errorf("bucket %q: a page's keys are out of order (its body is damaged)", name)
		}
		prev = k // bbolt's memory: valid while the transaction is open
		if v == nil {
			if sub := b.Bucket(k); sub != nil {
				if err := walkBucket(ctx, sub, k, budget, drop); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// bbolt page types.
const (
	boltBranch   = 0x01
	boltLeaf     = 0x02
	boltFreelist = 0x10
)

// checkBoltPages reads every page header below the high-water mark, in
// file order: each page that is not free must carry its own id and a page
// type, and its overflow must stay in the file. Zeroed or overwritten pages
// fail this before bbolt ever reads them (it would panic, or fault, inside
// a transaction whose locks then hang every later call). The cost is one
// sequential read of the file's page headers; damage inside a page whose
// header is intact is caught when it is read (see protect).
//
// The headers are read through a map of the file where one can be made:
// reading the file in windows copied all of it (at 100k skills, 4.5 GB and
// 2.5 CPU-s of every open) for 16 bytes a page.
//
// With headers false it checks only the meta page's pointers and the
// freelist.
func checkBoltPages(f *os.File, m boltMeta, headers bool) (err error) {
	ps := int64(m.pageSize)
	if m.root < 2 || m.root >= m.pgid || m.freelist < 2 || m.freelist >= m.pgid {
		return fmt.Errorf("meta page points outside the file (root %d, freelist %d, %d pages)", m.root, m.freelist, m.pgid)
	}
	free, err := boltFreePages(f, m)
	if err != nil || !headers {
		return err
	}
	le := binary.LittleEndian
	mapped, unmap, merr := mapFile(f, int64(m.pgid)*ps)
	if merr == nil {
		defer unmap()
		// The length was checked against the meta page; a file cut
		// shorter meanwhile faults, which is an error here.
		defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
		defer func() {
			if r := recover(); r != nil {
				err = fmt.Errorf("reading page headers failed: %v", r)
			}
		}()
	}
	const window = 4 << 20
	const headerDrop = 64 << 20
	var buf []byte
	var bufStart int64 = -1
	header := func(p uint64) ([]byte, error) {
		off := int64(p) * ps
		if mapped != nil {
			return mapped[off : off+boltPageHeader], nil
		}
		if buf == nil {
			buf = make([]byte, 0, window)
		}
		if bufStart < 0 || off < bufStart || off+boltPageHeader > bufStart+int64(len(buf)) {
			n, err := f.ReadAt(buf[:window], off)
			if n < boltPageHeader {
				return nil, fmt.Errorf("page %d: %v", p, err)
			}
			buf, bufStart = buf[:n], off
		}
		return buf[off-bufStart : off-bufStart+boltPageHeader], nil
	}
	// Each header read maps its page (and the kernel its neighbours): the
	// pages read are dropped every headerDrop bytes, or the pass left the
	// whole file counted in the process's RSS (issue #27).
	var dropped int64
	for p := uint64(2); p < m.pgid; {
		if free[p] {
			p++
			continue
		}
		if off := int64(p) * ps; mapped != nil && off-dropped >= headerDrop {
			_ = dropResident(uintptr(unsafe.Pointer(&mapped[dropped])), off-dropped)
			dropped = off
		}
		h, err := header(p)
		if err != nil {
			return err
		}
		id, flags, overflow := le.Uint64(h), le.Uint16(h[8:]), uint64(le.Uint32(h[12:]))
		if id != p {
			return fmt.Errorf("page %d is damaged (it says it is page %d)", p, id)
		}
		if flags != boltBranch && flags != boltLeaf && flags != boltFreelist {
			return fmt.Errorf("page %d is damaged (page type %#x)", p, flags)
		}
		if p+overflow >= m.pgid {
			return fmt.Errorf("page %d overflows the file (%d pages more)", p, overflow)
		}
		p += overflow + 1
	}
	return nil
}

// boltFreePages reads the freelist page: the ids bbolt may reuse, whose
// content is stale.
func boltFreePages(f *os.File, m boltMeta) (map[uint64]bool, error) {
	ps := int64(m.pageSize)
	le := binary.LittleEndian
	h := make([]byte, boltPageHeader+8)
	if _, err := f.ReadAt(h, int64(m.freelist)*ps); err != nil {
		return nil, fmt.Errorf("freelist page %d: %v", m.freelist, err)
	}
	if id, flags := le.Uint64(h), le.Uint16(h[8:]); id != m.freelist || flags != boltFreelist {
		return nil, fmt.Errorf("freelist page %d is damaged (id %d, type %#x)", m.freelist, id, flags)
	}
	count, start := uint64(le.Uint16(h[10:])), int64(boltPageHeader)
	if count == 0xFFFF { // the count overflows: it is the first element
		count, start = le.Uint64(h[boltPageHeader:]), boltPageHeader+8
	}
	overflow := int64(le.Uint32(h[12:]))
	if count > m.pgid || start+int64(count)*8 > (overflow+1)*ps {
		return nil, fmt.Errorf("freelist page %d is damaged (%d entries)", m.freelist, count)
	}
	ids := make([]byte, count*8)
	if _, err := f.ReadAt(ids, int64(m.freelist)*ps+start); err != nil {
		return nil, fmt.Errorf("freelist page %d: %v", m.freelist, err)
	}
	free := make(map[uint64]bool, count)
	for i := range count {
		id := le.Uint64(ids[i*8:])
		if id < 2 || id >= m.pgid {
			return nil, fmt.Errorf("freelist page %d is damaged (free page %d)", m.freelist, id)
		}
		free[id] = true
	}
	return free, nil
}

func parseBoltMeta(head []byte, off int) (boltMeta, error) {
	if off < 0 || off+boltPageHeader+boltMetaSumSpan+8 > len(head) {
		return boltMeta{}, fmt.Errorf("the file is too short (%d bytes)", len(head))
	}
	p := head[off:]
	le := binary.LittleEndian
	if flags := le.Uint16(p[8:]); flags != boltMetaFlag {
		return boltMeta{}, fmt.Errorf("not a meta page (flags %#x)", flags)
	}
	m := p[boltPageHeader:]
	if le.Uint32(m[0:]) != boltMagic {
		return boltMeta{}, errors.New("bad magic number")
	}
	if v := le.Uint32(m[4:]); v != boltVersion {
		return boltMeta{}, fmt.Errorf("file format version %d, want %d", v, boltVersion)
	}
	h := fnv.New64a()
	h.Write(m[:boltMetaSumSpan])
	if h.Sum64() != le.Uint64(m[boltMetaSumSpan:]) {
		return boltMeta{}, errors.New("checksum mismatch")
	}
	ps := le.Uint32(m[8:])
	if ps < 512 || ps > 64*1024 || ps&(ps-1) != 0 {
		return boltMeta{}, fmt.Errorf("implausible page size %d", ps)
	}
	return boltMeta{pageSize: ps, root: le.Uint64(m[16:]), freelist: le.Uint64(m[32:]), pgid: le.Uint64(m[40:]), txid: le.Uint64(m[48:])}, nil
}

// txKV is the hidalgo KV Cayley's kv QuadStore runs on, with one addition:
// while an ingest is being written, every transaction Cayley opens is the
// ingest's single bbolt write transaction (its own Commit and Close are
// no-ops), so Apply commits all of an ingest — every graph, the version
// bump and the checkpoint — with one bbolt commit or not at all. Cayley's
// ApplyDeltas always commits its own transaction; this is the one place it
// can be made part of a larger one.
//
// outer is only touched with the Store's lock held exclusively, and bbolt
// transactions are used from that one goroutine.
type txKV struct {
	db    *hbolt.DB
	bolt  *bolt.DB // the same database, for what hidalgo does not wrap
	outer hkv.Tx
	// outerCtx is the context of the ingest that opened outer: Cayley
	// passes its own to the transaction, and one of its calls may write a
	// whole large graph (see backend.WriteWhole), so the nested
	// transaction checks this one to stop when the ingest is cancelled.
	outerCtx context.Context
	// putSeen, when set, sees the key of each write of the ingest
	// transaction (tests: the order index keys are inserted in).
	putSeen func(hkv.Key)
	// hooks.Fail is consulted before each write of the ingest
	// transaction (tests: a disk that fills up mid-ingest).
	hooks *backend.Hooks
}

func (k *txKV) Close() error { return k.db.Close() }

func (k *txKV) Tx(ctx context.Context, rw bool) (hkv.Tx, error) {
	if k.outer != nil {
		return nestedTx{Tx: k.outer, kv: k}, nil
	}
	return k.db.Tx(ctx, rw)
}

func (k *txKV) View(ctx context.Context, fn func(tx hkv.Tx) error) error {
	return hkv.View(ctx, k, fn)
}

func (k *txKV) Update(ctx context.Context, fn func(tx hkv.Tx) error) error {
	return hkv.Update(ctx, k, fn)
}

// begin opens the ingest transaction.
func (k *txKV) begin(ctx context.Context) error {
	tx, err := k.db.Tx(ctx, true)
	if err != nil {
		return err
	}
	k.outer, k.outerCtx = tx, ctx
	return nil
}

// commit commits the ingest transaction (one fsync).
func (k *txKV) commit(ctx context.Context) error {
	tx := k.outer
	k.outer, k.outerCtx = nil, nil
	return tx.Commit(ctx)
}

// abort rolls the ingest transaction back, if one is open.
func (k *txKV) abort() {
	if k.outer != nil {
		_ = k.outer.Close()
		k.outer, k.outerCtx = nil, nil
	}
}

// dropMapped unmaps from this process the pages of bbolt's memory map it
// has read (see dropResident). Not while the ingest transaction is open:
// its commit may remap the file, which waits for every read transaction.
func (k *txKV) dropMapped() error {
	if k.outer != nil || k.bolt == nil {
		return nil
	}
	return k.bolt.View(func(tx *bolt.Tx) error {
		// The read transaction holds the map in place (bbolt remaps only
		// when no transaction reads it).
		return dropResident(k.bolt.Info().Data, tx.Size())
	})
}

// nestedTx is a transaction Cayley opened inside the ingest transaction.
type nestedTx struct {
	hkv.Tx
	kv *txKV
}

func (nestedTx) Commit(context.Context) error { return nil }
func (nestedTx) Close() error                 { return nil }

func (t nestedTx) Put(ctx context.Context, key hkv.Key, v hkv.Value) error {
	if err := t.kv.outerCtx.Err(); err != nil {
		return err
	}
	if err := t.kv.hooks.Fail(); err != nil {
		return err
	}
	if t.kv.putSeen != nil {
		t.kv.putSeen(key)
	}
	return t.Tx.Put(ctx, key, v)
}

// GetBatch checks the ingest's context too: a call's duplicate checks
// read without writing.
func (t nestedTx) GetBatch(ctx context.Context, keys []hkv.Key) ([]hkv.Value, error) {
	if err := t.kv.outerCtx.Err(); err != nil {
		return nil, err
	}
	return t.Tx.GetBatch(ctx, keys)
}
