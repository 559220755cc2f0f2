package ingest_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/skillgraph/skillgraph/graph"
	"github.com/skillgraph/skillgraph/graph/ingest"
	"github.com/skillgraph/skillgraph/ingest/corpustest"
	"github.com/skillgraph/skillgraph/ingest/tool"
	"github.com/skillgraph/skillgraph/ingest/tsmodule"
)

// wideObject writes an object of n keys k0…k(n-1) in the syntax of a
// Tool file of extension ext.
func wideObject(ext string, n int) string {
	var b strings.Builder
	b.WriteString("{")
	for i := range n {
		if i > 0 {
			b.WriteString(",")
		}
		if ext == "ts" {
			fmt.Fprintf(&b, "k%d:0", i)
		} else {
			fmt.Fprintf(&b, `"k%d":0`, i)
		}
	}
	b.WriteString("}")
	return b.String()
}

// wideTool is a Tool file whose field at (an unknown field x-wide, or
// install.npm) holds an object of n keys. YAML is written in flow style
// (JSON is YAML).
func wideTool(ext, at string, n int) string {
	obj := wideObject(ext, n)
	field := `"x-wide": ` + obj
	if at == "npm" {
		field = `"install": {"npm": ` + obj + `}`
	}
	if ext == "ts" {
		field = strings.ReplaceAll(field, `"`, "")
		field = strings.Replace(field, "x-wide", "'x-wide'", 1)
		return "export const tools = [defineTool({ id: 'wide', title: 'T', description: 'D', invoke: { manual: true }, satisfies: ['s'], " + field + " })];\n"
	}
	return `{"id": "wide", "title": "T", "description": "D", "invoke": {"manual": true}, "satisfies": ["s"], ` + field + "}\n"
}

// TestWideObjectsInTools (issue #28 row 9): a Tool whose unknown field or
// install.npm is an object of many keys is read in linear time, in JSON,
// YAML and TypeScript; past the bound on the values of one Tool it is a
// finding. Before, json-gold's canonicalisation of the rdf:JSON literal
// sorted the keys by insertion into a list: 50 000 keys took 12 s,
// 250 000 over 120 s.
func TestWideObjectsInTools(t *testing.T) {
	if testing.Short() {
		t.Skip("ingests files of up to 4 MiB")
	}
	// Each file is read in seconds (under -race on a loaded machine, tens
	// of seconds); before, the first case took 12 s without -race and
	// minutes with it. The speed itself is held by jsonld's
	// TestWideJSONLiteralLinear and tsmodule's TestCanonicalLinear; this
	// test holds the path from each format to the store, and the bounds.
	const budget = 60 * time.Second
	for _, c := range []struct {
		ext, at string
		keys    int
		code    string // the finding past the bound ("" at the bound: read)
	}{
		{"json", "npm", 50_000, ""},
		{"yaml", "extra", 50_000, ""},
		{"ts", "extra", 20_000, ""},
		{"json", "npm", tool.MaxValues, "tool-invalid"},
		{"ts", "npm", tsmodule.MaxToolValues + 1, "tool-module-dynamic"},
	} {
		name := fmt.Sprintf("%s-%s-%d", c.ext, c.at, c.keys)
		t.Run(name, func(t *testing.T) {
			root := t.TempDir()
			corpustest.WriteInto(t, root, map[string]string{
				"skills/s/SKILL.md":   "---\nname: s\ndescription: d\n---\n",
				"tools/wide." + c.ext: wideTool(c.ext, c.at, c.keys),
			})
			st, err := graph.Open(context.Background(), "memory")
			if err != nil {
				t.Fatal(err)
			}
			defer st.Close()
			ctx, cancel := context.WithTimeout(context.Background(), budget)
			defer cancel()
			done := make(chan error, 1)
			start := time.Now()
			go func() {
				_, err := ingest.Run(ctx, st, []string{root}, ingest.Options{})
				done <- err
			}()
			select {
			case err := <-done:
				if err != nil {
					t.Fatal(err)
				}
			case <-time.After(budget + 5*time.Second):
				t.Fatalf("ingest of a Tool with a %d-key object still running after %v", c.keys, budget+5*time.Second)
			}
			t.Logf("%s: %v", name, time.Since(start))
			snap := snapshotOf(t, st)
			var codes []string
			for _, f := range snap.Findings {
				if f.File == "tools/wide."+c.ext {
					codes = append(codes, f.Code)
				}
			}
			if c.code != "" {
				if !strings.Contains(strings.Join(codes, " "), c.code) {
					t.Fatalf("past the bound: findings %v, want %s", codes, c.code)
				}
				return
			}
			// At the bound the object is stored whole.
			last := fmt.Sprintf(`k%d`, c.keys-1)
			found := false
			for _, quads := range dump(t, st) {
				for _, q := range quads {
					if strings.Contains(q, last) {
						found = true
					}
				}
			}
			if !found {
				t.Fatalf("the %d-key object was not stored (findings %v)", c.keys, codes)
			}
		})
	}
}
