package server

import (
	"fmt"
	"net/http"
	"path/filepath"

	"github.com/go-chi/chi/v5"
)

// diagram serves GET /diagram/{id}: the BPMN file the process {id} was
// read from, exactly as read (its SHA-256 equals the one the snapshot
// records), so the page can draw it with its BPMN DI (issue 25.8). The
// drawing is the file's, the colours the snapshot's: the page takes the
// steps' coverage and reachability from /graphql. A replica has no corpus,
// and a file changed or removed since it was read is not the one the
// answers describe: both are 404s, and the page keeps its step table.
func (h *handlers) diagram(hdr http.Header, r *http.Request) reply {
	snap := h.svc.Snapshot()
	if snap == nil {
		return plainError(hdr, http.StatusServiceUnavailable, "not ready: no snapshot yet")
	}
	p := snap.Process(chi.URLParam(r, "id"))
	if p == nil || p.Source == nil {
		return plainError(hdr, http.StatusNotFound, "no such process")
	}
	if h.cfg.Files == nil {
		return plainError(hdr, http.StatusNotFound, "no diagram: this server reads no corpus folder (a read-only replica)")
	}
	b, ok := h.cfg.Files.ReadSource(p.Source)
	if !ok {
		return plainError(hdr, http.StatusNotFound, "no diagram: "+p.Source.Path+" is not in the corpus as it was read (changed or removed since)")
	}
	hdr.Set("X-Content-Type-Options", "nosniff")
	hdr.Set("Cache-Control", "no-cache")
	// The file is data for a script of this origin, never a document.
	hdr.Set("Content-Security-Policy", "default-src 'none'; sandbox")
	hdr.Set("Content-Disposition", "inline; filename="+fmt.Sprintf("%q", filepath.Base(p.Source.Path)))
	if r.Method == http.MethodHead {
		return headReply("application/xml; charset=utf-8")
	}
	return reply{code: http.StatusOK, ctype: "application/xml; charset=utf-8", body: b}
}

// plainError is http.Error's answer: plain text, not to be sniffed.
func plainError(hdr http.Header, code int, msg string) reply {
	hdr.Set("X-Content-Type-Options", "nosniff")
	return textReply(code, msg+"\n")
}
