package server

import (
	"net/http"
	"slices"
	"strings"
)

// CORS for dashboards served from another origin (issue 25.9; `serve
// --cors-origin`). Off by default: without configured origins no response
// carries an Access-Control header, so a browser keeps other origins'
// scripts from reading the API, as before. With origins, a request whose
// Origin is one of them (or any, for "*") gets
// Access-Control-Allow-Origin naming it, and a preflight (OPTIONS with
// Access-Control-Request-Method) is answered 204 with the methods and
// headers a GraphQL client sends. Mutations still need the bearer token:
// CORS only lets the browser show the answer to the page that asked.
// Credentials (cookies) are never allowed: the API uses none.

// corsMethods and corsHeaders are what a cross-origin GraphQL client sends.
const (
	corsMethods = "GET, HEAD, POST, OPTIONS"
	corsHeaders = "Authorization, Content-Type, Accept"
	corsMaxAge  = "600"
)

// cors is the middleware for the configured origins; with none it passes
// every request through untouched.
func cors(origins []string) func(http.Handler) http.Handler {
	all := slices.Contains(origins, "*")
	allowed := func(o string) bool { return o != "" && (all || slices.Contains(origins, strings.TrimSuffix(o, "/"))) }
	return func(next http.Handler) http.Handler {
		if len(origins) == 0 {
			return next
		}
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Add("Vary", "Origin")
			origin := r.Header.Get("Origin")
			if !allowed(origin) {
				next.ServeHTTP(w, r)
				return
			}
			if all {
				w.Header().Set("Access-Control-Allow-Origin", "*")
			} else {
				w.Header().Set("Access-Control-Allow-Origin", origin)
			}
			if r.Method == http.MethodOptions && r.Header.Get("Access-Control-Request-Method") != "" {
				w.Header().Add("Vary", "Access-Control-Request-Method")
				w.Header().Add("Vary", "Access-Control-Request-Headers")
				w.Header().Set("Access-Control-Allow-Methods", corsMethods)
				w.Header().Set("Access-Control-Allow-Headers", corsHeaders)
				w.Header().Set("Access-Control-Max-Age", corsMaxAge)
				send(w, reply{code: http.StatusNoContent})
				return
			}
			w.Header().Set("Access-Control-Expose-Headers", "ETag")
			next.ServeHTTP(w, r)
		})
	}
}

// graphqlOptions answers OPTIONS /graphql that cors did not (no origins
// configured, or one not allowed): 204 with Allow, no CORS headers, so a
// browser's preflight fails closed while the method itself is not 405.
func graphqlOptions(hdr http.Header, _ *http.Request) reply {
	hdr.Set("Allow", corsMethods)
	return reply{code: http.StatusNoContent}
}
