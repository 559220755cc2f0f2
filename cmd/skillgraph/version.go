package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"net/url"
	"regexp"
	"runtime"
	"runtime/debug"
	"strings"
)

// modulePath is the module, for a binary without build info.
const modulePath = "github.com/skillgraph/skillgraph"

// version overrides the module version when set at build time with
// -ldflags "-X main.version=…" (a packager's own version string).
var version string

var versionCommand = &command{
	name:    "version",
	summary: "Print the module version and the VCS revision and time the binary was built from.",
	setup: func(*flag.FlagSet) runFunc {
		return func(_ context.Context, _ []string, stdout, _ io.Writer) error {
			fmt.Fprint(stdout, versionText(currentBuild()))
			return nil
		}
	},
}

// build is what the binary knows about its own build.
type build struct {
	Path     string // module path
	Version  string // module version: a tag, a pseudo-version, or "(devel)"
	Revision string // VCS commit, "" when built outside a checkout
	Time     string // commit time, RFC 3339
	Modified bool   // built from a tree with uncommitted changes
	Go       string
}

// readBuild reads the build info the Go toolchain stamps into every binary
// (go build and go install record the module version and the VCS state).
func readBuild(bi *debug.BuildInfo) build {
	b := build{Path: modulePath, Version: "(devel)", Go: runtime.Version()}
	if bi != nil {
		if bi.Main.Path != "" {
			b.Path = bi.Main.Path
		}
		if bi.Main.Version != "" {
			b.Version = bi.Main.Version
		}
		if bi.GoVersion != "" {
			b.Go = bi.GoVersion
		}
		for _, s := range bi.Settings {
			switch s.Key {
			case "vcs.revision":
				b.Revision = s.Value
			case "vcs.time":
				b.Time = s.Value
			case "vcs.modified":
				b.Modified = s.Value == "true"
			}
		}
	}
	if version != "" {
		b.Version = version
	}
	return b
}

// toolVersion is the version SARIF and other reports name, as semantic
// version without the "v": the module version (a tag or a pseudo-version),
// or for a build without one 0.0.0-devel with the revision it was built
// from, so a report always says which code produced it.
func (b build) toolVersion() string {
	if b.Version != "(devel)" {
		return strings.TrimPrefix(b.Version, "v")
	}
	v := "0.0.0-devel"
	if b.Revision != "" {
		v += "+" + short(b.Revision)
		if b.Modified {
			v += ".dirty"
		}
	}
	return v
}

// tagged matches a release tag (not a pseudo-version): docs links pin to it.
var (
	tagged = regexp.MustCompile(`^v\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?(\+[0-9A-Za-z.-]+)?$`)
	pseudo = regexp.MustCompile(`\d{14}-[0-9a-f]{12}(\+[0-9A-Za-z.-]+)?$`)
)

// docsRef is the git ref the docs links of this build point at: its release
// tag, so an old binary links the docs of its own codes; main otherwise.
func (b build) docsRef() string {
	if tagged.MatchString(b.Version) && !pseudo.MatchString(b.Version) {
		return b.Version
	}
	return "main"
}

// informationURI is the project's home page: the module path on GitHub.
func informationURI(b build) string { return "https://" + b.Path }

// helpURI is the absolute, stable link to a code's entry in
// docs/findings.md (docs/decisions.md: SARIF links).
func helpURI(b build, code string) string {
	return fmt.Sprintf("https://%s/blob/%s/docs/findings.md#%s", b.Path, b.docsRef(), url.PathEscape(code))
}

func short(rev string) string { return rev[:min(len(rev), 12)] }

// versionText is what `skillgraph version` prints.
func versionText(b build) string {
	var w strings.Builder
	fmt.Fprintf(&w, "skillgraph %s\n", b.Version)
	if b.Revision != "" {
		fmt.Fprintf(&w, "revision %s", b.Revision)
		if b.Time != "" {
			fmt.Fprintf(&w, " (%s)", b.Time)
		}
		if b.Modified {
			w.WriteString(" with uncommitted changes")
		}
		w.WriteString("\n")
	} else {
		w.WriteString("revision unknown (built outside a VCS checkout)\n")
	}
	fmt.Fprintf(&w, "%s %s/%s\n", b.Go, runtime.GOOS, runtime.GOARCH)
	return w.String()
}

// currentBuild is this binary's build.
func currentBuild() build {
	bi, _ := debug.ReadBuildInfo()
	return readBuild(bi)
}
