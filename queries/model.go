package queries

import "github.com/skillgraph/skillgraph/ingest/record"

// Instance is one ingested corpus.
type Instance struct {
	IRI         string
	Name        string                    `sg:"name"`
	Title       string                    `sg:"title"`
	Version     string                    `sg:"version"`
	Description string                    `sg:"description"`
	File        string                    // declaration file, "" for the conventional layout
	Needs       []string                  `sg:"needs"`
	Entrypoints record.Entrypoints        `sg:"entrypoints"`
	Refs        record.RefLines           `sg:"refLines"` // lines of the entry points in the declaration
	Exempt      []record.Exemption        `sg:"exempt"`
	Profiles    map[string]record.Profile `sg:"profiles"`
}

// Source is one ingested source file.
type Source struct {
	IRI      string
	Path     string `sg:"path"`
	Parser   string `sg:"parser"`
	SHA256   string `sg:"sha256"`
	Instance *Instance
}

// Skill is a skill of any flavour but tool skills.
type Skill struct {
	IRI         string
	ID          string `sg:"key"`
	Instance    *Instance
	Source      *Source
	Flavour     string `sg:"flavour"`
	Name        string `sg:"name"`
	Title       string `sg:"title"`
	Description string `sg:"description"`
	Package     string `sg:"packageName"`
	Line        int    `sg:"line"`
	InputRef    string `sg:"inputRef"`
	InputLine   int    `sg:"inputLine"`
	InputIRI    string `sg:"inputContract"`
	OutputRef   string `sg:"outputRef"`
	OutputLine  int    `sg:"outputLine"`
	OutputIRI   string `sg:"outputContract"`
	BodyLines   int    `sg:"bodyLines"`
	ShellBlocks []int  `sg:"shellBlock"`
	// Commands are the invocations of its prose (issue 23.8).
	Commands     []record.Invocation `sg:"proseCommand"`
	AllowedTools []string            `sg:"allowedTool"`
	// MentionsToolIRI are the weak mentionsTool edges of allowed-tools.
	MentionsToolIRI []string `sg:"mentionsTool"`
	License         string   `sg:"license"`
	PluginIRI       string   `sg:"inPlugin"`
	Resources       []string `sg:"resource"`
	// Plugin is the agent-host plugin that holds the skill (SPEC §1.3).
	Plugin *Plugin

	// Computed by the analyses.
	MentionsTools []*Tool // Tools its allowed-tools name (mentions.go)
	Tools         []*Tool // valid satisfies edges
	Contradicted  []*Tool // edges the contract contradicts
	Steps         []*Activity
	Covered       bool
	IsContradict  bool
	Tier          string
	Evidence      []string
	Swallowed     []Swallowed // programs its prose invokes without a Tool (swallowed.go)
	Exempt        bool
	Reachable     bool
	Witness       []string
	Findings      []Finding
	Triage        *Triage

	rid  int32 // its node in the dispatch graph, set by reachability
	slab int32 // its place in the snapshot's slab of skills
	// shared: another package of its instance defines the same id, so
	// text names it package/id (Label).
	shared bool
}

// Label names the skill in text: package/id when another package of its
// instance defines the same id (issue 23.1: "covered: foo, foo" said
// nothing), else the id.
func (s *Skill) Label() string {
	if s.shared && s.Package != "" {
		return s.Package + "/" + s.ID
	}
	return s.ID
}

// Triage is a maintainer's recorded read of a skill.
type Triage struct {
	Verdict    string `sg:"verdict"`
	Note       string `sg:"note"`
	RecordedAt string `sg:"recordedAt"`
}

// HasContract reports whether the skill declares an I/O contract.
func (s *Skill) HasContract() bool { return s.InputRef != "" || s.OutputRef != "" }

// Key is the witness key of the skill.
func (s *Skill) Key() string { return "skill:" + s.ID }

