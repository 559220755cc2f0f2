package skill

import (
	"bytes"
	"encoding/json"
	"fmt"
	"html"
	"regexp"
	"strings"

	"github.com/skillgraph/skillgraph/ingest/record"
)

// Tool skills as pages (issue 23.11; the tool-skill document: "each skill
// lives as one page in a dedicated container of the active knowledge
// backend"): a page exported to a file of the corpus is read as the
// engine's codec reads it — a leading YAML block that is the front matter,
// and the page body flattened to text. Nothing is fetched: only the file.

// Parser names of page exports, as recorded in record.File.Parser.
const (
	ParserConfluencePage = "confluence-page"
	ParserPlanePage      = "plane-page"
)

// confluenceYAML finds the first Confluence code macro whose language is
// yaml, and its CDATA body. The macro's parameters may come in any order.
var (
	confluenceMacro = regexp.MustCompile(`(?s)<ac:structured-macro\b[^>]*\bac:name="code"[^>]*>(.*?)</ac:structured-macro>`)
	confluenceLang  = regexp.MustCompile(`(?s)<ac:parameter\b[^>]*\bac:name="language"[^>]*>\s*yaml\s*</ac:parameter>`)
	confluenceBody  = regexp.MustCompile(`(?s)<ac:plain-text-body>\s*<!\[CDATA\[(.*?)\]\]>\s*</ac:plain-text-body>`)
	// planeYAML is a leading <pre><code class="language-yaml"> block, the
	// editor free to re-serialise its attributes.
	planeYAML = regexp.MustCompile(`(?s)^\s*(?:<p>\s*</p>\s*)*<pre\b[^>]*>\s*<code\b[^>]*\blanguage-yaml\b[^>]*>(.*?)</code>\s*</pre>`)
	blockEnd  = regexp.MustCompile(`(?i)<br\s*/?>|</(?:p|li|h[1-6]|div|pre|tr|blockquote)>`)
	anyTag    = regexp.MustCompile(`(?s)<[^>]*>`)
)

// ParseConfluencePage reads a Confluence storage-format (XHTML) export of
// a tool-skill page: the first yaml code macro is the front matter, the
// rest of the page the body. A page without one is no tool-skill page
// (file-not-read, info).
func ParseConfluencePage(path string, data []byte, opt Options) record.File {
	s := string(data)
	for _, m := range confluenceMacro.FindAllStringSubmatchIndex(s, -1) {
		inner := s[m[2]:m[3]]
		if !confluenceLang.MatchString(inner) {
			continue
		}
		b := confluenceBody.FindStringSubmatchIndex(inner)
		if b == nil {
			continue
		}
		yamlAt := m[2] + b[2]
		yamlText := s[yamlAt : m[2]+b[3]]
		body := s[:m[0]] + s[m[1]:]
		return pageFile(path, ParserConfluencePage, yamlText, flatten(body), lineAt(data, yamlAt), lineAt(data, m[1]), false, opt)
	}
	return notAPage(path, ParserConfluencePage, "the page holds no code macro with language yaml")
}

// ParsePlanePage reads a Plane page export (JSON with description_html):
// a leading yaml <pre><code> block is the front matter, the rest of the
// HTML the body. All of it sits on the line of description_html.
func ParsePlanePage(path string, data []byte, opt Options) record.File {
	var page struct {
		DescriptionHTML *string `json:"description_html"`
	}
	if err := json.Unmarshal(data, &page); err != nil {
		f := record.File{Path: path, Parser: ParserPlanePage}
		f.Findings = append(f.Findings, record.New(record.CodeParseError, path, 1, "", "Plane page export is not valid JSON: "+err.Error()))
		return f
	}
	if page.DescriptionHTML == nil {
		return notAPage(path, ParserPlanePage, "the export has no description_html")
	}
	h := *page.DescriptionHTML
	m := planeYAML.FindStringSubmatchIndex(h)
	if m == nil {
		return notAPage(path, ParserPlanePage, "description_html does not open with a yaml <pre><code> block")
	}
	line := 1
	if i := bytes.Index(data, []byte(`"description_html"`)); i >= 0 {
		line = lineAt(data, i)
	}
	yamlText := html.UnescapeString(anyTag.ReplaceAllString(h[m[2]:m[3]], ""))
	return pageFile(path, ParserPlanePage, yamlText, flatten(h[m[1]:]), line, line, true, opt)
}

// pageFile parses the page as the markdown file it round-trips to and
// moves every line into the export: YAML line i to yamlLine+i-1 (the
// first YAML line sits on yamlLine), body lines to bodyLine; with oneLine
// (the page is one JSON string) every line to yamlLine. A page whose
// YAML is not a tool skill (no key and trigger) is tool-skill-invalid:
// the engine's admission predicate would not load it.
func pageFile(path, parser, yamlText, body string, yamlLine, bodyLine int, oneLine bool, opt Options) record.File {
	yamlText = strings.Trim(strings.ReplaceAll(yamlText, "\r\n", "\n"), "\n")
	n := strings.Count(yamlText, "\n") + 1
	md := "---\n" + yamlText + "\n---\n" + body
	f := Parse(path, []byte(md), opt)
	f.Path, f.Parser = path, parser
	at := func(l int) int {
		switch {
		case oneLine: // the page is one JSON string: all of it on its line
			return yamlLine
		case l >= 2 && l <= n+1:
			return yamlLine + l - 2
		case l > n+1:
			return bodyLine
		}
		return yamlLine
	}
	for i := range f.Findings {
		f.Findings[i].Line = max(at(f.Findings[i].Line), 1)
	}
	if len(f.ToolSkills) == 0 {
		f.Skills, f.Tools = nil, nil
		f.Findings = append(f.Findings, record.New(record.CodeToolSkillInvalid, path, yamlLine, "",
			"the page's YAML block has no key and trigger: it is not a tool skill (the engine would not admit the page)"))
		return f
	}
	for i := range f.ToolSkills {
		ts := &f.ToolSkills[i]
		ts.Line = at(max(ts.Line, 2))
		for k := range ts.Refs {
			ts.Refs[k].Line = at(ts.Refs[k].Line)
		}
	}
	return f
}

// notAPage is the answer for an export that holds no tool skill: nothing is
// skipped silently (SPEC §1.2).
func notAPage(path, parser, why string) record.File {
	f := record.File{Path: path, Parser: parser}
	f.Findings = append(f.Findings, record.New(record.CodeFileNotRead, path, 1, "", fmt.Sprintf("%s: not read as a tool-skill page", why)))
	return f
}

// flatten turns page HTML into the text the engine gives the LLM: block
// ends are newlines, tags dropped, entities decoded (lossy on purpose).
func flatten(h string) string {
	t := blockEnd.ReplaceAllString(h, "\n")
	t = anyTag.ReplaceAllString(t, "")
	return strings.TrimSpace(html.UnescapeString(t)) + "\n"
}

// lineAt is the 1-based line of byte offset i of data.
func lineAt(data []byte, i int) int { return bytes.Count(data[:min(i, len(data))], []byte("\n")) + 1 }
