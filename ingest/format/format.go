// Package format is the one table of the input formats skillgraph reads
// (issue #21): for each, its source kind, where it lives, how a file is
// recognised and the parser that reads it. Discovery, ingest, serve
// --watch, the CLI's help and the pre-commit hook all read this table, and
// a test fails when any of them disagrees with it.
package format

import (
	"path"
	"slices"
	"sort"
	"strings"

	"github.com/skillgraph/skillgraph/ingest/bean"
	"github.com/skillgraph/skillgraph/ingest/bpmn"
	"github.com/skillgraph/skillgraph/ingest/contract"
	"github.com/skillgraph/skillgraph/ingest/mcp"
	"github.com/skillgraph/skillgraph/ingest/pkgjson"
	"github.com/skillgraph/skillgraph/ingest/plugin"
	"github.com/skillgraph/skillgraph/ingest/record"
	"github.com/skillgraph/skillgraph/ingest/skill"
	"github.com/skillgraph/skillgraph/ingest/tool"
	"github.com/skillgraph/skillgraph/ingest/vocab"
)

// Source kinds: which format a file is read as.
const (
	KindDeclaration = "declaration"
	KindSkill       = "skill"
	KindTool        = "tool"
	KindBPMN        = "bpmn"
	KindMCP         = "mcp"
	KindBean        = "bean"
	KindContract    = "contract"
	KindVocabulary  = "vocabulary"
	KindPackage     = "package"
	KindPlugin      = "plugin"
	KindMarketplace = "marketplace"
	KindCommand     = "command"
	KindAgent       = "agent"
	KindHooks       = "hooks"
	KindMcpConfig   = "mcp-config"
	// Tool-skill pages exported from a knowledge backend (issue 23.11).
	KindConfluencePage = skill.ParserConfluencePage
	KindPlanePage      = skill.ParserPlanePage
)

// Input is one file to parse and what its parser needs besides its bytes.
type Input struct {
	Path string // slash path relative to the corpus root
	Data []byte
	// Package is a skill's package, or a plugin component's plugin name.
	Package string
	// Plugin is the plugin folder of a component ("" outside a plugin).
	Plugin string
	// Hosts are the hosts the plugin is packaged for.
	Hosts []string
	// Dir is the component folder a command was found under.
	Dir string
	// Secondary marks a manifest of a folder whose plugin another
	// manifest already defines (a Codex manifest beside a Claude Code
	// one): its paths are checked, it defines no second plugin.
	Secondary bool
	Instance  record.Instance
	Vocab     *vocab.Vocabulary
	// Exists reports whether a corpus path exists (recorded by the caller
	// for change detection).
	Exists func(rel string) bool
	// Resources are an Agent Skill's other files (SPEC §1.3).
	Resources []string
}

// Format is one input format.
type Format struct {
	Kind string
	// Where says where it lives, for people (the CLI's help, the docs).
	Where string
	// Typologies are the declared graph typologies (SPEC §1.1) whose
	// directories it is read from; none for host-layout formats, which
	// discovery finds by name.
	Typologies []string
	// Exts are the extensions of the files it reads (lower-case).
	Exts []string
	// Names are exact file names it reads wherever discovery finds them.
	Names []string
	// Also are extensions it does not read as sources but reads when a
	// source imports them (a Tool module's dependencies): a change to one
	// is a change to watch.
	Also []string
	// Content marks the formats that carry knowledge: a corpus of only
	// declarations, vocabularies and package.json files is "nothing
	// found" (a gate over it would pass while checking nothing).
	Content bool
	// Accept, if set, refuses some files that match Exts (".d.ts").
	Accept func(rel string) bool
	// Parse reads one file.
	Parse func(Input) record.File
}

// hostCtx is the plugin context of an input.
func hostCtx(in Input) plugin.Context {
	return plugin.Context{Plugin: in.Plugin, Name: in.Package, Hosts: in.Hosts, Exists: in.Exists}
}

