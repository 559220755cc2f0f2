package ingest

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"path"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/skillgraph/skillgraph/ingest/contract"
	"github.com/skillgraph/skillgraph/ingest/discover"
	"github.com/skillgraph/skillgraph/ingest/format"
	"github.com/skillgraph/skillgraph/ingest/record"
	"github.com/skillgraph/skillgraph/ingest/safety"
	"github.com/skillgraph/skillgraph/ingest/tool"
	"github.com/skillgraph/skillgraph/ingest/tsmodule"
	"github.com/skillgraph/skillgraph/ingest/vocab"
	"github.com/skillgraph/skillgraph/jsonld"
)

// parse reads and parses the planned files of every corpus into units
// (a file whose stamp holds is a unit to skip, not read), each handed to
// emit, when set, as soon as it is made; an error from emit stops the
// parse. It reads files only, never the store.
func (pl *plan) parse(ctx context.Context, opt Options, emit func(*unit) error) ([]*unit, error) {
	var units []*unit
	for _, c := range pl.corpora {
		us, err := parseSources(ctx, c, opt, pl.only, pl.sp, emit)
		units = append(units, us...)
		if err != nil {
			return units, err
		}
	}
	return units, nil
}

// parseCorpus reads and parses every source of one corpus, with no
// stamps to skip by (what the tests convert).
func parseCorpus(ctx context.Context, c *discover.Corpus, opt Options) ([]*unit, error) {
	return parseSources(ctx, c, opt, nil, &stamper{start: time.Now()}, nil)
}

// parseSources parses the corpus's sources, or with only set just those
// (and the declaration); then the declaration-less corpus's own graph and
// the contracts its skills name outside the declared directories. Each
// unit is handed to emit (when set) as it is made; the units made are
// returned with the error that stopped the parse.
func parseSources(ctx context.Context, c *discover.Corpus, opt Options, only map[string]bool, sp *stamper, emit func(*unit) error) ([]*unit, error) {
	pc := newParseContext(c, opt, sp)
	var units []*unit
	keep := func(us ...*unit) error {
		for _, u := range us {
			units = append(units, u)
			if emit != nil {
				if err := emit(u); err != nil {
					return err
				}
			}
		}
		return nil
	}
	if err := parseInOrder(ctx, sourcesToParse(c, only), convertWorkers(opt), pc.parseSource, func(u *unit) error { return keep(u) }); err != nil {
		return units, err
	}
	if c.DeclarationData == nil {
		// Without a declaration, the instance and the discovery findings
		// live in a graph of their own.
		f := record.File{Path: ".", Parser: format.KindDeclaration, Findings: c.Findings}
		b, _ := json.Marshal(c.Findings)
		if err := keep(newUnit(&c.Instance, f, b, pc.salt)); err != nil {
			return units, err
		}
	}
	return units, keep(pc.extraContracts(units)...)
}

// parseLead is how many sources, per worker, parseInOrder parses ahead of
// the last unit it handed over: enough that a slow file does not idle the
// other workers, few enough that the streamed first ingest still holds
// only its windows' units.
const parseLead = 8

// parseInOrder parses srcs on workers goroutines and hands each unit
// (nil ones skipped) to keep in the order of srcs, so that every unit, its
// findings and the streamed write come out as from one goroutine. The
// parse was most of a cold start's single-core time (3.8 of 9.8 CPU-s at
// 10k skills); parseSource only reads what the corpus and the context
// share. It stops at the first error of keep or ctx, and returns once
// every goroutine it started has ended.
func parseInOrder(ctx context.Context, srcs []discover.Source, workers int, parse func(discover.Source) *unit, keep func(*unit) error) error {
	if workers < 2 || len(srcs) < 2 {
		for _, s := range srcs {
			if err := ctx.Err(); err != nil {
				return err
			}
			if u := parse(s); u != nil {
				if err := keep(u); err != nil {
					return err
				}
			}
		}
		return nil
	}
	lead := parseLead * workers
	// Source i's unit goes to slot i%lead. Source i is handed to a worker
	// only after source i-lead's unit was taken (tokens), so its slot is
	// empty and no worker ever waits to deliver.
	slots := make([]chan *unit, lead)
	for i := range slots {
		slots[i] = make(chan *unit, 1)
	}
	tokens := make(chan struct{}, lead)
	jobs := make(chan int)
	stop := make(chan struct{})
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range jobs {
				slots[i%lead] <- parse(srcs[i])
			}
		}()
	}
	wg.Add(1)
	go func() {
		defer wg.Done()
		defer close(jobs)
		for i := range srcs {
			select {
			case tokens <- struct{}{}:
			case <-stop:
				return
			}
			select {
			case jobs <- i:
			case <-stop:
				return
			}
		}
	}()
	var err error
	for i := range srcs {
		if err = ctx.Err(); err != nil {
			break
		}
		u := <-slots[i%lead]
		<-tokens
		if u != nil {
			if err = keep(u); err != nil {
				break
			}
		}
	}
	close(stop)
	wg.Wait()
	return err
}

