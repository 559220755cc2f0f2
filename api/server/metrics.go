package server

import (
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
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
	}
	r.MustRegister(m.requests, m.latency, m.ingestDuration, m.ingestFailures, m.snapshotBuild, m.graphVersion,
		collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	return m
}
