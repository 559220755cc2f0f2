package queries

import "github.com/skillgraph/skillgraph/ingest/record"

// Instance is one ingested corpus.
type Instance struct {
	IRI         string
	Name        string
	Title       string
	Version     string
	Description string
	File        string // declaration file, "" for the conventional layout
	Needs       []string
	Entrypoints record.Entrypoints
	Refs        record.RefLines // lines of the entry points in the declaration
	Exempt      []record.Exemption
	Profiles    map[string]record.Profile
}

// Source is one ingested source file.
type Source struct {
	IRI      string
	Path     string
	Parser   string
	SHA256   string
	Instance *Instance
}

// Skill is a skill of any flavour but tool skills.
type Skill struct {
	IRI          string
	ID           string
	Instance     *Instance
	Source       *Source
	Flavour      string
	Name         string
	Title        string
	Description  string
	Package      string
	Line         int
	InputRef     string
	InputLine    int
	InputIRI     string
	OutputRef    string
	OutputLine   int
	OutputIRI    string
	BodyLines    int
	ShellBlocks  []int
	AllowedTools []string
	License      string

	// Computed by the analyses.
	Tools        []*Tool // valid satisfies edges
	Contradicted []*Tool // edges the contract contradicts
	Steps        []*Activity
	Covered      bool
	IsContradict bool
	Tier         string
	Evidence     []string
	Exempt       bool
	Reachable    bool
	Witness      []string
	Findings     []Finding
	Triage       *Triage
}

// Triage is a maintainer's recorded read of a skill.
type Triage struct {
	Verdict    string
	Note       string
	RecordedAt string
}

// HasContract reports whether the skill declares an I/O contract.
func (s *Skill) HasContract() bool { return s.InputRef != "" || s.OutputRef != "" }

// Key is the witness key of the skill.
func (s *Skill) Key() string { return "skill:" + s.ID }

// Port is a typed Tool input or output.
type Port struct {
	IRI         string
	Name        string
	TypeIRI     string
	JSONType    string
	Required    bool
	Repeated    bool
	Arg         string
	Description string
	Render      string
	Position    int
}

// Tool is one concrete mechanism.
type Tool struct {
	IRI          string
	ID           string
	Instance     *Instance
	Source       *Source
	Origin       string
	Title        string
	Description  string
	Line         int
	SatisfiesIRI []string
	Inputs       []*Port
	Outputs      []*Port
	InstallJSON  string
	Shell        []string
	Container    string
	McpServer    string
	McpTool      string
	InProcess    string
	Manual       bool
	When         string
	Limits       string
	Cost         string
	Network      *bool
	OS           []string
	Runtime      []string
	RemediesJSON string
	RemedyIRI    []string
	MaintainsRaw []string // one JSON object per maintained artefact
	Renders      []string
	SubprocIRI   []string
	ReadOnly     *bool
	Annotations  map[string]*bool
	Server       string
	McpName      string
	ExtraJSON    string
	Refs         record.RefLines // lines of satisfies, subprocesses, remedies.tool

	// Computed.
	Satisfies    []*Skill // resolved targets of satisfies edges
	ValidFor     []*Skill // skills this tool validly satisfies
	Subprocesses []*Process
	ExposedBy    []*Tool // MCP tools that are the same mechanism
	Alternatives []*Tool
	GuidedBy     []*ToolSkill
	GatedBy      []*ToolSkill // required tool skills that must load before it
	Reachable    bool
	Witness      []string
	Findings     []Finding
}

// HasSelection reports whether the Tool says when to pick it.
func (t *Tool) HasSelection() bool { return t.When != "" && t.Limits != "" && t.Cost != "" }

// Key is the witness key of the tool.
func (t *Tool) Key() string { return "tool:" + t.ID }

// HasCommand reports whether the Tool can be invoked by a command: shell,
// container or an MCP call.
func (t *Tool) HasCommand() bool {
	return len(t.Shell) > 0 || t.Container != "" || t.McpTool != ""
}

// Process is one BPMN process.
type Process struct {
	IRI        string
	ID         string
	Stem       string
	Title      string
	Instance   *Instance
	Source     *Source
	Line       int
	Activities []*Activity
	Reachable  bool
	Witness    []string
}

// Key is the witness key of the process.
func (p *Process) Key() string { return "process:" + p.ID }

// Activity is one BPMN flow node.
type Activity struct {
	IRI           string
	ID            string
	Element       string
	Title         string
	Line          int
	Position      int
	Process       *Process
	SkillIRI      []string
	SkillRefs     []string
	ImplicitRefs  []string
	CallsIRI      string
	CalledElement string
	Dynamic       bool
	LaneIRI       string
	NoSkillReason string
	BeanRefs      []string
	NextIRI       []string
	Refs          record.RefLines // lines of skill refs and the call target

	Skills  []*Skill
	Calls   *Process
	Lane    string
	Witness []string
}

// Key is the witness key of the activity.
func (a *Activity) Key() string { return "activity:" + a.Process.ID + "/" + a.ID }

// Automation classifies the step (SPEC §2.4): automated, person or "".
func (a *Activity) Automation() string {
	switch a.Element {
	case "serviceTask", "scriptTask", "sendTask", "businessRuleTask":
		return "automated"
	case "userTask", "manualTask", "receiveTask":
		return "person"
	}
	return ""
}

// Bean is a work item.
type Bean struct {
	IRI          string
	ID           string
	Instance     *Instance
	Source       *Source
	Title        string
	Status       string
	Type         string
	Priority     string
	Tags         []string
	CreatedAt    string
	UpdatedAt    string
	ParentIRI    string
	ParentRef    string
	BlockingIRI  []string
	BlockingRefs []string
	Mentions     []string
	Line         int
	BlockedByIRI []string
	Refs         record.RefLines // lines of parent, blocking, blocked_by
	Parent       *Bean
	Blocking     []*Bean
}

// Contract is a stored JSON-Schema contract.
type Contract struct {
	IRI        string
	Path       string
	Required   []string
	Properties map[string]string
}

// ToolSkill is guidance for a tool.
type ToolSkill struct {
	IRI       string
	Key       string
	Instance  *Instance
	Source    *Source
	Title     string
	Summary   string
	Phases    []string
	Required  bool
	Trigger   map[string]any
	BodyBytes int
	Line      int
	Guides    []*Tool
}

// Server is an MCP tools/list snapshot.
type Server struct {
	IRI      string
	Name     string
	Instance *Instance
	Source   *Source
	Tools    []string
	Line     int
}

// Script is a package.json script.
type Script struct {
	Key      string
	Command  string
	Instance *Instance
}

// Finding is an integrity or analysis finding.
type Finding struct {
	Code     string
	Severity record.Severity
	Message  string
	File     string
	Line     int
	Subject  string
	Instance string
}
