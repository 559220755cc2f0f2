package server_test

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
)

// TestGraphQLOverHTTP: the response type follows Accept with its
// q-values; request errors have no data entry and are 400 only with
// application/graphql-response+json; execution errors are 200.
func TestGraphQLOverHTTP(t *testing.T) {
	e := start(t, "", nil)
	defer e.srv.Close()
	const modern, legacy = "application/graphql-response+json", "application/json"
	cases := []struct {
		name, accept, query string
		wantCode            int
		wantType            string // "" when no GraphQL body is expected
		wantData            bool
	}{
		{"no Accept is a legacy client", "", `{ graphVersion }`, 200, legacy, true},
		{"wildcard", "*/*", `{ graphVersion }`, 200, legacy, true},
		{"modern named", modern, `{ graphVersion }`, 200, modern, true},
		{"modern at a lower q", modern + ";q=0.2, " + legacy, `{ graphVersion }`, 200, legacy, true},
		{"legacy at a lower q", modern + ", " + legacy + ";q=0.2", `{ graphVersion }`, 200, modern, true},
		{"modern refused by q=0", modern + ";q=0, */*;q=0.1", `{ graphVersion }`, 200, legacy, true},
		{"nothing acceptable", "text/plain", `{ graphVersion }`, 406, legacy, false},
		{"parse error, legacy", legacy, `{`, 200, legacy, false},
		{"parse error, modern", modern, `{`, 400, modern, false},
		{"validation error, legacy", legacy, `{ nope }`, 200, legacy, false},
		{"validation error, modern", modern, `{ nope }`, 400, modern, false},
		{"limit broken, modern", modern, `{ skills(first: 100000) { edges { node { id tools { id } } } } }`, 400, modern, false},
		{"execution error, legacy", legacy, `{ skills(first: 501) { totalCount } }`, 200, legacy, true},
		{"execution error, modern", modern, `{ skills(first: 501) { totalCount } }`, 200, modern, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			body, _ := json.Marshal(map[string]any{"query": c.query})
			req, _ := http.NewRequest(http.MethodPost, e.srv.URL+"/graphql", bytes.NewReader(body))
			req.Header.Set("Content-Type", "application/json")
			if c.accept != "" {
				req.Header.Set("Accept", c.accept)
			}
			res, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			b, _ := io.ReadAll(res.Body)
			res.Body.Close()
			if res.StatusCode != c.wantCode {
				t.Fatalf("status %d, want %d: %s", res.StatusCode, c.wantCode, b)
			}
			if ct := res.Header.Get("Content-Type"); !strings.HasPrefix(ct, c.wantType) {
				t.Fatalf("Content-Type %q, want %s", ct, c.wantType)
			}
			var m map[string]json.RawMessage
			if err := json.Unmarshal(b, &m); err != nil {
				t.Fatalf("body %s: %v", b, err)
			}
			if _, has := m["data"]; has != c.wantData {
				t.Fatalf("data entry present %v, want %v: %s", has, c.wantData, b)
			}
		})
	}
	t.Run("methods", func(t *testing.T) {
		for _, c := range []struct {
			method string
			code   int
		}{{http.MethodHead, 200}, {http.MethodPut, 405}, {http.MethodDelete, 405}, {http.MethodPatch, 405}} {
			req, _ := http.NewRequest(c.method, e.srv.URL+"/graphql?query={graphVersion}", nil)
			res, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			res.Body.Close()
			if res.StatusCode != c.code || (c.code == 405 && res.Header.Get("Allow") != "GET, HEAD, POST") {
				t.Errorf("%s: status %d, Allow %q", c.method, res.StatusCode, res.Header.Get("Allow"))
			}
		}
	})
	t.Run("extensions must be an object", func(t *testing.T) {
		code, _ := postRaw(t, e.srv.URL, "application/json", []byte(`{"query": "{ graphVersion }", "extensions": "x"}`), nil)
		if code != 400 {
			t.Fatalf("status %d", code)
		}
	})
}
