package server

import (
	"bufio"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"strconv"
)

// reply is what an endpoint answers: wrap writes it, so a handler decides
// and one place writes (status, Content-Type, body). Headers besides
// Content-Type are set on the header the endpoint is given.
type reply struct {
	code  int
	ctype string // none for a reply without a body (304, 204, HEAD)
	body  []byte
	// value, when body is nil, is the body encoded as one line of JSON.
	value any
	// stream, when set, writes the body instead, streamed in
	// streamChunk-sized pieces: see sendStream for what a failure midway
	// does.
	stream func(io.Writer) error
	// handler, when set, answers instead: a handler of another package
	// that writes its own reply (GraphiQL's files, the page, Prometheus'
	// exposition, the MCP transport, a redirect).
	handler http.Handler
	// done, when set, runs once the reply is written (it gives back an
	// export slot).
	done func()
}

// endpoint answers one request. hdr is the response's header; the body
// of r is bounded by Config.MaxBodyBytes.
type endpoint func(hdr http.Header, r *http.Request) reply

// wrap is the one place that writes an endpoint's answer.
func (h *handlers) wrap(fn endpoint) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if r.Body != nil && r.Body != http.NoBody {
			r.Body = http.MaxBytesReader(w, r.Body, h.cfg.MaxBodyBytes)
		}
		h.write(w, r, fn(w.Header(), r))
	}
}

// write writes rep, then runs its done.
func (h *handlers) write(w http.ResponseWriter, r *http.Request, rep reply) {
	if rep.done != nil {
		defer rep.done()
	}
	switch {
	case rep.handler != nil:
		rep.handler.ServeHTTP(w, r)
	case rep.stream != nil:
		sendStream(w, r, rep, h.log)
	default:
		send(w, rep)
	}
}

// send writes rep: the status, then the body (text, or one line of JSON).
func send(w http.ResponseWriter, rep reply) {
	if rep.ctype != "" {
		w.Header().Set("Content-Type", rep.ctype)
	}
	if rep.body != nil && bodyAllowed(rep.code) {
		// a whole body's length is known: the client can size its
		// buffer, and a large answer is not framed in chunks
		w.Header().Set("Content-Length", strconv.Itoa(len(rep.body)))
	}
	w.WriteHeader(rep.code)
	switch {
	case rep.body != nil:
		_, _ = w.Write(rep.body)
	case rep.value != nil:
		_ = json.NewEncoder(w).Encode(rep.value)
	}
}

// bodyAllowed reports whether a reply of this status may carry a body
// (RFC 9110 §6.4.1: not 1xx, 204 or 304).
func bodyAllowed(code int) bool {
	return code >= 200 && code != http.StatusNoContent && code != http.StatusNotModified
}

// streamChunk is what a streamed reply holds before it answers: a stream
// that fails within it is a 500 with none of the reply's headers.
const streamChunk = 64 << 10

// sendStream writes a streamed reply streamChunk bytes at a time, so
// memory stays bounded whatever the body's size. The status and the
// headers set for the reply (an ETag) go out with the first chunk: a
// stream that fails before it answers 500 without them. One that fails
// after (a damaged page read midway, issue 28.7: a cleanly ended 87 KB
// body of a 12 MB export with ETag "g1-nquads") aborts the connection
// (http.ErrAbortHandler: no terminating chunk), so no client or cache
// takes the part for the whole.
func sendStream(w http.ResponseWriter, r *http.Request, rep reply, log *slog.Logger) {
	cw := &chunkWriter{w: w, rep: rep}
	bw := bufio.NewWriterSize(cw, streamChunk)
	err := rep.stream(bw)
	if err == nil {
		err = bw.Flush()
	}
	if err == nil {
		cw.start() // an empty body: headers only
		return
	}
	if r.Context().Err() != nil {
		log.Info("stream: the client went away", "path", r.URL.Path, "err", err)
		return
	}
	log.Error("stream failed", "path", r.URL.Path, "err", err)
	if !cw.started {
		w.Header().Del("ETag") // it would name the whole body
		send(w, textReply(http.StatusInternalServerError, "export failed: the store cannot be read\n"))
		return
	}
	panic(http.ErrAbortHandler)
}

// chunkWriter sends a streamed reply's status and headers with its first
// chunk of body.
type chunkWriter struct {
	w       http.ResponseWriter
	rep     reply
	started bool
}

func (c *chunkWriter) start() {
	if !c.started {
		c.started = true
		if c.rep.ctype != "" {
			c.w.Header().Set("Content-Type", c.rep.ctype)
		}
		c.w.WriteHeader(c.rep.code)
	}
}

func (c *chunkWriter) Write(p []byte) (int, error) {
	c.start()
	return c.w.Write(p)
}

// textReply is a plain-text answer.
func textReply(code int, s string) reply {
	return reply{code: code, ctype: "text/plain; charset=utf-8", body: []byte(s)}
}

// jsonReply is a JSON answer of type ctype.
func jsonReply(code int, ctype string, v any) reply {
	return reply{code: code, ctype: ctype, value: v}
}

// headReply answers a HEAD: the headers are the answer, a body would be
// discarded.
func headReply(ctype string) reply { return reply{code: http.StatusOK, ctype: ctype} }

// redirect answers with a redirect to url, as http.Redirect writes it.
func redirect(url string, code int) reply { return reply{handler: http.RedirectHandler(url, code)} }
