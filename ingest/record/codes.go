package record

import (
	"slices"
	"sort"
)

// The finding registry: every finding code skillgraph reports or SPEC names,
// once, with its severity, the SPEC section that defines the rule, a one-line
// meaning and an example. docs/findings.md, the SARIF rules, `check --explain`
// and the page's help are generated from it; a test fails when code emits a
// code that is not registered here (SPEC §4: stable codes, each documented
// with one example).
//
// To add a code: add its constant below, add its Rule to the table of its area
// (rules_*.go), run `go generate ./ingest/record` and review
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
	CodeHardSkillRunNotIncluded      = "hard-skill-run-not-included"
	CodeToolSkillInvalid             = "tool-skill-invalid"
	CodeSummaryOverCap               = "summary-over-cap"
	CodeBodyOverCap                  = "body-over-cap"
	CodeTriggerDanglingTools         = "trigger-dangling-tools"
	CodeTriggerInert                 = "trigger-inert"
	CodeSkillVariableUnresolved      = "skill-variable-unresolved"
	CodeSkillVariableKeyInvalid      = "skill-variable-key-invalid"
	CodeSkillSwallowedTool           = "skill-swallowed-tool"
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
	CodeContentInvisibleUnicode      = "content-invisible-unicode"
	CodeContentHiddenInstruction     = "content-hidden-instruction"
	CodeContentSecret                = "content-secret"
	CodePermissionOverbroad          = "permission-overbroad"
	CodeExecFetchesCode              = "exec-fetches-code"
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
	AreaSafety    Area = "What a corpus can do to an agent"
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
	AreaSafety:    "§7",
}

// Areas returns the areas in docs order.
func Areas() []Area {
	return []Area{AreaCorpus, AreaSkills, AreaTools, AreaBPMN, AreaMCP, AreaBeans, AreaContracts, AreaAnalyses, AreaWorkflow, AreaHosts, AreaSafety}
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

// registry is the table of every code (SPEC §4), one file of rules per
// area (rules_*.go), in docs order within each: a new code is its constant
// above and its Rule in its area's file.
var registry = slices.Concat(corpusRules, skillRules, toolRules, bpmnRules, mcpRules, beanRules, contractRules, analysisRules, workflowRules, hostRules, safetyRules)
