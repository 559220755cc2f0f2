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
	"time"
)

// exitError carries a process exit code without printing anything more.
type exitError struct{ code int }

func (e exitError) Error() string { return fmt.Sprintf("exit %d", e.code) }

// usageError is a mistake in the command line: main prints it with a pointer
// to the verb's help and exits 2, as for an unknown flag.
type usageError struct {
	verb string
	msg  string
}

func (e usageError) Error() string { return e.msg }

// stopGrace is how long a command may take to end cleanly after SIGTERM
// or SIGINT before the process exits anyway: the loops watch the context,
// but some steps cannot be interrupted (a memory store's write, a parse of
// one large file), and an agent harness or an init system expects a stop
// within seconds (issue 28: SIGTERM was ignored for over 90 s). Exiting
// mid-write is what a kill does, which the stores are built to survive
// (bbolt and PostgreSQL commit a version whole or not at all; a memory
// store ends with the process).
const stopGrace = time.Second

// runFailure is a command that was given right but could not do its work
// for a reason outside the command line (the address is taken, the
// network is down): exit 1, not 2, which says "fix the command line or its
// inputs" (docs/decisions.md, exit codes).
type runFailure struct{ err error }

func (e runFailure) Error() string { return e.err.Error() }
func (e runFailure) Unwrap() error { return e.err }

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	done := make(chan error, 1)
	go func() { done <- run(ctx, os.Args[1:], os.Stdout, os.Stderr) }()
	var err error
	select {
	case err = <-done:
	case <-ctx.Done():
		select {
		case err = <-done:
		case <-time.After(stopGrace):
			fmt.Fprintf(os.Stderr, "skillgraph: stopped by a signal; the work did not end within %v (a store keeps its last committed version)\n", stopGrace)
			os.Exit(2)
		}
	}
	stop()
	os.Exit(report(err, os.Stderr))
}

// report prints err (if it says anything) and returns the exit code: 0 for
// success, the code of an exitError, 2 for any other error (bad usage, a
// corpus with nothing in it, a store that cannot be opened).
func report(err error, stderr io.Writer) int {
	var ee exitError
	var ue usageError
	switch {
	case err == nil:
		return 0
	case errors.As(err, &ee):
		return ee.code
	case errors.As(err, &ue):
		fmt.Fprintf(stderr, "skillgraph %s: %s\nRun 'skillgraph help %s' for its flags and arguments.\n", ue.verb, ue.msg, ue.verb)
		return 2
	case errors.As(err, new(runFailure)):
		fmt.Fprintln(stderr, "skillgraph:", err)
		return 1
	}
	fmt.Fprintln(stderr, "skillgraph:", err)
	return 2
}

// run dispatches one command line; it is main without the process.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		writeUsage(stderr)
		return exitError{2}
	}
	name, rest := args[0], args[1:]
	switch name {
	case "help", "-h", "-help", "--help":
		if len(rest) == 0 {
			writeUsage(stdout)
			return nil
		}
		if rest[0] == "formats" {
			writeFormats(stdout)
			return nil
		}
		cmd := lookup(rest[0])
		if cmd == nil {
			fmt.Fprintf(stderr, "skillgraph help: unknown command %q\n\n", rest[0])
			writeUsage(stderr)
			return exitError{2}
		}
		fs, _ := cmd.flags(io.Discard)
		cmd.help(stdout, fs)
		return nil
	case "--version", "-v":
		name = "version"
	}
	cmd := lookup(name)
	if cmd == nil {
		fmt.Fprintf(stderr, "skillgraph: unknown command %q\n\n", name)
		writeUsage(stderr)
		return exitError{2}
	}
	stop, err := startTracing(ctx, name, stderr)
	if err != nil {
		return err
	}
	defer stop()
	return cmd.exec(ctx, rest, stdout, stderr)
}
