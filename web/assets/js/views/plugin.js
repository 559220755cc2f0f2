// One agent-host plugin (#/plugin/<name>): what it is, its components —
// skills, slash commands, subagents, hook handlers, MCP servers — and the
// findings of its files, each as the API answers it.

import { gql } from "../api.js";
import { VERSION, noteVersion } from "../chrome.js";
import { badge, empty, enc, fileLine, h, link, n, plural, section, skillLink } from "../dom.js";
import { hostList, listedBadge, tierBadge } from "../labels.js";
import { findingsTable } from "../parts.js";
import { coverageBar } from "../pictures.js";

// The API has no lookup of a plugin by name: PLUGIN_NAMES walks the
// plugins' names and cursors (cheap), then PLUGIN reads the one plugin
// after the cursor of the edge before it (a full page of plugins with all
// their components would exceed the query cost limit).
export const PLUGIN_NAMES = `query PluginNames($first: Int, $after: String) {
  plugins(first: $first, after: $after) {
    pageInfo { hasNextPage endCursor }
    edges { cursor node { name folder } }
  }
}`;

export const PLUGIN = `query Plugin($after: String) {
  graphVersion
  plugins(first: 1, after: $after) {
    nodes {
      name folder version description hosts listed manifest source line iri
      skills { id title tier covered reachable source line }
      commands { name description argumentHint allowedTools model source line }
      agents { name description model tools allTools skills { id } source line }
      hooks { event matcher type command script source line }
      mcpServers { name transport command args url tools source line }
      findings { ...FindingFields }
    }
  }
}`;

const NAMES_PAGE = 500; // the API's largest page

// findPlugin returns the graph version and the plugin called name (in
// folder, when given; else the first of that name) with every folder that
// carries the name, or a null plugin when none does.
async function findPlugin(name, folder) {
  let after = null, before = null, target = null;
  const folders = [];
  for (;;) {
    const d = await gql(PLUGIN_NAMES, { first: NAMES_PAGE, after });
    let prev = after;
    for (const e of d.plugins.edges) {
      if (e.node.name === name) {
        folders.push(e.node.folder);
        if (!target && (!folder || e.node.folder === folder)) { target = e.node.folder; before = prev; }
      }
      prev = e.cursor;
    }
    if (!d.plugins.pageInfo.hasNextPage) break;
    after = d.plugins.pageInfo.endCursor;
  }
  if (!target) {
    const d = await gql(VERSION);
    return { version: d.graphVersion, plugin: null, folders };
  }
  const d = await gql(PLUGIN, { after: before });
  const p = d.plugins.nodes[0];
  // A re-ingest between the two requests may move the cursors.
  if (!p || p.name !== name || p.folder !== target) throw new Error("The graph changed while plugin “" + name + "” was read: retry.");
  return { version: d.graphVersion, plugin: p, folders };
}

export async function viewPlugin(name, params) {
  const { version, plugin: p, folders } = await findPlugin(name, params.get("folder") || "");
  noteVersion(version);
  if (!p) return h("div", null, h("h1", { tabindex: "-1" }, "No plugin “" + name + "”"), link("#/plugins", "Every plugin"));
  const parts = [plural(p.skills.length, "skill"), plural(p.commands.length, "command"), plural(p.agents.length, "agent"),
    plural(p.hooks.length, "hook handler"), plural(p.mcpServers.length, "MCP server")];
  return h("article", { class: "detail", "data-plugin": p.name },
    h("div", { class: "page-head" },
      h("p", { class: "crumbs" }, link("#/plugins", "← Plugins"), " · plugin"),
      h("h1", { tabindex: "-1" }, p.name),
      h("p", { class: "meta" }, p.version ? h("code", null, p.version) : null, " ", hostList(p.hosts), " ", listedBadge(p.listed)),
      folders.length > 1 ? h("p", { class: "warn-text small", id: "same-name" }, plural(folders.length, "plugin") + " are called “" + name + "”: ",
        folders.map((f, k) => [k ? ", " : "", link("#/plugin/" + enc(name) + "?folder=" + enc(f), f, { "aria-current": f === p.folder ? "page" : null })])) : null),
    section("About", "h-pabout",
      p.description ? h("p", { class: "desc" }, p.description) : empty("No description."),
      h("dl", { class: "kv" },
        h("dt", null, "Folder"), h("dd", null, h("code", { class: "file" }, p.folder)),
        h("dt", null, "Manifest"), h("dd", { id: "manifest" }, p.manifest ? h("code", { class: "file" }, p.manifest) : h("span", { class: "muted" }, "none: its marketplace entry alone defines it")),
        h("dt", null, "Components"), h("dd", { id: "components" }, parts.join(", ")),
        h("dt", null, "Source"), h("dd", null, fileLine(p.source, p.line)),
        h("dt", null, "IRI"), h("dd", null, h("code", { class: "iri" }, p.iri)))),
    // A kind of component the plugin has none of gets no card: the
    // Components line above already says 0.
    p.skills.length ? section("Skills (" + p.skills.length + ")", "h-pskills", coverageBar(p.skills, "plugin-bar", "Skills of plugin " + p.name + " by coverage"), skillsTable(p.skills)) : null,
    p.commands.length ? section("Slash commands (" + p.commands.length + ")", "h-pcommands", commandsTable(p.commands)) : null,
    p.agents.length ? section("Subagents (" + p.agents.length + ")", "h-pagents", agentsTable(p.agents)) : null,
    p.hooks.length ? section("Hook handlers (" + p.hooks.length + ")", "h-phooks", hooksTable(p.hooks)) : null,
    p.mcpServers.length ? section("MCP servers (" + p.mcpServers.length + ")", "h-pmcp", mcpTable(p.mcpServers)) : null,
    section("Findings (" + p.findings.length + ")", "h-pfind", findingsTable(p.findings, "No finding in this plugin's files.")));
}