// parseContext is what every parse of one corpus depends on besides its
// own file: the declaration and the type vocabulary (hashed into the salt
// of every digest), the vocabulary itself, and the stamps.
type parseContext struct {
	c           *discover.Corpus
	sp          *stamper
	salt        string // parser version, declaration, vocabulary and the modules it imports
	stampSalt   string // salt and the size cap: a stamp holds only under the same cap
	voc         *vocab.Vocabulary
	vocFindings []record.Finding
}

// newParseContext reads the corpus's vocabulary (its last readable one
// wins; the built-in one without) into the context salt.
func newParseContext(c *discover.Corpus, opt Options, sp *stamper) *parseContext {
	in := c.Instance
	salt := sha256.New()
	salt.Write([]byte(parserVersion))
	salt.Write(c.DeclarationData)
	pc := &parseContext{c: c, sp: sp, voc: vocab.Default(in.CanonicalURL)}
	for _, s := range c.Sources {
		if s.Kind != discover.KindVocabulary {
			continue
		}
		data, err := c.ReadFile(s.Path)
		if err != nil {
			continue // the vocabulary's own unit reports the read error
		}
		if _, bad := discover.NotText(s.Path, s.Kind, data); bad {
			continue // … and that it is not text
		}
		salt.Write(data)
		var v *vocab.Vocabulary
		if vocab.IsModule(s.Path) {
			// A Zod module may import sibling modules: they are part of the
			// vocabulary, so of every parse's context.
			var read readLog
			v, err = vocab.ParseModule(s.Path, data, in.CanonicalURL, read.loader(c, nil, sp))
			for _, r := range read {
				salt.Write([]byte(r))
			}
		} else {
			v, err = vocab.Parse(data, in.CanonicalURL)
		}
		if err != nil {
			pc.vocFindings = append(pc.vocFindings, record.Finding{Code: record.CodeParseError, Severity: record.SeverityOf(record.CodeParseError),
				Message: fmt.Sprintf("type vocabulary: %v; the built-in vocabulary is used", err), File: s.Path, Line: 1})
			continue
		}
		pc.voc = v
	}
	pc.salt = hex.EncodeToString(salt.Sum(nil))
	pc.stampSalt = fmt.Sprintf("%s/%d", pc.salt, opt.MaxFileSize)
	return pc
}

// exists reports whether rel is a source or a file of the corpus.
func (pc *parseContext) exists(rel string) bool {
	if _, ok := pc.c.Source(rel); ok {
		return true
	}
	return pc.c.Exists(rel)
}