// Formats is the table, in the order the CLI's help lists it.
var Formats = []Format{
	{Kind: KindDeclaration, Where: "harness.json, or a root *.json with name and directories[].graphTypologies (SPEC §1.1)",
		Exts:  []string{".json"},
		Parse: func(in Input) record.File { return record.File{Path: in.Path, Parser: KindDeclaration} }},
	{Kind: KindSkill, Content: true, Where: "skills/, .claude/skills/, declared skills and kg directories; every SKILL.md (SPEC §2.1, §1.3)",
		Typologies: []string{"skills", "kg"}, Exts: []string{".md"},
		Parse: func(in Input) record.File {
			return skill.Parse(in.Path, in.Data, skill.Options{Package: in.Package, Variables: in.Instance.SkillVariables,
				Exists: in.Exists, Plugin: in.Plugin, Resources: in.Resources})
		}},
	{Kind: KindConfluencePage, Content: true, Where: "skills/ and declared skills and kg directories: *.xhtml Confluence storage-format exports of tool-skill pages, the yaml code macro their front matter (SPEC §2.1d)",
		Typologies: []string{"skills", "kg"}, Exts: []string{".xhtml"},
		Parse: func(in Input) record.File {
			return skill.ParseConfluencePage(in.Path, in.Data, skill.Options{Package: in.Package, Variables: in.Instance.SkillVariables, Exists: in.Exists})
		}},
	{Kind: KindPlanePage, Content: true, Where: "skills/ and declared skills and kg directories: *.plane.json Plane page exports of tool-skill pages, a leading yaml block of description_html their front matter (SPEC §2.1d)",
		Typologies: []string{"skills", "kg"}, Exts: []string{".json"},
		Accept: func(rel string) bool { return strings.HasSuffix(strings.ToLower(path.Base(rel)), ".plane.json") },
		Parse: func(in Input) record.File {
			return skill.ParsePlanePage(in.Path, in.Data, skill.Options{Package: in.Package, Variables: in.Instance.SkillVariables, Exists: in.Exists})
		}},
	{Kind: KindTool, Content: true, Where: "tools/ and declared tools directories: YAML, JSON, TypeScript and JavaScript modules (SPEC §2.2, §2.8)",
		Typologies: []string{"tools"}, Exts: []string{".json", ".yaml", ".yml", ".ts", ".mts", ".js", ".mjs"},
		Also:   []string{".cts", ".cjs", ".tsx"},
		Accept: func(rel string) bool { return !strings.HasSuffix(path.Base(rel), ".d.ts") },
		Parse:  func(in Input) record.File { return tool.Parse(in.Path, in.Data, in.Vocab) }},
	{Kind: KindBPMN, Content: true, Where: "processes/ and declared processes directories (SPEC §2.4)",
		Typologies: []string{"processes"}, Exts: []string{".bpmn", ".bpmn2"},
		Parse: func(in Input) record.File { return bpmn.Parse(in.Path, in.Data) }},
	{Kind: KindMCP, Content: true, Where: "mcp/ and declared mcp directories: tools/list snapshots (SPEC §2.5)",
		Typologies: []string{"mcp"}, Exts: []string{".json"},
		Parse: func(in Input) record.File { return mcp.Parse(in.Path, in.Data) }},
	{Kind: KindBean, Content: true, Where: "beans/, .beans/ (or .beans.yml's path) and declared beans directories; not README.md (SPEC §2.6)",
		Typologies: []string{"beans"}, Exts: []string{".md"},
		Accept: func(rel string) bool { return path.Base(rel) != "README.md" },
		Parse:  func(in Input) record.File { return bean.Parse(in.Path, in.Data) }},
	{Kind: KindContract, Content: true, Where: "schemas/skills/ and declared schemas directories: JSON Schema I/O contracts (SPEC §2.7)",
		Typologies: []string{"schemas"}, Exts: []string{".json"},
		Parse: func(in Input) record.File { return contract.Parse(in.Path, in.Data) }},
	{Kind: KindVocabulary, Where: "schemas/tool-types.schema.json or schemas/tool-types.ts, or the declared vocabulary (SPEC §2.3)",
		Exts: []string{".json", ".ts"}, Names: []string{"tool-types.schema.json"},
		Parse: func(in Input) record.File { return record.File{Path: in.Path, Parser: KindVocabulary} }},
	{Kind: KindPackage, Where: "package.json at the corpus root: its scripts (SPEC §5.1)",
		Names: []string{"package.json"},
		Parse: func(in Input) record.File { return pkgjson.Parse(in.Path, in.Data) }},
	{Kind: KindPlugin, Content: true, Where: ".claude-plugin/plugin.json, .codex-plugin/plugin.json (other hosts' manifests beside them add hosts) (SPEC §1.3)",
		Names: []string{"plugin.json", "gemini-extension.json"},
		Parse: func(in Input) record.File {
			f := plugin.ParseManifest(in.Path, in.Data, hostCtx(in))
			if in.Secondary {
				// Its paths and findings count; its plugin is the primary's.
				f.Plugins, f.Hooks, f.McpConfigs = nil, nil, nil
			}
			return f
		}},
	{Kind: KindMarketplace, Content: true, Where: ".claude-plugin/marketplace.json, .agents/plugins/marketplace.json (SPEC §1.3)",
		Names: []string{"marketplace.json"},
		Parse: func(in Input) record.File { return plugin.ParseMarketplace(in.Path, in.Data, hostCtx(in)) }},
	{Kind: KindCommand, Content: true, Where: "commands/**/*.md of a plugin or .claude/commands/ of a project: slash commands (SPEC §1.3)",
		Exts:  []string{".md"},
		Parse: func(in Input) record.File { return plugin.ParseCommand(in.Path, in.Data, hostCtx(in), in.Dir) }},
	{Kind: KindAgent, Content: true, Where: "agents/*.md of a plugin or .claude/agents/ of a project: subagents (SPEC §1.3)",
		Exts:  []string{".md"},
		Parse: func(in Input) record.File { return plugin.ParseAgent(in.Path, in.Data, hostCtx(in)) }},
	{Kind: KindHooks, Content: true, Where: "hooks/hooks.json of a plugin, or the file its manifest's hooks key names (SPEC §1.3)",
		Names: []string{"hooks.json"},
		Parse: func(in Input) record.File { return plugin.ParseHooks(in.Path, in.Data, hostCtx(in)) }},
	{Kind: KindMcpConfig, Content: true, Where: ".mcp.json of a plugin or project, or the file a manifest's mcpServers key names (SPEC §1.3)",
		Names: []string{".mcp.json"},
		Parse: func(in Input) record.File { return plugin.ParseMcpConfig(in.Path, in.Data, hostCtx(in)) }},
}

