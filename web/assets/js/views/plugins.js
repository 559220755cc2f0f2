// The agent-host plugins of the corpus (#/plugins): per plugin its hosts,
// whether a marketplace lists it, how many components of each kind it
// holds and its findings by severity, paged on the server.

import { PAGE, gql } from "../api.js";
import { noteVersion } from "../chrome.js";
import { empty, h, n, plural, pluginLink } from "../dom.js";
import { hostList, listedBadge } from "../labels.js";
import { setHashParams } from "../router.js";

export const PLUGINS = `query Plugins($first: Int, $after: String) {
  graphVersion
  plugins(first: $first, after: $after) {
    totalCount pageInfo { hasNextPage endCursor }
    nodes {
      name folder version description hosts listed manifest
      skills { id } commands { name } agents { name } hooks { event } mcpServers { name }
      findings { severity }
    }
  }
}`;

// The component columns: header, the Plugin field that lists them.
const PARTS = [["Skills", "skills"], ["Commands", "commands"], ["Agents", "agents"], ["Hooks", "hooks"], ["MCP servers", "mcpServers"]];

export async function viewPlugins(params) {
  const after = params.get("after") || "";
  const pageNo = Math.max(1, parseInt(params.get("page") || "1", 10) || 1);
  const d = await gql(PLUGINS, { first: PAGE, after: after || null });
  noteVersion(d.graphVersion);
  const list = d.plugins.nodes;
  const pi = d.plugins.pageInfo;
  const first = (pageNo - 1) * PAGE + 1;
  const table = h("table", { class: "rows plugins", id: "plugins-table" },
    h("caption", { class: "sr-only" }, "Plugins"),
    h("thead", null, h("tr", null, ["Plugin", "Hosts", "Marketplace", ...PARTS.map((p) => p[0]), "Findings"].map((x) => h("th", { scope: "col" }, x)))),
    h("tbody", null, list.map(pluginRow)));
  return h("div", null,
    h("div", { class: "page-head" }, h("h1", { tabindex: "-1" }, "Plugins"),
      h("p", { class: "meta" }, "Agent-host plugins (Claude Code, Codex, …): the skills, slash commands, subagents, hooks and MCP servers each packages, the hosts it is packaged for and the findings of its files.")),
    list.length ? h("div", { class: "table-wrap" }, table) : empty("The corpus holds no agent-host plugin."),
    h("nav", { class: "pager", "aria-label": "Plugin pages" },
      h("span", { class: "range", id: "plugins-range" }, d.plugins.totalCount ? "Plugins " + n(first) + "–" + n(first + list.length - 1) + " of " + n(d.plugins.totalCount) : "No plugins"),
      pageNo > 1 ? h("button", { type: "button", class: "btn", onclick: () => history.back() }, "← Previous") : null,
      pi.hasNextPage ? h("button", { type: "button", class: "btn", id: "plugins-next", onclick: () => setHashParams("/plugins", { after: pi.endCursor, page: pageNo + 1 }) }, "Next " + PAGE + " →") : null));
}

export function pluginRow(p) {
  return h("tr", { "data-plugin": p.name },
    h("td", { "data-label": "Plugin" }, pluginLink(p.name), p.version ? h("span", { class: "muted small" }, " " + p.version) : null,
      p.description ? h("div", { class: "sub" }, p.description) : null,
      h("div", { class: "sub" }, h("code", null, p.folder))),
    h("td", { "data-label": "Hosts", class: "hosts" }, hostList(p.hosts)),
    h("td", { "data-label": "Marketplace", class: "listed" }, listedBadge(p.listed)),
    PARTS.map(([label, key]) => h("td", { "data-label": label, "data-part": key, class: "num" }, n(p[key].length))),
    h("td", { "data-label": "Findings", class: "sev-counts" }, severityCounts(p.findings)));
}

// severityCounts counts a plugin's findings by the severity the API gives
// each, errors first; nothing at all reads "none".
export function severityCounts(findings) {
  const by = { ERROR: 0, WARNING: 0, INFO: 0 };
  for (const f of findings) by[f.severity] = (by[f.severity] || 0) + 1;
  const out = [];
  for (const [sev, one, many] of [["ERROR", "error"], ["WARNING", "warning"], ["INFO", "info", "info"]]) {
    if (by[sev]) out.push(h("span", { class: "badge sev-" + one, "data-severity": one }, plural(by[sev], one, many)));
  }
  return out.length ? out : h("span", { class: "muted" }, "none");
}
