package main

import (
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
		fmt.Fprintf(stdout, "wrote %s in %v: %d files, %d bytes; %d skills in %d packages, %d contracts, %d Tools (+%d hard-skill), %d alternative groups (%d without selection), %d contradicted edges, %d processes (%d steps), %d beans, %d MCP servers (%d tools)\n",
			pos[0], time.Since(start).Round(time.Millisecond), st.Files, st.Bytes, st.Skills, st.Packages, st.Contracts, st.Tools, st.HardTools,
			st.AlternativeGroups, st.MissingSelection, st.Contradicted, st.Processes, st.Activities, st.Beans, st.McpServers, st.McpTools)
		return nil
	}
}
