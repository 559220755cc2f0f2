package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/skillgraph/skillgraph/ingest/record"
)

var completionCommand = &command{
	name:    "completion",
	args:    "bash|zsh|fish|powershell",
	summary: "Print a shell completion script for the verbs, their flags and the values they take.",
	about: "bash: source <(skillgraph completion bash)   (or save it under /etc/bash_completion.d/)\n" +
		"zsh:  source <(skillgraph completion zsh)    (or save it as _skillgraph on $fpath)\n" +
		"fish: skillgraph completion fish | source    (or save it as ~/.config/fish/completions/skillgraph.fish)\n" +
		"powershell: skillgraph completion powershell | Out-String | Invoke-Expression   (or add that line to $PROFILE)",
	params: []param{{"SHELL", "bash, zsh, fish or powershell"}},
	values: map[string][]string{"": {"bash", "zsh", "fish", "powershell"}},
	setup: func(*flag.FlagSet) runFunc {
		return func(_ context.Context, pos []string, stdout, _ io.Writer) error {
			if err := wantArgs("completion", pos, 1, "one shell: bash, zsh, fish or powershell"); err != nil {
				return err
			}
			write, ok := map[string]func(io.Writer, []verbSpec){"bash": writeBash, "zsh": writeZsh, "fish": writeFish, "powershell": writePowerShell}[pos[0]]
			if !ok {
				return usageError{"completion", fmt.Sprintf("unknown shell %q: bash, zsh, fish or powershell", pos[0])}
			}
			write(stdout, verbSpecs())
			return nil
		}
	},
}

// flagSpec is one flag as a completion script needs it.
type flagSpec struct {
	name, usage string
	takesValue  bool
	values      []string // fixed values; none: a file (a directory for dirFlags)
	dir         bool
}

// verbSpec is one verb as a completion script needs it.
type verbSpec struct {
	name, summary string
	flags         []flagSpec
	args          []string // fixed values of the positional argument, if any
	fileArg       bool     // the positional argument is a path
}

// dirFlags take a directory.
var dirFlags = map[string]bool{"corpus": true, "base": true}

// verbSpecs reads every verb's flags from the flag set it parses, so the
// scripts complete exactly what the verbs accept.
func verbSpecs() []verbSpec {
	var out []verbSpec
	for _, c := range commands {
		fs, _ := c.flags(io.Discard)
		v := verbSpec{name: c.name, summary: c.summary, args: c.values[""], fileArg: len(c.params) > 0 && c.values[""] == nil}
		fs.VisitAll(func(f *flag.Flag) {
			bf, isBool := f.Value.(interface{ IsBoolFlag() bool })
			values := c.values[f.Name]
			if f.Name == "explain" {
				values = record.Codes() // --explain CODE completes the registry's codes
			}
			v.flags = append(v.flags, flagSpec{name: f.Name, usage: f.Usage, takesValue: !(isBool && bf.IsBoolFlag()),
				values: values, dir: dirFlags[f.Name]})
		})
		out = append(out, v)
	}
	out = append(out, verbSpec{name: "help", summary: "Show the usage, or a verb's arguments and flags.", args: verbNames()})
	return out
}

func verbNames() []string {
	var names []string
	for _, c := range commands {
		names = append(names, c.name)
	}
	return names
}

// dashed is the flag as users type it: --name, or -v for one letter.
func dashed(name string) string {
	if len(name) == 1 {
		return "-" + name
	}
	return "--" + name
}