// parseSource reads and parses one source into its unit: a unit to skip
// when its stamp holds, nil for a file in no format skillgraph reads.
func (pc *parseContext) parseSource(s discover.Source) *unit {
	c, in := pc.c, &pc.c.Instance
	found := s // as discovery found it (before sniffing)
	if s.Kind != discover.KindDeclaration && s.Kind != discover.KindVocabulary {
		if old, ok := pc.sp.holds(c, jsonld.SourceIRI(in.DocIRI(), s.Path), s, pc.stampSalt, pc.exists); ok {
			return newSkipUnit(in, s.Path, s.Kind, old.Refs)
		}
	}
	st, _ := statFile(c, s.Path) // before the read: see statFile
	data, err := c.ReadFile(s.Path)
	if err == nil && s.Kind == discover.KindAny {
		if s.Kind = discover.Sniff(data); s.Kind == "" {
			return nil // not a format skillgraph reads
		}
	}
	var deps depLog
	f, unitSalt := pc.parseData(s, data, err, &deps)
	if err == nil && !nonText(s, data) {
		// What the file can do to an agent that reads it (issue #28).
		f.Findings = append(f.Findings, safety.Scan(s.Kind, s.Path, data)...)
	}
	if s.Kind == discover.KindDeclaration {
		f.Findings = append(f.Findings, c.Findings...)
	}
	if s.Kind == discover.KindVocabulary {
		f.Findings = append(f.Findings, pc.vocFindings...)
	}
	u := newUnit(in, f, data, unitSalt)
	u.refs = contractRefs(f)
	if err == nil && !nonText(s, data) && s.Kind != discover.KindDeclaration && s.Kind != discover.KindVocabulary {
		u.stamp = pc.sp.make(st, found, pc.stampSalt, &deps, u.refs)
	}
	return u
}

// parseData parses a source's data (read with err) into its record and
// the salt of its digest: the context's, extended with what the parse
// read or asked of other files (recorded in deps for the stamp).
func (pc *parseContext) parseData(s discover.Source, data []byte, err error, deps *depLog) (record.File, string) {
	switch {
	case err != nil:
		return record.File{Path: s.Path, Parser: s.Kind, Findings: []record.Finding{readFinding(s.Path, err)}}, pc.salt
	case nonText(s, data):
		nt, _ := discover.NotText(s.Path, s.Kind, data)
		return record.File{Path: s.Path, Parser: s.Kind, Findings: []record.Finding{nt}}, pc.salt
	case s.Kind == discover.KindTool && tool.IsModule(s.Path):
		// A Tool module's Tools may come from the sibling modules it
		// imports: their contents are part of its digest.
		var read readLog
		f := tool.ParseModule(s.Path, data, pc.voc, read.loader(pc.c, deps, pc.sp))
		return f, extendSalt(pc.salt, read)
	}
	// What a parse asked about other files (a hard skill's includes) is
	// part of its digest: adding or removing an included file re-reads
	// the skill.
	var asked readLog
	probe := func(rel string) bool {
		ok := pc.exists(rel)
		asked = append(asked, fmt.Sprintf("%q=%t", rel, ok))
		deps.ask(rel, ok)
		return ok
	}
	f := parseOne(s, data, pc.c.Instance, pc.voc, probe)
	if s.Kind == discover.KindSkill {
		// The package discovery gave the skill (its folder's
		// package-manifest.json) is in its ids.
		asked = append(asked, fmt.Sprintf("package=%q", s.StampKey()))
	}
	return f, extendSalt(pc.salt, asked)
}

// extraContracts parses the contracts named by the skills of units
// outside the declared schema directories (of the skills parsed now: the
// others' are kept as stored; a skill skipped by its stamp names them
// from the stamp).
func (pc *parseContext) extraContracts(units []*unit) []*unit {
	c, in := pc.c, &pc.c.Instance
	var extra []string
	have := map[string]bool{}
	for _, u := range units {
		for _, ref := range u.refs {
			if strings.Contains(ref, "://") || have[ref] {
				continue
			}
			if _, ok := c.Source(ref); ok {
				continue
			}
			p := path.Clean(ref)
			if strings.HasPrefix(p, "../") || p == ".." || strings.HasPrefix(p, "/") {
				continue
			}
			have[ref] = true
			extra = append(extra, ref)
		}
	}
	sort.Strings(extra)
	var out []*unit
	for _, ref := range extra {
		s := discover.Source{Path: ref, Kind: discover.KindContract}
		if _, ok := pc.sp.holds(c, jsonld.SourceIRI(in.DocIRI(), ref), s, pc.stampSalt, pc.exists); ok {
			out = append(out, newSkipUnit(in, ref, s.Kind, nil))
			continue
		}
		st, _ := statFile(c, ref)
		data, err := c.ReadFile(ref)
		if err != nil {
			continue // the skill's contract-unreadable finding says it
		}
		f := contract.Parse(ref, data)
		u := newUnit(in, f, data, pc.salt)
		if !nonText(s, data) {
			u.stamp = pc.sp.make(st, s, pc.stampSalt, &depLog{}, nil)
		}
		out = append(out, u)
	}
	return out
}

