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
func (h *handlers) exportMCPTools(hdr http.Header, r *http.Request) reply {
	snap := h.svc.Snapshot()
	if snap == nil {
		hdr.Set("Retry-After", retryNotDurable)
		return textReply(http.StatusServiceUnavailable, "no snapshot yet: the first ingest is running\n")
	}
	server := r.URL.Query().Get("server")
	if rep, ok := notModified(hdr, r, etag(snap.Version, "mcp-tools-"+url.PathEscape(server))); ok {
		return rep
	}
	if r.Method == http.MethodHead {
		return headReply(typeJSON)
	}
	return jsonReply(http.StatusOK, typeJSON, snap.MCPTools(server))
}
