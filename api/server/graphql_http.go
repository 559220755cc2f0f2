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

// gqlError is a GraphQL-shaped error response.
func gqlError(w http.ResponseWriter, code int, ctype, msg string) {
	writeJSON(w, code, ctype, map[string]any{"errors": []any{map[string]any{"message": msg}}})
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

// graphql serves /graphql. Request errors (bad parameters, parse, limits,
// validation) have no data entry; with application/graphql-response+json
// they are 400 and everything else 200, with application/json every
// well-formed request is 200 (GraphQL over HTTP §6.4).
func (h *handlers) graphql(w http.ResponseWriter, r *http.Request) {
	switch r.Method {
	case http.MethodGet, http.MethodHead, http.MethodPost:
	default:
		// chi's own 405 names one method at a time
		w.Header().Set("Allow", "GET, HEAD, POST")
		gqlError(w, http.StatusMethodNotAllowed, mediaJSON+"; charset=utf-8", "/graphql answers GET, HEAD and POST")
		return
	}
	mt := graphqlMediaType(r)
	modern := mt == mediaGraphQLResponse
	ctype := mediaJSON + "; charset=utf-8"
	if modern {
		ctype = mediaGraphQLResponse + "; charset=utf-8"
	}
	if mt == "" && !(r.Method != http.MethodPost && r.URL.Query().Get("query") == "" && accepts(r, "text/html")) {
		gqlError(w, http.StatusNotAcceptable, ctype, "Accept must allow application/graphql-response+json or application/json")
		return
	}
	var req api.Request
	switch r.Method {
	case http.MethodGet, http.MethodHead:
		q := r.URL.Query()
		req.Query = q.Get("query")
		req.OperationName = q.Get("operationName")
		if v := q.Get("variables"); v != "" {
			if err := json.Unmarshal([]byte(v), &req.Variables); err != nil {
				gqlError(w, http.StatusBadRequest, ctype, "variables must be a JSON object: "+err.Error())
				return
			}
		}
		if v := q.Get("extensions"); v != "" {
			if err := json.Unmarshal([]byte(v), &req.Extensions); err != nil {
				gqlError(w, http.StatusBadRequest, ctype, "extensions must be a JSON object: "+err.Error())
				return
			}
		}
		if req.Query == "" && accepts(r, "text/html") {
			h.graphiql(w, r)
			return
		}
	case http.MethodPost:
		mt, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
		body := http.MaxBytesReader(w, r.Body, h.cfg.MaxBodyBytes)
		switch mt {
		case "application/json", "":
			dec := json.NewDecoder(body)
			if err := dec.Decode(&req); err != nil {
				var mbe *http.MaxBytesError
				if errors.As(err, &mbe) {
					gqlError(w, http.StatusRequestEntityTooLarge, ctype, fmt.Sprintf("request body over %d bytes", h.cfg.MaxBodyBytes))
					return
				}
				gqlError(w, http.StatusBadRequest, ctype, "request body must be JSON {query, variables, operationName, extensions}: "+err.Error())
				return
			}
		default:
			gqlError(w, http.StatusUnsupportedMediaType, ctype, "Content-Type must be application/json")
			return
		}
	}
	if strings.TrimSpace(req.Query) == "" {
		gqlError(w, http.StatusBadRequest, ctype, "missing query")
		return
	}
	snap := h.svc.Snapshot()
	if snap == nil {
		gqlError(w, http.StatusServiceUnavailable, ctype, "not ready: no snapshot yet")
		return
	}
	authCode, authMsg := h.authorize(r)
	if authCode == http.StatusTooManyRequests {
		_, wait := h.tokens.blocked(client(r))
		w.Header().Set("Retry-After", retryAfter(wait))
		gqlError(w, authCode, ctype, authMsg)
		return
	}
	viewer := api.Viewer{CanRecord: authCode == 0, ReadOnly: h.cfg.Token == ""}
	// Whether these answers are of a version committed to the store (a
	// cold start serves them before, docs/http.md).
	durable := h.svc.durable(snap)
	w.Header().Set(headerDurable, strconv.FormatBool(durable))
	// Answers are cached per snapshot; the ETag names the version and the
	// request, so a client revalidating a GET gets 304 while the graph is
	// unchanged. A mutation is never stored, so a hit is always a query.
	// Answers not yet durable carry another tag: the version they name is
	// only promised until the write commits.
	key := cacheKey(snap.Version, mt, viewer, req)
	kind := "q"
	if !durable {
		kind = "e"
	}
	tag := etag(snap.Version, kind+key[:16])
	w.Header().Set("Vary", "Accept, Authorization")
	if r.Method == http.MethodGet || r.Method == http.MethodHead {
		if notModified(w, r, tag) {
			return
		}
	}
	if body, ok := h.cache.get(snap, key); ok {
		w.Header().Set("ETag", tag)
		w.Header().Set("Content-Type", ctype)
		w.WriteHeader(http.StatusOK)
		_, _ = w.Write(body)
		return
	}
	doc, err := h.docs.Parse(req.Query, h.cfg.Limits)
	if err != nil {
		code := http.StatusOK
		if modern {
			code = http.StatusBadRequest
		}
		w.Header().Del("ETag")
		writeJSON(w, code, ctype, api.ErrorResponse(err))
		return
	}
	ctx, cancel := context.WithTimeout(r.Context(), h.cfg.RequestTimeout)
	defer cancel()
	ctx = api.WithFiles(api.WithViewer(ctx, viewer), h.cfg.Files)
	ctx = api.WithHistory(ctx, h.svc)
	mutation := doc.IsMutation(req.OperationName)
	if mutation {
		if r.Method != http.MethodPost {
			w.Header().Set("Allow", "POST")
			gqlError(w, http.StatusMethodNotAllowed, ctype, "mutations need POST")
			return
		}
		if authCode != 0 {
			if authCode == http.StatusUnauthorized {
				w.Header().Set("WWW-Authenticate", `Bearer realm="skillgraph"`)
			}
			gqlError(w, authCode, ctype, authMsg)
			return
		}
		if !durable {
			// A mutation is a store write on top of the version served,
			// which is not in the store yet: retry once it is.
			w.Header().Set("Retry-After", retryNotDurable)
			gqlError(w, http.StatusServiceUnavailable, ctype, ErrNotDurable.Error())
			return
		}
		ctx = api.WithMutator(ctx, h.svc)
	}
	var res *api.Response
	if mutation {
		res = h.schema.ExecuteDocument(ctx, snap, doc, req, h.cfg.Limits)
	} else {
		// root fields asked before under this snapshot are not computed again
		res = h.schema.ExecuteShared(ctx, snap, doc, req, h.cfg.Limits, fieldCache{h.cache})
	}
	code := http.StatusOK
	if modern && res.RequestError {
		code = http.StatusBadRequest
	}
	if mutation || len(res.Errors) > 0 {
		// not stored, so not revalidated: an error may be transient
		w.Header().Del("ETag")
		writeJSON(w, code, ctype, res)
		return
	}
	body, err := res.Encode()
	if err != nil {
		gqlError(w, http.StatusInternalServerError, ctype, "encode response: "+err.Error())
		return
	}
	body = append(body, '\n')
	h.cache.put(snap, key, body)
	w.Header().Set("ETag", tag)
	w.Header().Set("Content-Type", ctype)
	w.WriteHeader(code)
	_, _ = w.Write(body)
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
