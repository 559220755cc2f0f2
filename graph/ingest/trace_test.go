package ingest_test

import (
	"context"
	"testing"

	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/attribute"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"

	"github.com/skillgraph/skillgraph/graph"
	"github.com/skillgraph/skillgraph/graph/ingest"
	"github.com/skillgraph/skillgraph/ingest/corpustest"
)

// TestIngestSpans (issue 25.9): an ingest is two spans, ingest.prepare
// (discover, parse, convert) and ingest.apply (the store write), the
// counts on them, recorded by an in-process span recorder standing in for
// the OTLP exporter.
func TestIngestSpans(t *testing.T) {
	rec := tracetest.NewSpanRecorder()
	prev := otel.GetTracerProvider()
	otel.SetTracerProvider(sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(rec)))
	t.Cleanup(func() { otel.SetTracerProvider(prev) })
	root := corpustest.Write(t, map[string]string{
		"skills/core/a.md": "---\nname: a\ndescription: A.\n---\nA.\n",
		"skills/core/b.md": "---\nname: b\ndescription: B.\n---\nB.\n",
	})
	ctx := context.Background()
	st, err := graph.Open(ctx, "memory")
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	res, err := ingest.Run(ctx, st, []string{root}, ingest.Options{})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]map[attribute.Key]attribute.Value{}
	for _, s := range rec.Ended() {
		attrs := map[attribute.Key]attribute.Value{}
		for _, a := range s.Attributes() {
			attrs[a.Key] = a.Value
		}
		got[s.Name()] = attrs
	}
	prep, apply := got["ingest.prepare"], got["ingest.apply"]
	if prep == nil || apply == nil {
		t.Fatalf("spans %v, want ingest.prepare and ingest.apply", got)
	}
	if v := prep["skillgraph.files"].AsInt64(); v != int64(res.Files) || v == 0 {
		t.Errorf("ingest.prepare files %d, the run read %d", v, res.Files)
	}
	if v := apply["skillgraph.version"].AsInt64(); v != res.Version || v == 0 {
		t.Errorf("ingest.apply version %d, the run committed %d", v, res.Version)
	}
}
