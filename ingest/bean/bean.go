// Package bean reads work items ("beans", SPEC §2.6) into records.
//
// A bean is a Markdown file with YAML front matter. Its id comes from the
// file name, never from the front matter. Checks that need other beans
// (bean-parent-unknown, bean-blocking-unknown, bean-cycle, bean-parent-type)
// are made later against the graph; this package reports only what one file
// shows: bean-invalid, bean-unknown-value and bean-self-link.
package bean

import (
	"fmt"
	"github.com/skillgraph/skillgraph/ingest/internal/idcheck"
	"path"
	"strings"
	"unicode"

	"github.com/skillgraph/skillgraph/ingest/internal/ynode"
	"github.com/skillgraph/skillgraph/ingest/record"
)

// Parser is the record.File Parser name of this package.
const Parser = "bean"

// Known values of the enumerated fields; others are bean-unknown-value
// warnings, since custom workflows exist.
var (
	Statuses   = []string{"draft", "todo", "in-progress", "completed", "scrapped"}
	Types      = []string{"milestone", "epic", "feature", "task", "bug"}
	Priorities = []string{"critical", "high", "normal", "low", "deferred"}
)

// IDFromName returns the bean id carried by a file name (a base name or a
// slash-separated path ending in .md), and whether the name carries one.
//
// The forms are, in order of precedence:
//
//   - <id>--<slug>.md: the id is everything before the first "--";
//   - legacy <id>.<slug>.md: the id is everything before the first ".";
//   - legacy <id>-<slug>.md: the name alone cannot tell where the id ends,
//     since ids contain dashes themselves ("acme-a1b2"). Random id suffixes
//     contain a digit almost always, so the id runs up to and including the
//     first dash-separated segment that contains a digit
//     ("acme-a1b2-fix-it.md" → "acme-a1b2"); without such a segment it is
//     the first two segments ("acme-abcd-fix-it.md" → "acme-abcd"). A prefix
//     that itself contains a digit ("v2-abcd-…") is cut too early.
//
// A bare <id>.md is accepted when the stem contains a digit, so README.md
// is not a bean name.
func IDFromName(filename string) (string, bool) {
	base := path.Base(filename)
	stem, ok := strings.CutSuffix(base, ".md")
	if !ok || stem == "" {
		return "", false
	}
	if i := strings.Index(stem, "--"); i >= 0 {
		return stem[:i], i > 0
	}
	segs := strings.Split(stem, "-")
	k := -1
	for i, s := range segs {
		if strings.ContainsFunc(s, unicode.IsDigit) {
			k = i
			break
		}
	}
	if k < 0 {
		k = min(1, len(segs)-1)
	}
	id := strings.Join(segs[:k+1], "-")
	if i := strings.IndexByte(id, '.'); i >= 0 {
		id = id[:i]
	}
	if id == "" || strings.HasPrefix(id, "-") || strings.HasSuffix(id, "-") {
		return "", false
	}
	if !strings.ContainsAny(stem, "-.") && !strings.ContainsFunc(stem, unicode.IsDigit) {
		return "", false
	}
	return id, true
}

// Parse reads one bean file. path is the corpus-relative, slash-separated
// path; it is copied into the result and every finding.
//
// One bean is always returned, with the id from the file name (or the file
// stem, plus a bean-invalid finding, when the name carries none), even when
// the front matter is missing or is not valid YAML (bean-invalid with the
// line of the problem). Fields of the wrong YAML shape are ignored.
//
// A parent, blocking or blocked_by entry naming the bean itself is reported
// as bean-self-link and left out of the record, so later checks (cycles,
// parent types) never see it again.
func Parse(path string, data []byte) record.File {
	c := &collector{path: path}
	id, ok := IDFromName(path)
	if !ok {
		id = strings.TrimSuffix(pathBase(path), ".md")
		c.add(record.CodeBeanInvalid, 1, "file name does not carry a bean id: want <id>--<slug>.md")
	}
	if why := idcheck.Unsafe(id); why != "" {
		c.add(record.CodeBeanInvalid, 1, fmt.Sprintf("bean id %q (from the file name) holds %s", id, why))
	}
	b := record.Bean{ID: id, Line: 1}
	lines := ynode.Lines(data)
	fm := ynode.SplitFrontMatter(lines)
	var lk links
	switch {
	case !fm.Present:
		c.add(record.CodeBeanInvalid, 1, "no YAML front matter: a bean starts with a line of three dashes")
	case !fm.Closed:
		c.add(record.CodeBeanInvalid, 1, "the front matter opened on line 1 is never closed by a line of three dashes")
	default:
		lk = readFrontMatter(c, &b, fm)
		b.Mentions = Mentions(strings.Join(lines[fm.BodyIdx:], "\n"))
	}
	applyLinks(c, &b, lk)
	b.Tags = ynode.Unique(b.Tags)
	boundLists(c, &b)
	return record.File{Path: path, Parser: Parser, Beans: []record.Bean{b}, Findings: c.findings}
}

func pathBase(p string) string { return path.Base(p) }

// boundLists drops, with a bean-invalid finding, a list of the bean that
// holds more than ynode.MaxItems entries: each entry is a value of the
// bean's graph node, and the conversion merges them in quadratic time
// (issue #16.6: 20 000 tags took 16 s, 20 000 mentions 112 s).
func boundLists(c *collector, b *record.Bean) {
	for _, l := range []struct {
		field string
		list  *[]string
	}{{"tags", &b.Tags}, {"blocking", &b.Blocking}, {"blocked_by", &b.BlockedBy}, {"mentions in the body", &b.Mentions}} {
		if n := len(*l.list); ynode.OverItems(n) {
			c.add(record.CodeBeanInvalid, 1, fmt.Sprintf("%d %s, over the limit of %d a bean may hold; none of them is read", n, l.field, ynode.MaxItems))
			*l.list = nil
		}
	}
}

// collector gathers findings for one file.
type collector struct {
	path     string
	findings []record.Finding
}

// add appends a finding of a registered code; its severity comes from the
// finding registry.
func (c *collector) add(code string, line int, msg string) {
	c.findings = append(c.findings, record.New(code, c.path, line, "", msg))
}
