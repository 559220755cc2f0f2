package server

import (
	"errors"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// TestWrapWritesTheReply: wrap writes what an endpoint answers (status,
// Content-Type, the headers it set, a body of bytes or one line of JSON,
// or a page's own answer) and bounds the request body by MaxBodyBytes.
func TestWrapWritesTheReply(t *testing.T) {
	page := http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		w.WriteHeader(http.StatusTeapot)
		_, _ = io.WriteString(w, "<p>page</p>")
	})
	cases := []struct {
		name      string
		fn        endpoint
		body      string
		code      int
		ctype, hv string
		want      string
	}{
		{"text", func(hdr http.Header, _ *http.Request) reply {
			hdr.Set("X-Test", "1")
			return textReply(http.StatusOK, "ok\n")
		}, "", 200, "text/plain; charset=utf-8", "1", "ok\n"},
		{"json", func(http.Header, *http.Request) reply {
			return jsonReply(http.StatusServiceUnavailable, "application/json", map[string]int{"a": 1})
		}, "", 503, "application/json", "", "{\"a\":1}\n"},
		{"no body", func(http.Header, *http.Request) reply { return reply{code: http.StatusNotModified} }, "", 304, "", "", ""},
		{"a page answers", func(http.Header, *http.Request) reply { return reply{handler: page} }, "", 418, "text/html", "", "<p>page</p>"},
		{"body over the bound", func(_ http.Header, r *http.Request) reply {
			if _, err := io.ReadAll(r.Body); err != nil {
				return textReply(http.StatusRequestEntityTooLarge, err.Error())
			}
			return textReply(http.StatusOK, "read")
		}, strings.Repeat("x", 9), 413, "text/plain; charset=utf-8", "", "http: request body too large"},
		{"body within the bound", func(_ http.Header, r *http.Request) reply {
			b, _ := io.ReadAll(r.Body)
			return textReply(http.StatusOK, string(b))
		}, "12345678", 200, "text/plain; charset=utf-8", "", "12345678"},
		{"a stream", func(hdr http.Header, _ *http.Request) reply {
			hdr.Set("X-Test", "1")
			return reply{code: http.StatusOK, ctype: "application/n-quads", stream: func(w io.Writer) error {
				_, err := io.WriteString(w, "<a> <b> <c> .\n")
				return err
			}}
		}, "", 200, "application/n-quads", "1", "<a> <b> <c> .\n"},
		{"a stream that fails before its first chunk", func(hdr http.Header, _ *http.Request) reply {
			hdr.Set("ETag", `"g1-nquads"`)
			return reply{code: http.StatusOK, ctype: "application/n-quads", stream: func(w io.Writer) error {
				_, _ = io.WriteString(w, "<a> <b> ")
				return errors.New("page 3: damaged")
			}}
		}, "", 500, "text/plain; charset=utf-8", "", "export failed: the store cannot be read\n"},
	}
	h := &handlers{cfg: Config{MaxBodyBytes: 8}, log: slog.New(slog.DiscardHandler)}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			w := httptest.NewRecorder()
			var body io.Reader = http.NoBody
			if c.body != "" {
				body = strings.NewReader(c.body)
			}
			h.wrap(c.fn)(w, httptest.NewRequest(http.MethodPost, "/", body))
			if c.code == http.StatusInternalServerError && w.Header().Get("ETag") != "" {
				t.Fatalf("a failed stream kept its ETag %q", w.Header().Get("ETag"))
			}
			if w.Code != c.code || w.Header().Get("Content-Type") != c.ctype || w.Header().Get("X-Test") != c.hv || w.Body.String() != c.want {
				t.Fatalf("got %d %q X-Test=%q %q, want %d %q %q %q", w.Code, w.Header().Get("Content-Type"), w.Header().Get("X-Test"), w.Body.String(),
					c.code, c.ctype, c.hv, c.want)
			}
		})
	}
}

// TestWrapRunsDone: a reply's done (an export slot given back) runs once
// the reply is written, a stream's after its last byte.
func TestWrapRunsDone(t *testing.T) {
	h := &handlers{log: slog.New(slog.DiscardHandler)}
	var order []string
	h.wrap(func(http.Header, *http.Request) reply {
		return reply{code: http.StatusOK, done: func() { order = append(order, "done") }, stream: func(w io.Writer) error {
			order = append(order, "stream")
			return nil
		}}
	})(httptest.NewRecorder(), httptest.NewRequest(http.MethodGet, "/", nil))
	if strings.Join(order, ",") != "stream,done" {
		t.Fatalf("order %v, want the stream, then done", order)
	}
}
