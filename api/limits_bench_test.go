package api_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/skillgraph/skillgraph/api"
)

// worstAccepted are the costliest shapes the limits still let through to
// graphql-go's validation: they bound the CPU of one request.
var worstAccepted = []struct{ name, query string }{
	{"32 × 31 differing aliases", `{` + repeat(31, func(i int) string {
		return repeat(32, func(j int) string { return fmt.Sprintf(`a%d: skill(id: "x%d") { id } `, i, j) })
	}) + `}`},
	{"400 values nested 7 deep", `{` + repeat(400, func(i int) string { return fmt.Sprintf(`a%d: search(text: [[[[[[["x"]]]]]]]) { __typename } `, i) }) + `}`},
	{"20 unknown fields after 900 KB of newlines", strings.Repeat("#\n", 450_000) + `{` + repeat(20, func(i int) string { return fmt.Sprintf("f%d ", i) }) + `}`},
	{"2400 unused variables", `query(` + repeat(2400, func(i int) string { return fmt.Sprintf("$v%d: Int ", i) }) + `) { graphVersion }`},
	{"1000 unused fragments", `{ ...F0 }` + repeat(1000, func(i int) string { return fmt.Sprintf(" fragment F%d on Query { graphVersion }", i) })},
	{"1999 distinct aliases", `{` + repeat(1999, func(i int) string { return fmt.Sprintf("a%d: graphVersion ", i) }) + `}`},
}

// BenchmarkAttackShapes: CPU per request of each refused attack shape and
// of the worst shapes still accepted (mini corpus, default limits):
//
//	go test ./api -run '^$' -bench AttackShapes -benchtime 3x
func BenchmarkAttackShapes(b *testing.B) {
	snap, schema := miniSnapshot(b)
	run := func(name, q string) {
		b.Run(name, func(b *testing.B) {
			req := api.Request{Query: q}
			b.SetBytes(int64(len(q)))
			for b.Loop() {
				res := schema.Execute(context.Background(), snap, req, api.DefaultLimits())
				if len(res.Errors) == 0 && !strings.Contains(name, "aliases") {
					b.Fatal("no error")
				}
			}
		})
	}
	for _, c := range attackShapes {
		run("refused/"+c.name, c.query)
	}
	for _, c := range worstAccepted {
		run("accepted/"+c.name, c.query)
	}
}