// Port is a typed Tool input or output.
type Port struct {
	IRI         string
	Name        string `sg:"name"`
	TypeIRI     string `sg:"portType"`
	JSONType    string `sg:"jsonType"`
	Required    bool   `sg:"required"`
	Repeated    bool   `sg:"repeated"`
	Arg         string `sg:"arg"`
	Description string `sg:"description"`
	Render      string `sg:"render"`
	Position    int    `sg:"position"`
	Line        int    `sg:"line"`
}

// Tool is one concrete mechanism.
type Tool struct {
	IRI          string
	ID           string `sg:"key"`
	Instance     *Instance
	Source       *Source
	Origin       string   `sg:"origin"`
	Title        string   `sg:"title"`
	Description  string   `sg:"description"`
	Line         int      `sg:"line"`
	SatisfiesIRI []string `sg:"satisfies"`
	Inputs       []*Port
	Outputs      []*Port
	InstallJSON  string   `sg:"install"`
	Shell        []string `sg:"invokeShell"`
	Container    string   `sg:"invokeContainer"`
	McpServer    string   `sg:"invokeMcpServer"`
	McpTool      string   `sg:"invokeMcpTool"`
	InProcess    string   `sg:"invokeInProcess"`
	Manual       bool     `sg:"invokeManual"`
	When         string   `sg:"selectionWhen"`
	Limits       string   `sg:"selectionLimits"`
	Cost         string   `sg:"selectionCost"`
	Network      *bool    `sg:"requiresNetwork"`
	OS           []string `sg:"requiresOS"`
	Runtime      []string `sg:"requiresRuntime"`
	RemediesJSON string   `sg:"remedies"`
	RemedyIRI    []string `sg:"remedyTool"`
	MaintainsRaw []string // one JSON object per maintained artefact
	Renders      []string `sg:"renders"`
	SubprocIRI   []string `sg:"subprocess"`
	ReadOnly     *bool    `sg:"readOnly"`
	Annotations  map[string]*bool
	Server       string          `sg:"server"`
	McpName      string          `sg:"mcpName"`
	ExtraJSON    string          `sg:"extra"`
	Refs         record.RefLines `sg:"refLines"`        // lines of satisfies, subprocesses, remedies.tool
	OutputSchema bool            `sg:"mcpOutputSchema"` // MCP-derived: the listing states an outputSchema

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
	Parity       *Parity // MCP parity (parity.go); nil when the Tool has no MCP side

	// satisfiesLines are the lines of the satisfies entries, one per
	// Satisfies (findings about an edge sit on its entry, issue 23.7).
	satisfiesLines []int

	slab int32 // its place in the snapshot's slab of Tools
	rid  int32 // its node in the dispatch graph, set by reachability
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
	ID         string `sg:"key"`
	Stem       string `sg:"stem"`
	Title      string `sg:"title"`
	Instance   *Instance
	Source     *Source
	Line       int `sg:"line"`
	Activities []*Activity
	Reachable  bool
	Witness    []string
	dupOf      string // source path when another process shares the id, else ""
	rid        int32  // its node in the dispatch graph, set by reachability
	slab       int32  // its place in the snapshot's slab of processes
}

// Key is the witness key of the process.
func (p *Process) Key() string { return "process:" + p.keyID() }

// keyID is the process/@id, qualified by the source file when several
// processes share the id (process-duplicate-id): two processes must never
// share a node of the dispatch graph, or one's root would reach the
// other's calls; which copy is meant must show in witnesses too.
func (p *Process) keyID() string {
	if p.dupOf != "" {
		return p.ID + "@" + p.dupOf
	}
	return p.ID
}

