package main

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
)

// SARIF 2.1.0 for GitHub code scanning (docs/ci.md). GitHub's own rules are
// the bar: `sarif-multitool validate --rule-kind "Sarif;Gh"` with no error
// (sarif_test.go runs it).

const (
	sarifSchema  = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
	sarifVersion = "2.1.0"
	// srcRoot is the uriBaseId of the repository (or working directory)
	// every location is relative to, so alerts point at files that exist in
	// the checkout wherever the corpus sits in it.
	srcRoot = "SRCROOT"
	// fingerprintKey names our partial fingerprint; the /v1 changes if the
	// recipe ever does, so GitHub does not match old alerts to new ones.
	fingerprintKey = "skillgraphFinding/v1"
)

// sarifCorpus is one --corpus as SARIF locates its findings.
type sarifCorpus struct {
	Instance string // instance name its findings carry
	Root     string // absolute directory of the instance
	ArgRoot  string // absolute directory of the --corpus it was found under (Root, or a workspace above it)
	Arg      int    // which --corpus (0-based) it was found under
}

// sarifInput is everything one SARIF log is made of.
type sarifInput struct {
	Findings []jsonFinding
	Corpora  []sarifCorpus
	Base     string // absolute directory locations are relative to (git root or working directory)
	Build    build
	Describe func(code string) (ruleDoc, bool)
}

// ruleDoc is what code scanning shows for one finding code.
type ruleDoc struct {
	Name     string // friendly PascalCase name
	Short    string // one line
	Full     string
	Help     string // plain text
	Markdown string
	Level    string // SARIF level: error, warning, note
	Tags     []string
}

type sarifMessage struct {
	Text     string `json:"text,omitempty"`
	Markdown string `json:"markdown,omitempty"`
}

type sarifArtifactLocation struct {
	URI       string `json:"uri"`
	URIBaseID string `json:"uriBaseId,omitempty"`
}

type sarifRegion struct {
	StartLine int `json:"startLine"`
}

type sarifPhysical struct {
	ArtifactLocation sarifArtifactLocation `json:"artifactLocation"`
	Region           *sarifRegion          `json:"region,omitempty"`
}

type sarifLocation struct {
	PhysicalLocation sarifPhysical `json:"physicalLocation"`
}

type sarifResult struct {
	RuleID              string            `json:"ruleId"`
	RuleIndex           int               `json:"ruleIndex"`
	Level               string            `json:"level"`
	Message             sarifMessage      `json:"message"`
	Locations           []sarifLocation   `json:"locations"`
	PartialFingerprints map[string]string `json:"partialFingerprints"`
	Properties          map[string]any    `json:"properties,omitempty"`
}

type sarifRule struct {
	ID                   string         `json:"id"`
	Name                 string         `json:"name,omitempty"`
	ShortDescription     sarifMessage   `json:"shortDescription"`
	FullDescription      sarifMessage   `json:"fullDescription"`
	Help                 sarifMessage   `json:"help"`
	HelpURI              string         `json:"helpUri"`
	DefaultConfiguration map[string]any `json:"defaultConfiguration"`
	Properties           map[string]any `json:"properties,omitempty"`
}

type sarifDriver struct {
	Name            string      `json:"name"`
	Version         string      `json:"version"`
	SemanticVersion string      `json:"semanticVersion,omitempty"`
	InformationURI  string      `json:"informationUri"`
	Rules           []sarifRule `json:"rules"`
}

type sarifRun struct {
	Tool struct {
		Driver sarifDriver `json:"driver"`
	} `json:"tool"`
	OriginalURIBaseIDs map[string]sarifArtifactLocationAbs `json:"originalUriBaseIds"`
	Results            []sarifResult                       `json:"results"`
	ColumnKind         string                              `json:"columnKind"`
}

// sarifArtifactLocationAbs is a base: an absolute file URI ending in "/".
type sarifArtifactLocationAbs struct {
	URI         string        `json:"uri"`
	Description *sarifMessage `json:"description,omitempty"`
}

type sarifLog struct {
	Schema  string     `json:"$schema"`
	Version string     `json:"version"`
	Runs    []sarifRun `json:"runs"`
}

// fileURI is the absolute file URI of a directory, ending in "/" as a
// uriBaseId value must (SARIF §3.14.14).
func fileURI(dir string) string {
	u := url.URL{Scheme: "file", Path: filepath.ToSlash(dir)}
	s := u.String()
	if !strings.HasSuffix(s, "/") {
		s += "/"
	}
	return s
}

// relURI percent-encodes a slash path for a relative URI reference.
func relURI(p string) string {
	segs := strings.Split(p, "/")
	for i, s := range segs {
		segs[i] = url.PathEscape(s)
	}
	return strings.Join(segs, "/")
}

// locate places a finding's file (findingPath's rule): relative to the base
// when it lies inside the base (the usual case: a corpus in a subfolder of
// the repository), else relative to its --corpus folder under that folder's
// base CORPUSn. ok is false for an instance no corpus declares.
func (in sarifInput) locate(f jsonFinding, bases map[string]string) (sarifArtifactLocation, bool) {
	if f.File == "" {
		f.File = "."
	}
	p, local, ok := findingPath(f, in.Corpora, in.Base)
	if !ok {
		return sarifArtifactLocation{}, false
	}
	if local {
		return sarifArtifactLocation{URI: relURI(p), URIBaseID: srcRoot}, true
	}
	c, _ := corpusOf(f, in.Corpora)
	id, seen := bases[c.ArgRoot]
	if !seen {
		id = fmt.Sprintf("CORPUS%d", len(bases)+1)
		bases[c.ArgRoot] = id
	}
	p, _, _ = findingPath(f, in.Corpora, "")
	return sarifArtifactLocation{URI: relURI(path.Clean(p)), URIBaseID: id}, true
}

