// Package record holds the plain structs that parsers produce from corpus
// files. Records are the first stage of the data flow
// (files → records → JSON-LD → quads → store → snapshot); nothing in this
// package knows about JSON-LD or the store.
package record

// Severity of a finding.
type Severity string

// Severities, lower-case as in the stable machine interface (SPEC §9).
const (
	Error   Severity = "error"
	Warning Severity = "warning"
	Info    Severity = "info"
)

// Rank orders severities: error 3, warning 2, info 1, unknown 0.
func (s Severity) Rank() int {
	switch s {
	case Error:
		return 3
	case Warning:
		return 2
	case Info:
		return 1
	}
	return 0
}

// Finding is one integrity problem with a stable code.
type Finding struct {
	Code     string
	Severity Severity
	Message  string
	File     string // relative to the corpus root, slash-separated
	Line     int    // 1-based; 1 for a whole-file problem
	Subject  string // IRI or key of the node concerned, if any
	Related  []string
}

// File is what one parser returns for one source file.
type File struct {
	Path       string // relative to the corpus root, slash-separated
	Parser     string // skill, tool, bpmn, mcp, bean, contract, declaration, other
	Skills     []Skill
	ToolSkills []ToolSkill
	Tools      []Tool
	Processes  []Process
	Beans      []Bean
	Contracts  []Contract
	Servers    []McpServer
	Scripts    []Script
	// Agent-host components (SPEC §1.3).
	Plugins      []Plugin
	Marketplaces []Marketplace
	Commands     []Command
	Agents       []Agent
	Hooks        []Hook
	McpConfigs   []McpConfig
	Findings     []Finding
}

// Script is one package.json script (tier C evidence, SPEC §5.1).
type Script struct {
	Key     string
	Command string
	Line    int
}

// Skill is a harness skill, an Agent Skill or a hard skill (SPEC §2.1 a–c).
type Skill struct {
	ID          string
	Flavour     string // harness, agent, hard
	Name        string
	Title       string
	Description string
	Package     string
	Line        int
	Input       string // contract as written: path relative to the instance root or https IRI
	InputLine   int
	Output      string
	OutputLine  int
	// AllowedTools are the allowed-tools patterns (weak mentionsTool edges).
	AllowedTools []string
	License      string
	Compat       string
	Metadata     map[string]string
	Includes     []string
	BodyLines    int
	// ShellBlocks are the 1-based lines of fenced sh/bash/console blocks.
	ShellBlocks []int
	// Commands are the command invocations of its prose (inline code spans
	// and plain lines), candidates for a swallowed Tool (issue 23.8).
	Commands []Invocation
	// Plugin is the folder of the agent-host plugin that holds the skill
	// ("" outside a plugin); Resources are the other files of an Agent
	// Skill's folder, relative to the corpus root (SPEC §1.3).
	Plugin    string
	Resources []string
}

// Invocation is one command invocation in a skill's prose: `gh pr create`
// in a code span, or gh pr create on a plain line.
type Invocation struct {
	Program string `json:"program"` // the first word: the binary it runs
	Text    string `json:"text"`    // the invocation as written (at most 200 bytes)
	Line    int    `json:"line"`
	// Known is set when the program is in the parser's table of CLIs;
	// others count only when a declared Tool runs the same program.
	Known bool `json:"known,omitempty"`
}

// Trigger is a tool-skill trigger tree (SPEC §2.1d): exactly one field set.
type Trigger struct {
	Tool      string
	McpServer string
	AnyOf     []Trigger
	AllOf     []Trigger
}

// ToolSkill is guidance for a tool (SPEC §2.1d); it is not counted in coverage.
type ToolSkill struct {
	Key       string
	Title     string
	Summary   string
	Phases    []string
	Required  bool
	Trigger   Trigger
	Line      int
	BodyBytes int
	BodyLines int
	// Refs are the lines of the trigger leaves ("trigger.tool",
	// "trigger.mcp_server"), for findings about a leaf.
	Refs RefLines
}

// Port is one typed input or output of a Tool.
type Port struct {
	Name        string
	TypeIRI     string // absolute IRI into the type vocabulary, or json:<primitive>
	JSONType    string // string, number, integer, boolean, object, array; "" if unknown
	Required    bool
	Repeated    bool
	Arg         string // "flag:--x", "positional:N", "stdin" or ""
	Description string
	Render      string // outputs: text, url, markdown, json
	Line        int
}

// Invoke says how a Tool is run.
type Invoke struct {
	Shell     []string // argv words; a string form is split on whitespace
	Container string
	McpServer string
	McpTool   string
	InProcess string
	Manual    bool
}

