package ingest

import (
	"context"

	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/trace"
)

// tracerName is the instrumentation scope of ingest's spans.
const tracerName = "github.com/skillgraph/skillgraph/graph/ingest"

// startSpan starts one of ingest's spans (issue 25.9): "ingest.prepare"
// (discover, parse, convert) and "ingest.apply" (the store write). Off by
// default: the global tracer provider is a no-op until a program installs
// one (`serve` and the CLI do when OTEL_EXPORTER_OTLP_ENDPOINT is set).
func startSpan(ctx context.Context, name string, roots []string) (context.Context, trace.Span) {
	return otel.Tracer(tracerName).Start(ctx, name, trace.WithAttributes(attribute.StringSlice("skillgraph.corpora", roots)))
}

// endSpan records what a run did, or its error, and ends the span.
func endSpan(span trace.Span, res Result, err error) {
	if err != nil {
		span.RecordError(err)
		span.SetStatus(codes.Error, err.Error())
	} else {
		span.SetAttributes(attribute.Int("skillgraph.files", res.Files), attribute.Int("skillgraph.changed", res.Changed),
			attribute.Int("skillgraph.skipped", res.Skipped), attribute.Int("skillgraph.removed", res.Removed),
			attribute.Int("skillgraph.quads", res.Quads), attribute.Int64("skillgraph.version", res.Version))
	}
	span.End()
}