// table draws one component table.
function table(id, heads, rows) {
  return h("div", { class: "table-wrap" }, h("table", { class: "rows", id },
    h("thead", null, h("tr", null, heads.map((x) => h("th", { scope: "col" }, x)))),
    h("tbody", null, rows)));
}

// longText shows a description whole when short; a long one (subagent
// descriptions carry worked examples, thousands of characters) shows its
// start and the rest behind a disclosure, so one agent does not fill the
// screen.
const LONG = 280;
function longText(text) {
  if (!text) return h("span", { class: "muted" }, "—");
  if (text.length <= LONG) return text;
  const cut = text.lastIndexOf(" ", LONG);
  return [text.slice(0, cut > LONG / 2 ? cut : LONG) + " …",
    h("details", { class: "more" }, h("summary", null, "Whole description (" + n(text.length) + " characters)"), h("p", { class: "desc" }, text))];
}

function codes(list, none) {
  return list.length ? list.map((x, k) => [k ? ", " : "", h("code", null, x)]) : h("span", { class: "muted" }, none);
}

function skillsTable(list) {
  return table("plugin-skills", ["Skill", "Coverage", "Reachable", "Source"], list.map((s) => h("tr", { "data-skill": s.id },
    h("td", { "data-label": "Skill" }, skillLink(s.id), s.title && s.title !== s.id ? h("div", { class: "sub" }, s.title) : null),
    h("td", { "data-label": "Coverage" }, s.covered ? badge("covered", "t-covered") : tierBadge(s.tier)),
    h("td", { "data-label": "Reachable" }, s.reachable ? "yes" : "no"),
    h("td", { "data-label": "Source" }, fileLine(s.source, s.line)))));
}

function commandsTable(list) {
  return table("plugin-commands", ["Command", "Description", "Allowed tools", "Source"], list.map((c) => h("tr", { "data-command": c.name },
    h("td", { "data-label": "Command", class: "name-cell" }, h("code", null, c.name), c.argumentHint ? h("div", { class: "sub" }, "arguments: ", h("code", null, c.argumentHint)) : null,
      c.model ? h("div", { class: "sub" }, "model: " + c.model) : null),
    h("td", { "data-label": "Description" }, longText(c.description)),
    h("td", { "data-label": "Allowed tools", class: "allowed" }, codes(c.allowedTools, "none stated")),
    h("td", { "data-label": "Source" }, fileLine(c.source, c.line)))));
}

function agentsTable(list) {
  return table("plugin-agents", ["Agent", "Description", "Tools", "Skills", "Source"], list.map((a) => h("tr", { "data-agent": a.name },
    h("td", { "data-label": "Agent", class: "name-cell" }, h("code", null, a.name), a.model ? h("div", { class: "sub" }, "model: " + a.model) : null),
    h("td", { "data-label": "Description", class: "desc-cell" }, longText(a.description)),
    h("td", { "data-label": "Tools", class: "tools-cell" }, a.allTools ? h("span", { class: "muted" }, "every tool (it names none)") : codes(a.tools, "—")),
    h("td", { "data-label": "Skills" }, a.skills.length ? a.skills.map((s, k) => [k ? ", " : "", skillLink(s.id)]) : h("span", { class: "muted" }, "—")),
    h("td", { "data-label": "Source" }, fileLine(a.source, a.line)))));
}

function hooksTable(list) {
  return table("plugin-hooks", ["Event", "Matcher", "Type", "Command", "Source"], list.map((x) => h("tr", { "data-event": x.event },
    h("td", { "data-label": "Event" }, h("code", null, x.event)),
    h("td", { "data-label": "Matcher" }, x.matcher ? h("code", null, x.matcher) : h("span", { class: "muted", title: "no matcher" }, "—")),
    h("td", { "data-label": "Type" }, x.type || "—"),
    h("td", { "data-label": "Command" }, x.command ? h("code", { class: "argv" }, x.command) : h("span", { class: "muted" }, "—"),
      x.script ? h("div", { class: "sub" }, "runs ", h("code", { class: "file" }, x.script)) : null),
    h("td", { "data-label": "Source" }, fileLine(x.source, x.line)))));
}

function mcpTable(list) {
  return table("plugin-mcp", ["Server", "Transport", "Runs", "Tools", "Source"], list.map((m) => h("tr", { "data-server": m.name },
    h("td", { "data-label": "Server", class: "name-cell" }, h("code", null, m.name)),
    h("td", { "data-label": "Transport" }, m.transport || "—"),
    h("td", { "data-label": "Runs" }, m.url ? h("code", null, m.url)
      : m.command ? h("code", { class: "argv" }, [m.command, ...m.args].join(" ")) : h("span", { class: "muted" }, "—")),
    h("td", { "data-label": "Tools", class: "mcp-tools" }, m.tools === null
      ? badge("no snapshot", "muted-b", "the corpus has no tools/list snapshot of this server: the tools it serves are not known")
      : [badge(plural(m.tools.length, "tool") + " in its snapshot", "ok"), h("div", { class: "sub" }, codes(m.tools, "none"))]),
    h("td", { "data-label": "Source" }, fileLine(m.source, m.line)))));
}
