package server_test

import (
	"bufio"
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/skillgraph/skillgraph/api"
	"github.com/skillgraph/skillgraph/api/server"
)

// postRaw posts a raw body and returns the status and the decoded errors.
func postRaw(t *testing.T, url, ctype string, body []byte, headers map[string]string) (int, gqlResp) {
	t.Helper()
	code, r, _ := postGraphQL(t, url, ctype, body, headers)
	return code, r
}

func gql(query string, vars map[string]any, op string) []byte {
	b, _ := json.Marshal(map[string]any{"query": query, "variables": vars, "operationName": op})
	return b
}

func firstError(r gqlResp) string {
	if len(r.Errors) == 0 {
		return ""
	}
	m, _ := r.Errors[0]["message"].(string)
	return m
}

// TestAbuseQueries: every hostile GraphQL request is a clear error under
// the default limits, answered quickly, and leaves no goroutine behind.
func TestAbuseQueries(t *testing.T) {
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent())
	e := start(t, "s3cret", nil)
	defer e.srv.Close()
	defer http.DefaultClient.CloseIdleConnections()

	nest := func(n int) string {
		return `{ skill(id: "review") ` + strings.Repeat("{ tools { satisfies ", n) + "{ id }" + strings.Repeat("} }", n) + " }"
	}
	aliases := func(n int, f string) string {
		var b strings.Builder
		b.WriteString("{")
		for i := range n {
			fmt.Fprintf(&b, " a%d: %s", i, f)
		}
		return b.String() + " }"
	}
	cases := []struct {
		name  string
		query string
		vars  map[string]any
		want  string // in the first error's message; "" means success
	}{
		{"depth bomb", nest(30), nil, "depth exceeds the limit of 12"},
		{"depth bomb through fragments", `{ ...A } fragment A on Query { skill(id: "review") { ...B } } fragment B on Skill { tools { satisfies { ...B } } }`, nil, "spreads itself"},
		{"deep unused fragment", `{ graphVersion } fragment F on Skill ` + strings.Repeat("{ tools { satisfies ", 20) + "{ id }" + strings.Repeat("} }", 20), nil, "depth exceeds"},
		{"cost bomb", `{ skills(first: 500) { edges { node { tools { satisfies { tools { satisfies { id title } } } } } } } }`, nil, "cost"},
		{"cost bomb by variables", `query($n: Int) { skills(first: $n) { edges { node { tools { satisfies { tools { id } } } } } } }`, map[string]any{"n": 500}, "cost"},
		{"alias flood", aliases(10000, "graphVersion"), nil, "over the limit of 2000"},
		{"alias flood with arguments", aliases(5000, `skill(id: "review") { id }`), nil, "over the limit of 2000"},
		{"aliases within the limit", aliases(1500, "graphVersion"), nil, ""},
		{"fragment cycle", `{ ...A } fragment A on Query { ...B } fragment B on Query { ...A }`, nil, "spreads itself"},
		{"unused fragment cycle", `{ graphVersion } fragment A on Query { ...A }`, nil, "spreads itself"},
		{"unused fragment cycle on unknown type", `{A ...A0} fragment A on A0000000Query { ...A }`, nil, "spreads itself"},
		{"fragment fan-out", `{ ...F0 } ` + fanOut(20), nil, "cost"},
		{"page over 500", `{ skills(first: 501) { totalCount } }`, nil, "at most 500"},
		{"page over 500 by variable", `query($n: Int) { findings(first: $n) { totalCount } }`, map[string]any{"n": 100000}, "at most 500"},
		{"negative page", `{ skills(first: -1) { totalCount } }`, nil, "first must be ≥ 0"},
		{"page beyond int32", `{ skills(first: 99999999999) { totalCount } }`, nil, "cost"},
		{"cursor garbage", `{ skills(after: "////") { totalCount } }`, nil, "cursor"},
		{"cursor past the end", `{ skills(first: 5, after: "` + cursorFor(1_000_000) + `") { totalCount edges { cursor } } }`, nil, ""},
		{"huge variable", `query($x: String!) { skill(id: $x) { id } }`, map[string]any{"x": strings.Repeat("x", 900_000)}, ""},
		{"deep variable", `query($x: String!) { skill(id: $x) { id } }`, map[string]any{"x": deepJSON(5000)}, "Variable"},
		{"unknown field", `{ nope }`, nil, "Cannot query field"},
		{"syntax error", `{ skills(`, nil, "Syntax Error"},
		{"introspection stays bounded", `{ __schema { types { fields { type { fields { type { fields { type { fields { name } } } } } } } } } }`, nil, "cost"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			start := time.Now()
			code, r := postRaw(t, e.srv.URL, "application/json", gql(c.query, c.vars, ""), nil)
			if d := time.Since(start); d > 5*time.Second {
				t.Errorf("took %v", d)
			}
			if code >= 500 {
				t.Fatalf("status %d: %v", code, r.Errors)
			}
			msg := firstError(r)
			if c.want == "" {
				if msg != "" && !strings.Contains(c.name, "huge variable") {
					t.Fatalf("unexpected error %q", msg)
				}
				return
			}
			if !strings.Contains(msg, c.want) {
				t.Fatalf("status %d, first error %q, want one about %q", code, msg, c.want)
			}
		})
	}
	t.Run("nesting that fills the body", func(t *testing.T) {
		q := strings.Repeat("{a", 400_000) + strings.Repeat("}", 400_000)
		code, r := postRaw(t, e.srv.URL, "application/json", gql(q, nil, ""), nil)
		if code >= 500 || len(r.Errors) == 0 {
			t.Fatalf("status %d errors %v", code, r.Errors)
		}
	})
}

