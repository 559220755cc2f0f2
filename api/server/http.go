package server

import (
	"fmt"
	"log/slog"
	"net/http"
	"time"

	"github.com/go-chi/chi/v5"
	"github.com/go-chi/chi/v5/middleware"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/skillgraph/skillgraph/api"
	"github.com/skillgraph/skillgraph/api/mcpserve"
)

// Config tunes the HTTP layer.
type Config struct {
	Token          string        // bearer token for mutations; "" disables them
	MaxBodyBytes   int64         // request body cap
	RequestTimeout time.Duration // per-request deadline
	Limits         api.Limits    // GraphQL depth and cost
	// MaxJSONLDQuads bounds a whole-graph JSON-LD export: compaction in
	// json-gold costs ~17 s and 2.8 GB per million quads here.
	MaxJSONLDQuads int
	// MaxJSONLDExports bounds the whole-graph JSON-LD exports running at
	// once; one more is 503 with Retry-After. 0 means 1.
	MaxJSONLDExports int
	// MaxNQuadsExports bounds the streamed N-Quads exports running at
	// once (each reads the whole store: 20 at once cost 28 CPU-s and
	// doubled the memory, issue 28.13); one more is 503 with Retry-After.
	// 0 means 1.
	MaxNQuadsExports int
	// Page, if set, serves the triage page at GET /.
	Page http.Handler
	// Files, if set, reads the corpus files back for Skill.text (GraphQL
	// and MCP); a store-only replica has none.
	Files api.Files
	// Diff, if set, offers the MCP diff tool (a revision of the corpora
	// against the served graph).
	Diff mcpserve.Differ
	// CORSOrigins are the origins (scheme://host[:port], or "*") whose
	// pages may read the API from a browser (cors.go); none by default.
	CORSOrigins []string
	// Explorer, if set, serves GraphiQL at /graphiql and /graphiql/<file>
	// and to a browser's GET /graphql (web.Explorer).
	Explorer http.Handler
}

// DefaultConfig returns the serve defaults: a fresh value each call, so a
// caller's changes never leak into another server.
func DefaultConfig() Config {
	return Config{
		MaxBodyBytes:     1 << 20,
		RequestTimeout:   15 * time.Second,
		Limits:           api.DefaultLimits(),
		MaxJSONLDQuads:   200_000,
		MaxJSONLDExports: 2,
		MaxNQuadsExports: 4,
	}
}

// Server timeouts of `serve` (SPEC §7): a client that sends its headers
// or its body too slowly is cut off.
const (
	ReadHeaderTimeout = 5 * time.Second
	ReadTimeout       = 30 * time.Second
	WriteTimeout      = 2 * time.Minute
	IdleTimeout       = 2 * time.Minute
	MaxHeaderBytes    = 64 << 10
)

// NewHTTPServer returns the http.Server `serve` runs h with.
func NewHTTPServer(h http.Handler) *http.Server {
	return &http.Server{
		Handler:           h,
		ReadHeaderTimeout: ReadHeaderTimeout,
		ReadTimeout:       ReadTimeout,
		WriteTimeout:      WriteTimeout,
		IdleTimeout:       IdleTimeout,
		MaxHeaderBytes:    MaxHeaderBytes,
	}
}