// fingerprint is stable across edits that move a finding to another line
// and across runs: instance, code, file, subject and message, plus the
// ordinal among findings equal in all of those (two identical findings in
// one file stay two alerts).
func fingerprint(f jsonFinding, seen map[string]int) string {
	h := sha256.New()
	for _, part := range []string{f.Instance, f.Code, f.File, f.Subject, f.Message} {
		h.Write([]byte(part))
		h.Write([]byte{0})
	}
	key := hex.EncodeToString(h.Sum(nil))
	seen[key]++
	return fmt.Sprintf("%s:%d", key[:32], seen[key])
}

// buildSARIF assembles the log: one run (GitHub rejects several runs of one
// tool in one upload), one rule per reported code, every corpus's results
// in it, told apart by their locations and an `instance` property.
func buildSARIF(in sarifInput) (sarifLog, error) {
	run := sarifRun{ColumnKind: "unicodeCodePoints", Results: []sarifResult{}}
	run.OriginalURIBaseIDs = map[string]sarifArtifactLocationAbs{
		srcRoot: {URI: fileURI(in.Base), Description: &sarifMessage{Text: "the repository (or working directory) skillgraph check ran in"}},
	}
	d := &run.Tool.Driver
	d.Name = "skillgraph"
	d.Version = in.Build.toolVersion()
	d.SemanticVersion = d.Version
	d.InformationURI = informationURI(in.Build)
	d.Rules = []sarifRule{}
	ruleIndex := map[string]int{}
	bases := map[string]string{}
	seen := map[string]int{}
	for _, f := range in.Findings {
		idx, ok := ruleIndex[f.Code]
		if !ok {
			doc, known := in.Describe(f.Code)
			if !known {
				return sarifLog{}, fmt.Errorf("finding code %q is not in the finding registry", f.Code)
			}
			idx = len(d.Rules)
			ruleIndex[f.Code] = idx
			r := sarifRule{ID: f.Code, Name: doc.Name, ShortDescription: sarifMessage{Text: doc.Short},
				FullDescription: sarifMessage{Text: doc.Full}, Help: sarifMessage{Text: doc.Help, Markdown: doc.Markdown},
				HelpURI: helpURI(in.Build, f.Code), DefaultConfiguration: map[string]any{"level": doc.Level}}
			if len(doc.Tags) > 0 {
				r.Properties = map[string]any{"tags": doc.Tags}
			}
			d.Rules = append(d.Rules, r)
		}
		loc, ok := in.locate(f, bases)
		if !ok {
			return sarifLog{}, fmt.Errorf("finding %s on %s names instance %q, which no --corpus declares", f.Code, f.File, f.Instance)
		}
		line := max(f.Line, 1)
		res := sarifResult{RuleID: f.Code, RuleIndex: idx, Level: sarifLevel(f.Severity), Message: sarifMessage{Text: f.Message},
			Locations:           []sarifLocation{{PhysicalLocation: sarifPhysical{ArtifactLocation: loc, Region: &sarifRegion{StartLine: line}}}},
			PartialFingerprints: map[string]string{fingerprintKey: fingerprint(f, seen)}}
		props := map[string]any{}
		if f.Instance != "" {
			props["instance"] = f.Instance
		}
		if f.Subject != "" {
			props["subject"] = f.Subject
		}
		if len(props) > 0 {
			res.Properties = props
		}
		run.Results = append(run.Results, res)
	}
	roots := make([]string, 0, len(bases))
	for r := range bases {
		roots = append(roots, r)
	}
	sort.Strings(roots)
	for _, r := range roots {
		run.OriginalURIBaseIDs[bases[r]] = sarifArtifactLocationAbs{URI: fileURI(r), Description: &sarifMessage{Text: "a corpus outside " + srcRoot}}
	}
	return sarifLog{Schema: sarifSchema, Version: sarifVersion, Runs: []sarifRun{run}}, nil
}

// sarifLevel maps a severity to a SARIF level: info is "note".
func sarifLevel(sev string) string {
	switch sev {
	case "error", "warning":
		return sev
	}
	return "note"
}

// writeSARIF prints the findings as SARIF 2.1.0.
func writeSARIF(w io.Writer, in sarifInput) error {
	log, err := buildSARIF(in)
	if err != nil {
		return err
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(log)
}

// sarifBase is the directory SARIF locations are relative to: the root of
// the git work tree the working directory is in (GitHub resolves locations
// against the checkout's root), else the working directory itself.
func sarifBase() (string, error) {
	wd, err := os.Getwd()
	if err != nil {
		return "", fmt.Errorf("sarif: working directory: %w", err)
	}
	if real, err := filepath.EvalSymlinks(wd); err == nil {
		wd = real
	}
	for dir := wd; ; dir = filepath.Dir(dir) {
		if _, err := os.Lstat(filepath.Join(dir, ".git")); err == nil { // a directory, or a file in a linked worktree
			return dir, nil
		}
		if filepath.Dir(dir) == dir {
			return wd, nil
		}
	}
}
