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
func (h *handlers) diagram(w http.ResponseWriter, r *http.Request) {
	snap := h.svc.Snapshot()
	if snap == nil {
		http.Error(w, "not ready: no snapshot yet", http.StatusServiceUnavailable)
		return
	}
	p := snap.Process(chi.URLParam(r, "id"))
	if p == nil || p.Source == nil {
		http.Error(w, "no such process", http.StatusNotFound)
		return
	}
	if h.cfg.Files == nil {
		http.Error(w, "no diagram: this server reads no corpus folder (a read-only replica)", http.StatusNotFound)
		return
	}
	b, ok := h.cfg.Files.ReadSource(p.Source)
	if !ok {
		http.Error(w, "no diagram: "+p.Source.Path+" is not in the corpus as it was read (changed or removed since)", http.StatusNotFound)
		return
	}
	w.Header().Set("Content-Type", "application/xml; charset=utf-8")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.Header().Set("Cache-Control", "no-cache")
	// The file is data for a script of this origin, never a document.
	w.Header().Set("Content-Security-Policy", "default-src 'none'; sandbox")
	w.Header().Set("Content-Disposition", "inline; filename="+fmt.Sprintf("%q", filepath.Base(p.Source.Path)))
	if r.Method != http.MethodHead {
		_, _ = w.Write(b)
	}
}
