package record

import (
	"strconv"
	"strings"
)

// Count is n with its noun, singular for one and plural otherwise: "1
// package", "3 packages", "0 errors" (issue 25.11: messages said "1
// packages"). many is the plural; "" means one+"s".
func Count(n int, one, many string) string {
	if many == "" {
		many = one + "s"
	}
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + many
}

// A is word with its indefinite article: "an epic", "a task", "a
// milestone" (by the first letter's sound as written: a, e, i, o, u take
// "an"; "a" for anything else, and for an empty word).
func A(word string) string {
	if word != "" && strings.ContainsRune("aeiouAEIOU", rune(word[0])) {
		return "an " + word
	}
	return "a " + word
}