// contractRefs are the contracts a file's skills name (input, output), in
// order, once each.
func contractRefs(f record.File) []string {
	var out []string
	for _, sk := range f.Skills {
		for _, ref := range []string{sk.Input, sk.Output} {
			if ref != "" && !slices.Contains(out, ref) {
				out = append(out, ref)
			}
		}
	}
	return out
}

// sourcesToParse is every source of c, or with only set (absolute paths)
// the declaration and the sources named, in path order: unchanged sources
// are kept as stored, and the declaration carries the discovery findings,
// always current.
func sourcesToParse(c *discover.Corpus, only map[string]bool) []discover.Source {
	if only == nil {
		return c.Sources
	}
	var out []discover.Source
	if rel := c.Instance.File; rel != "" {
		if s, ok := c.Source(rel); ok && s.Kind == discover.KindDeclaration {
			out = append(out, s)
		}
	}
	for p := range only {
		if s, ok := sourceAt(c, p); ok && s.Kind != discover.KindDeclaration {
			out = append(out, s)
		}
	}
	slices.SortFunc(out, func(a, b discover.Source) int { return strings.Compare(a.Path, b.Path) })
	return out
}

func newUnit(in *record.Instance, f record.File, data []byte, salt string) *unit {
	h := sha256.Sum256(data)
	d := sha256.New()
	d.Write(h[:])
	d.Write([]byte(salt))
	if f.Parser == format.KindDeclaration {
		d.Write([]byte(in.Root))         // a moved corpus rewrites its corpusRoot
		b, _ := json.Marshal(f.Findings) // discovery findings change without the file
		d.Write(b)
	}
	digest := hex.EncodeToString(d.Sum(nil))
	meta := jsonld.SourceMeta{Path: f.Path, SHA256: hex.EncodeToString(h[:]), Digest: digest, Size: int64(len(data)), Parser: f.Parser}
	return &unit{in: in, path: f.Path, body: &body{file: f, meta: meta, digest: digest}}
}

func readFinding(rel string, err error) record.Finding { return discover.ReadError(rel, err) }

// nonText reports whether a source is not text (SPEC §1.2).
func nonText(s discover.Source, data []byte) bool {
	_, bad := discover.NotText(s.Path, s.Kind, data)
	return bad
}

// readLog records what a parse learnt about files other than its own: a
// sibling module's content hash, whether an included file exists. It is
// part of the parse's digest, so a change there re-reads the file.
type readLog []string

// loader reads sibling modules through the corpus root (size cap,
// confinement) and logs each one's content hash as it reads, so nothing is
// read twice for the digest.
//
// deps, if set, records for the parse's stamp each module's size and
// mtime, taken before it is read, or that it does not exist.
func (l *readLog) loader(c *discover.Corpus, deps *depLog, sp *stamper) tsmodule.Loader {
	return func(rel string) ([]byte, error) {
		if deps != nil {
			if _, err := statFile(c, rel); err != nil {
				deps.ask(rel, false)
			} else {
				deps.read(c, rel, sp)
			}
		}
		b, err := c.ReadFile(rel)
		if err == nil {
			sum := sha256.Sum256(b)
			*l = append(*l, rel+"="+hex.EncodeToString(sum[:]))
		}
		return b, err
	}
}

// extendSalt extends a parse context with what the parse read elsewhere.
func extendSalt(salt string, read readLog) string {
	if len(read) == 0 {
		return salt
	}
	h := sha256.New()
	h.Write([]byte(salt))
	for _, r := range read {
		h.Write([]byte(r))
		h.Write([]byte{0})
	}
	return hex.EncodeToString(h.Sum(nil))
}

// parseOne runs the parser of a source's kind (the format table's).
func parseOne(s discover.Source, data []byte, in record.Instance, voc *vocab.Vocabulary, exists func(string) bool) record.File {
	return format.Parse(s.Kind, format.Input{Path: s.Path, Data: data, Package: s.Package, Plugin: s.Plugin, Hosts: s.Hosts,
		Dir: s.Dir, Secondary: s.Secondary, Resources: s.Resources, Instance: in, Vocab: voc, Exists: exists})
}
