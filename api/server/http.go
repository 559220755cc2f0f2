package server

import (
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"time"

	"github.com/go-chi/chi/v5"
	"github.com/go-chi/chi/v5/middleware"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/skillgraph/skillgraph/api"
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
	// Page, if set, serves the triage page at GET /.
	Page http.Handler
}

// DefaultConfig is the serve default.
var DefaultConfig = Config{
	MaxBodyBytes:   1 << 20,
	RequestTimeout: 15 * time.Second,
	Limits:         api.DefaultLimits(),
	MaxJSONLDQuads: 200_000,
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
	h := &handlers{svc: svc, schema: schema, cfg: cfg, log: log}
	r := chi.NewRouter()
	r.Use(middleware.Recoverer, h.logRequests(m))
	r.Get("/healthz", func(w http.ResponseWriter, _ *http.Request) { writeText(w, http.StatusOK, "ok\n") })
	r.Get("/readyz", h.ready)
	if m != nil {
		r.Handle("/metrics", promhttp.HandlerFor(m.Registry, promhttp.HandlerOpts{}))
	}
	r.Post("/graphql", h.graphql)
	r.Get("/graphql", h.graphql)
	r.Get("/graphiql", h.graphiql)
	r.Get("/export", h.export)
	r.Get("/id/{kind}/*", h.describe)
	r.Get("/ns", h.context)
	r.Get("/context.jsonld", h.context)
	if cfg.Page != nil {
		r.Handle("/*", cfg.Page)
	} else {
		r.Get("/", func(w http.ResponseWriter, r *http.Request) { http.Redirect(w, r, "/graphiql", http.StatusFound) })
	}
	return r
}

type handlers struct {
	svc    *Service
	schema *api.Schema
	cfg    Config
	log    *slog.Logger
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

func writeText(w http.ResponseWriter, code int, s string) {
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.WriteHeader(code)
	_, _ = w.Write([]byte(s))
}

func writeJSON(w http.ResponseWriter, code int, ctype string, v any) {
	w.Header().Set("Content-Type", ctype)
	w.WriteHeader(code)
	enc := json.NewEncoder(w)
	_ = enc.Encode(v)
}

func (h *handlers) ready(w http.ResponseWriter, _ *http.Request) {
	s := h.svc.Snapshot()
	if s == nil {
		writeText(w, http.StatusServiceUnavailable, "not ready: no snapshot yet\n")
		return
	}
	writeText(w, http.StatusOK, fmt.Sprintf("ready: graph version %d\n", s.Version))
}
