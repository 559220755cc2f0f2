package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"github.com/skillgraph/skillgraph/ingest/format"
	"io"
	"regexp"
	"strings"
)

// runFunc runs a verb once its flags are parsed, with its positional
// arguments.
type runFunc func(ctx context.Context, pos []string, stdout, stderr io.Writer) error

// param is one positional argument as the help shows it.
type param struct{ name, meaning string }

// command is one verb. Its flags are registered by setup on a fresh flag set,
// so help, the usage list and shell completion all read the same flags the
// verb parses: none of them can drift from it.
type command struct {
	name    string
	args    string // the synopsis after the verb
	summary string // one line for the usage list
	about   string // a paragraph for the verb's help
	params  []param
	// values are the fixed values of flags (by name) and, under "", of the
	// positional argument, for completion.
	values map[string][]string
	// setup registers the verb's flags and returns what runs it.
	setup func(fs *flag.FlagSet) runFunc
}

// commands is every verb in the order the usage lists them. It is filled in
// init because completion reads it and is itself a verb.
var commands []*command

func init() {
	commands = []*command{
		ingestCommand, checkCommand, diffCommand, historyCommand, coverageCommand, queryCommand, serveCommand,
		exportCommand, importCommand, genCommand, versionCommand, completionCommand, mcpCommand, healthcheckCommand,
	}
}

// lookup is the verb called name, or nil.
func lookup(name string) *command {
	for _, c := range commands {
		if c.name == name {
			return c
		}
	}
	return nil
}

// flags is a fresh flag set with the verb's flags, writing parse errors to out.
func (c *command) flags(out io.Writer) (*flag.FlagSet, runFunc) {
	fs := flag.NewFlagSet(c.name, flag.ContinueOnError)
	fs.SetOutput(out)
	fs.Usage = func() {} // exec prints the help itself, to the right stream
	return fs, c.setup(fs)
}

// exec parses args and runs the verb. --help prints the help on stdout and
// succeeds; a bad flag prints the error and the help on stderr and exits 2.
func (c *command) exec(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	// The flag package prints its own error naming a flag with one dash
	// whatever was typed; it is printed here instead, as typed.
	fs, run := c.flags(io.Discard)
	pos, err := parseArgs(fs, args)
	switch {
	case errors.Is(err, flag.ErrHelp):
		c.help(stdout, fs)
		return nil
	case err != nil:
		fmt.Fprintln(stderr, asTyped(err.Error(), args))
		fmt.Fprintln(stderr)
		c.help(stderr, fs)
		return exitError{2}
	}
	if len(c.params) == 0 && len(pos) > 0 {
		return usageError{c.name, fmt.Sprintf("takes no arguments, got %q", strings.Join(pos, " "))}
	}
	return run(ctx, pos, stdout, stderr)
}

// help writes the verb's synopsis, its positional arguments and its flags.
func (c *command) help(w io.Writer, fs *flag.FlagSet) {
	fmt.Fprintf(w, "Usage: skillgraph %s %s\n\n%s\n", c.name, c.args, c.summary)
	if c.about != "" {
		fmt.Fprintf(w, "\n%s\n", c.about)
	}
	if len(c.params) > 0 {
		fmt.Fprintln(w, "\nArguments:")
		for _, p := range c.params {
			fmt.Fprintf(w, "  %-10s %s\n", p.name, p.meaning)
		}
	}
	n := 0
	fs.VisitAll(func(*flag.Flag) { n++ })
	if n > 0 {
		fmt.Fprintln(w, "\nFlags:")
		fs.SetOutput(w)
		fs.PrintDefaults()
	}
}

// flagInMessage finds the flag a flag-package error names ("-name").
var flagInMessage = regexp.MustCompile(`(^|[ :])-([A-Za-z0-9][A-Za-z0-9_.-]*)`)

// asTyped rewrites the flag an error names with the dashes the user typed
// (issue 25.11: "--nosuchflag" was echoed as "-nosuchflag").
func asTyped(msg string, args []string) string {
	return flagInMessage.ReplaceAllStringFunc(msg, func(m string) string {
		sub := flagInMessage.FindStringSubmatch(m)
		for _, a := range args {
			if a == "--" {
				break
			}
			name, _, _ := strings.Cut(strings.TrimLeft(a, "-"), "=")
			if strings.HasPrefix(a, "-") && name == sub[2] {
				return sub[1] + a[:len(a)-len(strings.TrimLeft(a, "-"))] + name
			}
		}
		return m
	})
}

// parseArgs parses flags that may come before or after positional args.
func parseArgs(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		args = fs.Args()
		if len(args) == 0 {
			return pos, nil
		}
		pos = append(pos, args[0])
		args = args[1:]
	}
}

// writeUsage lists every verb with its synopsis.
func writeUsage(w io.Writer) {
	fmt.Fprint(w, "skillgraph — a knowledge service for agent harnesses\n\nUsage:\n")
	for _, c := range commands {
		fmt.Fprintln(w, strings.TrimRight(fmt.Sprintf("  skillgraph %-10s %s", c.name, c.args), " "))
	}
	fmt.Fprint(w, `  skillgraph help       [VERB]

Stores: memory, bbolt:PATH (default for ingest: `+"bbolt:./.skillgraph/graph.db"+`), postgres:DSN.
With --corpus and no --store, check, coverage, diff, query and mcp read the corpus into memory and write no store.
Environment: SKILLGRAPH_STORE, SKILLGRAPH_ADDR, SKILLGRAPH_TOKEN (enables mutations), SKILLGRAPH_CORPUS (colon-separated), SKILLGRAPH_MAX_FILE_SIZE,
SKILLGRAPH_LOG_FORMAT (text or json), SKILLGRAPH_CORS_ORIGIN (serve), OTEL_EXPORTER_OTLP_ENDPOINT (OpenTelemetry traces over OTLP/HTTP; off without it).
Run 'skillgraph help VERB' (or 'skillgraph VERB --help') for a verb's arguments and flags,
'skillgraph help formats' for the files skillgraph reads.
`)
}

// writeFormats lists the input formats, from the one format table.
func writeFormats(w io.Writer) {
	fmt.Fprint(w, "Input formats (a file is read as the first that matches where it lives):\n\n")
	for _, f := range format.Formats {
		fmt.Fprintf(w, "  %-12s %s\n", f.Kind, f.Where)
	}
	exts, names := format.Watched()
	fmt.Fprintf(w, "\nExtensions read: %s\nFile names read: %s\n", strings.Join(exts, " "), strings.Join(names, " "))
}

// wantArgs is a usage error unless exactly n positional arguments were given.
func wantArgs(verb string, pos []string, n int, what string) error {
	if len(pos) != n {
		return usageError{verb, fmt.Sprintf("needs %s, got %d argument(s): %s", what, len(pos), strings.Join(pos, " "))}
	}
	return nil
}