func writeBash(w io.Writer, verbs []verbSpec) {
	var names []string
	for _, v := range verbs {
		names = append(names, v.name)
	}
	fmt.Fprintf(w, `# bash completion for skillgraph; load with: source <(skillgraph completion bash)
_skillgraph() {
    local cur="${COMP_WORDS[COMP_CWORD]}" prev="${COMP_WORDS[COMP_CWORD-1]}"
    if [[ $COMP_CWORD -eq 1 ]]; then
        COMPREPLY=($(compgen -W %q -- "$cur"))
        return
    fi
    local verb="${COMP_WORDS[1]}" flags="" args="" files=""
    case "$verb" in
`, strings.Join(names, " "))
	for _, v := range verbs {
		var flags []string
		for _, f := range v.flags {
			flags = append(flags, dashed(f.name))
		}
		fmt.Fprintf(w, "        %s)\n            flags=%q args=%q files=%q\n", v.name, strings.Join(flags, " "), strings.Join(v.args, " "), boolWord(v.fileArg))
		fmt.Fprintf(w, "            case \"$prev\" in\n")
		for _, f := range v.flags {
			if !f.takesValue {
				continue
			}
			pat := "-" + f.name + "|--" + f.name
			switch {
			case len(f.values) > 0:
				fmt.Fprintf(w, "                %s) COMPREPLY=($(compgen -W %q -- \"$cur\")); return ;;\n", pat, strings.Join(f.values, " "))
			case f.dir:
				fmt.Fprintf(w, "                %s) COMPREPLY=($(compgen -d -- \"$cur\")); return ;;\n", pat)
			default:
				fmt.Fprintf(w, "                %s) COMPREPLY=($(compgen -f -- \"$cur\")); return ;;\n", pat)
			}
		}
		fmt.Fprintf(w, "            esac ;;\n")
	}
	fmt.Fprint(w, `    esac
    if [[ $cur == -* ]]; then
        COMPREPLY=($(compgen -W "$flags" -- "$cur"))
    elif [[ -n $args ]]; then
        COMPREPLY=($(compgen -W "$args" -- "$cur"))
    elif [[ -n $files ]]; then
        COMPREPLY=($(compgen -f -- "$cur"))
    fi
}
complete -o filenames -o bashdefault -F _skillgraph skillgraph
`)
}

func boolWord(b bool) string {
	if b {
		return "yes"
	}
	return ""
}

// zshQuote makes s safe inside a single-quoted _arguments spec: no brackets
// or colons (they are the spec's syntax), quotes closed and reopened.
func zshQuote(s string) string {
	s = strings.NewReplacer("[", "(", "]", ")", ":", `\:`, "'", `'\''`).Replace(s)
	if len(s) > 72 {
		s = s[:72] + "…"
	}
	return s
}

func writeZsh(w io.Writer, verbs []verbSpec) {
	fmt.Fprint(w, "#compdef skillgraph\n# zsh completion for skillgraph; load with: source <(skillgraph completion zsh)\n_skillgraph() {\n    local -a verbs\n    verbs=(\n")
	for _, v := range verbs {
		fmt.Fprintf(w, "        '%s:%s'\n", v.name, zshQuote(v.summary))
	}
	fmt.Fprint(w, `    )
    if (( CURRENT == 2 )); then
        _describe -t commands 'skillgraph verb' verbs
        return
    fi
    local verb=$words[2]
    shift words
    (( CURRENT-- ))
    case $verb in
`)
	for _, v := range verbs {
		fmt.Fprintf(w, "        %s)\n            _arguments -s", v.name)
		for _, f := range v.flags {
			spec := "'" + dashed(f.name)
			if f.takesValue {
				spec += "="
			}
			if f.name == "corpus" {
				spec = "'*" + spec[1:]
			}
			spec += "[" + zshQuote(f.usage) + "]"
			if f.takesValue {
				switch {
				case len(f.values) > 0:
					spec += ":" + f.name + ":(" + strings.Join(f.values, " ") + ")"
				case f.dir:
					spec += ":directory:_files -/"
				default:
					spec += ":" + f.name + ":_files"
				}
			}
			fmt.Fprintf(w, " \\\n                %s'", spec)
		}
		switch {
		case len(v.args) > 0:
			fmt.Fprintf(w, " \\\n                ':argument:(%s)'", strings.Join(v.args, " "))
		case v.fileArg:
			fmt.Fprint(w, " \\\n                ':file:_files'")
		}
		fmt.Fprint(w, " ;;\n")
	}
	fmt.Fprint(w, `    esac
}
if [[ ${zsh_eval_context[-1]} == loadautofunc ]]; then
    _skillgraph "$@"
else
    compdef _skillgraph skillgraph
fi
`)
}