// Activity is one BPMN flow node.
type Activity struct {
	IRI           string
	ID            string `sg:"key"`
	Element       string `sg:"element"`
	Title         string `sg:"title"`
	Line          int    `sg:"line"`
	Position      int    `sg:"position"`
	Process       *Process
	SkillIRI      []string        `sg:"namesSkill"`
	SkillRefs     []string        `sg:"skillRef"`
	ImplicitRefs  []string        `sg:"implicitSkillRef"`
	CallsIRI      string          `sg:"calls"`
	CalledElement string          `sg:"calledElement"`
	Dynamic       bool            `sg:"callDynamic"`
	LaneIRI       string          `sg:"inLane"`
	NoSkillReason string          `sg:"noSkillReason"`
	BeanRefs      []string        `sg:"beanRef"`
	NextIRI       []string        `sg:"next"`
	Refs          record.RefLines `sg:"refLines"` // lines of skill refs and the call target

	Skills  []*Skill
	Calls   *Process
	Lane    string
	Witness []string

	named      []*Skill // what each SkillIRI resolves to (nil: no skill), set by resolve
	skillNames []string // localKey of each SkillIRI, made when decoding
	ord        int32    // its place in Process.Activities, set when linking (flowOrder)
	rid        int32    // its node in the dispatch graph, set by reachability
	slab       int32    // its place in the snapshot's slab of activities
}

// Key is the witness key of the activity.
func (a *Activity) Key() string { return "activity:" + a.Process.keyID() + "/" + a.ID }

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
	ID           string `sg:"key"`
	Instance     *Instance
	Source       *Source
	Title        string          `sg:"title"`
	Status       string          `sg:"status"`
	Type         string          `sg:"beanType"`
	Priority     string          `sg:"priority"`
	Tags         []string        `sg:"tag"`
	CreatedAt    string          `sg:"createdAt"`
	UpdatedAt    string          `sg:"updatedAt"`
	ParentIRI    string          `sg:"parent"`
	ParentRef    string          `sg:"parentRef"`
	BlockingIRI  []string        `sg:"blocking"`
	BlockingRefs []string        `sg:"blockingRef"`
	Mentions     []string        `sg:"mentionRef"`
	Line         int             `sg:"line"`
	BlockedByIRI []string        `sg:"blockedBy"`
	Refs         record.RefLines `sg:"refLines"` // lines of parent, blocking, blocked_by
	Parent       *Bean
	Blocking     []*Bean
	// What its body's mentions name (mentions.go).
	MentionsSkills    []*Skill
	MentionsTools     []*Tool
	MentionsProcesses []*Process
}

// Contract is a stored JSON-Schema contract.
type Contract struct {
	IRI        string
	Path       string   `sg:"path"`
	Required   []string `sg:"requiredName"`
	Properties map[string]string
}

// ToolSkill is guidance for a tool.
type ToolSkill struct {
	IRI       string
	Key       string `sg:"key"`
	Instance  *Instance
	Source    *Source
	Title     string         `sg:"title"`
	Summary   string         `sg:"summary"`
	Phases    []string       `sg:"phase"`
	Required  bool           `sg:"toolSkillRequired"`
	Trigger   map[string]any `sg:"trigger"`
	BodyBytes int            `sg:"bodyBytes"`
	Line      int            `sg:"line"`
	// Refs are the lines of its trigger leaves ("trigger.tool",
	// "trigger.mcp_server").
	Refs   record.RefLines `sg:"refLines"`
	Guides []*Tool         // the Tools its trigger's leaves name
	// Matches: the whole trigger fires on this graph (an all_of needs every
	// leaf). Only a matching required tool skill gates its Guides.
	Matches bool
	// Findings are those about it (subject its IRI).
	Findings []Finding
}

// Server is an MCP tools/list snapshot.
type Server struct {
	IRI      string
	Name     string `sg:"name"`
	Instance *Instance
	Source   *Source
	Tools    []string `sg:"mcpName"`
	Line     int      `sg:"line"`
}

// Script is a package.json script.
type Script struct {
	Key      string `sg:"key"`
	Command  string `sg:"command"`
	Instance *Instance
}

// Finding is an integrity or analysis finding.
type Finding struct {
	Code     string          `sg:"code"`
	Severity record.Severity `sg:"severity"`
	Message  string          `sg:"message"`
	File     string          `sg:"file"`
	Line     int             `sg:"line"`
	Subject  string          `sg:"subject"`
	Instance string
}
