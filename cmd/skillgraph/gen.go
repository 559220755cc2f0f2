package main

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/skillgraph/skillgraph/ingest/gen"
)

// cmdGen implements `skillgraph gen --skills N [--seed S] OUT`: it writes a
// synthetic corpus for benchmarks into OUT, which must be absent or empty.
func cmdGen(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("gen", stderr)
	skills := fs.Int("skills", 1000, "number of skills; Tools, processes and beans scale with it")
	seed := fs.Int64("seed", 1, "random seed: the same seed and size write the same bytes")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "Usage: skillgraph gen --skills N [--seed S] OUT")
		fs.PrintDefaults()
	}
	pos, err := parseArgs(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		fs.Usage()
		return exitError{2}
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