func fanOut(n int) string {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, "fragment F%d on Query { ...F%d ...F%d } ", i, i+1, i+1)
	}
	fmt.Fprintf(&b, "fragment F%d on Query { graphVersion }", n)
	return b.String()
}

// cursorFor forges a cursor (base64 of "o:<offset>"): one far past the
// end must be an empty page, not an error or a panic.
func cursorFor(i int) string {
	return base64.StdEncoding.EncodeToString([]byte("o:" + strconv.Itoa(i)))
}

func deepJSON(n int) any {
	var v any = "x"
	for range n {
		v = []any{v}
	}
	return v
}

// TestAbuseHTTP: bodies, content types and authentication are clear 4xx.
func TestAbuseHTTP(t *testing.T) {
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent())
	e := start(t, "s3cret", nil)
	defer e.srv.Close()
	defer http.DefaultClient.CloseIdleConnections()
	m := `mutation { recordTriage(skill: "review", verdict: judgement, note: "n") { graphVersion } }`
	cases := []struct {
		name    string
		ctype   string
		body    []byte
		headers map[string]string
		code    int
	}{
		{"oversize body", "application/json", append(append([]byte(`{"query": "{ graphVersion }", "variables": {"x": "`), bytes.Repeat([]byte("a"), 2<<20)...), `"}}`...), nil, 413},
		{"not JSON", "application/json", []byte("{ graphVersion }"), nil, 400},
		{"wrong content type", "text/plain", gql("{ graphVersion }", nil, ""), nil, 415},
		{"empty query", "application/json", []byte(`{"query": "   "}`), nil, 400},
		{"variables not an object", "application/json", []byte(`{"query": "{ graphVersion }", "variables": [1]}`), nil, 400},
		{"mutation without token", "application/json", gql(m, nil, ""), nil, 401},
		{"mutation with a wrong token", "application/json", gql(m, nil, ""), map[string]string{"Authorization": "Bearer s3cre"}, 403},
		{"mutation with a longer token", "application/json", gql(m, nil, ""), map[string]string{"Authorization": "Bearer s3cret2"}, 403},
		{"mutation with basic auth", "application/json", gql(m, nil, ""), map[string]string{"Authorization": "Basic czNjcmV0"}, 401},
		{"mutation with lower-case scheme", "application/json", gql(m, nil, ""), map[string]string{"Authorization": "bearer s3cret"}, 401},
		{"mutation with an empty token", "application/json", gql(m, nil, ""), map[string]string{"Authorization": "Bearer "}, 401},
		{"mutation chosen by operationName", "application/json", gql(`query Q { graphVersion } `+strings.Replace(m, "mutation", "mutation M", 1), nil, "M"), nil, 401},
		{"mutation beside a query, no operationName", "application/json", gql(`query Q { graphVersion } `+strings.Replace(m, "mutation", "mutation M", 1), nil, ""), nil, 401},
		{"reingest without token", "application/json", gql(`mutation { reingest { graphVersion } }`, nil, ""), nil, 401},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			code, r := postRaw(t, e.srv.URL, c.ctype, c.body, c.headers)
			if code != c.code || firstError(r) == "" {
				t.Fatalf("status %d (want %d), error %q", code, c.code, firstError(r))
			}
		})
	}
	t.Run("nothing was written without the token", func(t *testing.T) {
		_, r, _ := e.post(t, `{ skill(id: "review") { triage { verdict } } }`, nil)
		if sk, _ := r.Data["skill"].(map[string]any); sk == nil || sk["triage"] != nil {
			t.Fatalf("a triage decision was recorded: %v", r.Data)
		}
	})
	t.Run("mutation over GET", func(t *testing.T) {
		res, err := http.Get(e.srv.URL + "/graphql?query=" + strings.ReplaceAll(m, " ", "%20"))
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if res.StatusCode != http.StatusMethodNotAllowed {
			t.Fatalf("status %d", res.StatusCode)
		}
	})
	t.Run("disabled without a configured token", func(t *testing.T) {
		e2 := start(t, "", nil)
		defer e2.srv.Close()
		code, r := postRaw(t, e2.srv.URL, "application/json", gql(m, nil, ""), map[string]string{"Authorization": "Bearer "})
		if code != 403 || !strings.Contains(firstError(r), "disabled") {
			t.Fatalf("status %d %q", code, firstError(r))
		}
	})
}

