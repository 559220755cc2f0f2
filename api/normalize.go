package api

import "strings"

func isNameByte(c byte) bool {
	return c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

// NormalizeQuery drops comments, commas and whitespace outside strings
// (all insignificant in GraphQL), keeping one space only where two names
// or numbers would otherwise touch, so queries that differ only in layout
// share a cache entry. Strings are kept as written.
func NormalizeQuery(q string) string {
	var b strings.Builder
	b.Grow(len(q))
	space := false
	last := byte(0)
	for i := 0; i < len(q); i++ {
		c := q[i]
		switch {
		case c == '#':
			for i < len(q) && q[i] != '\n' && q[i] != '\r' {
				i++
			}
			space = true
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == ',':
			space = true
		case c == '"':
			space, last = false, '"'

			start := i
			if strings.HasPrefix(q[i:], `"""`) {
				end := strings.Index(q[i+3:], `"""`)
				for end >= 0 && q[i+3+end-1] == '\\' {
					next := strings.Index(q[i+3+end+3:], `"""`)
					if next < 0 {
						end = -1
						break
					}
					end += 3 + next
				}
				if end < 0 {
					b.WriteString(q[start:])
					return b.String()
				}
				i += 3 + end + 2
			} else {
				for i++; i < len(q) && q[i] != '"' && q[i] != '\n'; i++ {
					if q[i] == '\\' {
						i++
					}
				}
			}
			b.WriteString(q[start:min(i+1, len(q))])
		default:
			if space && isNameByte(last) && isNameByte(c) {
				b.WriteByte(' ')
			}
			space, last = false, c
			b.WriteByte(c)
		}
	}
	return b.String()
}
