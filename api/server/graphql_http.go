package server

import (
	"context"
	"crypto/subtle"
	"encoding/json"
	"errors"
	"fmt"
	"mime"
	"net/http"
	"strconv"
	"strings"

	"github.com/skillgraph/skillgraph/api"
)

// gqlError is a GraphQL-shaped error answer.
func gqlError(code int, ctype, msg string) reply {
	return jsonReply(code, ctype, map[string]any{"errors": []any{map[string]any{"message": msg}}})
}

// headerDurable is on every /graphql answer: "true" when it is computed
// from a graph version committed to the store, "false" while a cold start
// serves answers whose store write is still running (or failed).
const headerDurable = "Skillgraph-Durable"

// retryNotDurable is the Retry-After (seconds) of a request refused
// because the answers are not durable yet.
const retryNotDurable = "5"

const (
	mediaGraphQLResponse = "application/graphql-response+json"
	mediaJSON            = "application/json"
)

// graphqlMediaType negotiates the response type of /graphql (GraphQL over
// HTTP §6.3.2): application/graphql-response+json when the client names it
// with a q-value at least that of application/json, application/json when
// it accepts that (wildcards included; no Accept header is a legacy
// client), "" when it accepts neither.
func graphqlMediaType(r *http.Request) string {
	if accepts(r, mediaGraphQLResponse) {
		return negotiate(r, mediaGraphQLResponse, mediaJSON)
	}
	return negotiate(r, mediaJSON)
}

// graphql serves /graphql: the request is read (graphqlRequest), then
// answered from the snapshot served (answer). Request errors (bad
// parameters, parse, limits, validation) have no data entry; with
// application/graphql-response+json they are 400 and everything else 200,
// with application/json every well-formed request is 200 (GraphQL over
// HTTP §6.4).
func (h *handlers) graphql(hdr http.Header, r *http.Request) reply {
	q, fail := h.graphqlRequest(hdr, r)
	if fail != nil {
		return *fail
	}
	return h.answer(hdr, r, q)
}

// gqlRequest is one /graphql request as read: the GraphQL request, the
// response type negotiated and its Content-Type.
type gqlRequest struct {
	api.Request
	mt, ctype string
	modern    bool // application/graphql-response+json
}

// graphqlRequest reads the method, Accept, and the GraphQL request of the
// query string (GET, HEAD) or JSON body (POST); a reply when there is
// none to answer (an error, or GraphiQL for a browser's GET).
func (h *handlers) graphqlRequest(hdr http.Header, r *http.Request) (gqlRequest, *reply) {
	fail := func(rep reply) (gqlRequest, *reply) { return gqlRequest{}, &rep }
	switch r.Method {
	case http.MethodGet, http.MethodHead, http.MethodPost:
	default:
		// chi's own 405 names one method at a time
		hdr.Set("Allow", "GET, HEAD, POST")
		return fail(gqlError(http.StatusMethodNotAllowed, mediaJSON+"; charset=utf-8", "/graphql answers GET, HEAD and POST"))
	}
	q := gqlRequest{mt: graphqlMediaType(r)}
	q.modern = q.mt == mediaGraphQLResponse
	q.ctype = mediaJSON + "; charset=utf-8"
	if q.modern {
		q.ctype = mediaGraphQLResponse + "; charset=utf-8"
	}
	if q.mt == "" && !(r.Method != http.MethodPost && r.URL.Query().Get("query") == "" && accepts(r, "text/html")) {
		return fail(gqlError(http.StatusNotAcceptable, q.ctype, "Accept must allow application/graphql-response+json or application/json"))
	}
	switch r.Method {
	case http.MethodGet, http.MethodHead:
		v := r.URL.Query()
		q.Query = v.Get("query")
		q.OperationName = v.Get("operationName")
		if s := v.Get("variables"); s != "" {
			if err := json.Unmarshal([]byte(s), &q.Variables); err != nil {
				return fail(gqlError(http.StatusBadRequest, q.ctype, "variables must be a JSON object: "+err.Error()))
			}
		}
		if s := v.Get("extensions"); s != "" {
			if err := json.Unmarshal([]byte(s), &q.Extensions); err != nil {
				return fail(gqlError(http.StatusBadRequest, q.ctype, "extensions must be a JSON object: "+err.Error()))
			}
		}
		if q.Query == "" && accepts(r, "text/html") {
			return fail(h.graphiql(hdr, r))
		}
	case http.MethodPost:
		mt, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
		switch mt {
		case "application/json", "":
			if err := json.NewDecoder(r.Body).Decode(&q.Request); err != nil {
				var mbe *http.MaxBytesError
				if errors.As(err, &mbe) {
					return fail(gqlError(http.StatusRequestEntityTooLarge, q.ctype, fmt.Sprintf("request body over %d bytes", h.cfg.MaxBodyBytes)))
				}
				return fail(gqlError(http.StatusBadRequest, q.ctype, "request body must be JSON {query, variables, operationName, extensions}: "+err.Error()))
			}
		default:
			return fail(gqlError(http.StatusUnsupportedMediaType, q.ctype, "Content-Type must be application/json"))
		}
	}
	if strings.TrimSpace(q.Query) == "" {
		return fail(gqlError(http.StatusBadRequest, q.ctype, "missing query"))
	}
	return q, nil
}

