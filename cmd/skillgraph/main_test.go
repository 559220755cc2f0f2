package main

import (
	"bytes"
	"context"
	"os/exec"
	"path/filepath"
	"runtime/debug"
	"strconv"
	"strings"
	"testing"

	"github.com/skillgraph/skillgraph/ingest/corpustest"
)

// runCLI runs one command line in-process and returns its streams and exit code.
func runCLI(t *testing.T, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	var out, errb bytes.Buffer
	code = report(run(context.Background(), args, &out, &errb), &errb)
	return out.String(), errb.String(), code
}

// TestUsageNamesEveryVerb guards the usage text against drifting from the
// dispatch in run: every verb run accepts is listed.
func TestUsageNamesEveryVerb(t *testing.T) {
	out, errs, code := runCLI(t, "help")
	if code != 0 {
		t.Fatalf("help: exit %d (stderr %q)", code, errs)
	}
	for _, verb := range []string{"ingest", "check", "diff", "coverage", "query", "serve", "export", "import", "gen", "version", "completion", "mcp", "help"} {
		t.Run(verb, func(t *testing.T) {
			if !strings.Contains(out, "skillgraph "+verb) {
				t.Errorf("usage does not list %q:\n%s", verb, out)
			}
		})
	}
}

// TestVerbHelp: `VERB --help`, `VERB -h` and `help VERB` print the verb's
// help on stdout and exit 0, with its positional arguments and its flags.
func TestVerbHelp(t *testing.T) {
	cases := []struct {
		args []string
		want []string
	}{
		{[]string{"check", "--help"}, []string{"Usage: skillgraph check", "-fail-on", "-format", "-corpus"}},
		{[]string{"check", "-h"}, []string{"Usage: skillgraph check", "-fail-on"}},
		{[]string{"help", "check"}, []string{"Usage: skillgraph check", "-fail-on"}},
		{[]string{"query", "--help"}, []string{"Arguments:", "GRAPHQL", "-variables"}},
		{[]string{"gen", "--help"}, []string{"Arguments:", "OUT", "-skills"}},
		{[]string{"help", "completion"}, []string{"SHELL", "bash"}},
		{[]string{"version", "--help"}, []string{"Usage: skillgraph version"}},
	}
	for _, tc := range cases {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			out, errs, code := runCLI(t, tc.args...)
			if code != 0 || errs != "" {
				t.Fatalf("exit %d, stderr %q", code, errs)
			}
			for _, w := range tc.want {
				if !strings.Contains(out, w) {
					t.Errorf("help lacks %q:\n%s", w, out)
				}
			}
		})
	}
}

// TestUsageErrors: mistakes on the command line exit 2 and say so on stderr.
func TestUsageErrors(t *testing.T) {
	cases := []struct {
		args []string
		want string
	}{
		{[]string{}, "Usage:"},
		{[]string{"nonsense"}, `unknown command "nonsense"`},
		{[]string{"help", "nonsense"}, `unknown command "nonsense"`},
		{[]string{"check", "--bogus"}, "flag provided but not defined: --bogus"}, // as typed (issue 25.11)
		{[]string{"check", "--corpus", "x", "--format", "yaml"}, `--format must be text, json, sarif or github, not "yaml"`},
		{[]string{"check", "stray"}, `takes no arguments, got "stray"`},
		{[]string{"gen"}, "needs one OUT directory"},
		{[]string{"completion", "tcsh"}, `unknown shell "tcsh"`},
	}
	for _, tc := range cases {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			_, errs, code := runCLI(t, tc.args...)
			if code != 2 || !strings.Contains(errs, tc.want) {
				t.Errorf("exit %d, stderr %q; want exit 2 and %q", code, errs, tc.want)
			}
		})
	}
}

