package safety

import (
	"net/url"
	"path"
	"regexp"
	"strings"
)

// Fetch is code a command downloads and runs when it starts: a package
// runner given an unpinned package, or a download piped into a shell.
type Fetch struct {
	// What is the shape, as a reader would write it ("npx -y pkg (no
	// version)", "curl … | sh").
	What string
	// Host is the host the code comes from ("registry.npmjs.org",
	// "get.example.sh"); "" when the command does not say.
	Host string
}

// pipeToShell is a download piped (or substituted) into an interpreter.
var pipeToShell = regexp.MustCompile(`\b(curl|wget|iwr|Invoke-WebRequest)\b[^|;&]*\|\s*(?:sudo\s+)?(?:-\S+\s+)*(sh|bash|zsh|dash|ksh|python3?|node|perl|ruby|iex)\b` +
	`|\b(?:sh|bash|zsh)\s+(?:-c\s+)?["']?(?:\$\(|<\(|` + "`" + `)\s*(curl|wget)\b`)

// urlHost is the first URL of a command.
var urlHost = regexp.MustCompile(`https?://[^\s"'|;&)]+`)

// pinnedVersion is an exact version: what a package runner fetches is
// then fixed (a range, a dist-tag or no version fetches whatever the
// registry serves that day).
var pinnedVersion = regexp.MustCompile(`^v?\d+\.\d+\.\d+(?:[-+][0-9A-Za-z.-]+)?$`)

// FetchesCode reports whether a hook command or an MCP server's command
// line (command and args; args may be empty when command is a whole
// shell line) downloads code and runs it.
func FetchesCode(command string, args []string) (Fetch, bool) {
	line := strings.TrimSpace(strings.Join(append([]string{command}, args...), " "))
	if m := pipeToShell.FindStringSubmatch(line); m != nil {
		dl, sh := m[1], m[2]
		what := dl + " … | " + sh
		if dl == "" {
			what = "a shell running the output of " + m[3]
		}
		return Fetch{What: what, Host: firstHost(line)}, true
	}
	words := args
	if len(words) == 0 || strings.ContainsAny(command, " \t") {
		words = shellWords(line)
	} else {
		words = append([]string{command}, args...)
	}
	for i, w := range words {
		if f, ok := runnerFetch(words, i, path.Base(w)); ok {
			return f, true
		}
	}
	return Fetch{}, false
}

// runnerFetch judges words[i] (base is its file name) as a package
// runner and what follows it as its package.
func runnerFetch(words []string, i int, base string) (Fetch, bool) {
	next := ""
	if i+1 < len(words) {
		next = words[i+1]
	}
	switch {
	case base == "npx" || base == "bunx" || base == "pnpx":
		return npmFetch(base, words[i+1:])
	case (base == "pnpm" || base == "yarn") && next == "dlx", base == "npm" && next == "exec", base == "bun" && next == "x":
		return npmFetch(base+" "+next, words[i+2:])
	case base == "uvx":
		return pyFetch("uvx", words[i+1:])
	case base == "pipx" && next == "run":
		return pyFetch("pipx run", words[i+2:])
	case base == "go" && next == "run":
		// go run pkg@version fetches the module; go run ./cmd builds local code.
		spec := firstArg(words[i+2:])
		if at := strings.LastIndex(spec, "@"); at > 0 && !pinnedVersion.MatchString(spec[at+1:]) {
			return Fetch{What: "go run " + spec, Host: "proxy.golang.org"}, true
		}
	case base == "deno" && (next == "run" || next == "x"):
		if u := firstArg(words[i+2:]); strings.HasPrefix(u, "http") {
			return Fetch{What: "deno " + next + " " + u, Host: firstHost(u)}, true
		}
	}
	return Fetch{}, false
}