// fishQuote single-quotes s for fish.
func fishQuote(s string) string {
	return "'" + strings.NewReplacer(`\`, `\\`, "'", `\'`).Replace(s) + "'"
}

func writeFish(w io.Writer, verbs []verbSpec) {
	fmt.Fprint(w, "# fish completion for skillgraph; load with: skillgraph completion fish | source\ncomplete -c skillgraph -f\n")
	for _, v := range verbs {
		fmt.Fprintf(w, "complete -c skillgraph -n __fish_use_subcommand -a %s -d %s\n", v.name, fishQuote(v.summary))
	}
	for _, v := range verbs {
		cond := fishQuote("__fish_seen_subcommand_from " + v.name)
		for _, f := range v.flags {
			opt := "-l " + f.name
			if len(f.name) == 1 {
				opt = "-s " + f.name
			}
			val := ""
			if f.takesValue {
				switch {
				case len(f.values) > 0:
					val = " -x -a " + fishQuote(strings.Join(f.values, " "))
				case f.dir:
					val = " -x -a '(__fish_complete_directories)'"
				default:
					val = " -r -F"
				}
			}
			fmt.Fprintf(w, "complete -c skillgraph -n %s %s%s -d %s\n", cond, opt, val, fishQuote(f.usage))
		}
		switch {
		case len(v.args) > 0:
			fmt.Fprintf(w, "complete -c skillgraph -n %s -a %s\n", cond, fishQuote(strings.Join(v.args, " ")))
		case v.fileArg:
			fmt.Fprintf(w, "complete -c skillgraph -n %s -F\n", cond)
		}
	}
}

// psQuote single-quotes s for PowerShell.
func psQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }

// writePowerShell writes a native argument completer: the verbs, each
// verb's flags, the fixed values of a flag after it (files otherwise, by
// returning nothing so PowerShell completes paths), and a verb's fixed
// positional values.
func writePowerShell(w io.Writer, verbs []verbSpec) {
	fmt.Fprint(w, "# PowerShell completion for skillgraph; load with:\n#   skillgraph completion powershell | Out-String | Invoke-Expression\n$__skillgraphVerbs = @{\n")
	for _, v := range verbs {
		var flags, values []string
		for _, f := range v.flags {
			flags = append(flags, psQuote(dashed(f.name)))
			if len(f.values) > 0 {
				var vs []string
				for _, x := range f.values {
					vs = append(vs, psQuote(x))
				}
				values = append(values, fmt.Sprintf("%s = @(%s); %s = @(%s)", psQuote(dashed(f.name)), strings.Join(vs, ", "), psQuote("-"+f.name), strings.Join(vs, ", ")))
			}
		}
		var args []string
		for _, a := range v.args {
			args = append(args, psQuote(a))
		}
		fmt.Fprintf(w, "    %s = @{ Summary = %s; Flags = @(%s); Values = @{ %s }; Args = @(%s) }\n",
			psQuote(v.name), psQuote(v.summary), strings.Join(flags, ", "), strings.Join(values, "; "), strings.Join(args, ", "))
	}
	fmt.Fprint(w, `}
Register-ArgumentCompleter -Native -CommandName skillgraph, skillgraph.exe -ScriptBlock {
    param($wordToComplete, $commandAst, $cursorPosition)
    $words = @($commandAst.CommandElements | Where-Object { $_.Extent.EndOffset -le $cursorPosition } | ForEach-Object { $_.ToString() })
    if ($wordToComplete -ne '' -and $words.Count -gt 0 -and $words[-1] -eq $wordToComplete) { $words = @($words | Select-Object -SkipLast 1) }
    $reply = @()
    if ($words.Count -le 1) {
        $reply = $__skillgraphVerbs.Keys | Sort-Object
    } else {
        $verb = $__skillgraphVerbs[$words[1]]
        if ($null -eq $verb) { return }
        $prev = $words[-1]
        if ($words.Count -gt 2 -and $verb.Values.ContainsKey($prev)) {
            $reply = $verb.Values[$prev]
        } elseif ($wordToComplete.StartsWith('-')) {
            $reply = $verb.Flags
        } elseif ($verb.Args.Count -gt 0) {
            $reply = $verb.Args
        } else {
            return # a path: PowerShell's own completion
        }
    }
    $reply | Where-Object { $_ -like "$wordToComplete*" } | ForEach-Object {
        [System.Management.Automation.CompletionResult]::new($_, $_, 'ParameterValue', $_)
    }
}
`)
}
