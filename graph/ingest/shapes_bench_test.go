package ingest_test

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/skillgraph/skillgraph/graph/ingest"
	"github.com/skillgraph/skillgraph/ingest/corpustest"
)

// Hostile shapes of one file (issue #16.6): per-file work and memory must
// grow linearly with the file, or the file is refused with a finding.
// Run: go test ./graph/ingest -run '^$' -bench Shape -benchtime 1x -benchmem

// satisfiesTool is a Tool whose satisfies lists n entries of distinct
// values (repeated in turn): 900 000 entries of one value is the 3.6 MB
// file of issue #16.6, within the 4 MiB cap.
func satisfiesTool(id string, n, distinct int) string {
	var b strings.Builder
	fmt.Fprintf(&b, `{"id": %q, "title": "T", "description": "D", "install": {"none": true}, "invoke": {"shell": "x"}, "satisfies": [`, id)
	for i := range n {
		if i > 0 {
			b.WriteString(",")
		}
		if distinct == 1 {
			b.WriteString(`"s"`)
		} else {
			fmt.Fprintf(&b, `"s%d"`, i%distinct)
		}
	}
	b.WriteString("]}")
	return b.String()
}

// portsTool is a Tool with n input ports.
func portsTool(n int) string {
	var in []string
	for i := range n {
		in = append(in, fmt.Sprintf(`{"name": "p%d", "type": "Text", "required": %v}`, i, i%2 == 0))
	}
	return `{"id": "ports", "title": "T", "description": "D", "satisfies": ["s"], "install": {"none": true}, "invoke": {"shell": "bin/ports"}, "io": {"inputs": [` +
		strings.Join(in, ",") + `], "outputs": []}}`
}

// mcpServer is an MCP snapshot of n tools.
func mcpServer(n int) string {
	var ts []string
	for i := range n {
		ts = append(ts, fmt.Sprintf(`{"name": "tool_%d", "description": "d", "inputSchema": {"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"]}}`, i))
	}
	return `{"server": {"name": "big"}, "tools": [` + strings.Join(ts, ",") + `]}`
}

func shapeCorpus(b *testing.B, files map[string]string) string {
	b.Helper()
	root := filepath.Join(b.TempDir(), "corpus")
	files["skills/p/s.md"] = "---\nname: s\ndescription: d\n---\n"
	corpustest.WriteInto(b, root, files)
	return root
}

func benchShape(b *testing.B, files map[string]string) {
	root := shapeCorpus(b, files)
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		st := openStore(b, "memory")
		if _, err := ingest.Run(ctx, st, []string{root}, ingest.Options{}); err != nil {
			b.Fatal(err)
		}
		st.Close()
	}
}

func BenchmarkShapeSatisfies(b *testing.B) {
	for _, c := range []struct{ n, distinct int }{{10_000, 1}, {100_000, 1}, {900_000, 1}, {1000, 1000}, {5000, 5000}, {100_000, 100_000}} {
		b.Run(fmt.Sprintf("%d-of-%d", c.n, c.distinct), func(b *testing.B) {
			benchShape(b, map[string]string{"tools/t.json": satisfiesTool("t", c.n, c.distinct)})
		})
	}
}

// BenchmarkShapeSatisfiesFourFiles: memory must not be held across files.
func BenchmarkShapeSatisfiesFourFiles(b *testing.B) {
	files := map[string]string{}
	for i := range 4 {
		files[fmt.Sprintf("tools/t%d.json", i)] = satisfiesTool(fmt.Sprintf("t%d", i), 900_000, 1)
	}
	benchShape(b, files)
}

func BenchmarkShapePorts(b *testing.B) {
	for _, n := range []int{1000, 5000, 20_000} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			benchShape(b, map[string]string{"tools/t.json": portsTool(n)})
		})
	}
}

func BenchmarkShapeMCPTools(b *testing.B) {
	for _, n := range []int{1000, 5000, 20_000} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			benchShape(b, map[string]string{"mcp/big.json": mcpServer(n)})
		})
	}
}

// bpmnProcess is one process of n tasks chained by n sequence flows.
func bpmnProcess(n int) string {
	var b strings.Builder
	b.WriteString(`<definitions xmlns="http://www.omg.org/spec/BPMN/20100524/MODEL"><process id="P">`)
	for i := range n {
		fmt.Fprintf(&b, `<task id="T%d"/><sequenceFlow id="F%d" sourceRef="T%d" targetRef="T%d"/>`, i, i, i, i+1)
	}
	b.WriteString(`</process></definitions>`)
	return b.String()
}

// contractSchema is a JSON Schema contract of n properties.
func contractSchema(n int) string {
	var props []string
	for i := range n {
		props = append(props, fmt.Sprintf(`"p%d": {"type": "string"}`, i))
	}
	return `{"$schema": "https://json-schema.org/draft/2020-12/schema", "properties": {` + strings.Join(props, ",") + `}}`
}

func BenchmarkShapeBPMN(b *testing.B) {
	for _, n := range []int{1000, 5000} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			benchShape(b, map[string]string{"processes/p.bpmn": bpmnProcess(n)})
		})
	}
}

func BenchmarkShapeContract(b *testing.B) {
	for _, n := range []int{1000, 5000} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			benchShape(b, map[string]string{"schemas/skills/c.json": contractSchema(n)})
		})
	}
}
