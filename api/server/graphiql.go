package server

import "net/http"

// graphiql serves GraphQL's browser page at /graphiql (also GET /graphql
// asked for HTML, and the page's files at /graphiql/<file>) through
// Config.Explorer: GraphiQL lives with the other pages in package web,
// which comes after this one in the data flow. Without one it is a 404
// that says where the API is.
func (h *handlers) graphiql(hdr http.Header, _ *http.Request) reply {
	if h.cfg.Explorer == nil {
		// as http.Error answers
		hdr.Del("Content-Length")
		hdr.Set("X-Content-Type-Options", "nosniff")
		return textReply(http.StatusNotFound, "this server has no GraphiQL page; POST GraphQL to /graphql\n")
	}
	return reply{handler: h.cfg.Explorer}
}