// answer executes q on the snapshot served: from the cache when this
// snapshot answered it before (304 when the client holds it), a mutation
// only with the token and while the answers are durable.
func (h *handlers) answer(hdr http.Header, r *http.Request, q gqlRequest) reply {
	ctype := q.ctype
	snap := h.svc.Snapshot()
	if snap == nil {
		return gqlError(http.StatusServiceUnavailable, ctype, "not ready: no snapshot yet")
	}
	authCode, authMsg := h.authorize(r)
	if authCode == http.StatusTooManyRequests {
		_, wait := h.tokens.blocked(client(r))
		hdr.Set("Retry-After", retryAfter(wait))
		return gqlError(authCode, ctype, authMsg)
	}
	viewer := api.Viewer{CanRecord: authCode == 0, ReadOnly: h.cfg.Token == ""}
	// Whether these answers are of a version committed to the store (a
	// cold start serves them before, docs/http.md).
	durable := h.svc.durable(snap)
	hdr.Set(headerDurable, strconv.FormatBool(durable))
	// Answers are cached per snapshot; the ETag names the version and the
	// request, so a client revalidating a GET gets 304 while the graph is
	// unchanged. A mutation is never stored, so a hit is always a query.
	// Answers not yet durable carry another tag: the version they name is
	// only promised until the write commits.
	key := cacheKey(snap.Version, q.mt, viewer, q.Request)
	kind := "q"
	if !durable {
		kind = "e"
	}
	tag := etag(snap.Version, kind+key[:16])
	hdr.Set("Vary", "Accept, Authorization")
	if r.Method == http.MethodGet || r.Method == http.MethodHead {
		hdr.Set("ETag", tag)
		if matches(r, tag) {
			return reply{code: http.StatusNotModified}
		}
	}
	if body, ok := h.cache.get(snap, key); ok {
		hdr.Set("ETag", tag)
		return reply{code: http.StatusOK, ctype: ctype, body: body}
	}
	doc, err := h.docs.Parse(q.Query, h.cfg.Limits)
	if err != nil {
		code := http.StatusOK
		if q.modern {
			code = http.StatusBadRequest
		}
		hdr.Del("ETag")
		return jsonReply(code, ctype, api.ErrorResponse(err))
	}
	ctx, cancel := context.WithTimeout(r.Context(), h.cfg.RequestTimeout)
	defer cancel()
	ctx = api.WithFiles(api.WithViewer(ctx, viewer), h.cfg.Files)
	ctx = api.WithHistory(ctx, h.svc)
	mutation := doc.IsMutation(q.OperationName)
	if mutation {
		if r.Method != http.MethodPost {
			hdr.Set("Allow", "POST")
			return gqlError(http.StatusMethodNotAllowed, ctype, "mutations need POST")
		}
		if authCode != 0 {
			if authCode == http.StatusUnauthorized {
				hdr.Set("WWW-Authenticate", `Bearer realm="skillgraph"`)
			}
			return gqlError(authCode, ctype, authMsg)
		}
		if !durable {
			// A mutation is a store write on top of the version served,
			// which is not in the store yet: retry once it is.
			hdr.Set("Retry-After", retryNotDurable)
			return gqlError(http.StatusServiceUnavailable, ctype, ErrNotDurable.Error())
		}
		ctx = api.WithMutator(ctx, h.svc)
	}
	var res *api.Response
	if mutation {
		res = h.schema.ExecuteDocument(ctx, snap, doc, q.Request, h.cfg.Limits)
	} else {
		// root fields asked before under this snapshot are not computed again
		res = h.schema.ExecuteShared(ctx, snap, doc, q.Request, h.cfg.Limits, fieldCache{h.cache})
	}
	code := http.StatusOK
	if q.modern && res.RequestError {
		code = http.StatusBadRequest
	}
	if mutation || len(res.Errors) > 0 {
		// not stored, so not revalidated: an error may be transient
		hdr.Del("ETag")
		return jsonReply(code, ctype, res)
	}
	body, err := res.Encode()
	if err != nil {
		return gqlError(http.StatusInternalServerError, ctype, "encode response: "+err.Error())
	}
	body = append(body, '\n')
	h.cache.put(snap, key, body)
	hdr.Set("ETag", tag)
	return reply{code: code, ctype: ctype, body: body}
}

// authorize checks the bearer token: 0 when allowed, else a status and why.
func (h *handlers) authorize(r *http.Request) (int, string) {
	if h.cfg.Token == "" {
		return http.StatusForbidden, "mutations are disabled: start the server with SKILLGRAPH_TOKEN set"
	}
	auth := r.Header.Get("Authorization")
	tok, ok := strings.CutPrefix(auth, "Bearer ")
	if !ok || tok == "" {
		return http.StatusUnauthorized, "mutations need an Authorization: Bearer <token> header"
	}
	c := client(r)
	if stop, wait := h.tokens.blocked(c); stop {
		return http.StatusTooManyRequests, "too many wrong tokens from this client: retry in " + retryAfter(wait) + " s"
	}
	if subtle.ConstantTimeCompare([]byte(tok), []byte(h.cfg.Token)) != 1 {
		h.tokens.failed(c)
		return http.StatusForbidden, "wrong token"
	}
	return 0, ""
}
