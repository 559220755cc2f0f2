package server

import (
	"embed"
	"io/fs"
	"net/http"
	"path"
	"strings"
)

// The GraphQL explorer served at /graphiql (issue #12): our own small
// page of plain ES modules, embedded, with no build step and no network
// beyond the same origin's /graphql. It introspects the schema, browses its
// documentation and autocompletes fields and arguments.
//
//go:embed assets/graphiql.html assets/graphiql
var explorerFS embed.FS

// explorerCSP keeps the explorer to its own origin: no inline script or
// style, nothing remote, no framing.
const explorerCSP = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; " +
	"connect-src 'self'; form-action 'none'; base-uri 'none'; frame-ancestors 'none'"

func explorerHeaders(w http.ResponseWriter) {
	h := w.Header()
	h.Set("Content-Security-Policy", explorerCSP)
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Referrer-Policy", "no-referrer")
	// Assets change only with the binary; revalidate so an upgrade never
	// runs a stale script against a new schema.
	h.Set("Cache-Control", "no-cache")
}

// graphiql serves the explorer's page (also GET /graphql asked for HTML).
func (h *handlers) graphiql(w http.ResponseWriter, r *http.Request) {
	explorerHeaders(w)
	http.ServeFileFS(w, r, explorerFS, "assets/graphiql.html")
}

// graphiqlAsset serves /graphiql/<file> from the embedded explorer; any
// other path is a 404 (and /graphiql/ itself goes to the page).
func (h *handlers) graphiqlAsset(w http.ResponseWriter, r *http.Request) {
	name := strings.TrimPrefix(path.Clean(r.URL.Path), "/graphiql")
	name = strings.TrimPrefix(name, "/")
	if name == "" {
		http.Redirect(w, r, "/graphiql", http.StatusMovedPermanently)
		return
	}
	file := "assets/graphiql/" + name
	if st, err := fs.Stat(explorerFS, file); err != nil || st.IsDir() {
		http.NotFound(w, r)
		return
	}
	explorerHeaders(w)
	http.ServeFileFS(w, r, explorerFS, file)
}
