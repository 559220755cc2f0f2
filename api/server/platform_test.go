package server_test

import (
	"io"
	"net/http"
	"strings"
	"testing"

	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/attribute"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"

	"github.com/skillgraph/skillgraph/api/server"
)

// TestCORS (issue 25.9): off by default — OPTIONS /graphql is 204 with
// Allow (it was 405) and no response carries an Access-Control header;
// with --cors-origin, a preflight from that origin gets the methods and
// headers a GraphQL client sends, a request from it its
// Access-Control-Allow-Origin, and any other origin nothing.
func TestCORS(t *testing.T) {
	const dash = "https://dash.example"
	tests := []struct {
		name       string
		origins    []string
		method     string
		origin     string
		preflight  bool
		wantStatus int
		wantACAO   string
	}{
		{"preflight, CORS off", nil, http.MethodOptions, dash, true, 204, ""},
		{"OPTIONS without Origin, CORS off", nil, http.MethodOptions, "", false, 204, ""},
		{"GET, CORS off", nil, http.MethodGet, dash, false, 200, ""},
		{"preflight from the allowed origin", []string{dash}, http.MethodOptions, dash, true, 204, dash},
		{"POST from the allowed origin", []string{dash}, http.MethodPost, dash, false, 200, dash},
		{"preflight from another origin", []string{dash}, http.MethodOptions, "https://evil.example", true, 204, ""},
		{"GET from another origin", []string{dash}, http.MethodGet, "https://evil.example", false, 200, ""},
		{"any origin", []string{"*"}, http.MethodOptions, "https://else.example", true, 204, "*"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			e := start(t, "", func(c *server.Config) { c.CORSOrigins = tc.origins })
			defer e.srv.Close()
			url := e.srv.URL + "/graphql"
			var body *strings.Reader
			if tc.method == http.MethodPost {
				body = strings.NewReader(`{"query":"{ graphVersion }"}`)
			} else {
				body = strings.NewReader("")
				if tc.method == http.MethodGet {
					url += "?query=%7BgraphVersion%7D"
				}
			}
			req, _ := http.NewRequest(tc.method, url, body)
			if tc.method == http.MethodPost {
				req.Header.Set("Content-Type", "application/json")
			}
			if tc.origin != "" {
				req.Header.Set("Origin", tc.origin)
			}
			if tc.preflight {
				req.Header.Set("Access-Control-Request-Method", "POST")
				req.Header.Set("Access-Control-Request-Headers", "content-type, authorization")
			}
			res, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			res.Body.Close()
			if res.StatusCode != tc.wantStatus {
				t.Errorf("status %d, want %d", res.StatusCode, tc.wantStatus)
			}
			if got := res.Header.Get("Access-Control-Allow-Origin"); got != tc.wantACAO {
				t.Errorf("Access-Control-Allow-Origin %q, want %q", got, tc.wantACAO)
			}
			if tc.wantACAO == "" {
				for k := range res.Header {
					if strings.HasPrefix(k, "Access-Control-") {
						t.Errorf("a disallowed request got %s", k)
					}
				}
			}
			if tc.preflight && tc.wantACAO != "" {
				if m := res.Header.Get("Access-Control-Allow-Methods"); !strings.Contains(m, "POST") {
					t.Errorf("Access-Control-Allow-Methods %q", m)
				}
				if h := res.Header.Get("Access-Control-Allow-Headers"); !strings.Contains(h, "Authorization") || !strings.Contains(h, "Content-Type") {
					t.Errorf("Access-Control-Allow-Headers %q", h)
				}
			}
			if tc.method == http.MethodOptions && tc.wantACAO == "" && !strings.Contains(res.Header.Get("Allow"), "POST") {
				t.Errorf("Allow %q", res.Header.Get("Allow"))
			}
		})
	}
}

// TestRequestSpans (issue 25.9): each request is a server span named by
// method and route, with its status, recorded by an in-process span
// recorder standing in for the OTLP exporter.
func TestRequestSpans(t *testing.T) {
	rec := tracetest.NewSpanRecorder()
	prev := otel.GetTracerProvider()
	otel.SetTracerProvider(sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(rec)))
	t.Cleanup(func() { otel.SetTracerProvider(prev) })
	e := start(t, "", nil)
	defer e.srv.Close()
	for _, p := range []string{"/graphql?query=%7BgraphVersion%7D", "/id/tool/nope"} {
		res, err := http.Get(e.srv.URL + p)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
	}
	want := map[string]int64{"GET /graphql": 200, "GET /id/{kind}/*": 404}
	for _, s := range rec.Ended() {
		code, ok := want[s.Name()]
		if !ok {
			continue
		}
		for _, a := range s.Attributes() {
			if a.Key == attribute.Key("http.response.status_code") && a.Value.AsInt64() == code {
				delete(want, s.Name())
			}
		}
	}
	if len(want) > 0 {
		var names []string
		for _, s := range rec.Ended() {
			names = append(names, s.Name())
		}
		t.Errorf("no span with the status for %v; spans: %v", want, names)
	}
}

// TestOpenMetrics (issue 25.11): /metrics answers the OpenMetrics text
// format when the scraper asks for it by Accept (ending in "# EOF"), and
// Prometheus text otherwise.
func TestOpenMetrics(t *testing.T) {
	e := start(t, "", nil)
	defer e.srv.Close()
	for _, tc := range []struct{ accept, ctype, tail string }{
		{"application/openmetrics-text; version=1.0.0", "application/openmetrics-text", "# EOF\n"},
		{"", "text/plain", ""},
	} {
		req, _ := http.NewRequest(http.MethodGet, e.srv.URL+"/metrics", nil)
		if tc.accept != "" {
			req.Header.Set("Accept", tc.accept)
		}
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if !strings.HasPrefix(res.Header.Get("Content-Type"), tc.ctype) || !strings.HasSuffix(string(b), tc.tail) {
			t.Errorf("Accept %q: %s, ends %q", tc.accept, res.Header.Get("Content-Type"), string(b[max(0, len(b)-20):]))
		}
	}
}
