package bpmn

import "bytes"

// lineCounter maps byte offsets of the decoded input to 1-based lines. Offsets
// are asked for in increasing order, so counting is incremental.
type lineCounter struct {
	data []byte
	off  int64
	line int
}

func newLineCounter(data []byte) lineCounter { return lineCounter{data: data, line: 1} }

// at returns the 1-based line of byte offset off.
func (c *lineCounter) at(off int64) int {
	off = min(max(off, 0), int64(len(c.data)))
	if off < c.off {
		c.off, c.line = 0, 1
	}
	c.line += bytes.Count(c.data[c.off:off], []byte{'\n'})
	c.off = off
	return c.line
}
