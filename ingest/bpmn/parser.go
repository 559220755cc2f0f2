package bpmn

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/skillgraph/skillgraph/ingest/record"
)

// parseError makes the whole file bpmn-invalid.
type parseError struct {
	line int
	msg  string
}

// kind is what an open element on the stack means to the parser.
type kind int

const (
	kDefs    kind = iota // the definitions root
	kProc                // a process
	kAct                 // an activity, event or gateway
	kExt                 // inside an activity's extensionElements
	kLaneSet             // laneSet or childLaneSet
	kLane                // lane
	kDoc                 // an activity's documentation
	kRef                 // a lane's flowNodeRef
)

// frame is one open element the parser follows.
type frame struct {
	kind      kind
	act       int  // activity index in the current process (kAct, kExt, kDoc)
	container bool // kAct: a sub-process whose children are activities
	lane      int  // lane index in the current process (kLane, kRef)
	depth     int  // lane nesting depth (kLaneSet, kLane, kRef)
	text      []byte
}

// extra is what an activity collects before it is finished.
type extra struct {
	taskType   string
	taskLine   int
	topic      string
	zeebeCall  string
	zeebeLine  int
	calledLine int // line of the calledElement attribute
	docs       []string
	calledAttr string
}

// idUse is the first element of a file that carries an id.
type idUse struct {
	element string
	line    int
}

// laneHit is the innermost lane a flow node was placed in.
type laneHit struct {
	lane  string
	depth int
}

// parser holds the state of one Parse call.
type parser struct {
	path     string
	stem     string
	data     []byte
	dec      *xml.Decoder
	lines    lineCounter
	stack    []frame
	procs    []record.Process
	findings []record.Finding
	seen     map[string]int   // process id → line of its first definition
	ids      map[string]idUse // every element id of the file → its first use
	root     int              // 0 before the root element, 1 inside, 2 after
	// tokStart and tokEnd are the byte offsets of the token being handled,
	// so an attribute's own line can be found in a multi-line start tag.
	tokStart, tokEnd int64

	// state of the process being read
	extras []extra
	laneOf map[string]laneHit
	dyn    []record.Finding
}

func newParser(path string, data []byte) *parser {
	return &parser{path: path, stem: Stem(path), data: data, seen: map[string]int{}, ids: map[string]idUse{}}
}

// run reads the whole document and returns its processes.
func (p *parser) run() ([]record.Process, *parseError) {
	data, perr := prepare(p.data)
	if perr != nil {
		return nil, perr
	}
	p.data = data
	p.lines = newLineCounter(data)
	p.dec = xml.NewDecoder(bytes.NewReader(data))
	p.dec.Strict = true
	p.dec.CharsetReader = passCharset
	for {
		off := p.dec.InputOffset()
		tok, err := p.dec.Token()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, p.xmlError(err)
		}
		p.tokStart, p.tokEnd = off, p.dec.InputOffset()
		if perr := p.token(tok, off); perr != nil {
			return nil, perr
		}
	}
	if p.root == 0 {
		return nil, &parseError{line: 1, msg: "not a BPMN 2.0 document: no definitions element"}
	}
	return p.procs, nil
}

// attrLine is the line of attribute name in the current start tag, which
// starts on line; line itself when it cannot be found.
func (p *parser) attrLine(name string, line int) int {
	lo, hi := min(max(p.tokStart, 0), int64(len(p.data))), min(max(p.tokEnd, 0), int64(len(p.data)))
	tag := p.data[lo:hi]
	for i := 0; i+len(name) < len(tag); i++ {
		j := bytes.Index(tag[i:], []byte(name))
		if j < 0 {
			break
		}
		i += j
		after := bytes.TrimLeft(tag[i+len(name):], " \t\r\n")
		if i > 0 && (tag[i-1] == ' ' || tag[i-1] == '\t' || tag[i-1] == '\n' || tag[i-1] == '\r') && len(after) > 0 && after[0] == '=' {
			return line + bytes.Count(tag[:i], []byte{'\n'})
		}
	}
	return line
}

// xmlError turns a decoder error into a bpmn-invalid error with a line.
func (p *parser) xmlError(err error) *parseError {
	var se *xml.SyntaxError
	if errors.As(err, &se) {
		return &parseError{line: se.Line, msg: "XML syntax error: " + se.Msg}
	}
	return &parseError{line: p.lines.at(p.dec.InputOffset()), msg: "XML error: " + err.Error()}
}