// TestVersionFromBuildInfo: the version comes from the build info the
// toolchain stamps, not a placeholder.
func TestVersionFromBuildInfo(t *testing.T) {
	cases := []struct {
		name     string
		bi       *debug.BuildInfo
		want     []string
		toolVers string
	}{
		{"tagged", &debug.BuildInfo{GoVersion: "go1.26.0", Main: debug.Module{Version: "v1.4.0"}, Settings: []debug.BuildSetting{
			{Key: "vcs.revision", Value: "0123456789abcdef0123"}, {Key: "vcs.time", Value: "2026-11-30T12:00:00Z"}, {Key: "vcs.modified", Value: "false"}}},
			[]string{"skillgraph v1.4.0\n", "revision 0123456789abcdef0123 (2026-11-30T12:00:00Z)\n", "go1.26.0"}, "1.4.0"},
		{"dirty checkout", &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}, Settings: []debug.BuildSetting{
			{Key: "vcs.revision", Value: "0123456789abcdef0123"}, {Key: "vcs.modified", Value: "true"}}},
			[]string{"skillgraph (devel)\n", "with uncommitted changes"}, "0.0.0-devel+0123456789ab.dirty"},
		{"no vcs", &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}}, []string{"revision unknown"}, "0.0.0-devel"},
		{"pseudo-version", &debug.BuildInfo{Main: debug.Module{Version: "v0.0.0-20261201102047-f750bf2b2807"}}, []string{"skillgraph v0.0.0-20261201102047-f750bf2b2807\n"}, "0.0.0-20261201102047-f750bf2b2807"},
		{"no build info", nil, []string{"skillgraph (devel)"}, "0.0.0-devel"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			b := readBuild(tc.bi)
			got := versionText(b)
			for _, w := range tc.want {
				if !strings.Contains(got, w) {
					t.Errorf("version text lacks %q:\n%s", w, got)
				}
			}
			if strings.Contains(got, "dev\n") {
				t.Errorf("placeholder version: %s", got)
			}
			if b.toolVersion() != tc.toolVers {
				t.Errorf("toolVersion = %q, want %q", b.toolVersion(), tc.toolVers)
			}
		})
	}
}

// write creates files (path → content) under a fresh directory.
func write(t *testing.T, files map[string]string) string { return corpustest.Write(t, files) }

// TestCorpusWithNothingFound: a --corpus in which nothing is found is an
// error (exit 2) saying what was looked for and where, not "0 errors".
func TestCorpusWithNothingFound(t *testing.T) {
	cases := []struct {
		name  string
		files map[string]string
		sub   string
		want  string // "" : the gate runs
	}{
		{"empty folder", map[string]string{}, "", "nothing found in corpus"},
		{"docs folder", map[string]string{"architecture.md": "# Architecture\n", "guide/setup.md": "Setup.\n"}, "", "2 markdown document(s) without front matter"},
		{"typo", map[string]string{}, "no-such-dir", "no such directory (looked for "},
		{"a file", map[string]string{"notes.txt": "x"}, "notes.txt", "is a file"},
		{"only images", map[string]string{"a.png": "\x89PNG"}, "", "nothing found in corpus"},
		{"only a package.json", map[string]string{"package.json": `{"name":"x","scripts":{"a":"b"}}`}, "", "nothing found in corpus"},
		{"conventional skills without front matter", map[string]string{"skills/ops/deploy.md": "Deploy it.\n"}, "", ""},
		{"agent skill", map[string]string{"deploy/SKILL.md": "---\nname: deploy\ndescription: Deploys.\n---\nDeploy.\n"}, "", ""},
		{"front matter outside skills/", map[string]string{"x/deploy.md": "---\nname: deploy\n---\nDeploy.\n"}, "", ""},
		// Agent-host layouts (SPEC §1.3) are never "nothing found".
		{"a plugin with commands only", map[string]string{".claude-plugin/plugin.json": `{"name": "solo"}`, "commands/go.md": "---\ndescription: go\n---\n"}, "", ""},
		{"a Codex plugin manifest only", map[string]string{".codex-plugin/plugin.json": `{"name": "solo"}`}, "", ""},
		{"an empty marketplace", map[string]string{".claude-plugin/marketplace.json": `{"name": "m", "plugins": []}`}, "", ""},
		{"a project with an agent", map[string]string{".claude/agents/a.md": "---\nname: a\ndescription: d\n---\n"}, "", ""},
		{"a skills library in a subfolder", map[string]string{"lib/deep/pdf/SKILL.md": "---\nname: pdf\ndescription: d\n---\n", "README.md": "# lib\n"}, "", ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			root := write(t, tc.files)
			corpus := filepath.Join(root, tc.sub)
			out, errs, code := runCLI(t, "check", "--corpus", corpus, "--fail-on", "error")
			if tc.want == "" {
				if code == 2 {
					t.Fatalf("exit 2 for a real corpus: %s", errs)
				}
				if !strings.Contains(out, "errors,") {
					t.Errorf("no summary line: %q", out)
				}
				return
			}
			if code != 2 || !strings.Contains(errs, tc.want) || !strings.Contains(errs, corpus) {
				t.Errorf("exit %d, stderr %q; want exit 2 naming %s and %q", code, errs, corpus, tc.want)
			}
			if strings.Contains(out, "0 errors") {
				t.Errorf("the gate passed over nothing: %q", out)
			}
		})
	}
}

