package web

import (
	"bytes"
	"io/fs"
	"net/http"
	"path"
	"strings"
	"time"
)

// explorerFiles maps the files under /graphiql/ to their embedded paths:
// the GraphiQL bundle built by scripts/vendor-web.sh, its licences, and
// the page's own frame stylesheet. Any other name is a 404.
var explorerFiles = map[string]string{
	"graphiql.js":  "vendor/graphiql/graphiql.js",
	"graphiql.css": "vendor/graphiql/graphiql.css",
	"LICENSES.txt": "vendor/graphiql/LICENSES.txt",
	"page.css":     "graphiql-page.css",
	"favicon.svg":  "favicon.svg",
}

// Explorer serves GraphiQL (issue #25.6): the page at the path it is
// mounted on (/graphiql, and /graphql when a browser asks for HTML) and
// its bundle at /graphiql/<file>. It is offline (every file embedded) and
// runs under the same strict CSP as the triage page.
func Explorer() http.Handler {
	files := Assets()
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			w.Header().Set("Allow", "GET, HEAD")
			http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
			return
		}
		setHeaders(w)
		p := path.Clean("/" + r.URL.Path)
		file := "graphiql.html"
		if name, asset := strings.CutPrefix(p, "/graphiql/"); asset {
			f, ok := explorerFiles[name]
			if !ok {
				http.NotFound(w, r)
				return
			}
			file = f
		} else if p != "/graphiql" && p != "/graphql" {
			http.NotFound(w, r) // a path that only cleans to the mount's
			return
		}
		serveEmbedded(w, r, files, file)
	})
}

// serveEmbedded serves one embedded file by its (already checked) name;
// its type comes from the extension.
func serveEmbedded(w http.ResponseWriter, r *http.Request, files fs.FS, name string) {
	b, err := fs.ReadFile(files, name)
	if err != nil {
		http.NotFound(w, r)
		return
	}
	http.ServeContent(w, r, name, time.Time{}, bytes.NewReader(b))
}
