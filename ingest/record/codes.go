package record

import "sort"

// The finding registry: every finding code skillgraph reports or SPEC names,
// once, with its severity, the SPEC section that defines the rule, a one-line
// meaning and an example. docs/findings.md, the SARIF rules, `check --explain`
// and the page's help are generated from it; a test fails when code emits a
// code that is not registered here (SPEC §4: stable codes, each documented
// with one example).
//
// To add a code: add its constant below, add its Rule to the registry table
// (in the area it belongs to), run `go generate ./ingest/record` and review
// docs/findings.md.

//go:generate go run ./internal/findingsdoc -o ../../docs/findings.md

// Finding codes (SPEC §9: stable; never renamed or reused).
const (
	CodeDeclarationInvalid           = "declaration-invalid"
	CodeDirectoryMissing             = "directory-missing"
	CodePathEscapesRoot              = "path-escapes-root"
	CodeFileTooLarge                 = "file-too-large"
	CodeFileUnreadable               = "file-unreadable"
	CodeFileNotText                  = "file-not-text"
	CodeFileNotRead                  = "file-not-read"
	CodeFindingsTruncated            = "findings-truncated"
	CodeYamlAliasLimit               = "yaml-alias-limit"
	CodeParseError                   = "parse-error"
	CodeDuplicateNode                = "duplicate-node"
	CodeExemptionStale               = "exemption-stale"
	CodeInstanceUnknown              = "instance-unknown"
	CodeEntrypointUnknown            = "entrypoint-unknown"
	CodeInstanceReplaced             = "instance-replaced"
	CodeInstanceNameDuplicate        = "instance-name-duplicate"
	CodeSkillIDInvalid               = "skill-id-invalid"
	CodeSkillNameAmbiguous           = "skill-name-ambiguous"
	CodeSkillRefAmbiguous            = "skill-ref-ambiguous"
	CodeAgentSkillNameInvalid        = "agent-skill-name-invalid"
	CodeAgentSkillNameMismatch       = "agent-skill-name-mismatch"
	CodeAgentSkillDescriptionInvalid = "agent-skill-description-invalid"
	CodeSkillUnknownKey              = "skill-unknown-key"
	CodeHardSkillParamUnused         = "hard-skill-param-unused"
	CodeHardSkillUndeclaredVar       = "hard-skill-undeclared-var"
	CodeHardSkillUnknownKey          = "hard-skill-unknown-key"
	CodeHardSkillDefaultNotInEnum    = "hard-skill-default-not-in-enum"
	CodeHardSkillDuplicateTool       = "hard-skill-duplicate-tool"
	CodeHardSkillDuplicateParam      = "hard-skill-duplicate-param"
	CodeHardSkillUnterminatedFence   = "hard-skill-unterminated-fence"
	CodeHardSkillMissingIDOrRun      = "hard-skill-missing-id-or-run"
	CodeIncludeEscapes               = "include-escapes"
	CodeIncludeMissing               = "include-missing"
	CodeToolSkillInvalid             = "tool-skill-invalid"
	CodeSummaryOverCap               = "summary-over-cap"
	CodeBodyOverCap                  = "body-over-cap"
	CodeTriggerDanglingTools         = "trigger-dangling-tools"
	CodeTriggerInert                 = "trigger-inert"
	CodeSkillVariableUnresolved      = "skill-variable-unresolved"
	CodeToolInvalid                  = "tool-invalid"
	CodeToolUnknownField             = "tool-unknown-field"
	CodeToolDuplicateID              = "tool-duplicate-id"
	CodeSatisfiesUnknownSkill        = "satisfies-unknown-skill"
	CodeInvokeMCPOnly                = "invoke-mcp-only"
	CodeSelectionPartial             = "selection-partial"
	CodeNetworkWithoutRemedies       = "network-without-remedies"
	CodeRemedyUnknownTool            = "remedy-unknown-tool"
	CodeSubprocessUnknownProcess     = "subprocess-unknown-process"
	CodeToolModuleNotEvaluated       = "tool-module-not-evaluated"
	CodeToolModuleDynamic            = "tool-module-dynamic"
	CodePortTypeUnknown              = "port-type-unknown"
	CodeInputUnsafeOnArgv            = "input-unsafe-on-argv"
	CodeBPMNInvalid                  = "bpmn-invalid"
	CodeProcessDuplicateID           = "process-duplicate-id"
	CodeBPMNDuplicateID              = "bpmn-duplicate-id"
	CodeCallUnknownProcess           = "call-unknown-process"
	CodeCallDynamic                  = "call-dynamic"
	CodeSkillRefUnknown              = "skill-ref-unknown"
	CodeMCPInvalid                   = "mcp-invalid"
	CodeMCPToolDuplicate             = "mcp-tool-duplicate"
	CodeBeanInvalid                  = "bean-invalid"
	CodeBeanUnknownValue             = "bean-unknown-value"
	CodeBeanParentUnknown            = "bean-parent-unknown"
	CodeBeanBlockingUnknown          = "bean-blocking-unknown"
	CodeBeanSelfLink                 = "bean-self-link"
	CodeBeanCycle                    = "bean-cycle"
	CodeBeanParentType               = "bean-parent-type"
	CodeContractExternal             = "contract-external"
	CodeContractUnreadable           = "contract-unreadable"
	CodeContractRequiredMissing      = "contract-required-missing"
	CodeContractTypeMismatch         = "contract-type-mismatch"
	CodeContractNameNearMiss         = "contract-name-near-miss"
	CodeCoveredNotReachable          = "covered-not-reachable"
	CodeToolUnreachable              = "tool-unreachable"
	CodeToolNoCommand                = "tool-no-command"
	CodeProcessUnreachable           = "process-unreachable"
	CodeCallCycle                    = "call-cycle"
	CodeAlternativeWithoutSelection  = "alternative-without-selection"
	CodeProfileUnknownTool           = "profile-unknown-tool"
	CodeGateTooWide                  = "gate-too-wide"
	CodeProgramNotInstalled          = "program-not-installed"
	CodeSkillMetadataInvalid         = "skill-metadata-invalid"
	CodeSkillResourceMissing         = "skill-resource-missing"
	CodeFrontMatterNotYAML           = "frontmatter-not-yaml"
	CodePluginInvalid                = "plugin-invalid"
	CodePluginPathMissing            = "plugin-path-missing"
	CodeMarketplaceInvalid           = "marketplace-invalid"
	CodePluginSourceMissing          = "plugin-source-missing"
	CodePluginSourceRemote           = "plugin-source-remote"
	CodePluginDuplicate              = "plugin-duplicate"
	CodePluginUnlisted               = "plugin-unlisted"
	CodeAgentInvalid                 = "agent-invalid"
	CodeHookInvalid                  = "hook-invalid"
	CodeHookScriptMissing            = "hook-script-missing"
	CodeHookEventUnknown             = "hook-event-unknown"
	CodeMcpConfigInvalid             = "mcp-config-invalid"
	CodeMcpToolsUnlisted             = "mcp-tools-unlisted"
	CodeMcpServerUnknown             = "mcp-server-unknown"
	CodeMcpToolUnknown               = "mcp-tool-unknown"
	CodeMCPParityInput               = "mcp-parity-input"
	CodeMCPParityRequired            = "mcp-parity-required"
	CodeMCPParityType                = "mcp-parity-type"
	CodeMCPParityOutput              = "mcp-parity-output"
	CodeMCPParityDescription         = "mcp-parity-description"
	CodeMCPToolUnlisted              = "mcp-tool-unlisted"
	CodeMCPToolUnauthored            = "mcp-tool-unauthored"
)

// Area groups codes by the part of the corpus they concern, in the order the
// docs list them.
type Area string

// The areas, in docs order.
const (
	AreaCorpus    Area = "Corpus and instance declaration"
	AreaSkills    Area = "Skills"
	AreaTools     Area = "Tools and port types"
	AreaBPMN      Area = "BPMN processes"
	AreaMCP       Area = "MCP snapshots"
	AreaBeans     Area = "Beans"
	AreaContracts Area = "Contracts"
	AreaAnalyses  Area = "Coverage, reachability and alternatives"
	AreaWorkflow  Area = "Workflow coverage, gating and programs"
	AreaHosts     Area = "Agent-host plugins and marketplaces"
)

// areaSpecs are the SPEC sections each area covers, for headings.
var areaSpecs = map[Area]string{
	AreaCorpus:    "§1, §4",
	AreaSkills:    "§2.1",
	AreaTools:     "§2.2, §2.3, §2.8",
	AreaBPMN:      "§2.4",
	AreaMCP:       "§2.5",
	AreaBeans:     "§2.6",
	AreaContracts: "§5.2",
	AreaAnalyses:  "§5.1, §5.3, §5.4",
	AreaWorkflow:  "§5.5–§5.7",
	AreaHosts:     "§1.3",
}

