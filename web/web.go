// Package web is skillgraph's pages: the coverage-triage page (SPEC §6.3),
// a small vanilla-JS application and its stylesheet served at GET /, and
// GraphiQL at /graphiql. Both are embedded in the binary, talk only to the
// same origin's /graphql and run under one strict CSP. The third-party
// code (GraphiQL; bpmn-js, bpmn-auto-layout and elkjs for the pictures) is
// bundled from lock files by scripts/vendor-web.sh into assets/vendor and
// checked in, so building and serving needs Go alone.
package web

import (
	"embed"
	"io/fs"
	"net/http"
	"path"
	"strings"
)

//go:embed assets
var assets embed.FS

// ContentSecurityPolicy is the one policy of every page skillgraph serves
// (the triage page and GraphiQL): scripts and styles only from the same
// origin (no inline script or style, no eval), nothing remote, no framing.
// Fonts and images may also be data: URLs, the form GraphiQL's stylesheet
// embeds its fonts in; data: cannot reach the network either.
const ContentSecurityPolicy = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; " +
	"font-src 'self' data:; connect-src 'self'; form-action 'none'; base-uri 'none'; frame-ancestors 'none'"

// setHeaders sets the security headers and the cache rule of every
// response of the pages: assets change only with the binary, so clients
// revalidate and an upgrade never runs a stale script against a new schema.
func setHeaders(w http.ResponseWriter) {
	h := w.Header()
	h.Set("Content-Security-Policy", ContentSecurityPolicy)
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Referrer-Policy", "no-referrer")
	h.Set("Cache-Control", "no-cache")
}

// Assets returns the embedded files of the pages (index.html, app.js,
// style.css, favicon.svg, graphiql.html, vendor/…) rooted at their
// directory.
func Assets() fs.FS {
	sub, err := fs.Sub(assets, "assets")
	if err != nil {
		panic(err) // the directory is embedded at compile time
	}
	return sub
}

// Handler serves the triage page at / and its embedded assets. Views are
// addressed by the URL fragment (/#/skill/<id>), so every other path is a
// 404; only GET and HEAD are allowed.
func Handler() http.Handler {
	files := Assets()
	static := http.FileServerFS(files)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			w.Header().Set("Allow", "GET, HEAD")
			http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
			return
		}
		setHeaders(w)
		p := path.Clean("/" + r.URL.Path)
		if p == "/" || p == "/index.html" {
			http.ServeFileFS(w, r, files, "index.html")
			return
		}
		name := strings.TrimPrefix(p, "/")
		if st, err := fs.Stat(files, name); err != nil || st.IsDir() {
			http.NotFound(w, r)
			return
		}
		static.ServeHTTP(w, r)
	})
}
