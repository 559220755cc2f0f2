package server

import (
	"net/http"
	"net/url"
)

// exportMCPTools serves /export?format=mcp-tools[&server=NAME]: the
// current snapshot's Tools as one MCP tools/list result (queries.MCPTools,
// the same projection as `skillgraph export --format mcp-tools`). It is
// answered from the snapshot, so it does not wait for a cold start's store
// write as the quad exports do.
func (h *handlers) exportMCPTools(w http.ResponseWriter, r *http.Request) {
	snap := h.svc.Snapshot()
	if snap == nil {
		w.Header().Set("Retry-After", retryNotDurable)
		writeText(w, http.StatusServiceUnavailable, "no snapshot yet: the first ingest is running\n")
		return
	}
	server := r.URL.Query().Get("server")
	if notModified(w, r, etag(snap.Version, "mcp-tools-"+url.PathEscape(server))) {
		return
	}
	if r.Method == http.MethodHead {
		w.Header().Set("Content-Type", typeJSON)
		return
	}
	writeJSON(w, http.StatusOK, typeJSON, snap.MCPTools(server))
}
