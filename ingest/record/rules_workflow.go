package record

// workflowRules are the registered codes of workflow coverage, gating and programs (AreaWorkflow), in docs order: part of
// the registry (codes.go).
var workflowRules = []Rule{
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
}
