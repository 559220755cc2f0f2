// Command skillgraph ingests agent-harness corpora (skills, Tools, BPMN
// processes, beans) into a Cayley quad store and answers questions about
// coverage, reachability, alternatives and integrity.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
)

// version is set at build time with -ldflags "-X main.version=…".
var version = "dev"

// exitError carries a process exit code without printing anything more.
type exitError struct{ code int }

func (e exitError) Error() string { return fmt.Sprintf("exit %d", e.code) }

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	var ee exitError
	switch {
	case errors.As(err, &ee):
		os.Exit(ee.code)
	case err != nil:
		fmt.Fprintln(os.Stderr, "skillgraph:", err)
		os.Exit(2)
	}
}

const usage = `skillgraph — a knowledge service for agent harnesses

Usage:
  skillgraph ingest   --corpus DIR [--corpus DIR2] [--store URL]
  skillgraph check    --corpus DIR [--format text|json|sarif] [--fail-on error|warning|info]
  skillgraph coverage --corpus DIR [--format text|json]
  skillgraph query    (--corpus DIR | --store URL) 'GRAPHQL'
  skillgraph serve    --corpus DIR [--store URL] [--addr HOST:PORT] [--watch] | --read-only --store URL
  skillgraph export   (--corpus DIR | --store URL) [--format nquads|jsonld]
  skillgraph gen      --skills N [--seed S] OUT
  skillgraph version

Stores: memory, bbolt:PATH (default for ingest: ` + "bbolt:./.skillgraph/graph.db" + `).
With --corpus and no --store, check, coverage and query use an in-memory store.
Environment: SKILLGRAPH_STORE, SKILLGRAPH_ADDR, SKILLGRAPH_TOKEN (enables mutations), SKILLGRAPH_CORPUS (colon-separated), SKILLGRAPH_MAX_FILE_SIZE.
`

func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return exitError{2}
	}
	cmd, rest := args[0], args[1:]
	switch cmd {
	case "ingest":
		return cmdIngest(ctx, rest, stdout, stderr)
	case "check":
		return cmdCheck(ctx, rest, stdout, stderr)
	case "coverage":
		return cmdCoverage(ctx, rest, stdout, stderr)
	case "query":
		return cmdQuery(ctx, rest, stdout, stderr)
	case "serve":
		return cmdServe(ctx, rest, stdout, stderr)
	case "export":
		return cmdExport(ctx, rest, stdout, stderr)
	case "gen":
		return cmdGen(ctx, rest, stdout, stderr)
	case "version", "--version", "-v":
		fmt.Fprintln(stdout, "skillgraph", version)
		return nil
	case "help", "-h", "--help":
		fmt.Fprint(stdout, usage)
		return nil
	}
	fmt.Fprintf(stderr, "skillgraph: unknown command %q\n\n%s", cmd, usage)
	return exitError{2}
}
