// Package web is skillgraph's coverage-triage page (SPEC §6.3): a small
// vanilla-JS application and its stylesheet, embedded in the binary and
// served at GET /. The page talks only to the same origin's /graphql; it
// needs no network, no build step and no third-party code at run time.
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

// contentSecurityPolicy keeps the page to its own origin: no inline script,
// no remote script, style, font or image, no framing.
const contentSecurityPolicy = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; " +
	"connect-src 'self'; form-action 'none'; base-uri 'none'; frame-ancestors 'none'"

// Assets returns the embedded files of the page (index.html, app.js,
// style.css, favicon.svg) rooted at their directory.
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
		h := w.Header()
		h.Set("Content-Security-Policy", contentSecurityPolicy)
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("Referrer-Policy", "no-referrer")
		p := path.Clean("/" + r.URL.Path)
		if p == "/" || p == "/index.html" {
			h.Set("Cache-Control", "no-cache")
			http.ServeFileFS(w, r, files, "index.html")
			return
		}
		name := strings.TrimPrefix(p, "/")
		if st, err := fs.Stat(files, name); err != nil || st.IsDir() {
			http.NotFound(w, r)
			return
		}
		// Assets change only with the binary; revalidate so an upgrade
		// never serves a stale script against a new schema.
		h.Set("Cache-Control", "no-cache")
		static.ServeHTTP(w, r)
	})
}