// Selection tells an agent when to pick a Tool.
type Selection struct{ When, Limits, Cost string }

// Requires lists a Tool's prerequisites.
type Requires struct {
	OS      []string
	Runtime []string
	Network *bool
}

// Remedy names what to do when a host is unreachable.
type Remedy struct {
	Host string `json:"host"`
	Tool string `json:"tool,omitempty"`
	None string `json:"none,omitempty"` // the stated reason (or "true") when there is no fallback
}

// Maintained is an artefact a Tool is the authority for.
// The JSON keys are the file's (SPEC §2.2): the stored literal and the
// API show them as written.
type Maintained struct {
	Source   string `json:"source"`
	Artefact string `json:"artefact"`
	Format   string `json:"format,omitempty"`
}

// Tool is one concrete mechanism (SPEC §2.2).
type Tool struct {
	ID           string
	Origin       string // authored, hard-skill, mcp
	Title        string
	Description  string
	Line         int
	Satisfies    []string
	Install      map[string]any
	Invoke       Invoke
	Inputs       []Port
	Outputs      []Port
	Selection    *Selection
	Requires     *Requires
	Remedies     []Remedy
	Maintains    []Maintained
	Renders      []string
	Subprocesses []string
	// ReadOnly is the authored readOnly flag or the MCP readOnlyHint; nil when not stated.
	ReadOnly *bool
	// Annotations are the MCP hints, tri-state: absent key = not stated.
	Annotations map[string]bool
	Server      string // MCP server name for MCP-derived tools
	McpName     string // MCP tool name as listed
	// Extra holds unknown fields, kept as data.
	Extra map[string]any
	// Refs are the lines of satisfies, subprocesses and remedies.tool entries.
	Refs RefLines
	// OutputSchema is true for an MCP-derived Tool whose listing states an
	// outputSchema: only then do its (possibly empty) outputs say what the
	// server returns, so parity compares outputs only then.
	OutputSchema bool
}

// SkillRef is a skill named by a BPMN step.
type SkillRef struct {
	Ref  string
	Line int
	// Implicit marks a ref read from a Camunda task type or topic: it names
	// a skill only when a skill of that id exists, and dangles silently.
	Implicit bool
}

// Activity is one BPMN activity (task, call activity, sub-process, event, gateway).
type Activity struct {
	ID            string
	Name          string
	Element       string // BPMN local element name
	Line          int
	Skills        []SkillRef
	NoSkillReason string
	Called        string // call target, as written
	CalledDynamic bool
	Lane          string
	Parent        string // enclosing subProcess id, "" at top level
	Beans         []string
	Documentation string
	// Refs are the lines of skill refs and of the call target.
	Refs RefLines
}

// Flow is a BPMN sequence flow.
type Flow struct{ ID, Source, Target string }

// Lane is a BPMN lane.
type Lane struct {
	ID    string
	Name  string
	Nodes []string
}

// Process is one BPMN process element.
type Process struct {
	ID         string // process/@id
	Stem       string // file stem
	Name       string
	Line       int
	Activities []Activity
	Lanes      []Lane
	Flows      []Flow
}

// Bean is a work item (SPEC §2.6).
type Bean struct {
	ID           string
	Title        string
	Status       string
	Type         string
	Priority     string
	Tags         []string
	CreatedAt    string
	UpdatedAt    string
	Parent       string
	ParentLine   int
	Blocking     []string
	BlockingLine int
	BlockedBy    []string
	Mentions     []string // names in backticks or linked files
	Line         int
	// Refs are the lines of parent, blocking and blocked_by entries.
	Refs RefLines
}

// Contract is a JSON-Schema I/O contract (SPEC §2.7).
type Contract struct {
	Path       string // relative to the instance root
	Required   []string
	Properties map[string]string // property name → JSON type ("" when not stated)
}

// McpServer is one MCP tools/list snapshot.
type McpServer struct {
	Name  string
	Tools []string // MCP tool names as listed
	Line  int
}

// Directory is one declared corpus directory.
type Directory struct {
	ID           string   `json:"id"`
	Path         string   `json:"path"`
	Typologies   []string `json:"graphTypologies"`
	Line         int      `json:"-"`
	Conventional bool     `json:"-"`
}

// EntryTrigger is a declared trigger root (schedule, watcher, sweep).
type EntryTrigger struct {
	ID    string `json:"id"`
	Kind  string `json:"kind"`
	Skill string `json:"skill,omitempty"`
	Tool  string `json:"tool,omitempty"`
}

