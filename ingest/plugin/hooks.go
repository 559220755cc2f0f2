package plugin

import (
	"fmt"
	"path"
	"regexp"
	"strings"

	yaml "go.yaml.in/yaml/v3"

	"github.com/skillgraph/skillgraph/ingest/internal/ynode"
	"github.com/skillgraph/skillgraph/ingest/record"
)

// HostEvents are the hook events the hosts define (Claude Code's hooks
// reference; Codex reads the same names). An event outside the list is
// hook-event-unknown: the host never fires it.
var HostEvents = map[string]bool{
	"PreToolUse": true, "PostToolUse": true, "PostToolUseFailure": true, "PostToolBatch": true,
	"PermissionRequest": true, "PermissionDenied": true, "Notification": true,
	"UserPromptSubmit": true, "UserPromptExpansion": true, "Stop": true, "StopFailure": true,
	"SubagentStart": true, "SubagentStop": true, "PreCompact": true, "PostCompact": true,
	"Elicitation": true, "ElicitationResult": true, "TeammateIdle": true, "TaskCreated": true,
	"TaskCompleted": true, "Setup": true, "InstructionsLoaded": true, "CwdChanged": true,
	"FileChanged": true, "ConfigChange": true, "WorktreeCreate": true, "WorktreeRemove": true,
	"SessionStart": true, "SessionEnd": true, "PreModelSwitch": true, "PostModelSwitch": true,
	"MessageDisplay": true, "DirectoryAdded": true,
}

// ParseHooks reads a hooks file (hooks/hooks.json, or the file a
// manifest's hooks key names): {"hooks": {Event: [{matcher, hooks: [...]}]}}
// or the event map itself.
func ParseHooks(p string, data []byte, c Context) (out record.File) {
	out = record.File{Path: p, Parser: ParserHooks}
	defer recoverInto(&out, p)
	root, ok := parseJSON(&out, p, data, record.CodeHookInvalid, "hooks file")
	if !ok {
		return out
	}
	out.Hooks = hookHandlers(&out, p, root, c)
	return out
}

// pluginRootRE finds the script a command runs under the plugin root.
var pluginRootRE = regexp.MustCompile(`\$\{?CLAUDE_PLUGIN_ROOT\}?/([^\s"'` + "`" + `;|&)]+)`)

// hookHandlers reads an event map (or {"hooks": eventMap}).
func hookHandlers(out *record.File, p string, n *yaml.Node, c Context) []record.Hook {
	if inner := ynode.Get(n, "hooks"); ynode.IsMap(inner) {
		n = inner
	}
	var hooks []record.Hook
	for _, ev := range ynode.Pairs(n) {
		event := ynode.Str(ev.Key)
		if event == "description" {
			continue // a hooks file's own description
		}
		if !HostEvents[event] {
			out.Findings = append(out.Findings, record.New(record.CodeHookEventUnknown, p, ynode.Line(ev.Key), event,
				fmt.Sprintf("hook event %q is not one the hosts fire: its handlers never run", event)))
		}
		if !ynode.IsSeq(ev.Value) {
			out.Findings = append(out.Findings, record.New(record.CodeHookInvalid, p, ynode.Line(ev.Value), event,
				fmt.Sprintf("hook event %q must hold a list of matcher groups", event)))
			continue
		}
		for _, group := range ynode.Items(ev.Value) {
			if !ynode.IsMap(group) {
				out.Findings = append(out.Findings, record.New(record.CodeHookInvalid, p, ynode.Line(group), event, "a matcher group must be an object"))
				continue
			}
			matcher := ynode.Str(ynode.Get(group, "matcher"))
			list := ynode.Get(group, "hooks")
			if !ynode.IsSeq(list) {
				out.Findings = append(out.Findings, record.New(record.CodeHookInvalid, p, ynode.Line(group), event, "a matcher group has no hooks list"))
				continue
			}
			for _, h := range ynode.Items(list) {
				if len(hooks) >= ynode.MaxItems {
					out.Findings = append(out.Findings, record.New(record.CodeHookInvalid, p, ynode.Line(h), event,
						fmt.Sprintf("over %d hook handlers in one file; the rest are not read", ynode.MaxItems)))
					return hooks
				}
				if !ynode.IsMap(h) {
					out.Findings = append(out.Findings, record.New(record.CodeHookInvalid, p, ynode.Line(h), event, "a hook handler must be an object"))
					continue
				}
				hk := record.Hook{Plugin: c.Plugin, Package: c.Name, Event: event, Matcher: matcher, Line: ynode.Line(h), Index: len(hooks),
					Type: ynode.Str(ynode.Get(h, "type")), Command: ynode.Str(ynode.Get(h, "command"))}
				if hk.Type == "command" && hk.Command == "" {
					out.Findings = append(out.Findings, record.New(record.CodeHookInvalid, p, hk.Line, event, "a command hook has no command"))
				}
				if m := pluginRootRE.FindStringSubmatch(hk.Command); m != nil && c.Plugin != "" {
					rel := path.Join(c.Plugin, path.Clean(m[1]))
					switch {
					case strings.HasPrefix(rel, "../"):
						out.Findings = append(out.Findings, record.New(record.CodePathEscapesRoot, p, hk.Line, event,
							fmt.Sprintf("hook script %q leaves the corpus root; not followed", m[1])))
					case !c.exists(rel):
						out.Findings = append(out.Findings, record.New(record.CodeHookScriptMissing, p, hk.Line, event,
							fmt.Sprintf("%s hook runs %s, which does not exist (looked for %s)", event, "${CLAUDE_PLUGIN_ROOT}/"+m[1], rel)))
					default:
						hk.Script = rel
					}
				}
				hooks = append(hooks, hk)
			}
		}
	}
	return hooks
}
