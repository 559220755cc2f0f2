package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"runtime"
	"runtime/debug"
	"strings"
)

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
	Version  string // module version: a tag, a pseudo-version, or "(devel)"
	Revision string // VCS commit, "" when built outside a checkout
	Time     string // commit time, RFC 3339
	Modified bool   // built from a tree with uncommitted changes
	Go       string
}

// readBuild reads the build info the Go toolchain stamps into every binary
// (go build and go install record the module version and the VCS state).
func readBuild(bi *debug.BuildInfo) build {
	b := build{Version: "(devel)", Go: runtime.Version()}
	if bi != nil {
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

// toolVersion is the version SARIF and other reports name: the module
// version, or for a development build the revision it was built from, so a
// report always says which code produced it.
func (b build) toolVersion() string {
	if b.Version != "(devel)" {
		return b.Version
	}
	if b.Revision != "" {
		v := "devel+" + short(b.Revision)
		if b.Modified {
			v += ".dirty"
		}
		return v
	}
	return "devel"
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
