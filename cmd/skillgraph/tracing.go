package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"time"

	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracehttp"
	"go.opentelemetry.io/otel/propagation"
	"go.opentelemetry.io/otel/sdk/resource"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	semconv "go.opentelemetry.io/otel/semconv/v1.26.0"
)

// tracingEnabled reports whether the environment asks for traces: the
// OpenTelemetry SDK's own variables for an OTLP endpoint. Off by default,
// and OTEL_SDK_DISABLED=true turns it off again.
func tracingEnabled() bool {
	if os.Getenv("OTEL_SDK_DISABLED") == "true" {
		return false
	}
	return os.Getenv("OTEL_EXPORTER_OTLP_ENDPOINT") != "" || os.Getenv("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT") != ""
}

// startTracing installs the global tracer provider, exporting spans over
// OTLP/HTTP to the endpoint the OTEL_EXPORTER_OTLP_* variables name (issue
// 25.9): ingest's spans (ingest.prepare, ingest.apply) and one per HTTP
// request of `serve`. Without those variables nothing is installed, the
// global provider stays a no-op, and the returned stop does nothing.
func startTracing(ctx context.Context, verb string, stderr io.Writer) (stop func(), err error) {
	if !tracingEnabled() {
		return func() {}, nil
	}
	exp, err := otlptracehttp.New(ctx)
	if err != nil {
		return nil, fmt.Errorf("tracing: OTLP exporter: %w", err)
	}
	res, err := resource.Merge(resource.Default(), resource.NewSchemaless(
		semconv.ServiceName("skillgraph"), semconv.ServiceVersion(currentBuild().toolVersion()),
		semconv.ProcessCommandArgs(verb)))
	if err != nil {
		res = resource.Default()
	}
	tp := sdktrace.NewTracerProvider(sdktrace.WithBatcher(exp), sdktrace.WithResource(res))
	otel.SetTracerProvider(tp)
	otel.SetTextMapPropagator(propagation.NewCompositeTextMapPropagator(propagation.TraceContext{}, propagation.Baggage{}))
	return func() {
		// Spans still queued are sent; an unreachable collector costs at
		// most these seconds at exit, and says so.
		c, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if err := tp.Shutdown(c); err != nil {
			fmt.Fprintln(stderr, "skillgraph: tracing:", err)
		}
	}, nil
}