// TestBashCompletion loads the generated script into a real bash and asks it
// to complete, as a user's Tab does.
func TestBashCompletion(t *testing.T) {
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("no bash")
	}
	script, errs, code := runCLI(t, "completion", "bash")
	if code != 0 {
		t.Fatalf("completion bash: exit %d %s", code, errs)
	}
	cases := []struct {
		words []string
		want  []string
	}{
		{[]string{"skillgraph", "co"}, []string{"coverage", "completion"}},
		{[]string{"skillgraph", "check", "--fa"}, []string{"--fail-on"}},
		{[]string{"skillgraph", "check", "--format", ""}, []string{"text", "json", "sarif", "github"}},
		{[]string{"skillgraph", "help", "ge"}, []string{"gen"}},
		{[]string{"skillgraph", "completion", "z"}, []string{"zsh"}},
		{[]string{"skillgraph", "completion", "p"}, []string{"powershell"}},
		// --explain completes finding codes, not file names (issue 25.11)
		{[]string{"skillgraph", "check", "--explain", "tool-unr"}, []string{"tool-unreachable"}},
	}
	for _, tc := range cases {
		t.Run(strings.Join(tc.words, " "), func(t *testing.T) {
			prog := script + "\nCOMP_WORDS=(" + quoteWords(tc.words) + ")\nCOMP_CWORD=" +
				itoa(len(tc.words)-1) + "\n_skillgraph\nprintf '%s\\n' \"${COMPREPLY[@]}\"\n"
			out, err := exec.Command(bash, "--norc", "-c", prog).CombinedOutput()
			if err != nil {
				t.Fatalf("bash: %v\n%s", err, out)
			}
			got := strings.Fields(string(out))
			if strings.Join(got, " ") != strings.Join(tc.want, " ") {
				t.Errorf("completions %q, want %q", got, tc.want)
			}
		})
	}
}

func quoteWords(ws []string) string {
	var q []string
	for _, w := range ws {
		q = append(q, "'"+w+"'")
	}
	return strings.Join(q, " ")
}

func itoa(n int) string { return strconv.Itoa(n) }

// TestCompletionScriptsNameEveryFlag: each shell's script offers every
// verb and every flag the verbs parse; zsh and fish parse it when installed.
func TestCompletionScriptsNameEveryFlag(t *testing.T) {
	for _, shell := range []string{"bash", "zsh", "fish", "powershell"} {
		t.Run(shell, func(t *testing.T) {
			script, errs, code := runCLI(t, "completion", shell)
			if code != 0 {
				t.Fatalf("exit %d %s", code, errs)
			}
			for _, v := range verbSpecs() {
				if !strings.Contains(script, v.name) {
					t.Errorf("%s script lacks verb %s", shell, v.name)
				}
				for _, f := range v.flags {
					if !strings.Contains(script, f.name) {
						t.Errorf("%s script lacks %s's flag %s", shell, v.name, f.name)
					}
				}
			}
			if shell == "powershell" {
				if !strings.Contains(script, "Register-ArgumentCompleter -Native -CommandName skillgraph") || !strings.Contains(script, "'tool-unreachable'") {
					t.Error("the PowerShell script registers no completer, or --explain offers no codes")
				}
				shell = "pwsh"
			}
			bin, err := exec.LookPath(shell)
			if err != nil {
				return // the syntax check needs the shell
			}
			if shell == "pwsh" {
				// parse it without running it
				out, err := exec.Command(bin, "-NoProfile", "-Command", "$e=$null; [System.Management.Automation.Language.Parser]::ParseInput([Console]::In.ReadToEnd(), [ref]$null, [ref]$e) | Out-Null; if ($e) { $e; exit 1 }").CombinedOutput()
				if err != nil {
					t.Errorf("pwsh parse: %v\n%s", err, out)
				}
				return
			}
			cmd := exec.Command(bin, "-n")
			cmd.Stdin = strings.NewReader(script)
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Errorf("%s -n: %v\n%s", shell, err, out)
			}
		})
	}
}

// TestHelpURIPinsReleases: a release links the docs of its own tag, any
// other build the docs on main; both absolute.
func TestHelpURIPinsReleases(t *testing.T) {
	cases := []struct{ version, want string }{
		{"v1.4.0", "https://github.com/skillgraph/skillgraph/blob/v1.4.0/docs/findings.md#bean-cycle"},
		{"v1.5.0-rc.1", "https://github.com/skillgraph/skillgraph/blob/v1.5.0-rc.1/docs/findings.md#bean-cycle"},
		{"v0.0.0-20261201102047-f750bf2b2807", "https://github.com/skillgraph/skillgraph/blob/main/docs/findings.md#bean-cycle"},
		{"(devel)", "https://github.com/skillgraph/skillgraph/blob/main/docs/findings.md#bean-cycle"},
	}
	for _, tc := range cases {
		if got := helpURI(build{Path: modulePath, Version: tc.version}, "bean-cycle"); got != tc.want {
			t.Errorf("%s: %s, want %s", tc.version, got, tc.want)
		}
	}
}
