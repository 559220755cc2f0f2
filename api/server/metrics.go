package server

import (
	"runtime"
	"runtime/debug"
	"sync"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"

	"github.com/skillgraph/skillgraph/ingest/record"
	"github.com/skillgraph/skillgraph/queries"
)

// Metrics are the Prometheus metrics served at /metrics.
type Metrics struct {
	Registry       *prometheus.Registry
	requests       *prometheus.CounterVec
	latency        *prometheus.HistogramVec
	ingestDuration prometheus.Histogram
	ingestFailures prometheus.Counter
	snapshotBuild  prometheus.Histogram
	graphVersion   prometheus.Gauge
	durable        prometheus.Gauge
	lagging        prometheus.Gauge

	// Domain gauges, for the snapshot being served.
	skills           *prometheus.GaugeVec
	findings         *prometheus.GaugeVec
	unreachableTools prometheus.Gauge
	mu               sync.Mutex
	observed         *queries.Snapshot // the snapshot the gauges describe
}

// NewMetrics registers skillgraph's metrics in a fresh registry.
func NewMetrics() *Metrics {
	r := prometheus.NewRegistry()
	m := &Metrics{
		Registry: r,
		requests: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "skillgraph_http_requests_total", Help: "HTTP requests by route and status code.",
		}, []string{"route", "code"}),
		latency: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name: "skillgraph_http_request_duration_seconds", Help: "HTTP request latency by route.",
			Buckets: prometheus.ExponentialBuckets(0.0005, 2, 16),
		}, []string{"route"}),
		ingestDuration: prometheus.NewHistogram(prometheus.HistogramOpts{
			Name: "skillgraph_ingest_duration_seconds", Help: "Duration of ingest runs.",
			Buckets: prometheus.ExponentialBuckets(0.01, 2, 14),
		}),
		ingestFailures: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "skillgraph_ingest_failures_total", Help: "Ingest runs that failed and left the previous graph in place.",
		}),
		snapshotBuild: prometheus.NewHistogram(prometheus.HistogramOpts{
			Name: "skillgraph_snapshot_build_seconds", Help: "Time to rebuild the analysis snapshot from the store.",
			Buckets: prometheus.ExponentialBuckets(0.001, 2, 16),
		}),
		graphVersion: prometheus.NewGauge(prometheus.GaugeOpts{
			Name: "skillgraph_graph_version", Help: "Graph version of the snapshot being served.",
		}),
		lagging: prometheus.NewGauge(prometheus.GaugeOpts{
			Name: "skillgraph_watch_lagging_paths", Help: "Changed corpus paths (serve --watch) whose re-ingest failed and is being retried with backoff: the answers served lag the files while it is above 0.",
		}),
		durable: prometheus.NewGauge(prometheus.GaugeOpts{
			Name: "skillgraph_graph_durable", Help: "1 when the answers served are of a graph version committed to the store, 0 while a cold start serves them before its store write commits (or after it failed).",
		}),
		skills: prometheus.NewGaugeVec(prometheus.GaugeOpts{
			Name: "skillgraph_skills", Help: "Skills of the graph version served, by coverage state: covered, contradicted, or uncovered tier A, B, C, D (SPEC 5.1).",
		}, []string{"tier"}),
		findings: prometheus.NewGaugeVec(prometheus.GaugeOpts{
			Name: "skillgraph_findings", Help: "Findings of the graph version served, by severity.",
		}, []string{"severity"}),
		unreachableTools: prometheus.NewGauge(prometheus.GaugeOpts{
			Name: "skillgraph_unreachable_tools", Help: "Tools of the graph version served that no entry point reaches (SPEC 5.3).",
		}),
	}
	r.MustRegister(m.requests, m.latency, m.ingestDuration, m.ingestFailures, m.snapshotBuild, m.graphVersion, m.durable, m.lagging,
		m.skills, m.findings, m.unreachableTools, buildInfo(),
		collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	return m
}

// buildInfo is skillgraph_build_info: always 1, the labels say which build
// runs (module version, VCS revision, Go version), so a dashboard can tell
// replicas of different builds apart.
func buildInfo() prometheus.Gauge {
	version, revision := "(devel)", "unknown"
	if bi, ok := debug.ReadBuildInfo(); ok {
		if bi.Main.Version != "" {
			version = bi.Main.Version
		}
		for _, s := range bi.Settings {
			if s.Key == "vcs.revision" {
				revision = s.Value
			}
		}
	}
	g := prometheus.NewGauge(prometheus.GaugeOpts{
		Name: "skillgraph_build_info", Help: "Build of the running skillgraph: module version, VCS revision, Go version.",
		ConstLabels: prometheus.Labels{"version": version, "revision": revision, "goversion": runtime.Version()},
	})
	g.Set(1)
	return g
}

// observe sets the domain gauges from the snapshot served, recomputed only
// when the snapshot changed since the last scrape.
func (m *Metrics) observe(s *queries.Snapshot) {
	if s == nil {
		return
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.observed == s {
		return
	}
	m.observed = s
	m.skills.WithLabelValues("covered").Set(float64(len(s.Coverage.Covered)))
	m.skills.WithLabelValues("contradicted").Set(float64(len(s.Coverage.Contradicted)))
	for _, t := range s.Coverage.Tiers {
		m.skills.WithLabelValues(t.Tier).Set(float64(len(t.Skills)))
	}
	bySeverity := map[record.Severity]int{record.Error: 0, record.Warning: 0, record.Info: 0}
	for _, f := range s.Findings {
		bySeverity[f.Severity]++
	}
	for sev, n := range bySeverity {
		m.findings.WithLabelValues(string(sev)).Set(float64(n))
	}
	m.unreachableTools.Set(float64(len(s.Reach.UnreachableTools)))
}
