package api

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/graphql-go/graphql/gqlerrors"
)

// MaxQuoted is how many bytes of one word an error message quotes: graphql-go
// echoes a literal of the document in its messages, twice for an argument
// of the wrong type ("has invalid value X … found X"), so a 100 000-digit
// Int made a 200 KB answer to a 100 KB request (issue #28 row 15).
const MaxQuoted = 64

// boundMessages cuts every run of non-space characters longer than
// MaxQuoted in the messages of errs to its first MaxQuoted bytes (on a
// character boundary), followed by "…" and how long it was. errs is
// changed in place and returned. This is the one place error messages are
// reformatted; it runs on parse, validation and execution errors alike.
func boundMessages(errs []gqlerrors.FormattedError) []gqlerrors.FormattedError {
	for i := range errs {
		errs[i].Message = boundMessage(errs[i].Message)
	}
	return errs
}

// boundMessage is one message with its long words cut (see boundMessages).
// A message without one is returned as it is.
func boundMessage(msg string) string {
	if len(msg) <= MaxQuoted {
		return msg
	}
	var b strings.Builder
	last, start := 0, -1 // last: bytes of msg written; start: the current word's first byte
	flush := func(end int) {
		if start >= 0 && end-start > MaxQuoted {
			cut := start + MaxQuoted
			for cut > start && !utf8.RuneStart(msg[cut]) {
				cut--
			}
			if b.Len() == 0 {
				b.Grow(len(msg) / 2)
			}
			b.WriteString(msg[last:cut])
			b.WriteString("…(" + strconv.Itoa(end-start) + " bytes)")
			last = end
		}
		start = -1
	}
	for i := 0; i < len(msg); i++ {
		switch msg[i] {
		case ' ', '\n', '\t', '\r':
			flush(i)
		default:
			if start < 0 {
				start = i
			}
		}
	}
	flush(len(msg))
	if last == 0 {
		return msg
	}
	b.WriteString(msg[last:])
	return b.String()
}
