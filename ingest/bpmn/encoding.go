package bpmn

import (
	"bytes"
	"fmt"
	"io"
	"regexp"
	"strings"
	"unicode/utf8"
)

// declRE finds the encoding named in an XML declaration.
var declRE = regexp.MustCompile(`^<\?xml[^>]*?\bencoding\s*=\s*["']([^"']{0,64})["']`)

// singleByte lists encodings whose bytes map one-to-one onto the first 256
// code points; such files are converted to UTF-8 up front so that newlines
// (and so line numbers) are preserved.
var singleByte = map[string]bool{
	"iso-8859-1": true, "iso8859-1": true, "iso_8859-1": true, "latin1": true,
	"latin-1": true, "l1": true, "us-ascii": true, "ascii": true,
}

// prepare strips a UTF-8 byte-order mark and converts single-byte encodings
// to UTF-8. It returns the bytes to decode, or an error for encodings that
// are not supported (UTF-16, and anything not listed above).
func prepare(data []byte) ([]byte, *parseError) {
	if bytes.HasPrefix(data, []byte{0xFE, 0xFF}) || bytes.HasPrefix(data, []byte{0xFF, 0xFE}) {
		return nil, &parseError{line: 1, msg: "UTF-16 encoded XML is not supported; save the file as UTF-8"}
	}
	data = bytes.TrimPrefix(data, []byte{0xEF, 0xBB, 0xBF})
	m := declRE.FindSubmatch(data[:min(len(data), 512)])
	if m == nil {
		return data, nil
	}
	label := strings.ToLower(strings.TrimSpace(string(m[1])))
	switch {
	case label == "utf-8" || label == "utf8":
		return data, nil
	case singleByte[label]:
		return latin1ToUTF8(data), nil
	}
	return nil, &parseError{line: 1, msg: fmt.Sprintf("unsupported XML encoding %q; use UTF-8", m[1])}
}

// latin1ToUTF8 maps every byte to the code point of the same value.
func latin1ToUTF8(data []byte) []byte {
	out := make([]byte, 0, len(data)+len(data)/8)
	for _, b := range data {
		out = utf8.AppendRune(out, rune(b))
	}
	return out
}

// passCharset is the decoder's CharsetReader: the input was already
// converted by prepare, so any label it accepted passes through unchanged.
func passCharset(label string, input io.Reader) (io.Reader, error) {
	l := strings.ToLower(label)
	if l == "utf-8" || l == "utf8" || singleByte[l] {
		return input, nil
	}
	return nil, fmt.Errorf("unsupported XML encoding %q", label)
}
