package main

import (
	"fmt"
	"io"
	"net/url"
	"path/filepath"
	"strings"

	"github.com/skillgraph/skillgraph/ingest/record"
)

// GitHub Actions workflow commands (`--format github`): one annotation per
// finding, for repositories that cannot upload SARIF (code scanning needs
// GitHub Advanced Security on private repositories). GitHub shows them on
// the pull request's changed lines and in the run's summary; paths are
// relative to the root of the checkout, as SARIF's are.

// githubCommand is the workflow command of a severity.
func githubCommand(sev string) string {
	switch sev {
	case "error":
		return "error"
	case "warning":
		return "warning"
	}
	return "notice"
}

// escapeData escapes an annotation's message (GitHub's toolkit rule).
func escapeData(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A").Replace(s)
}

// escapeProperty escapes an annotation property's value.
func escapeProperty(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C").Replace(s)
}

// writeGitHub writes one workflow command per finding and a summary line.
func writeGitHub(w io.Writer, in sarifInput, counts map[string]int) error {
	for _, f := range in.Findings {
		props := []string{"title=" + escapeProperty("skillgraph "+f.Code)}
		if f.File != "" {
			if loc, ok := in.locate(f, map[string]string{}); ok && loc.URIBaseID == srcRoot {
				props = append([]string{"file=" + escapeProperty(unescapeURI(loc.URI)), fmt.Sprintf("line=%d", max(f.Line, 1))}, props...)
			} else if ok {
				// A corpus outside the checkout: the path as the corpus has it.
				props = append([]string{"file=" + escapeProperty(filepath.ToSlash(f.File)), fmt.Sprintf("line=%d", max(f.Line, 1))}, props...)
			}
		}
		msg := f.Message
		if f.Instance != "" && len(in.Corpora) > 1 {
			msg = f.Instance + ": " + msg
		}
		if _, err := fmt.Fprintf(w, "::%s %s::%s\n", githubCommand(f.Severity), strings.Join(props, ","), escapeData(msg)); err != nil {
			return err
		}
	}
	_, err := fmt.Fprintf(w, "%s, %s, %s\n", record.Count(counts["error"], "error", ""), record.Count(counts["warning"], "warning", ""), record.Count(counts["info"], "info", "info"))
	return err
}

// unescapeURI turns a relative URI reference back into a path.
func unescapeURI(u string) string {
	segs := strings.Split(u, "/")
	for i, s := range segs {
		if p, err := url.PathUnescape(s); err == nil {
			segs[i] = p
		}
	}
	return strings.Join(segs, "/")
}