var byKind = func() map[string]*Format {
	m := make(map[string]*Format, len(Formats))
	for i := range Formats {
		m[Formats[i].Kind] = &Formats[i]
	}
	return m
}()

// Lookup is the format of a kind.
func Lookup(kind string) (*Format, bool) {
	f, ok := byKind[kind]
	return f, ok
}

// IsContent reports whether sources of kind carry knowledge.
func IsContent(kind string) bool {
	f, ok := byKind[kind]
	return ok && f.Content
}

// Parse reads in with the parser of kind; an unknown kind yields a file
// with that parser name and no records.
func Parse(kind string, in Input) record.File {
	f, ok := byKind[kind]
	if !ok {
		return record.File{Path: in.Path, Parser: kind}
	}
	out := f.Parse(in)
	out.Path = in.Path
	return out
}

// OfTypology lists the kinds read from a directory of a declared typology.
func OfTypology(t string) []string {
	var out []string
	for _, f := range Formats {
		if slices.Contains(f.Typologies, t) {
			out = append(out, f.Kind)
		}
	}
	return out
}

// Reads reports whether a file under a directory of kind is read by that
// kind's format (by extension, then by Accept).
func Reads(kind, rel string) bool {
	f, ok := byKind[kind]
	if !ok {
		return false
	}
	ext := strings.ToLower(path.Ext(rel))
	if !slices.Contains(f.Exts, ext) {
		return false
	}
	return f.Accept == nil || f.Accept(rel)
}

// watched are the extensions and names of Watched, made once from the
// table: IsWatched runs on every file event of serve --watch.
var watched = func() (w struct{ exts, names map[string]bool }) {
	w.exts, w.names = map[string]bool{}, map[string]bool{}
	for _, f := range Formats {
		for _, x := range f.Exts {
			w.exts[x] = true
		}
		for _, x := range f.Also {
			w.exts[x] = true
		}
		for _, x := range f.Names {
			w.names[x] = true
		}
	}
	return w
}()

// Watched lists every extension and exact file name any format reads or
// follows (sorted): what a change to is a change to the corpus.
func Watched() (exts, names []string) { return keys(watched.exts), keys(watched.names) }

// IsWatched reports whether a change to a file of this base name may
// change what skillgraph reads.
func IsWatched(base string) bool {
	if strings.HasSuffix(base, ".d.ts") {
		return false
	}
	return watched.exts[strings.ToLower(path.Ext(base))] || watched.names[base]
}

func keys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// PreCommitPattern is the `files:` regular expression of the pre-commit
// hook (.pre-commit-hooks.yaml): every file whose change may change a
// check.
func PreCommitPattern() string {
	exts, names := Watched()
	var alts []string
	for _, e := range exts {
		alts = append(alts, regexpQuote(e)+"$")
	}
	for _, n := range names {
		if !slices.Contains(exts, strings.ToLower(path.Ext(n))) {
			alts = append(alts, "(^|/)"+regexpQuote(n)+"$")
		}
	}
	return "(" + strings.Join(alts, "|") + ")"
}

func regexpQuote(s string) string {
	var b strings.Builder
	for _, r := range s {
		if strings.ContainsRune(`\.+*?()|[]{}^$`, r) {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}
