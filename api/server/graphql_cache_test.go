package server_test

import (
	"context"
	"io"
	"net/http"
	"net/url"
	"testing"
)

func getGraphQL(t *testing.T, base, query string, headers map[string]string) (int, string, http.Header) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodGet, base+"/graphql?query="+url.QueryEscape(query), nil)
	for k, v := range headers {
		req.Header.Set(k, v)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res.StatusCode, string(b), res.Header
}

// TestGraphQLCacheAndETag: an unchanged graph answers a repeated query
// with the same body and ETag, and a revalidating GET with 304; a new
// graph version changes the tag and the answer; the caller's rights are
// part of the tag.
func TestGraphQLCacheAndETag(t *testing.T) {
	e := start(t, "s3cret", nil)
	defer e.srv.Close()
	const q = `{ graphVersion skill(id: "review") { id triage { verdict } } viewer { canRecord } }`
	code, body1, h1 := getGraphQL(t, e.srv.URL, q, nil)
	tag := h1.Get("ETag")
	if code != 200 || tag == "" {
		t.Fatalf("status %d, ETag %q: %s", code, tag, body1)
	}
	_, body2, h2 := getGraphQL(t, e.srv.URL, q, nil)
	if body2 != body1 || h2.Get("ETag") != tag {
		t.Fatalf("a repeated query differs: %s / %s", body1, body2)
	}
	if code, _, _ := getGraphQL(t, e.srv.URL, "{\n graphVersion, skill(id: \"review\") { id triage { verdict } } viewer { canRecord } }", map[string]string{"If-None-Match": tag}); code != http.StatusNotModified {
		t.Fatalf("revalidation with the same tag (query laid out differently): status %d, want 304", code)
	}
	_, _, hAuth := getGraphQL(t, e.srv.URL, q, map[string]string{"Authorization": "Bearer s3cret"})
	if hAuth.Get("ETag") == tag {
		t.Fatal("a caller with other rights got the same tag")
	}
	if _, err := e.svc.RecordTriage(context.Background(), "review", "judgement", "cache test"); err != nil {
		t.Fatal(err)
	}
	if _, _, h := getGraphQL(t, e.srv.URL, `{ skills(first: 501) { totalCount } }`, nil); h.Get("ETag") != "" {
		t.Fatal("an answer with errors carries an ETag")
	}
	code, body3, h3 := getGraphQL(t, e.srv.URL, q, map[string]string{"If-None-Match": tag})
	if code != 200 || h3.Get("ETag") == tag || body3 == body1 {
		t.Fatalf("after a new version: status %d, tag %q (was %q), body %s", code, h3.Get("ETag"), tag, body3)
	}
	// another text with the same root fields shares their answers, of
	// this version only
	_, body4, _ := getGraphQL(t, e.srv.URL, `{ a: __typename`+q[1:], nil)
	if want := `{"data":{"a":"Query",` + body3[len(`{"data":{`):]; body4 != want {
		t.Fatalf("a new text with the same root fields:\n got %s\nwant %s", body4, want)
	}
}

// TestAnswerLength: a whole answer, computed or from the cache, names its
// length (Content-Length) instead of coming in chunks, so a client can
// size its buffer; a revalidated 304 has no body to name.
func TestAnswerLength(t *testing.T) {
	e := start(t, "", nil)
	defer e.srv.Close()
	const q = `{ __schema { types { name fields { name } } } }`
	var tag string
	for _, round := range []string{"computed", "cached"} {
		req, _ := http.NewRequest(http.MethodGet, e.srv.URL+"/graphql?query="+url.QueryEscape(q), nil)
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if res.StatusCode != 200 || len(b) < 8<<10 {
			t.Fatalf("%s: status %d, %d bytes (want a large answer)", round, res.StatusCode, len(b))
		}
		if res.ContentLength != int64(len(b)) || len(res.TransferEncoding) != 0 {
			t.Fatalf("%s: Content-Length %d, Transfer-Encoding %v for a %d-byte body", round, res.ContentLength, res.TransferEncoding, len(b))
		}
		tag = res.Header.Get("ETag")
	}
	code, body, h := getGraphQL(t, e.srv.URL, q, map[string]string{"If-None-Match": tag})
	if code != http.StatusNotModified || body != "" || h.Get("Content-Length") != "" {
		t.Fatalf("revalidation: status %d, Content-Length %q, body %q", code, h.Get("Content-Length"), body)
	}
}
