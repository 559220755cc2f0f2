// Package gen writes synthetic harness corpora for benchmarks and load tests
// (SPEC §8). A corpus is written in the real file formats the ingest parsers
// read — an instance declaration, harness skills in packages (with Agent
// Skills and hard skills mixed in), JSON Schema contracts, Tool files in JSON
// and YAML, BPMN processes and beans — and is fully determined by its
// Options: the same options always produce the same bytes.
//
// The shape scales with Options.Skills: about 0.3 Tools, 0.1 processes and
// 0.5 beans per skill, with a realistic share of alternatives (with and
// without selection), contradicted contracts, call chains including one
// call cycle, and uncovered skills in every tier.
package gen

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
)

// Options choose the size and the random seed of a corpus.
type Options struct {
	// Skills is the number of skills (hard skills included, tool skills not).
	// It must be at least 1; every other count is derived from it.
	Skills int
	// Seed selects the corpus: the same seed and size give the same bytes.
	Seed int64
}

// Instance is the instance name every generated corpus declares.
const Instance = "synth"

// Stats describe what Write produced.
type Stats struct {
	Files     int   // files written
	Bytes     int64 // bytes written
	Skills    int   // skills of every flavour
	Packages  int   // skill packages
	Contracts int   // JSON Schema contract files
	// Tools counts authored Tools (files under tools/); hard-skill fences
	// are counted in HardTools.
	Tools     int
	HardTools int
	// AlternativeGroups counts groups of Tools with the same skill and the
	// same signature; MissingSelection the Tools of those groups that carry
	// no selection.
	AlternativeGroups int
	MissingSelection  int
	// Contradicted counts satisfies edges written to contradict the skill's
	// input contract.
	Contradicted int
	Processes    int
	Activities   int
	Beans        int
	// McpServers counts MCP tools/list snapshots, McpTools the tools they
	// list and ToolSkills the tool skills (guidance keyed by a trigger).
	McpServers int
	McpTools   int
	ToolSkills int
}

// Write generates a corpus into dir, which must be absent or empty.
func Write(dir string, o Options) (Stats, error) {
	if o.Skills < 1 {
		return Stats{}, fmt.Errorf("gen: Skills must be at least 1, got %d", o.Skills)
	}
	if entries, err := os.ReadDir(dir); err == nil && len(entries) > 0 {
		return Stats{}, fmt.Errorf("gen: %s is not empty", dir)
	} else if err != nil && !errors.Is(err, os.ErrNotExist) {
		return Stats{}, fmt.Errorf("gen: %w", err)
	}
	g := &generator{
		rng:  rand.New(rand.NewPCG(uint64(o.Seed), 0x736b696c6c677261)),
		root: dir,
		dirs: map[string]bool{},
		opt:  o,
	}
	g.plan()
	if err := g.write(); err != nil {
		return g.stats, err
	}
	return g.stats, nil
}

type generator struct {
	rng   *rand.Rand
	root  string
	opt   Options
	dirs  map[string]bool
	stats Stats
	buf   bytes.Buffer

	skills []skillPlan
	tools  []toolPlan
	procs  []procPlan
	beans  []beanPlan
	srvs   []serverPlan
	// triggers and entry tools of the declaration
	entryProcs []string
	entryTools []string
	trigSkill  string
	trigTool   string
	exempt     []string
}

func (g *generator) chance(p float64) bool { return g.rng.Float64() < p }

func (g *generator) pick(xs []string) string { return xs[g.rng.IntN(len(xs))] }

func shuffled(rng *rand.Rand, xs []string) []string {
	out := append([]string(nil), xs...)
	rng.Shuffle(len(out), func(i, j int) { out[i], out[j] = out[j], out[i] })
	return out
}

// ---- writing ----

func (g *generator) file(rel string, data []byte) error {
	p := filepath.Join(g.root, filepath.FromSlash(rel))
	dir := filepath.Dir(p)
	if !g.dirs[dir] {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return fmt.Errorf("gen: %w", err)
		}
		g.dirs[dir] = true
	}
	if err := os.WriteFile(p, data, 0o644); err != nil {
		return fmt.Errorf("gen: %w", err)
	}
	g.stats.Files++
	g.stats.Bytes += int64(len(data))
	return nil
}

// write writes the planned corpus, one writer per format: the declaration
// (declaration.go), skills and their contracts (skills.go), Tool files
// (tools.go), MCP snapshots (mcp.go), BPMN processes (bpmn.go) and beans
// (beans.go). The plan (plan.go) makes the corpus's choices and the writers
// render it; the skill writer still draws body lengths from the same random
// stream, so the writers' order is part of the output.
func (g *generator) write() error {
	steps := []func() error{g.writeDeclaration, g.writeSkills, g.writeTools, g.writeServers, g.writeProcesses, g.writeBeans}
	for _, f := range steps {
		if err := f(); err != nil {
			return err
		}
	}
	return nil
}
