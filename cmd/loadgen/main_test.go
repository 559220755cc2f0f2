package main

import "testing"

// TestAnswered: data without errors passes; errors, request errors and
// text that is no answer fail; "errors" inside a string is no error.
func TestAnswered(t *testing.T) {
	for _, c := range []struct {
		body string
		want bool
	}{
		{`{"data":{"graphVersion":1}}` + "\n", true},
		{`{"data":{"search":[{"title":"on \"errors\": none"}]}}`, true},
		{`{"data":{"skill":null},"errors":[{"message":"x"}]}`, false},
		{`{"errors":[{"message":"parse"}]}`, false},
		{`{"data":null,"errors":[{"message":"x"}]}`, false},
		{`not found`, false},
		{``, false},
	} {
		if got := answered([]byte(c.body)); got != c.want {
			t.Errorf("answered(%s) = %v, want %v", c.body, got, c.want)
		}
	}
}
