package server

import (
	"encoding/json"
	"net/http"
)

// reply is what an endpoint answers: wrap writes it, so a handler decides
// and one place writes (status, Content-Type, body). Headers besides
// Content-Type are set on the header the endpoint is given.
type reply struct {
	code  int
	ctype string // none for a reply without a body (304, 204)
	body  []byte
	// value, when body is nil, is the body encoded as one line of JSON.
	value any
	// page, when set, answers instead: a page or file server of package
	// web (GraphiQL), which writes its own files.
	page http.Handler
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
		rep := fn(w.Header(), r)
		if rep.page != nil {
			rep.page.ServeHTTP(w, r)
			return
		}
		send(w, rep)
	}
}

// send writes rep: the status, then the body (text, or one line of JSON).
func send(w http.ResponseWriter, rep reply) {
	if rep.ctype != "" {
		w.Header().Set("Content-Type", rep.ctype)
	}
	w.WriteHeader(rep.code)
	switch {
	case rep.body != nil:
		_, _ = w.Write(rep.body)
	case rep.value != nil:
		_ = json.NewEncoder(w).Encode(rep.value)
	}
}

// textReply is a plain-text answer.
func textReply(code int, s string) reply {
	return reply{code: code, ctype: "text/plain; charset=utf-8", body: []byte(s)}
}

// jsonReply is a JSON answer of type ctype.
func jsonReply(code int, ctype string, v any) reply {
	return reply{code: code, ctype: ctype, value: v}
}

// writeText writes a plain-text answer through send (handlers that are
// not endpoints yet: the exports, which stream).
func writeText(w http.ResponseWriter, code int, s string) { send(w, textReply(code, s)) }

// writeJSON writes a JSON answer through send.
func writeJSON(w http.ResponseWriter, code int, ctype string, v any) {
	send(w, jsonReply(code, ctype, v))
}
