package record

import "testing"

// TestCountAndArticle (issue 25.11): one helper for every count and
// article a message prints.
func TestCountAndArticle(t *testing.T) {
	for _, tc := range []struct{ got, want string }{
		{Count(1, "package", ""), "1 package"},
		{Count(3, "package", ""), "3 packages"},
		{Count(0, "error", ""), "0 errors"},
		{Count(1, "info", "info"), "1 info"},
		{Count(2, "process", "processes"), "2 processes"},
		{A("epic"), "an epic"},
		{A("task"), "a task"},
		{A("milestone"), "a milestone"},
		{A("Item"), "an Item"},
		{A(""), "a "},
	} {
		if tc.got != tc.want {
			t.Errorf("%q, want %q", tc.got, tc.want)
		}
	}
}