// Areas returns the areas in docs order.
func Areas() []Area {
	return []Area{AreaCorpus, AreaSkills, AreaTools, AreaBPMN, AreaMCP, AreaBeans, AreaContracts, AreaAnalyses, AreaWorkflow, AreaHosts}
}

// Spec is the SPEC sections the area covers ("§2.2, §2.3").
func (a Area) Spec() string { return areaSpecs[a] }

// ExampleCorpus is the corpus the registry's examples come from, relative to
// the repository root: it is built to show every code that can coexist with
// a readable corpus.
const ExampleCorpus = "examples/harness"

// HostExampleCorpus is the repository's example of a plugin marketplace
// (SPEC §1.3): it shows the codes of agent-host layouts.
const HostExampleCorpus = "examples/marketplace"

// Example is one finding as `skillgraph check` reports it on a corpus of the
// repository. A test ingests Corpus and fails unless the finding is reported
// exactly so, which keeps the docs true.
type Example struct {
	Corpus  string // relative to the repository root; "" when no corpus shows the code
	File    string // relative to the corpus root
	Line    int
	Message string
	// Note says why no corpus shows the code and which test covers it.
	Note string
}

// Rule is one registered finding code.
type Rule struct {
	Code     string
	Severity Severity
	Spec     string // the SPEC section that defines the rule, e.g. "§2.1"
	Area     Area
	Means    string // what was found, one line
	Why      string // why it matters, one line
	Example  Example
	// Planned marks a code SPEC names that skillgraph does not report yet;
	// a test fails when a planned code is reported (clear the flag then).
	Planned bool
}

// Lookup returns the rule of a code; ok is false for an unregistered code.
func Lookup(code string) (r Rule, ok bool) {
	i, ok := byCode[code]
	if !ok {
		return Rule{}, false
	}
	return registry[i], true
}

// Codes returns every registered code, sorted.
func Codes() []string {
	out := make([]string, len(registry))
	for i, r := range registry {
		out[i] = r.Code
	}
	sort.Strings(out)
	return out
}

// Rules returns every registered rule in docs order (by area, then as
// listed). The slice is a copy.
func Rules() []Rule {
	out := make([]Rule, 0, len(registry))
	for _, a := range Areas() {
		for _, r := range registry {
			if r.Area == a {
				out = append(out, r)
			}
		}
	}
	return out
}

// SeverityOf is the registered severity of a code; an unregistered code is
// an error, as SPEC §4 makes every code unless it says otherwise.
func SeverityOf(code string) Severity {
	if r, ok := Lookup(code); ok {
		return r.Severity
	}
	return Error
}

// New is a finding of a registered code with the registry's severity.
func New(code, file string, line int, subject, message string) Finding {
	return Finding{Code: code, Severity: SeverityOf(code), Message: message, File: file, Line: max(line, 1), Subject: subject}
}

// byCode indexes registry by code.
var byCode = func() map[string]int {
	m := make(map[string]int, len(registry))
	for i, r := range registry {
		m[r.Code] = i
	}
	return m
}()