// npmFetch judges the package an npm-family runner is given.
func npmFetch(runner string, rest []string) (Fetch, bool) {
	spec, flags := "", []string{}
	host := "registry.npmjs.org"
	for j := 0; j < len(rest); j++ {
		w := rest[j]
		switch {
		case w == "-p" || w == "--package":
			if j+1 < len(rest) {
				spec = rest[j+1]
				j++
			}
			continue
		case strings.HasPrefix(w, "--package="):
			spec = strings.TrimPrefix(w, "--package=")
			continue
		case strings.HasPrefix(w, "--registry="):
			host = firstHost(strings.TrimPrefix(w, "--registry="))
			continue
		case w == "--":
			continue
		case strings.HasPrefix(w, "-"):
			flags = append(flags, w)
			continue
		}
		if spec == "" {
			spec = w
		}
		break
	}
	if spec == "" {
		return Fetch{}, false
	}
	prefix := strings.TrimSpace(runner + " " + strings.Join(flags, " "))
	switch {
	case strings.HasPrefix(spec, "github:") || strings.HasPrefix(spec, "git+") || strings.HasPrefix(spec, "git://"):
		h := firstHost(strings.TrimPrefix(spec, "git+"))
		if h == "" {
			h = "github.com"
		}
		return Fetch{What: prefix + " " + spec + " (a git source)", Host: h}, true
	case strings.HasPrefix(spec, "http://") || strings.HasPrefix(spec, "https://"):
		return Fetch{What: prefix + " " + spec + " (a tarball URL)", Host: firstHost(spec)}, true
	case strings.HasPrefix(spec, ".") || strings.HasPrefix(spec, "/") || strings.HasPrefix(spec, "$"):
		return Fetch{}, false // a local path or a variable: nothing fetched
	case !strings.HasPrefix(spec, "@") && strings.Count(spec, "/") == 1 && !strings.Contains(spec, "@"):
		return Fetch{What: prefix + " " + spec + " (a GitHub repository)", Host: "github.com"}, true
	}
	name, version := spec, ""
	if at := strings.LastIndex(spec, "@"); at > 0 {
		name, version = spec[:at], spec[at+1:]
	}
	if pinnedVersion.MatchString(version) {
		return Fetch{}, false
	}
	why := "no version"
	if version != "" {
		why = "@" + version + ", not an exact version"
	}
	return Fetch{What: prefix + " " + name + " (" + why + ")", Host: host}, true
}

// pyFetch judges the package uvx or pipx run is given.
func pyFetch(runner string, rest []string) (Fetch, bool) {
	spec := ""
	for j := 0; j < len(rest); j++ {
		w := rest[j]
		if w == "--from" && j+1 < len(rest) {
			spec = rest[j+1]
			break
		}
		if strings.HasPrefix(w, "--from=") {
			spec = strings.TrimPrefix(w, "--from=")
			break
		}
		if strings.HasPrefix(w, "-") {
			if w == "--with" || w == "--python" || w == "-p" || w == "--index-url" {
				j++
			}
			continue
		}
		spec = w
		break
	}
	if spec == "" || strings.HasPrefix(spec, ".") || strings.HasPrefix(spec, "/") || strings.HasPrefix(spec, "$") {
		return Fetch{}, false
	}
	if strings.HasPrefix(spec, "git+") || strings.HasPrefix(spec, "http") {
		if at := strings.LastIndex(spec, "@"); at > strings.Index(spec, "://") && at > 0 && strings.Count(spec[at:], "/") == 0 && len(spec)-at > 7 {
			return Fetch{}, false // a git source at a commit or tag
		}
		return Fetch{What: runner + " " + spec + " (a git source at no fixed revision)", Host: firstHost(strings.TrimPrefix(spec, "git+"))}, true
	}
	if strings.Contains(spec, "==") {
		return Fetch{}, false
	}
	if at := strings.LastIndex(spec, "@"); at > 0 && pinnedVersion.MatchString(spec[at+1:]) {
		return Fetch{}, false
	}
	return Fetch{What: runner + " " + spec + " (no exact version)", Host: "pypi.org"}, true
}

func firstArg(ws []string) string {
	for _, w := range ws {
		if !strings.HasPrefix(w, "-") {
			return w
		}
	}
	return ""
}

// firstHost is the host of the first URL in s, "" when it names none.
func firstHost(s string) string {
	u := urlHost.FindString(s)
	if u == "" {
		return ""
	}
	p, err := url.Parse(u)
	if err != nil {
		return ""
	}
	return p.Hostname()
}

// shellWords splits a command line into words: quotes group, and the
// separators of a shell (;, &&, |) end a word. Enough to find a runner and
// its package; nothing is run.
func shellWords(s string) []string {
	var out []string
	var cur strings.Builder
	quote := rune(0)
	in := false
	flush := func() {
		if in {
			out = append(out, cur.String())
		}
		cur.Reset()
		in = false
	}
	for _, r := range s {
		switch {
		case quote != 0:
			if r == quote {
				quote = 0
				continue
			}
			cur.WriteRune(r)
		case r == '"' || r == '\'':
			quote, in = r, true
		case r == ' ' || r == '\t' || r == '\n' || r == ';' || r == '&' || r == '|':
			flush()
		default:
			cur.WriteRune(r)
			in = true
		}
	}
	flush()
	return out
}
