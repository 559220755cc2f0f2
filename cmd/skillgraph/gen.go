package main

import (
	"github.com/skillgraph/skillgraph/ingest/record"

	"context"
	"flag"
	"fmt"
	"io"
	"time"

	"github.com/skillgraph/skillgraph/ingest/gen"
)

var genCommand = &command{
	name:    "gen",
	args:    "--skills N [--seed S] OUT",
	summary: "Write a synthetic corpus for benchmarks.",
	about:   "The same seed and size write the same bytes, so every benchmark number can be reproduced with one command.",
	params:  []param{{"OUT", "the directory to write into; it must be absent or empty"}},
	setup:   setupGen,
}

// setupGen registers the flags of `skillgraph gen`.
func setupGen(fs *flag.FlagSet) runFunc {
	skills := fs.Int("skills", 1000, "number of skills; Tools, processes and beans scale with it")
	seed := fs.Int64("seed", 1, "random seed: the same seed and size write the same bytes")
	return func(ctx context.Context, pos []string, stdout, stderr io.Writer) error {
		if err := wantArgs("gen", pos, 1, "one OUT directory"); err != nil {
			return err
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		start := time.Now()
		st, err := gen.Write(pos[0], gen.Options{Skills: *skills, Seed: *seed})
		if err != nil {
			return err
		}
		c := record.Count
		fmt.Fprintf(stdout, "wrote %s in %v: %s, %s; %s in %s, %s, %s (+%d hard-skill), %s (%d without selection), %s, %s (%s), %s, %s (%s)\n",
			pos[0], time.Since(start).Round(time.Millisecond), c(st.Files, "file", ""), c(int(st.Bytes), "byte", ""), c(st.Skills, "skill", ""),
			c(st.Packages, "package", ""), c(st.Contracts, "contract", ""), c(st.Tools, "Tool", ""), st.HardTools,
			c(st.AlternativeGroups, "alternative group", ""), st.MissingSelection, c(st.Contradicted, "contradicted edge", ""),
			c(st.Processes, "process", "processes"), c(st.Activities, "step", ""), c(st.Beans, "bean", ""), c(st.McpServers, "MCP server", ""), c(st.McpTools, "tool", ""))
		return nil
	}
}
