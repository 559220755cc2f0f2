package ynode

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	yaml "go.yaml.in/yaml/v3"
)

// ParseJSON parses one strict JSON value into a yaml.Node tree whose nodes
// carry the line and column of their first character. Trailing data after
// the value is an error.
func ParseJSON(data []byte) (*yaml.Node, error) {
	// A UTF-8 byte-order mark is tolerated, as in markdown and YAML files.
	data = bytes.TrimPrefix(data, []byte("\xEF\xBB\xBF"))
	p := &jsonParser{data: data, dec: json.NewDecoder(bytes.NewReader(data)), line: 1}
	p.dec.UseNumber()
	n, err := p.value(0)
	if err != nil {
		return nil, err
	}
	if _, err := p.dec.Token(); !errors.Is(err, io.EOF) {
		return nil, p.fail(err, "trailing data after the JSON value")
	}
	return n, nil
}

type jsonParser struct {
	data []byte
	dec  *json.Decoder
	off  int // offset up to which line/col are counted
	line int
	col  int // 0-based column of off
}

// pos advances to the start of the next token and returns its line and column.
func (p *jsonParser) pos() (int, int) {
	end := int(p.dec.InputOffset())
	for end < len(p.data) {
		switch p.data[end] {
		case ' ', '\t', '\r', '\n', ',', ':':
			end++
			continue
		}
		break
	}
	p.advance(end)
	return p.line, p.col + 1
}

func (p *jsonParser) advance(to int) {
	if to > len(p.data) {
		to = len(p.data)
	}
	for ; p.off < to; p.off++ {
		if p.data[p.off] == '\n' {
			p.line++
			p.col = 0
		} else {
			p.col++
		}
	}
}

// fail turns a decoder error into an *Error with the line of the failure.
func (p *jsonParser) fail(err error, msg string) error {
	off := int(p.dec.InputOffset())
	var se *json.SyntaxError
	if errors.As(err, &se) {
		off = int(se.Offset)
	}
	if off > len(p.data) {
		off = len(p.data)
	}
	if off < p.off {
		off = p.off
	}
	p.advance(off)
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		msg += ": unexpected end of input"
	} else if err != nil {
		msg = fmt.Sprintf("%s: %v", msg, err)
	}
	return &Error{Line: p.line, Msg: msg}
}

func (p *jsonParser) value(depth int) (*yaml.Node, error) {
	if depth > MaxDepth {
		return nil, p.fail(nil, fmt.Sprintf("nesting deeper than %d", MaxDepth))
	}
	line, col := p.pos()
	tok, err := p.dec.Token()
	if err != nil {
		return nil, p.fail(err, "invalid JSON")
	}
	n := &yaml.Node{Line: line, Column: col}
	switch t := tok.(type) {
	case json.Delim:
		switch t {
		case '{':
			n.Kind, n.Tag, n.Style = yaml.MappingNode, "!!map", yaml.FlowStyle
			return n, p.object(n, depth)
		case '[':
			n.Kind, n.Tag, n.Style = yaml.SequenceNode, "!!seq", yaml.FlowStyle
			return n, p.array(n, depth)
		}
		return nil, p.fail(nil, fmt.Sprintf("unexpected %q", rune(t)))
	case string:
		n.Kind, n.Tag, n.Value, n.Style = yaml.ScalarNode, "!!str", t, yaml.DoubleQuotedStyle
	case json.Number:
		n.Kind, n.Tag, n.Value = yaml.ScalarNode, "!!float", string(t)
		if !strings.ContainsAny(string(t), ".eE") {
			n.Tag = "!!int"
		}
	case bool:
		n.Kind, n.Tag, n.Value = yaml.ScalarNode, "!!bool", fmt.Sprint(t)
	case nil:
		n.Kind, n.Tag, n.Value = yaml.ScalarNode, "!!null", "null"
	}
	return n, nil
}

func (p *jsonParser) object(n *yaml.Node, depth int) error {
	for p.dec.More() {
		line, col := p.pos()
		tok, err := p.dec.Token()
		if err != nil {
			return p.fail(err, "invalid JSON object")
		}
		key, ok := tok.(string)
		if !ok {
			return p.fail(nil, "object key is not a string")
		}
		k := &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: key, Line: line, Column: col, Style: yaml.DoubleQuotedStyle}
		v, err := p.value(depth + 1)
		if err != nil {
			return err
		}
		n.Content = append(n.Content, k, v)
	}
	if _, err := p.dec.Token(); err != nil {
		return p.fail(err, "unterminated JSON object")
	}
	return nil
}

func (p *jsonParser) array(n *yaml.Node, depth int) error {
	for p.dec.More() {
		v, err := p.value(depth + 1)
		if err != nil {
			return err
		}
		n.Content = append(n.Content, v)
	}
	if _, err := p.dec.Token(); err != nil {
		return p.fail(err, "unterminated JSON array")
	}
	return nil
}
