package server_test

import (
	"encoding/json"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/skillgraph/skillgraph/api/server"
)

// TestFrameKind: /export?frame=<kind> without an id is every node of the
// kind framed as a tree under @graph (issue 23.7, SPEC §6.2), bounded as the
// whole-graph JSON-LD export is; a kind without a node type still needs an
// id, and an unknown kind is refused.
func TestFrameKind(t *testing.T) {
	e := start(t, "", nil)
	snap := e.svc.Snapshot()
	cases := []struct {
		kind, typ string
		want      []string
	}{
		{"skill", "Skill", nil},
		{"tool", "Tool", nil},
	}
	for _, sk := range snap.Skills {
		cases[0].want = append(cases[0].want, sk.IRI)
	}
	for _, tl := range snap.Tools {
		cases[1].want = append(cases[1].want, tl.IRI)
	}
	for _, c := range cases {
		t.Run(c.kind, func(t *testing.T) {
			res, body := do(t, http.MethodGet, e.srv.URL+"/export?frame="+c.kind, map[string]string{"Accept": "application/ld+json"})
			if res.StatusCode != http.StatusOK {
				t.Fatalf("%d %s", res.StatusCode, body)
			}
			var doc struct {
				Context any              `json:"@context"`
				Graph   []map[string]any `json:"@graph"`
			}
			if err := json.Unmarshal(body, &doc); err != nil || doc.Context == nil {
				t.Fatalf("not a framed document (%v): %.300s", err, body)
			}
			var got []string
			for _, n := range doc.Graph {
				id, _ := n["id"].(string)
				if id == "" {
					id, _ = n["@id"].(string)
				}
				got = append(got, id)
				if ty, _ := n["type"].(string); ty != c.typ {
					t.Errorf("node %s has type %v, want %s", id, n["type"], c.typ)
				}
			}
			slices.Sort(got)
			want := slices.Clone(c.want)
			slices.Sort(want)
			if len(want) == 0 || !slices.Equal(got, want) {
				t.Errorf("framed %v, want every %s %v", got, c.kind, want)
			}
		})
	}
	for _, c := range []struct {
		path string
		code int
		says string
	}{
		{"/export?frame=trigger", 400, "needs &id="},
		{"/export?frame=nope", 400, "frame needs"},
	} {
		res, body := do(t, http.MethodGet, e.srv.URL+c.path, map[string]string{"Accept": "application/ld+json"})
		if res.StatusCode != c.code || !strings.Contains(string(body), c.says) {
			t.Errorf("%s: %d %s", c.path, res.StatusCode, body)
		}
	}
	small := start(t, "", func(c *server.Config) { c.MaxJSONLDQuads = 10 })
	if res, body := do(t, http.MethodGet, small.srv.URL+"/export?frame=skill", map[string]string{"Accept": "application/ld+json"}); res.StatusCode != http.StatusRequestEntityTooLarge {
		t.Errorf("over the quad limit: %d %s", res.StatusCode, body)
	}
}