// token handles one token that starts at byte offset off.
func (p *parser) token(tok xml.Token, off int64) *parseError {
	switch t := tok.(type) {
	case xml.StartElement:
		return p.start(t, p.lines.at(off))
	case xml.EndElement:
		p.end()
	case xml.CharData:
		if len(p.stack) == 0 {
			if lead := len(t) - len(bytes.TrimLeft(t, " \t\r\n")); lead < len(t) {
				return &parseError{line: p.lines.at(off + int64(lead)), msg: "text outside the root element"}
			}
			return nil
		}
		if top := &p.stack[len(p.stack)-1]; top.kind == kDoc || top.kind == kRef {
			top.text = append(top.text, t...)
		}
	case xml.Directive:
		return directiveError(p.lines.at(off))
	}
	return nil
}

func directiveError(line int) *parseError {
	return &parseError{line: line, msg: "markup declarations (DOCTYPE, ENTITY) are not allowed in BPMN files"}
}

// skip consumes the rest of the element just started, still refusing
// markup declarations inside it.
func (p *parser) skip() *parseError {
	for depth := 1; depth > 0; {
		off := p.dec.InputOffset()
		tok, err := p.dec.Token()
		if err != nil {
			if errors.Is(err, io.EOF) {
				return &parseError{line: p.lines.at(off), msg: "XML syntax error: unexpected EOF"}
			}
			return p.xmlError(err)
		}
		switch tok.(type) {
		case xml.StartElement:
			depth++
		case xml.EndElement:
			depth--
		case xml.Directive:
			return directiveError(p.lines.at(off))
		}
	}
	return nil
}

func (p *parser) push(f frame) *parseError {
	p.stack = append(p.stack, f)
	return nil
}

// start handles a start element on the given line.
func (p *parser) start(t xml.StartElement, line int) *parseError {
	if len(p.stack) == 0 {
		if p.root != 0 {
			return &parseError{line: line, msg: "content after the root element"}
		}
		p.root = 1
		if t.Name.Space != Namespace || t.Name.Local != "definitions" {
			return &parseError{line: line, msg: fmt.Sprintf(
				"not a BPMN 2.0 document: root element is %s, want definitions in %s", describe(t.Name), Namespace)}
		}
		return p.push(frame{kind: kDefs})
	}
	top := p.stack[len(p.stack)-1]
	bpmn := t.Name.Space == Namespace
	switch top.kind {
	case kDefs:
		if bpmn && t.Name.Local == "process" {
			return p.openProcess(t, line)
		}
	case kProc:
		return p.flowElement(t, line, "")
	case kAct:
		switch {
		case bpmn && t.Name.Local == "extensionElements":
			return p.push(frame{kind: kExt, act: top.act})
		case bpmn && t.Name.Local == "documentation":
			return p.push(frame{kind: kDoc, act: top.act})
		case top.container:
			return p.flowElement(t, line, p.cur().Activities[top.act].ID)
		}
	case kExt:
		p.extension(t, line, top.act)
		return p.push(frame{kind: kExt, act: top.act})
	case kLaneSet:
		if bpmn && t.Name.Local == "lane" {
			return p.openLane(t, line, top.depth+1)
		}
	case kLane:
		switch {
		case bpmn && t.Name.Local == "flowNodeRef":
			return p.push(frame{kind: kRef, lane: top.lane, depth: top.depth})
		case bpmn && t.Name.Local == "childLaneSet":
			return p.push(frame{kind: kLaneSet, depth: top.depth})
		}
	}
	return p.skip()
}

// end handles an end element: the decoder has already checked it matches.
func (p *parser) end() {
	n := len(p.stack)
	if n == 0 {
		return
	}
	f := p.stack[n-1]
	p.stack = p.stack[:n-1]
	switch f.kind {
	case kDefs:
		p.root = 2
	case kProc:
		p.closeProcess()
	case kAct:
		p.closeActivity(f.act)
	case kDoc:
		if s := strings.TrimSpace(string(f.text)); s != "" {
			p.extras[f.act].docs = append(p.extras[f.act].docs, s)
		}
	case kRef:
		p.placeNode(strings.TrimSpace(string(f.text)), f.lane, f.depth)
	}
}

// describe names an element for a message.
func describe(n xml.Name) string {
	if n.Space == "" {
		return "<" + n.Local + ">"
	}
	return fmt.Sprintf("<%s> in namespace %q", n.Local, truncate(n.Space, 120))
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}

// attr returns the value of the unqualified attribute local.
func attr(t xml.StartElement, local string) string {
	for _, a := range t.Attr {
		if a.Name.Space == "" && a.Name.Local == local {
			return a.Value
		}
	}
	return ""
}