// TestSlowClientsAreCut runs the handler in the http.Server serve uses
// (server.NewHTTPServer) and checks that a client dribbling its headers or
// its body is disconnected by ReadHeaderTimeout and ReadTimeout.
func TestSlowClientsAreCut(t *testing.T) {
	if testing.Short() {
		t.Skip("waits for the server's read timeouts (5 s and 30 s)")
	}
	// The subtests run in parallel, after this function returns: cleanups,
	// not defers; the leak check is registered first so that it runs last.
	opt := goleak.IgnoreCurrent()
	t.Cleanup(func() { goleak.VerifyNone(t, opt) })
	e := start(t, "", nil)
	schema, err := api.NewSchema()
	if err != nil {
		t.Fatal(err)
	}
	srv := server.NewHTTPServer(server.Handler(e.svc, schema, server.DefaultConfig(), nil, nil))
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go func() { _ = srv.Serve(ln) }()
	t.Cleanup(func() { _ = srv.Close() })

	// dribble writes head, then one byte of drip a second, and returns
	// how long the server kept the connection open.
	dribble := func(t *testing.T, head, drip string, limit time.Duration) (time.Duration, string) {
		conn, err := net.Dial("tcp", ln.Addr().String())
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close()
		start := time.Now()
		if _, err := conn.Write([]byte(head)); err != nil {
			t.Fatal(err)
		}
		closed := make(chan string, 1)
		go func() {
			b, _ := io.ReadAll(bufio.NewReader(conn))
			closed <- string(b)
		}()
		for i := 0; ; i++ {
			select {
			case resp := <-closed:
				return time.Since(start), resp
			case <-time.After(time.Second):
				if time.Since(start) > limit {
					t.Fatalf("connection still open after %v", time.Since(start))
				}
				_, _ = conn.Write([]byte{drip[i%len(drip)]})
			}
		}
	}
	t.Run("headers", func(t *testing.T) {
		t.Parallel()
		d, _ := dribble(t, "POST /graphql HTTP/1.1\r\nHost: x\r\n", "X-Slow-Loris: aaaaaaaaaa", server.ReadHeaderTimeout+5*time.Second)
		if d < server.ReadHeaderTimeout-time.Second {
			t.Fatalf("cut after %v, before the header timeout", d)
		}
		t.Logf("slow headers cut after %v", d.Round(time.Millisecond))
	})
	t.Run("body", func(t *testing.T) {
		t.Parallel()
		d, resp := dribble(t, "POST /graphql HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n", `{"query": "{ graphVersion }"      `, server.ReadTimeout+10*time.Second)
		t.Logf("slow body cut after %v: %.80q", d.Round(time.Millisecond), resp)
		if resp != "" && !strings.HasPrefix(resp, "HTTP/1.1 4") {
			t.Fatalf("slow body answered %.80q", resp)
		}
	})
}
