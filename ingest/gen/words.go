package gen

// Word lists the generator draws names and prose from. They are shuffled per
// seed, so two seeds give different names with the same shape.

var verbs = []string{
	"import", "export", "validate", "render", "publish", "archive", "review", "draft",
	"translate", "summarize", "detect", "count", "lint", "claim", "open", "close",
	"merge", "label", "triage", "schedule", "index", "search", "tag", "sync",
	"backup", "restore", "measure", "profile", "audit", "sign", "package", "deploy",
	"rollback", "notify", "digest", "classify", "extract", "compare", "migrate", "prune",
	"rotate", "scan", "verify", "annotate", "convert", "split", "bundle", "mirror",
}

var nouns = []string{
	"data", "docs", "site", "notes", "thread", "requirements", "words", "change",
	"work", "graph", "strings", "content", "release", "issue", "branch", "commit",
	"catalogue", "schema", "report", "invoice", "ticket", "image", "dataset", "model",
	"config", "secret", "certificate", "package", "container", "cluster", "backup",
	"log", "metric", "alert", "dashboard", "calendar", "contact", "waitlist", "survey",
	"feedback", "glossary", "licence", "changelog", "roadmap", "milestone", "sprint",
	"budget", "contract", "policy", "workbook", "spreadsheet", "slide", "diagram",
	"transcript", "podcast", "newsletter", "mailbox", "webhook", "pipeline", "artefact",
}

var qualifiers = []string{
	"daily", "weekly", "bulk", "draft", "remote", "local", "batch", "quick",
	"full", "partial", "legacy", "staged", "shared", "private", "public", "signed",
	"nightly", "manual", "live", "cached", "offline", "online", "safe", "strict",
	"lenient", "minimal", "verbose", "incremental", "scoped", "global",
}

var packageNames = []string{
	"core", "docs", "release", "data", "ops", "forge", "content", "i18n",
	"analytics", "security", "infra", "support", "finance", "design", "research",
	"people", "legal", "sales", "media", "quality",
}

var mechanisms = []string{"cli", "api", "script", "manual", "container", "service", "bot", "lib"}

var adjectives = []string{
	"stale", "broken", "missing", "slow", "flaky", "large", "new", "old",
	"duplicate", "unsigned", "orphaned", "pending", "urgent", "minor", "shared",
}

var programs = []string{"gh", "glab", "jq", "python3", "node", "uv", "make", "curl", "rsync", "pandoc", "git", "bin/run"}

var hosts = []string{"github.com", "gitlab.com", "api.example.org", "registry.example.net", "storage.example.com"}

var sentences = []string{
	"Run it before every release so nothing reaches readers unchecked.",
	"The result is reviewed by a person when the change is large.",
	"Prefer the automated path; fall back to the manual steps below.",
	"Keep the output stable so that diffs stay readable.",
	"Never overwrite the source; write the result beside it.",
	"Stop at the first error and report the file and line.",
	"The step is idempotent: running it twice changes nothing.",
	"Large inputs are processed in batches of a few hundred items.",
	"Credentials come from the environment, never from the repository.",
	"Record what was done in the work item before closing it.",
}

var laneNames = [][2]string{{"Bot", "Release bot"}, {"Maintainer", "Maintainer"}, {"Editor", "Editor"}, {"Reviewer", "Reviewer"}}

// portType is one type of the built-in vocabulary (SPEC §2.3) with the port
// names authors typically give it.
type portType struct {
	name  string
	json  string
	safe  bool // x-injection-safe
	names []string
}

var portTypes = []portType{
	{"BeanId", "string", true, []string{"bean", "item"}},
	{"SkillName", "string", true, []string{"skill"}},
	{"PackageName", "string", true, []string{"package"}},
	{"ProcessId", "string", true, []string{"process"}},
	{"NodeId", "string", true, []string{"node"}},
	{"InstanceId", "string", true, []string{"instance"}},
	{"Locale", "string", true, []string{"locale", "lang"}},
	{"Timestamp", "string", true, []string{"since", "until"}},
	{"TimeWindow", "string", true, []string{"window"}},
	{"RepoPath", "string", true, []string{"path", "root", "target"}},
	{"DelimitedTextPath", "string", false, []string{"csv", "table"}},
	{"WorkbookPath", "string", false, []string{"workbook"}},
	{"Url", "string", true, []string{"url", "endpoint"}},
	{"Branch", "string", true, []string{"branch", "base"}},
	{"ScriptName", "string", true, []string{"script"}},
	{"RepoFullName", "string", true, []string{"repo"}},
	{"Markdown", "string", false, []string{"body", "notes"}},
	{"Text", "string", false, []string{"text", "message"}},
	{"FilesystemPath", "string", false, []string{"file", "dir"}},
	{"Slug", "string", true, []string{"slug", "name"}},
	{"CommitSha", "string", true, []string{"commit", "sha"}},
	{"BeanStatus", "string", true, []string{"status"}},
	{"Flag", "boolean", true, []string{"dry-run", "check", "force", "verbose"}},
	{"Count", "integer", true, []string{"limit", "max", "retries"}},
	{"Dpi", "integer", true, []string{"dpi"}},
	{"Port", "integer", true, []string{"port"}},
	{"ChangeProposalNumber", "integer", true, []string{"number", "pr"}},
	{"DecisionFacts", "object", false, []string{"facts"}},
}