// Entrypoints are the declared reachability roots (SPEC §5.3).
type Entrypoints struct {
	Processes []string       `json:"processes,omitempty"`
	Tools     []string       `json:"tools,omitempty"`
	Triggers  []EntryTrigger `json:"triggers,omitempty"`
}

// Exemption marks a skill uncovered on purpose (SPEC §5.1).
type Exemption struct {
	Skill  string `json:"skill"`
	State  string `json:"state"`
	Reason string `json:"reason"`
	Line   int    `json:"line,omitempty"`
}

// Profile is an exposure profile (SPEC §5.5).
type Profile struct {
	Tools      []string `json:"tools,omitempty"`
	ReadOnly   *bool    `json:"readOnly,omitempty"`
	Transports []string `json:"transports,omitempty"`
}

// Instance is a corpus's instance declaration, or the defaults of the
// conventional layout when the corpus has none (SPEC §1.1).
type Instance struct {
	Name           string
	Title          string
	Version        string
	Description    string
	IRIBase        string
	CanonicalURL   string
	Needs          []string
	Directories    []Directory
	Entrypoints    Entrypoints
	Exempt         []Exemption
	Profiles       map[string]Profile
	SkillVariables map[string]bool
	Vocabulary     string // path of the type vocabulary, relative to the root
	File           string // declaration file, "" for the conventional layout
	// Root is the absolute corpus root the instance was read from (set by
	// ingest, stored as sg:corpusRoot to tell two corpora of one name apart).
	Root string
	// Refs are the lines of the entry points (entrypoints.processes,
	// entrypoints.tools, entrypoints.triggers.skill / .tool).
	Refs RefLines
}

// DocIRI is the instance's document IRI (SPEC §3.1).
func (in Instance) DocIRI() string {
	if in.IRIBase != "" {
		return in.IRIBase + in.Name + ".jsonld"
	}
	return "urn:skillgraph:" + in.Name
}

// Plugin is one agent-host plugin: a folder with a Claude Code or Codex
// manifest, or a plugin a marketplace entry defines (SPEC §1.3).
type Plugin struct {
	Name        string
	Folder      string // relative to the corpus root; "." for the root
	Version     string
	Description string
	// Hosts are the agent hosts the folder is packaged for (claude-code,
	// codex, cursor, gemini, kimi, …), sorted.
	Hosts []string
	// Manifest is the manifest file the plugin was read from ("" when a
	// marketplace entry alone defines it).
	Manifest string
	Line     int
}

// MarketplaceEntry is one plugin a marketplace lists.
type MarketplaceEntry struct {
	Name string
	// SourceKind is local, github, git, url, git-subdir or npm.
	SourceKind string
	// Source is the source as written: a path, a repository, a URL or a
	// package name.
	Source string
	// Folder is a local source's folder relative to the corpus root.
	Folder      string
	Description string
	Line        int
}

// Marketplace is one marketplace file (SPEC §1.3).
type Marketplace struct {
	Name    string
	Owner   string
	Entries []MarketplaceEntry
	Line    int
}

// Command is one slash command (SPEC §1.3).
type Command struct {
	Name         string // /<plugin>:<stem>, or /<stem> in a project
	Plugin       string // the plugin's folder, "" in a project
	Package      string // the plugin's name, "" in a project
	Description  string
	ArgumentHint string
	AllowedTools []string
	Model        string
	Line         int
	// Refs are the lines of the allowed-tools entries.
	Refs RefLines
}

// Agent is one subagent (SPEC §1.3).
type Agent struct {
	Name        string
	Plugin      string // the plugin's folder, "" in a project
	Package     string // the plugin's name, "" in a project
	Description string
	// Tools are the tools it may use; AllTools is true when it names none.
	Tools    []string
	AllTools bool
	Model    string
	Skills   []string
	Line     int
	// Refs are the lines of the tools and skills entries.
	Refs RefLines
}

// Hook is one hook handler (SPEC §1.3).
type Hook struct {
	Plugin  string // the plugin's folder
	Package string // the plugin's name
	Event   string
	Matcher string
	Type    string // command, prompt, http, …
	Command string
	// Script is the file under the plugin the command runs, relative to
	// the corpus root ("" when the command names none).
	Script string
	Line   int
	Index  int // its place in the file, for its IRI
}

// McpConfig is one MCP server a plugin or project declares (SPEC §1.3).
type McpConfig struct {
	Name      string
	Plugin    string // the plugin's folder, "" in a project
	Package   string // the plugin's name, "" in a project
	Transport string // stdio, http or sse
	Command   string
	Args      []string
	URL       string
	Line      int
}