// registry is the table of every code (SPEC §4); docs order within an area.
var registry = []Rule{
	{Code: CodeDeclarationInvalid, Severity: Error, Spec: "§1.1", Area: AreaCorpus,
		Means: "The instance declaration cannot be read as one: it is not valid JSON, the instance `name` does not match `^[a-z][a-z0-9-]*$`, or a `directories[]` entry has no `path`. The broken entry is skipped; the rest of the declaration is used.",
		Why:   "A directory entry that is silently dropped is a directory that is never scanned; the declaration is the contract for what gets checked.",
		Example: Example{Corpus: ExampleCorpus, File: "harness.json", Line: 19,
			Message: "directory entry needs a path and graphTypologies: {\"id\": \"style-notes\", \"graphTypologies\": [\"kg\"]}"},
	},
	{Code: CodeDirectoryMissing, Severity: Error, Spec: "§1.1", Area: AreaCorpus,
		Means: "A directory listed in `directories[]` does not exist under the corpus root.",
		Why:   "Scanning nothing and reporting a clean run is the worst outcome a CI gate can have (SPEC §1.1).",
		Example: Example{Corpus: ExampleCorpus, File: "harness.json", Line: 17,
			Message: "declared directory \"scenarios/\" (scenarios) does not exist: nothing was scanned there"},
	},
	{Code: CodePathEscapesRoot, Severity: Error, Spec: "§1.2", Area: AreaCorpus,
		Means: "A declared directory, or a symlink met while walking, points outside the corpus root. It is not followed.",
		Why:   "skillgraph reads only the corpus it was given; a path that leaves the root could read anything on the machine.",
		Example: Example{Corpus: ExampleCorpus, File: "harness.json", Line: 18,
			Message: "declared directory \"../shared-skills/\" leaves the corpus root"},
	},
	{Code: CodeFileTooLarge, Severity: Error, Spec: "§1.2", Area: AreaCorpus,
		Means:   "A file is over the read cap (default 4 MiB). It is not read; nothing else is affected.",
		Why:     "Caps keep a stray artefact (a video, a data dump) from exhausting memory; the finding says which file was skipped.",
		Example: Example{Note: "Needs a file over the 4 MiB cap; a corpus meant to be read by people stays small. Covered by the discover/ingest tests (testdata)."},
	},
	{Code: CodeFindingsTruncated, Severity: Warning, Spec: "§1.2", Area: AreaCorpus,
		Means:   "A file's parse gave more findings than are kept for one file (500), or the files read in one ingest reached the run's limit (10 000): the rest of the file's findings are not listed, and this finding says how many were dropped, by severity and code. The first finding of each code is kept, then the most severe, so every kind of problem stays visible and an error is dropped only when the kept findings are all errors or the first of their code.",
		Why:     "A file that is mostly findings (a listing of a thousand invalid tools) must not cost memory and time in proportion to its findings: thirty such files took 10 s and 1.16 GB. The count keeps what was dropped from looking like a clean file.",
		Example: Example{Note: "Needs a file with more than 500 findings; covered by the ingest tests (TestFindingsCapped)."},
	},
	{Code: CodeFileUnreadable, Severity: Error, Spec: "§4", Area: AreaCorpus,
		Means: "A file (or the declared type vocabulary) cannot be read: missing, no permission, or an I/O error. For a missing vocabulary the built-in vocabulary is used instead.",
		Why:   "Data that could not be read must not look like data that is absent.",
		Example: Example{Corpus: ExampleCorpus, File: "harness.json", Line: 1,
			Message: "vocabulary \"schemas/quill-types.schema.json\" does not exist"},
	},
	{Code: CodeFileNotText, Severity: Error, Spec: "§1.2", Area: AreaCorpus,
		Means: "A file under a skills, beans or tools directory (or any JSON file read) holds a NUL byte or invalid UTF-8 anywhere, not only in its front matter; it yields no records. The line is the line of the first such byte. BPMN files are XML, which declares its own encoding: their parser decides.",
		Why:   "Binary or mis-encoded data read as text would produce records nobody wrote.",
		Example: Example{Corpus: "ingest/hostile/testdata/not-text", File: "skills/p/binary.md", Line: 6,
			Message: "not a text file: a NUL byte at byte 62 (line 6); nothing in it is read"},
	},
	{Code: CodeFileNotRead, Severity: Info, Spec: "§1.2", Area: AreaCorpus,
		Means: "Files under a declared directory that no parser reads; reported once per directory and kind.",
		Why:   "Nothing is skipped silently: a file of the wrong kind in the right place is usually a mistake.",
		Example: Example{Corpus: ExampleCorpus, File: "skills/hard/proofread/rules/house-style.txt", Line: 1,
			Message: "1 \".txt\" file under skills/ not read: no parser reads this kind of file there (first: skills/hard/proofread/rules/house-style.txt)"},
	},
	{Code: CodeYamlAliasLimit, Severity: Error, Spec: "§1.2", Area: AreaCorpus,
		Means: "YAML (skill or bean front matter, a ```tool fence, a Tool file) whose aliases would add more than 100 000 values, or that holds an alias inside its own anchor, is refused when parsed, on the line of the alias that crosses the bound. Below the bound, aliases and merge keys are followed.",
		Why:   "An alias bomb (a few lines expanding to gigabytes) would otherwise exhaust memory, or be read as nothing.",
		Example: Example{Corpus: "ingest/hostile/testdata/yaml-alias-bomb-skill", File: "skills/p/bomb.md", Line: 9,
			Message: "front matter: aliases expand to more than 100000 values (or refer to themselves); the document is refused"},
	},
	{Code: CodeParseError, Severity: Error, Spec: "§4", Area: AreaCorpus,
		Means: "A file's syntax is broken where no more specific code applies: invalid JSON/YAML in a Tool file, contract, MCP snapshot or vocabulary, broken skill front matter, a malformed ```tool fence. The file contributes what could be read; every other file is intact.",
		Why:   "A silent parse failure hides every skill, Tool or contract the file was meant to define.",
		Example: Example{Corpus: ExampleCorpus, File: "schemas/skills/export-pdf/input.schema.json", Line: 8,
			Message: "schemas/skills/export-pdf/input.schema.json: not valid JSON (line 8): invalid JSON object: invalid character '}' looking for beginning of object key string"},
	},
	{Code: CodeDuplicateNode, Severity: Warning, Spec: "§4", Area: AreaCorpus,
		Means: "Two files mint the same node IRI (for kinds without a dedicated code, such as beans or contracts). Both are kept and reported.",
		Why:   "Two sources of truth for one node: the graph merges their statements, which is rarely what either author meant.",
		Example: Example{Corpus: ExampleCorpus, File: "beans/qw-t101.fix-broken-links-old.md", Line: 1,
			Message: "https://quillworks.example/harness/quill.jsonld#bean/qw-t101 is minted by beans/qw-t101--fix-broken-links.md and beans/qw-t101.fix-broken-links-old.md; both are kept"},
	},
	{Code: CodeExemptionStale, Severity: Error, Spec: "§5.1", Area: AreaCorpus,
		Means: "A `coverage.exempt` entry names a skill that is covered, that is not in tier A, or that does not exist.",
		Why:   "An exemption documents a deliberate gap in automation; once the gap is closed or the skill moved, the exemption is a false statement and hides the change.",
		Example: Example{Corpus: ExampleCorpus, File: "harness.json", Line: 32,
			Message: "coverage.exempt lists copy-edit (editor-judgement), but it is in tier B, not A"},
	},
	{Code: CodeInstanceUnknown, Severity: Error, Spec: "§1.1", Area: AreaCorpus,
		Means: "A `needs` entry names no instance found in the workspace or given with `--corpus`.",
		Why:   "References that should resolve in the needed instance dangle instead.",
		Example: Example{Corpus: "ingest/hostile/testdata/needs-unknown", File: "harness.json", Line: 1,
			Message: "instance needy needs \"ghost-instance\", which names no instance ingested with it (the workspace and the --corpus flags)"},
	},
	{Code: CodeInstanceReplaced, Severity: Warning, Spec: "§1.1", Area: AreaCorpus,
		Means:   "A corpus declares the name (and `iriBase`) of an instance the store holds from another corpus root; its ingest replaces that instance's graphs.",
		Why:     "Two repositories named alike would otherwise overwrite each other in one store without a word; rename one, or give it its own `iriBase`, when they are not the same corpus.",
		Example: Example{Note: "needs a store that already holds the instance from another root, which `check` (an in-memory store) never has; ingest's TestSecondCorpusOfOneName covers it."},
	},
	{Code: CodeInstanceNameDuplicate, Severity: Warning, Spec: "§1.1", Area: AreaCorpus,
		Means:   "Two instances in the store share one `name` under different `iriBase`s.",
		Why:     "`needs` and the API name instances by `name`: only one of the two answers, the other is silently shadowed.",
		Example: Example{Note: "needs two ingests into one store (`check` refuses two corpora of one name in one run); ingest's TestSecondCorpusOfOneName covers it."},
	},
	{Code: CodeEntrypointUnknown, Severity: Error, Spec: "§4", Area: AreaCorpus,
		Means: "An `entrypoints` process, tool or trigger target names nothing.",
		Why:   "A root that names nothing makes everything it should reach look unreachable.",
		Example: Example{Corpus: "queries/testdata/entrypoint-unknown", File: "harness.json", Line: 9,
			Message: "entry point process \"relaese\" names no process (by file stem or process/@id)"},
	},
	{Code: CodeSkillIDInvalid, Severity: Error, Spec: "§2.1", Area: AreaSkills,
		Means: "A harness skill's file stem does not match `^[a-z][a-z0-9-]*$`, or a hard skill's `skill:` id holds a quote, `<`, `>`, a backslash or backtick, whitespace, a control, bidi formatting character or invalid UTF-8. The skill is kept; its IRI is escaped.",
		Why:   "Such an id cannot be named safely in references, IRIs and shell lines; a bidi override makes it read differently than it is.",
		Example: Example{Corpus: "ingest/hostile/testdata/unicode-ids", File: "skills/p/ünï.md", Line: 1,
			Message: "harness skill id \"ünï\" (the file stem) does not match ^[a-z][a-z0-9-]*$"},
	},
	{Code: CodeSkillNameAmbiguous, Severity: Warning, Spec: "§2.1", Area: AreaSkills,
		Means: "Two packages define a skill with the same bare name. Both are kept; `package/name` disambiguates.",
		Why:   "A bare reference to the name (a BPMN step, a Tool's `satisfies`) cannot say which skill it means: each one is `skill-ref-ambiguous`.",
		Example: Example{Corpus: ExampleCorpus, File: "skills/site/glossary.md", Line: 1,
			Message: "skill name \"glossary\" is defined in skills/editorial/glossary.md and skills/site/glossary.md; use package/name to disambiguate"},
	},
	{Code: CodeSkillRefAmbiguous, Severity: Error, Spec: "§2.1", Area: AreaSkills,
		Means: "A reference names a skill by a bare name that two packages of its instance define (a Tool's `satisfies`, a step's skill, a subagent's `skills`, an entry-point trigger, `coverage.exempt`). It resolves to the skill of the referrer's own package when there is one (a subagent's plugin, a hard skill's package); otherwise to no skill, and this finding is at the reference's line.",
		Why:   "Picking one of the two by how their IRIs sort would credit a skill silently, and renaming a package would flip which; `package/name` says which is meant.",
		Example: Example{Corpus: ExampleCorpus, File: "tools/site-tools.yaml", Line: 14,
			Message: "tool glossary-sync satisfies \"glossary\", which is ambiguous: it names editorial/glossary and site/glossary; write package/name"},
	},
	{Code: CodeAgentSkillNameInvalid, Severity: Error, Spec: "§2.1", Area: AreaSkills,
		Means: "An Agent Skill (`SKILL.md`) has no `name`, or a name that is not 1–64 characters of `^[a-z0-9]+(-[a-z0-9]+)*$`.",
		Why:   "Agent hosts load skills by name; an invalid name is rejected or mangled by the host.",
		Example: Example{Corpus: ExampleCorpus, File: "skills/agent/Style_Lint/SKILL.md", Line: 2,
			Message: "Agent Skill name \"Style_Lint\" must be lower-case letters and digits separated by single hyphens"},
	},
	{Code: CodeAgentSkillNameMismatch, Severity: Error, Spec: "§2.1", Area: AreaSkills,
		Means: "An Agent Skill's `name` differs from its folder name.",
		Why:   "Hosts that locate skills by folder and those that use the name disagree about which skill this is.",
		Example: Example{Corpus: ExampleCorpus, File: "skills/agent/release-notes/SKILL.md", Line: 2,
			Message: "Agent Skill name \"changelog-notes\" differs from its folder name \"release-notes\""},
	},
	{Code: CodeAgentSkillDescriptionInvalid, Severity: Error, Spec: "§2.1", Area: AreaSkills,
		Means: "An Agent Skill's `description` is missing, not a string, empty, or over 1024 characters.",
		Why:   "The description is what an agent reads to decide whether to load the skill; without one the skill is never chosen.",
		Example: Example{Corpus: ExampleCorpus, File: "skills/agent/Style_Lint/SKILL.md", Line: 3,
			Message: "Agent Skill description must be 1–1024 characters, has 0"},
	},
	{Code: CodeSkillUnknownKey, Severity: Warning, Spec: "§2.1", Area: AreaSkills,
		Means: "An Agent Skill's front matter has a key outside name, description, license, compatibility, metadata, allowed-tools. Kept as data, never a rejection.",
		Why:   "Often a host-specific key (fine) or a typo of a known one (not fine); the warning lets a maintainer tell which.",
		Example: Example{Corpus: ExampleCorpus, File: "skills/agent/summarize-feedback/SKILL.md", Line: 10,
			Message: "unknown Agent Skill front-matter key \"model\""},
	},
	{Code: CodeHardSkillParamUnused, Severity: Error, Spec: "§2.1", Area: AreaSkills,
		Means: "A hard-skill ```tool fence declares a param that its `run` line never uses.",
		Why:   "The agent is asked for a value that changes nothing: usually a typo in `run` or a forgotten flag.",
		Example: Example{Corpus: ExampleCorpus, File: "skills/hard/proofread/SKILL.md", Line: 23,
			Message: "param \"strict\" is declared but never used in run"},
	},
	{Code: CodeHardSkillUndeclaredVar, Severity: Error, Spec: "§2.1", Area: AreaSkills,
		Means: "The `run` line of a ```tool fence uses `$name` that no param declares.",
		Why:   "The variable would reach the command unexpanded or empty; the Tool cannot work as written.",
		Example: Example{Corpus: ExampleCorpus, File: "skills/hard/proofread/SKILL.md", Line: 38,
			Message: "run uses $config but no param declares it"},
	},
	{Code: CodeHardSkillUnknownKey, Severity: Error, Spec: "§2.1", Area: AreaSkills,
		Means: "A fence key other than id/description/params/run, or a param key other than type/format/enum/description/default.",
		Why:   "Usually a key from another format (`required:`) that the hard-skill format does not honour: `required` is implied by the absence of `default`.",
		Example: Example{Corpus: ExampleCorpus, File: "skills/hard/proofread/SKILL.md", Line: 35,
			Message: "param \"file\" key \"required\" is not one of type, format, enum, description, default"},
	},
	{Code: CodeHardSkillDefaultNotInEnum, Severity: Error, Spec: "§2.1", Area: AreaSkills,
		Means: "A param's `default` is not one of its `enum` values.",
		Why:   "An agent that takes the default sends a value the Tool says it does not accept.",
		Example: Example{Corpus: ExampleCorpus, File: "skills/hard/proofread/SKILL.md", Line: 19,
			Message: "param \"lang\" default \"en\" is not one of its enum values en-GB, en-US"},
	},
	{Code: CodeHardSkillDuplicateTool, Severity: Error, Spec: "§2.1", Area: AreaSkills,
		Means: "Two ```tool fences of one skill have the same `id`; the later one is ignored.",
		Why:   "Two Tools would share the id `<skill>.<id>`; which one runs would depend on file order.",
		Example: Example{Corpus: ExampleCorpus, File: "skills/hard/proofread/SKILL.md", Line: 41,
			Message: "tool \"spell\" is already defined by the fence at line 12; this one is ignored"},
	},
	{Code: CodeHardSkillDuplicateParam, Severity: Error, Spec: "§2.1", Area: AreaSkills,
		Means: "A fence declares the same param twice; the first declaration is used.",
		Why:   "The second declaration (often the intended one) has no effect.",
		Example: Example{Corpus: ExampleCorpus, File: "skills/hard/proofread/SKILL.md", Line: 36,
			Message: "param \"file\" is already declared at line 33"},
	},
	{Code: CodeHardSkillUnterminatedFence, Severity: Error, Spec: "§2.1", Area: AreaSkills,
		Means: "A ```tool fence is never closed; its Tool is ignored.",
		Why:   "Everything after the opening fence would otherwise be read as YAML.",
		Example: Example{Corpus: ExampleCorpus, File: "skills/hard/typeset/SKILL.md", Line: 27,
			Message: "```tool fence is not closed; its tool is ignored"},
	},
	{Code: CodeHardSkillMissingIDOrRun, Severity: Error, Spec: "§2.1", Area: AreaSkills,
		Means: "A ```tool fence has no `id` or no `run`. Without an id the fence is dropped; without `run` the Tool is kept with no command.",
		Why:   "A Tool that cannot be named or cannot be run is not a mechanism.",
		Example: Example{Corpus: ExampleCorpus, File: "skills/hard/typeset/SKILL.md", Line: 19,
			Message: "```tool fence has no run"},
	},
	{Code: CodeIncludeEscapes, Severity: Error, Spec: "§2.1", Area: AreaSkills,
		Means: "An `includes:` path is absolute, starts with `~`, or has an empty, `.` or `..` segment.",
		Why:   "Includes are bundled with the skill; a path that leaves the skill folder would ship files from elsewhere.",
		Example: Example{Corpus: ExampleCorpus, File: "skills/hard/proofread/SKILL.md", Line: 4,
			Message: "include \"../shared/terms.txt\" has a .. segment"},
	},
	{Code: CodeIncludeMissing, Severity: Error, Spec: "§2.1", Area: AreaSkills,
		Means: "An `includes:` path does not exist relative to the skill folder.",
		Why:   "The skill promises material it does not carry.",
		Example: Example{Corpus: ExampleCorpus, File: "skills/hard/proofread/SKILL.md", Line: 4,
			Message: "include \"rules/brand-terms.txt\" (skills/hard/proofread/rules/brand-terms.txt) does not exist"},
	},
	{Code: CodeToolSkillInvalid, Severity: Error, Spec: "§2.1", Area: AreaSkills,
		Means: "A tool skill (front matter `key` + `trigger`) breaks a rule: missing or empty key, a trigger that is not exactly one of tool/mcp_server/any_of/all_of, phases outside plan/execute/review/subagent, `required` not a boolean.",
		Why:   "An invalid trigger or phase means the guidance is loaded at the wrong time or never.",
		Example: Example{Corpus: ExampleCorpus, File: "skills/tool-skills/screenshots.md", Line: 5,
			Message: "tool skill phase \"proofing\" is not one of plan, execute, review, subagent"},
	},
	{Code: CodeSummaryOverCap, Severity: Error, Spec: "§2.1", Area: AreaSkills,
		Means: "A tool skill's `summary` is over 240 UTF-8 bytes (also listed under §5.6 gating).",
		Why:   "The summary is loaded for every tool the trigger covers; the cap keeps that cost bounded.",
		Example: Example{Corpus: ExampleCorpus, File: "skills/tool-skills/screenshots.md", Line: 7,
			Message: "tool-skill summary is 259 bytes, over the 240-byte cap"},
	},
	{Code: CodeBodyOverCap, Severity: Error, Spec: "§2.1", Area: AreaSkills,
		Means:   "A tool skill's body is over 32 KiB (also listed under §5.6 gating).",
		Why:     "A gated body is loaded into the agent's context; an oversized one crowds out the task.",
		Example: Example{Note: "Needs a tool-skill body over 32 KiB of prose; kept out for the same reason. Covered by the skill parser tests (testdata)."},
	},
	{Code: CodeTriggerDanglingTools, Severity: Warning, Spec: "§2.1", Area: AreaSkills,
		Means: "Some `tool:` leaves of a tool skill's trigger match no Tool or MCP tool while others are live.",
		Why:   "Near-certain name drift: a Tool was renamed and the guidance no longer follows it.",
		Example: Example{Corpus: ExampleCorpus, File: "skills/tool-skills/deploy.md", Line: 1,
			Message: "tool skill deploy: trigger leaves tool: netlify-deploy match nothing while tool: pages-deploy are live (name drift?)"},
	},
	{Code: CodeTriggerInert, Severity: Info, Spec: "§2.1", Area: AreaSkills,
		Means: "No leaf of a tool skill's trigger matches anything in the graph.",
		Why:   "The guidance is never loaded; it may be for a tool of another harness, or dead.",
		Example: Example{Corpus: ExampleCorpus, File: "skills/tool-skills/legacy-wiki.md", Line: 1,
			Message: "tool skill legacy-wiki: no trigger leaf matches anything (tool: confluence_publish)"},
	},
	{Code: CodeSkillVariableUnresolved, Severity: Warning, Spec: "§2.1", Area: AreaSkills,
		Means: "A tool skill uses `${name}` that the instance's `skillVariables` does not declare.",
		Why:   "The agent sees the literal `${name}` instead of a value.",
		Example: Example{Corpus: ExampleCorpus, File: "skills/tool-skills/deploy.md", Line: 14,
			Message: "${deploy_env} is not a declared skill variable"},
	},
	{Code: CodeToolInvalid, Severity: Error, Spec: "§2.2", Area: AreaTools,
		Means: "An authored Tool fails the Tool schema (missing required field, wrong type, a repeated input on stdin); the message carries the JSON path. The Tool is still kept.",
		Why:   "Consumers of the graph rely on the schema; a Tool missing `install` cannot be set up by a new host.",
		Example: Example{Corpus: ExampleCorpus, File: "tools/site-tools.yaml", Line: 11,
			Message: "tools/site-tools.yaml: $.tools[1]: missing property 'install'"},
	},
	{Code: CodeToolUnknownField, Severity: Warning, Spec: "§2.2", Area: AreaTools,
		Means: "A Tool object has a field the schema does not know. Kept as data.",
		Why:   "Often a typo of a known field (`selections`), which would then silently not count.",
		Example: Example{Corpus: ExampleCorpus, File: "tools/outline-gen.json", Line: 16,
			Message: "tools/outline-gen.json: $.owner: tool \"outline-gen\" has unknown field \"owner\" (kept as data)"},
	},
	{Code: CodeToolDuplicateID, Severity: Error, Spec: "§2.2", Area: AreaTools,
		Means: "Two Tool definitions share an id. In two files both are kept; in one file (a `{\"tools\": [...]}` list, one TypeScript module) the first is kept and the later one, reported at its own line, is not read: stored, the two would be one node with two titles and two invocations.",
		Why:   "Tool ids are references (entry points, remedies, triggers); a duplicate makes every such reference ambiguous.",
		Example: Example{Corpus: ExampleCorpus, File: "tools/linkcheck.yaml", Line: 1,
			Message: "tool id \"linkcheck\" is defined in tools/legacy/linkcheck.json and tools/linkcheck.yaml"},
	},
	{Code: CodeSatisfiesUnknownSkill, Severity: Error, Spec: "§2.2", Area: AreaTools,
		Means: "A Tool's `satisfies` names no skill of its instance or the instances it `needs`.",
		Why:   "The Tool covers nothing; usually a renamed skill.",
		Example: Example{Corpus: ExampleCorpus, File: "tools/site-tools.yaml", Line: 5,
			Message: "tool site-preview satisfies \"preview-site\", which is no skill"},
	},
	{Code: CodeInvokeMCPOnly, Severity: Error, Spec: "§2.2", Area: AreaTools,
		Means: "An authored Tool's only invocation is `invoke.mcp`.",
		Why:   "A Tool reachable only through an MCP call cannot be run by the harness that defines it (MCP-derived Tools are exempt).",
		Example: Example{Corpus: ExampleCorpus, File: "tools/fact-check.json", Line: 21,
			Message: "tools/fact-check.json: tool \"claimcheck-api\" can only be invoked through MCP; the harness that defines it cannot run it (add shell, container, inProcess or manual)"},
	},
	{Code: CodeSelectionPartial, Severity: Error, Spec: "§2.2", Area: AreaTools,
		Means: "A Tool's `selection` lacks one of when/limits/cost (or one is empty). A partial selection does not count as a selection.",
		Why:   "An agent choosing between alternatives needs all three; half a selection looks complete to a reviewer.",
		Example: Example{Corpus: ExampleCorpus, File: "tools/translation.yaml", Line: 35,
			Message: "tools/translation.yaml: tool \"human-translation\" has a partial selection (missing or empty: limits, cost); when, limits and cost go together or not at all, and a partial selection does not count"},
	},
	{Code: CodeNetworkWithoutRemedies, Severity: Error, Spec: "§2.2", Area: AreaTools,
		Means: "A Tool with `requires.network: true` lists no `remedies`.",
		Why:   "When the host is unreachable the agent needs to know what to do instead (another Tool, or nothing on purpose).",
		Example: Example{Corpus: ExampleCorpus, File: "tools/publishing.json", Line: 38,
			Message: "tools/publishing.json: tool \"s3-sync\" requires the network but lists no remedies (what to do when the host is unreachable)"},
	},
	{Code: CodeRemedyUnknownTool, Severity: Error, Spec: "§2.2", Area: AreaTools,
		Means: "A remedy's `tool` names no Tool.",
		Why:   "The fallback an agent would reach for does not exist.",
		Example: Example{Corpus: ExampleCorpus, File: "tools/publishing.json", Line: 20,
			Message: "tool pages-deploy names remedy tool \"s3-sync-legacy\", which is no tool"},
	},
	{Code: CodeSubprocessUnknownProcess, Severity: Error, Spec: "§2.2", Area: AreaTools,
		Means: "A Tool's `subprocesses` names no process (by file stem or process id).",
		Why:   "The Tool's own steps are undocumented, and reachability through it stops.",
		Example: Example{Corpus: ExampleCorpus, File: "tools/hugo-build.yaml", Line: 18,
			Message: "tool hugo-build names subprocess \"asset-pipeline\", which is no process"},
	},
	{Code: CodeToolModuleNotEvaluated, Severity: Info, Spec: "§2.8", Area: AreaTools,
		Means:   "A CommonJS (`.cts`, `.cjs`) or TSX Tool module is found under a tools directory: only `.ts`, `.mts`, `.js` and `.mjs` modules are read (statically, never run).",
		Why:     "Tools defined only in such a module are invisible to the graph; the note says where to look.",
		Example: Example{Note: "The example corpus's `tools/index.ts` is read. Covered by ingest/tool/tool_test.go (TestParseFindings, \"cts module\")."},
	},
	{Code: CodeToolModuleDynamic, Severity: Warning, Spec: "§2.8", Area: AreaTools,
		Means:   "A value in a TypeScript Tool module cannot be known without running code; the rest of the Tool is kept (a call whose `id` cannot be known is skipped).",
		Why:     "The Tool is recorded without that field, so checks that need it cannot run.",
		Example: Example{Note: "Covered by ingest/tool/tool_test.go (TestParseFindings, \"ts module dynamic id\") and the real-world module test."},
	},
	{Code: CodePortTypeUnknown, Severity: Error, Spec: "§2.3", Area: AreaTools,
		Means: "A port's `type` is not in the type vocabulary, or its `schema` IRI has no `#/$defs/` or names no type.",
		Why:   "Untyped ports defeat contract checks, alternatives and injection-safety analysis.",
		Example: Example{Corpus: ExampleCorpus, File: "tools/archive.json", Line: 10,
			Message: "tools/archive.json: $.io.outputs[0].type: port \"tarball\": type \"ArchivePath\" is not a type of the vocabulary (vocabulary https://quillworks.example/harness)"},
	},
	{Code: CodeInputUnsafeOnArgv, Severity: Error, Spec: "§2.3", Area: AreaTools,
		Means: "An input passed by `flag` or `positional` has a type that is not injection-safe (Text, Markdown, FilesystemPath, …).",
		Why:   "Free text on a command line is an injection vector; it belongs on stdin.",
		Example: Example{Corpus: ExampleCorpus, File: "tools/linkcheck.yaml", Line: 12,
			Message: "tools/linkcheck.yaml: $.io.inputs[1].arg: input \"reportTitle\" of type https://quillworks.example/harness/tool-types.schema.json#/$defs/Text is not injection-safe but is passed on the command line (flag:--title); free text belongs on stdin"},
	},
	{Code: CodeBPMNInvalid, Severity: Error, Spec: "§2.4", Area: AreaBPMN,
		Means: "A `.bpmn` file is not well-formed XML, is not BPMN 2.0, has a process without id, or carries a DTD/entity declaration.",
		Why:   "Every process, step and skill reference in the file is lost until it is fixed.",
		Example: Example{Corpus: ExampleCorpus, File: "processes/drafts/localisation.bpmn", Line: 8,
			Message: "XML syntax error: element <serviceTask> closed by </process>"},
	},
	{Code: CodeProcessDuplicateID, Severity: Error, Spec: "§2.4", Area: AreaBPMN,
		Means: "Two processes share a `process/@id` (in one file or across files).",
		Why:   "Call activities resolve by process id; a duplicate makes the call target ambiguous.",
		Example: Example{Corpus: ExampleCorpus, File: "processes/publish-release.bpmn", Line: 6,
			Message: "process id \"Process_PublishRelease\" is defined in processes/archive/publish-release-2023.bpmn and processes/publish-release.bpmn"},
	},
	{Code: CodeBPMNDuplicateID, Severity: Error, Spec: "§4", Area: AreaBPMN,
		Means: "Two elements of one BPMN file (processes, activities, events, gateways, sequence flows, lanes) share one `id`; the finding is on the later one and names both lines. Both elements are kept. Two processes of one id are `process-duplicate-id` instead.",
		Why:   "Flows and lanes refer to elements by id; a duplicate makes them ambiguous, and the two would merge into one node of the graph.",
		Example: Example{Corpus: "ingest/hostile/testdata/bpmn-duplicate-element-ids", File: "processes/review.bpmn", Line: 6,
			Message: "serviceTask id \"Task_A\" (line 6) is already the id of the userTask on line 5: BPMN ids are unique within a file"},
	},
	{Code: CodeCallUnknownProcess, Severity: Error, Spec: "§2.4", Area: AreaBPMN,
		Means: "A call activity's `calledElement` (or `zeebe:calledElement/@processId`) names no process.",
		Why:   "The called steps are missing from the graph and from reachability.",
		Example: Example{Corpus: ExampleCorpus, File: "processes/publish-release.bpmn", Line: 66,
			Message: "call activity Call_Checklist of Process_PublishRelease calls \"Process_ReleaseChecklist\", which is no process"},
	},
	{Code: CodeCallDynamic, Severity: Info, Spec: "§2.4", Area: AreaBPMN,
		Means: "A call target is dynamic (`${…}`, `#{…}` or `=…`).",
		Why:   "Which process runs is only known at run time; reachability cannot follow the call.",
		Example: Example{Corpus: ExampleCorpus, File: "processes/publish-release.bpmn", Line: 67,
			Message: "callActivity \"Call_Hook\" calls \"${postReleaseHook}\", which is only known at run time"},
	},
	{Code: CodeSkillRefUnknown, Severity: Error, Spec: "§2.4", Area: AreaBPMN,
		Means: "A step names a skill (`skill ref`, Camunda `topic`/`taskDefinition type`) that does not exist.",
		Why:   "The step's work is attached to nothing: a typo or a skill not written yet.",
		Example: Example{Corpus: ExampleCorpus, File: "processes/publish-release.bpmn", Line: 52,
			Message: "step Task_NotifyIllustrators of Process_PublishRelease names skill \"notify-illustrators\", which is no skill"},
	},
	{Code: CodeMCPInvalid, Severity: Error, Spec: "§2.5", Area: AreaMCP,
		Means: "A file under an mcp directory is not a `tools/list` result, or a listed tool has no name or no `inputSchema` object (kept without inputs).",
		Why:   "A malformed snapshot hides tools that agents can actually call.",
		Example: Example{Corpus: ExampleCorpus, File: "mcp/cms.json", Line: 50,
			Message: "mcp/cms.json: tool \"delete_page\" has no inputSchema object (required by tools/list); kept without inputs"},
	},
	{Code: CodeMCPToolDuplicate, Severity: Warning, Spec: "§2.5", Area: AreaMCP,
		Means: "One server lists two tools with the same name. Both are kept (the second with a `-2` id suffix).",
		Why:   "A client calling the name gets one of them; which is server-defined.",
		Example: Example{Corpus: ExampleCorpus, File: "mcp/cms.json", Line: 44,
			Message: "mcp/cms.json: server \"cms\" lists tool \"get_page\" twice (first on line 38); both are kept, this one as cms.get-page-2"},
	},
	{Code: CodeBeanInvalid, Severity: Error, Spec: "§2.6", Area: AreaBeans,
		Means: "A bean file has no front matter, unclosed front matter, front matter that is not a YAML mapping, or a file name without a bean id.",
		Why:   "The bean's fields and links are lost.",
		Example: Example{Corpus: ExampleCorpus, File: "beans/qw-t105--archive-old-versions.md", Line: 1,
			Message: "the front matter opened on line 1 is never closed by a line of three dashes"},
	},
	{Code: CodeBeanUnknownValue, Severity: Warning, Spec: "§2.6", Area: AreaBeans,
		Means: "A bean's status, type or priority is not one of the known values. Kept as written.",
		Why:   "Custom workflows exist; a typo (`in progres`) looks the same, so it is worth a look.",
		Example: Example{Corpus: ExampleCorpus, File: "beans/qw-t103--pdf-edition.md", Line: 3,
			Message: "unknown status \"blocked\" (known: [draft todo in-progress completed scrapped]); kept as written"},
	},
	{Code: CodeBeanParentUnknown, Severity: Error, Spec: "§2.6", Area: AreaBeans,
		Means: "A bean's `parent` names no bean.",
		Why:   "The work item is detached from its plan.",
		Example: Example{Corpus: ExampleCorpus, File: "beans/qw-t103--pdf-edition.md", Line: 6,
			Message: "bean qw-t103 names parent \"qw-e099\", which is no bean"},
	},
	{Code: CodeBeanBlockingUnknown, Severity: Error, Spec: "§2.6", Area: AreaBeans,
		Means: "A bean's `blocking` names no bean.",
		Why:   "The dependency it records points nowhere.",
		Example: Example{Corpus: ExampleCorpus, File: "beans/qw-t103--pdf-edition.md", Line: 7,
			Message: "bean qw-t103 is blocking \"qw-t999\", which is no bean"},
	},
	{Code: CodeBeanSelfLink, Severity: Error, Spec: "§2.6", Area: AreaBeans,
		Means: "A bean names itself as parent, blocking or blocked_by (reported only as this, not also as a cycle).",
		Why:   "A self-dependency can never be resolved.",
		Example: Example{Corpus: ExampleCorpus, File: "beans/qw-t104--glossary-terms.md", Line: 7,
			Message: "blocked_by names the bean itself (qw-t104)"},
	},
	{Code: CodeBeanCycle, Severity: Error, Spec: "§2.6", Area: AreaBeans,
		Means: "Beans form a cycle through `parent` or through `blocking`; reported once per cycle, on the first member.",
		Why:   "Nothing in a blocking cycle can start.",
		Example: Example{Corpus: ExampleCorpus, File: "beans/qw-t101--fix-broken-links.md", Line: 1,
			Message: "blocking cycle between beans qw-t101, qw-t102 (files beans/qw-t101--fix-broken-links.md, beans/qw-t102--translate-the-faq.md)"},
	},
	{Code: CodeBeanParentType, Severity: Error, Spec: "§2.6", Area: AreaBeans,
		Means: "A bean's parent has the wrong type (a milestone has no parent; an epic's parent is a milestone; features, tasks and bugs sit under milestones, epics or features).",
		Why:   "The hierarchy that reports roll up along is broken.",
		Example: Example{Corpus: ExampleCorpus, File: "beans/qw-e011--screenshot-automation.md", Line: 1,
			Message: "bean qw-e011 is a epic under qw-t101, a task; a epic takes a parent of type milestone"},
	},
	{Code: CodeContractExternal, Severity: Info, Spec: "§5.2", Area: AreaContracts,
		Means: "The skill's input contract is an `https://` IRI: not fetched (ingest is offline), not checked. The satisfies edge stays valid.",
		Why:   "The report must never claim a check that did not happen.",
		Example: Example{Corpus: ExampleCorpus, File: "tools/publishing.json", Line: 3,
			Message: "tool pages-deploy satisfies publish-site, whose input contract https://quillworks.example/contracts/publish-site.input.json is external: not fetched, not checked"},
	},
	{Code: CodeContractUnreadable, Severity: Error, Spec: "§5.2", Area: AreaContracts,
		Means: "A skill's `input:`/`output:` names a contract file that is missing or not valid JSON.",
		Why:   "The contract cannot be checked; a Tool's claim to perform the skill is unverified.",
		Example: Example{Corpus: ExampleCorpus, File: "skills/site/export-pdf.md", Line: 4,
			Message: "skill export-pdf declares input contract \"schemas/skills/export-pdf/input.schema.json\", which is missing or not valid JSON"},
	},
	{Code: CodeContractRequiredMissing, Severity: Error, Spec: "§5.2", Area: AreaContracts,
		Means: "A Tool satisfies a skill whose input contract requires a name the Tool has no input for. The satisfies edge is invalid.",
		Why:   "The Tool cannot receive what the skill says it needs: it does not really perform the skill.",
		Example: Example{Corpus: ExampleCorpus, File: "tools/fact-check.json", Line: 3,
			Message: "tool factbot cannot perform fact-check: the contract schemas/skills/fact-check/input.schema.json requires [claim, sources] but the tool accepts [claim] (missing: sources)"},
	},
	{Code: CodeContractTypeMismatch, Severity: Error, Spec: "§5.2", Area: AreaContracts,
		Means: "A Tool input and a contract property share a name but their JSON types differ (an integer port may serve a number property). The edge is invalid.",
		Why:   "Values of the contract's type would be rejected or misread by the Tool.",
		Example: Example{Corpus: ExampleCorpus, File: "tools/fact-check.json", Line: 15,
			Message: "tool claimcheck-api input \"claim\" is integer but contract schemas/skills/fact-check/input.schema.json property \"claim\" is string"},
	},
	{Code: CodeContractNameNearMiss, Severity: Warning, Spec: "§5.2", Area: AreaContracts,
		Means: "A Tool input and a contract property have names that are equal after case/separator folding or one is a suffix of the other (`targetLocale` vs `locale`).",
		Why:   "Usually the same thing spelled two ways; the contract check would otherwise miss it or wrongly pass it.",
		Example: Example{Corpus: ExampleCorpus, File: "tools/translation.yaml", Line: 2,
			Message: "tool mt-translate input \"targetLocale\" looks like contract schemas/skills/translate-page/input.schema.json property \"locale\": same name after case and separator folding, or one a suffix of the other"},
	},
	{Code: CodeCoveredNotReachable, Severity: Warning, Spec: "§5.3", Area: AreaAnalyses,
		Means: "A skill has a valid Tool, but no root (entry process, MCP listing, entry Tool, trigger) reaches the skill or any of its Tools.",
		Why:   "\"Covered is not reachable\": the mechanism exists, nothing ever invokes it.",
		Example: Example{Corpus: ExampleCorpus, File: "skills/hard/typeset/SKILL.md", Line: 1,
			Message: "skill typeset is covered by typeset.booklet, typeset.handout, but no process, transport or trigger reaches it or its Tools"},
	},
	{Code: CodeToolUnreachable, Severity: Warning, Spec: "§5.3", Area: AreaAnalyses,
		Means: "A Tool no root reaches.",
		Why:   "A command nothing invokes: dead, or missing from a process or catalogue.",
		Example: Example{Corpus: ExampleCorpus, File: "skills/hard/typeset/SKILL.md", Line: 10,
			Message: "tool typeset.handout is reached by no process, transport or trigger: a command nothing invokes"},
	},
	{Code: CodeToolNoCommand, Severity: Info, Spec: "§5.3", Area: AreaAnalyses,
		Means: "A Tool's only invocation is `inProcess` or `manual`.",
		Why:   "A mechanism with no command: an agent cannot run it itself.",
		Example: Example{Corpus: ExampleCorpus, File: "tools/diagrams.json", Line: 15,
			Message: "tool process-viewer is only invoked inProcess: a mechanism with no command"},
	},
	{Code: CodeProcessUnreachable, Severity: Info, Spec: "§5.3", Area: AreaAnalyses,
		Means: "A process is reached by no entry point, call activity or Tool subprocess.",
		Why:   "A documented workflow that never runs, or an entry point that was not declared.",
		Example: Example{Corpus: ExampleCorpus, File: "processes/review-loop.bpmn", Line: 6,
			Message: "process Process_ReviewLoop is reached by no entry point, call or Tool"},
	},
	{Code: CodeCallCycle, Severity: Info, Spec: "§5.3", Area: AreaAnalyses,
		Means: "Processes call each other in a cycle; reported once per cycle and never looped on.",
		Why:   "Often intended (a review loop), sometimes an accident; either way it should be known.",
		Example: Example{Corpus: ExampleCorpus, File: "processes/review-loop.bpmn", Line: 6,
			Message: "call cycle between processes Process_ReviewLoop → Process_Rework; it is followed once and never looped on"},
	},
	{Code: CodeAlternativeWithoutSelection, Severity: Error, Spec: "§5.4", Area: AreaAnalyses,
		Means: "A Tool has derived alternatives (equal signature, shared skill) but no complete `selection`.",
		Why:   "An agent facing substitutable Tools cannot choose without when/limits/cost.",
		Example: Example{Corpus: ExampleCorpus, File: "tools/translation.yaml", Line: 22,
			Message: "tool human-translation has alternatives (mt-translate) but no complete selection {when, limits, cost}: an agent cannot choose"},
	},
	{Code: CodeProfileUnknownTool, Severity: Error, Spec: "§5.5", Area: AreaWorkflow,
		Means:   "An exposure profile lists a tool id that is not a Tool (SPEC §5.5).",
		Why:     "A profile that names a missing Tool over-states what a host exposes.",
		Example: Example{Note: "The example corpus's `kiosk` profile names only existing Tools. Covered by queries/workflow_test.go (TestProfileBreaksWorkflow)."},
	},
	{Code: CodeGateTooWide, Severity: Warning, Spec: "§5.6", Area: AreaWorkflow,
		Means:   "A required tool skill with a server-wide (`mcp_server`) trigger has a body over 2 KiB (SPEC §5.6).",
		Why:     "Its load costs every tool call of that server.",
		Example: Example{Note: "Needs a required tool skill with a body over 2 KiB; kept out of the example corpus for the same reason as body-over-cap. Covered by queries/workflow_test.go (TestGating)."},
	},
	{Code: CodeProgramNotInstalled, Severity: Info, Spec: "§5.7", Area: AreaWorkflow,
		Means: "A shell Tool runs a program that no Tool installs and that is not `install.none` (SPEC §5.7).",
		Why:   "The first run on a fresh host fails.",
		Example: Example{Corpus: ExampleCorpus, File: "tools/diagrams.json", Line: 3,
			Message: "tool mermaid-render runs \"mmdc\", which no Tool installs (and its install is not none): skills render-diagrams break where it is missing"},
	},
	{Code: CodeSkillMetadataInvalid, Severity: Warning, Spec: "§2.1", Area: AreaSkills,
		Means:   "An Agent Skill's `metadata` is not a map of strings, or one of its values is a list or a map (the Agent Skills specification says string map). The key is not read; the skill is.",
		Why:     "Hosts that follow the specification drop the value; the skill itself is still valid and must not be lost.",
		Example: Example{Corpus: HostExampleCorpus, File: "plugins/review/skills/review-pr/SKILL.md", Line: 5, Message: "Agent Skill metadata \"tags\" must be a string (the Agent Skills specification says string map); the key is not read"},
	},
	{Code: CodeSkillResourceMissing, Severity: Warning, Spec: "§1.3", Area: AreaSkills,
		Means:   "A relative link or path in a `SKILL.md` names a file of the skill's folder that does not exist.",
		Why:     "The agent follows the link when it loads the skill and finds nothing.",
		Example: Example{Corpus: HostExampleCorpus, File: "plugins/review/skills/review-pr/SKILL.md", Line: 13, Message: "review-pr links references/missing.md, which is not in the corpus (looked for plugins/review/skills/review-pr/references/missing.md)"},
	},
	{Code: CodeFrontMatterNotYAML, Severity: Warning, Spec: "§1.3", Area: AreaHosts,
		Means:   "A command's or subagent's front matter is not valid YAML (usually an unquoted colon in a one-line description); it is read line by line as `key: value`, as the hosts do.",
		Why:     "Stricter readers (other hosts, linters) reject the file; quoting the value makes it portable.",
		Example: Example{Corpus: HostExampleCorpus, File: "plugins/review/agents/triager.md", Line: 3, Message: "front matter is not valid YAML (mapping values are not allowed in this context); read line by line as key: value, as the hosts do"},
	},
	{Code: CodePluginInvalid, Severity: Error, Spec: "§1.3", Area: AreaHosts,
		Means:   "A plugin manifest is not a JSON object, has no `name`, or its name is not kebab-case.",
		Why:     "The host refuses to install the plugin; its skills become the package of nothing.",
		Example: Example{Corpus: HostExampleCorpus, File: "plugins/Odd_One/.claude-plugin/plugin.json", Line: 2, Message: "plugin name \"Odd_One\" must be kebab-case (lower-case letters and digits separated by single hyphens)"},
	},
	{Code: CodePluginPathMissing, Severity: Error, Spec: "§1.3", Area: AreaHosts,
		Means:   "A manifest key (`commands`, `agents`, `skills`, `hooks`, `mcpServers`, `lspServers`, `apps`) names a path that does not exist.",
		Why:     "The component the manifest promises is never loaded.",
		Example: Example{Corpus: HostExampleCorpus, File: "plugins/review/.claude-plugin/plugin.json", Line: 5, Message: "manifest commands path \"extra-commands\" does not exist (looked for plugins/review/extra-commands)"},
	},
	{Code: CodeMarketplaceInvalid, Severity: Error, Spec: "§1.3", Area: AreaHosts,
		Means:   "A marketplace file is not a JSON object, has no `name` or `plugins` list, or an entry has no name or no source.",
		Why:     "An entry the host cannot read is a plugin nobody can install.",
		Example: Example{Note: "Kept out of the example marketplace, whose file must stay readable to show the other codes. Covered by ingest/plugin/plugin_test.go (TestParseMarketplace)."},
	},
	{Code: CodePluginSourceMissing, Severity: Error, Spec: "§1.3", Area: AreaHosts,
		Means:   "A marketplace entry's local source (a relative path, or `{source: local, path}`) is not a folder of the repository.",
		Why:     "Installing the plugin from this marketplace fails.",
		Example: Example{Corpus: HostExampleCorpus, File: ".claude-plugin/marketplace.json", Line: 17, Message: "plugin \"ghost\": local source \"./plugins/ghost\" holds no plugin (looked for plugins/ghost/)"},
	},
	{Code: CodePluginSourceRemote, Severity: Info, Spec: "§1.3", Area: AreaHosts,
		Means:   "A marketplace entry comes from a remote source (github, git, url, git-subdir, npm): it is recorded and never fetched.",
		Why:     "Nothing of it is checked here; its own repository is where it is checked.",
		Example: Example{Corpus: HostExampleCorpus, File: ".claude-plugin/marketplace.json", Line: 18, Message: "plugin \"far-away\" comes from a github source (example/far-away): recorded, never fetched"},
	},
	{Code: CodePluginDuplicate, Severity: Error, Spec: "§1.3", Area: AreaHosts,
		Means:   "Two entries of one marketplace have the same name.",
		Why:     "The host installs one of them; which one is not the author's choice.",
		Example: Example{Corpus: HostExampleCorpus, File: ".claude-plugin/marketplace.json", Line: 19, Message: "plugin \"review\" is listed twice (first at line 6); the host installs one of them"},
	},
	{Code: CodePluginUnlisted, Severity: Warning, Spec: "§1.3", Area: AreaHosts,
		Means:   "A plugin folder of a repository that has a marketplace is not listed by it.",
		Why:     "Nobody can install it from here.",
		Example: Example{Corpus: HostExampleCorpus, File: "plugins/Odd_One/.claude-plugin/plugin.json", Line: 1, Message: "plugin \"Odd_One\" (plugins/Odd_One) is not listed by the marketplace .claude-plugin/marketplace.json: nobody can install it from here"},
	},
	{Code: CodeAgentInvalid, Severity: Error, Spec: "§1.3", Area: AreaHosts,
		Means:   "A subagent has no `name` or no `description` in its front matter.",
		Why:     "The host delegates to a subagent by its description; without one it is never chosen.",
		Example: Example{Corpus: HostExampleCorpus, File: "plugins/review/agents/silent.md", Line: 1, Message: "subagent has no description: the host delegates to an agent by its description"},
	},
	{Code: CodeHookInvalid, Severity: Error, Spec: "§1.3", Area: AreaHosts,
		Means:   "A hooks file is not an object of events, an event does not hold a list of matcher groups, a group has no `hooks` list, or a command hook has no command.",
		Why:     "The host skips the handler: the check it was meant to run never runs.",
		Example: Example{Note: "Kept out of the example marketplace so that its hooks show the other codes. Covered by ingest/plugin/plugin_test.go (TestParseHooks)."},
	},
	{Code: CodeHookScriptMissing, Severity: Error, Spec: "§1.3", Area: AreaHosts,
		Means:   "A `type: command` hook runs a script under `${CLAUDE_PLUGIN_ROOT}` that does not exist in the plugin.",
		Why:     "The hook fails every time its event fires.",
		Example: Example{Corpus: HostExampleCorpus, File: "plugins/review/hooks/hooks.json", Line: 19, Message: "Stop hook runs ${CLAUDE_PLUGIN_ROOT}/hooks/missing.sh, which does not exist (looked for plugins/review/hooks/missing.sh)"},
	},
	{Code: CodeHookEventUnknown, Severity: Warning, Spec: "§1.3", Area: AreaHosts,
		Means:   "A hooks file names an event no host fires.",
		Why:     "Its handlers never run; usually a typo of an event name.",
		Example: Example{Corpus: HostExampleCorpus, File: "plugins/review/hooks/hooks.json", Line: 15, Message: "hook event \"BeforeCommit\" is not one the hosts fire: its handlers never run"},
	},
	{Code: CodeMcpConfigInvalid, Severity: Error, Spec: "§1.3", Area: AreaHosts,
		Means:   "An MCP server declaration (`.mcp.json`, a manifest's `mcpServers`) is not an object, or a server has neither a command nor a url.",
		Why:     "The host cannot start or reach the server; every tool of it is missing.",
		Example: Example{Note: "Kept out of the example marketplace, whose servers must be readable to show the reference codes. Covered by ingest/plugin/plugin_test.go (TestParseMcpConfig)."},
	},
	{Code: CodeMcpToolsUnlisted, Severity: Info, Spec: "§1.3", Area: AreaHosts,
		Means:   "A declared MCP server has no tools/list snapshot (SPEC §2.5) in the corpus, so the tools it serves are not known.",
		Why:     "References to its tools cannot be checked; add a snapshot under mcp/ to check them.",
		Example: Example{Corpus: HostExampleCorpus, File: "plugins/review/.mcp.json", Line: 7, Message: "MCP server \"tracker\" has no tools/list snapshot in the corpus: the tools it serves are not known"},
	},
	{Code: CodeMcpServerUnknown, Severity: Warning, Spec: "§1.3", Area: AreaHosts,
		Means:   "A tool name `mcp__<server>__<tool>` in an `allowed-tools` or `tools` list names a server no `.mcp.json` or manifest of the repository declares.",
		Why:     "The command or agent is granted a tool that does not exist here.",
		Example: Example{Corpus: HostExampleCorpus, File: "plugins/review/commands/review.md", Line: 2, Message: "/review:review names mcp__jira__search, but no MCP server \"jira\" is declared"},
	},
	{Code: CodeMcpToolUnknown, Severity: Warning, Spec: "§1.3", Area: AreaHosts,
		Means:   "A tool name `mcp__<server>__<tool>` names a declared server whose tools/list snapshot has no such tool.",
		Why:     "The permission or delegation names a tool the server does not serve.",
		Example: Example{Corpus: HostExampleCorpus, File: "plugins/review/commands/review.md", Line: 2, Message: "/review:review names mcp__github__delete_repo, but MCP server \"github\" serves no tool \"delete_repo\""},
	},
	// MCP parity (queries/parity.go): an authored Tool against the listed
	// MCP tools that expose it (the exposedBy edge, SPEC §2.5). Info, not
	// warning: a snapshot is a recording of a server at one time, and the
	// acceptance corpus's own pair differs on purpose (docs/decisions.md).
	{Code: CodeMCPParityInput, Severity: Info, Spec: "§2.5", Area: AreaMCP,
		Means: "An input port is declared by the Tool but not served by the MCP tool that exposes it, or served but not declared (then on the Tool's line).",
		Why:   "An agent calling over MCP with the Tool's port names sends an argument the server does not know, or leaves out one it expects.",
		Example: Example{Corpus: "queries/testdata/parity", File: "tools/pr-create.json", Line: 10,
			Message: "Tool pr-create input \"heading\" is not an input of MCP tool github/create_pr (mcp/github.json:4)"},
	},
	{Code: CodeMCPParityRequired, Severity: Info, Spec: "§2.5", Area: AreaMCP,
		Means: "An input is required on one side and optional on the other.",
		Why:   "The required/optional split is the contract of a call: one side will refuse calls the other accepts.",
		Example: Example{Corpus: "queries/testdata/parity", File: "tools/pr-create.json", Line: 11,
			Message: "Tool pr-create input \"title\" is optional, MCP tool github/create_pr (mcp/github.json:4) makes it required"},
	},
	{Code: CodeMCPParityType, Severity: Info, Spec: "§2.5", Area: AreaMCP,
		Means: "A port's JSON type (its vocabulary type's, `array` when repeated) does not fit the MCP schema's: inputs the server accepts must fit the Tool, outputs the Tool returns must fit the server's outputSchema (integer fits number).",
		Why:   "A value valid on one side is refused, or misread, on the other.",
		Example: Example{Corpus: "queries/testdata/parity", File: "tools/pr-create.json", Line: 11,
			Message: "Tool pr-create input \"title\" is JSON integer, MCP tool github/create_pr (mcp/github.json:4) declares string"},
	},
	{Code: CodeMCPParityOutput, Severity: Info, Spec: "§2.5", Area: AreaMCP,
		Means: "The MCP tool states an outputSchema and an output is on one side only.",
		Why:   "A caller over MCP does not get the output the Tool documents, or gets one the graph does not know.",
		Example: Example{Corpus: "queries/testdata/parity", File: "tools/publish.json", Line: 13,
			Message: "Tool page-publish output \"etag\" is not in the outputSchema of MCP tool github/publish_page (mcp/github.json:16)"},
	},
	{Code: CodeMCPParityDescription, Severity: Info, Spec: "§2.5", Area: AreaMCP,
		Means: "The Tool's description is not the MCP tool's, verbatim (leading and trailing white space aside).",
		Why:   "An agent picks tools by their description: the served text should be the catalogue's.",
		Example: Example{Corpus: ExampleCorpus, File: "tools/site-tools.yaml", Line: 27,
			Message: "Tool feedback-digest's description is not that of MCP tool cms/summarize_feedback (mcp/cms.json:30): \"Summarises reader feedback from the CMS export; also offered by the CMS server.\", served \"Summarise the reader feedback left on a section since a date.\""},
	},
	{Code: CodeMCPToolUnlisted, Severity: Warning, Spec: "§2.5", Area: AreaMCP,
		Means: "A Tool's `invoke.mcp` names a tool that the snapshot of its server does not list (reported only when the graph holds a snapshot of that server).",
		Why:   "The MCP transport the Tool claims does not exist on the recorded server: a renamed or removed tool, or a typo.",
		Example: Example{Corpus: "queries/testdata/parity", File: "tools/elsewhere.json", Line: 2,
			Message: "Tool repo-delete: invoke.mcp names tool \"delete_repo\" of server \"github\", which its snapshot mcp/github.json does not list"},
	},
	{Code: CodeMCPToolUnauthored, Severity: Info, Spec: "§2.5", Area: AreaMCP,
		Means: "A listed MCP tool that no Tool describes (no `invoke.mcp` names it).",
		Why:   "The graph knows the tool only from the listing: no satisfies edge, no selection guidance, no other transport.",
		Example: Example{Corpus: ExampleCorpus, File: "mcp/cms.json", Line: 4,
			Message: "server \"cms\" lists tool \"list_pages\", which no Tool describes (no invoke.mcp names it)"},
	},
}
