// The tool-skill registry (#/tool-skills): every tool skill by key with its
// phases, whether it is required and matches, its summary and what that
// costs per turn, the Tools it guides and gates and its findings; then the
// catalogue each phase carries, as the API previews it (issue 23.10).

import { gql } from "../api.js";
import { noteVersion } from "../chrome.js";
import { badge, empty, h, n, plural, section, toolLink } from "../dom.js";

export const TOOL_SKILLS = `query ToolSkills {
  graphVersion
  toolSkills { key title summary summaryBytes bodyBytes phases required matches source
    guides { id } gates { id } findings { code severity line } }
  plan: toolSkillCatalogue(phase: "plan") { ...CatalogueFields }
  execute: toolSkillCatalogue(phase: "execute") { ...CatalogueFields }
  review: toolSkillCatalogue(phase: "review") { ...CatalogueFields }
  subagent: toolSkillCatalogue(phase: "subagent") { ...CatalogueFields }
}`;

const PHASES = ["plan", "execute", "review", "subagent"];

export async function viewToolSkills() {
  const d = await gql(TOOL_SKILLS, {});
  noteVersion(d.graphVersion);
  const list = d.toolSkills;
  const table = h("table", { class: "rows tool-skills", id: "tool-skills-table" },
    h("caption", { class: "sr-only" }, "Tool skills"),
    h("thead", null, h("tr", null, ["Key", "Phases", "Required", "Summary", "Guides", "Gates", "Findings"].map((x) => h("th", { scope: "col" }, x)))),
    h("tbody", null, list.map(toolSkillRow)));
  return h("div", null,
    h("div", { class: "page-head" }, h("h1", { tabindex: "-1" }, "Tool skills"),
      h("p", { class: "meta" }, "Guidance for tools, keyed as the tool-skill engine registers it. A summary is in every turn of each phase that catalogues the skill; the body loads on demand.")),
    list.length ? h("div", { class: "table-wrap" }, table) : empty("The corpus holds no tool skill."),
    list.length ? PHASES.map((p) => catalogue(d[p])) : null);
}

function toolSkillRow(ts) {
  return h("tr", { "data-key": ts.key },
    h("td", { "data-label": "Key" }, h("code", null, ts.key), ts.title && ts.title !== ts.key ? h("div", { class: "sub" }, ts.title) : null,
      ts.source ? h("div", { class: "sub muted small" }, ts.source) : null),
    h("td", { "data-label": "Phases", class: "phases" }, ts.phases.length ? ts.phases.join(", ") : h("span", { class: "muted" }, "none")),
    h("td", { "data-label": "Required", class: "required" }, ts.required ? "required" : "advisory",
      ts.matches ? null : h("div", { class: "sub" }, badge("trigger matches nothing", "sev-info"))),
    h("td", { "data-label": "Summary", class: "summary" }, ts.summary || h("span", { class: "muted" }, "none"),
      h("div", { class: "sub muted small", "data-bytes": String(ts.summaryBytes) }, plural(ts.summaryBytes, "byte") + " per turn · body " + plural(ts.bodyBytes, "byte"))),
    h("td", { "data-label": "Guides", class: "guides" }, tools(ts.guides)),
    h("td", { "data-label": "Gates", class: "gates" }, tools(ts.gates)),
    h("td", { "data-label": "Findings", class: "num findings" }, n(ts.findings.length)));
}

function tools(ts) {
  if (!ts.length) return h("span", { class: "muted" }, "none");
  return ts.map((t, i) => [i ? ", " : null, toolLink(t.id)]);
}

// catalogue shows one phase's catalogue as the prompt carries it.
function catalogue(c) {
  return section("Catalogue: " + c.phase, "catalogue-" + c.phase,
    h("p", { class: "meta", "data-bytes": String(c.bytes) }, plural(c.entries.length, "tool skill") + ", " + plural(c.bytes, "byte") + " every turn"),
    c.entries.length ? h("pre", { class: "catalogue" }, c.entries.map((e) => h("span", { "data-key": e.key }, e.line + "\n")))
      : empty("Nothing is catalogued in " + c.phase + "."));
}