// Handler returns skillgraph's HTTP routes.
func Handler(svc *Service, schema *api.Schema, cfg Config, log *slog.Logger, m *Metrics) http.Handler {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	heavy := max(cfg.MaxJSONLDExports, 1)
	h := &handlers{svc: svc, schema: schema, cfg: cfg, log: log, heavy: make(chan struct{}, heavy),
		streams: make(chan struct{}, max(cfg.MaxNQuadsExports, 1)), cache: newResponseCache(),
		docs: api.NewDocumentCache(docEntries, docBytes), tokens: newTokenLimiter()}
	r := chi.NewRouter()
	r.Use(middleware.Recoverer, traceRequests, h.logRequests(m), cors(cfg.CORSOrigins))
	r.Use(h.documentIRIs) // <iriBase><name>.jsonld, the minted document IRIs (docroute.go)
	// get registers a read-only endpoint for GET and HEAD (RFC 9110
	// §9.3.2: HEAD works wherever GET does), so a 405 names both in Allow.
	get := func(pattern string, fn endpoint) {
		r.Get(pattern, h.wrap(fn))
		r.Head(pattern, h.wrap(fn))
	}
	// other is an answer another package writes (see reply.handler).
	other := func(hd http.Handler) endpoint {
		return func(http.Header, *http.Request) reply { return reply{handler: hd} }
	}
	get("/healthz", func(http.Header, *http.Request) reply { return textReply(http.StatusOK, "ok\n") })
	get("/readyz", h.ready)
	if m != nil {
		metrics := promhttp.HandlerFor(m.Registry, promhttp.HandlerOpts{EnableOpenMetrics: true}) // by Accept (issue 25.11)
		get("/metrics", func(http.Header, *http.Request) reply {
			m.observe(svc.Snapshot())
			// Durability changes without a new snapshot (the early one's
			// write commits), so it is read at every scrape.
			durable := 0.0
			if svc.Durable() {
				durable = 1
			}
			m.durable.Set(durable)
			return reply{handler: metrics}
		})
	}
	r.HandleFunc("/graphql", h.wrap(h.graphql))   // it answers 405 itself (graphql_http.go)
	r.Options("/graphql", h.wrap(graphqlOptions)) // a preflight from a disallowed origin, or none: 204, no CORS headers
	r.Handle("/mcp", h.wrap(h.mcpHandler()))      // MCP over Streamable HTTP (mcp.go)
	get("/graphiql", h.graphiql)
	get("/graphiql/*", h.graphiql)
	get("/diagram/{id}", h.diagram)
	get("/export", h.export)
	get("/id/{kind}/*", h.describe)
	get("/ns", h.context)
	get("/context.jsonld", h.context)
	get("/schemas/{name}", h.schemaFile)
	if cfg.Page != nil {
		r.Handle("/*", h.wrap(other(cfg.Page)))
	} else {
		get("/", func(http.Header, *http.Request) reply { return redirect("/graphiql", http.StatusFound) })
	}
	return r
}

type handlers struct {
	svc    *Service
	schema *api.Schema
	cfg    Config
	log    *slog.Logger
	heavy  chan struct{} // one token per running whole-graph JSON-LD export
	// streams holds one token per running N-Quads export.
	streams chan struct{}
	cache   *responseCache     // /graphql answers of the served snapshot (graphql_cache.go)
	docs    *api.DocumentCache // parsed /graphql documents, by exact text
	tokens  *tokenLimiter      // wrong bearer tokens per client (tokenlimit.go)
}

type statusWriter struct {
	http.ResponseWriter
	code int
}

func (w *statusWriter) WriteHeader(code int) {
	w.code = code
	w.ResponseWriter.WriteHeader(code)
}

func (w *statusWriter) Flush() {
	if f, ok := w.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

// logRequests logs each request with slog and records metrics by route.
func (h *handlers) logRequests(m *Metrics) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			start := time.Now()
			sw := &statusWriter{ResponseWriter: w, code: http.StatusOK}
			next.ServeHTTP(sw, r)
			route := chi.RouteContext(r.Context()).RoutePattern()
			if route == "" {
				route = "other"
			}
			d := time.Since(start)
			if m != nil {
				m.requests.WithLabelValues(route, fmt.Sprint(sw.code)).Inc()
				m.latency.WithLabelValues(route).Observe(d.Seconds())
			}
			h.log.Info("request", "method", r.Method, "path", r.URL.Path, "route", route, "status", sw.code, "duration", d)
		})
	}
}

// ready is /readyz: 200 once the corpora given are answered from, else
// 503; the body says which graph version is served, how many skills it
// has and whether its answers are durable (committed to the store).
// /healthz stays the liveness probe.
func (h *handlers) ready(http.Header, *http.Request) reply {
	rd := h.svc.Readiness()
	code := http.StatusOK
	if !rd.Ready {
		code = http.StatusServiceUnavailable
	}
	return jsonReply(code, "application/json; charset=utf-8", rd)
}
