// A process's page (#/process/<id>?step=<step>).

import { gql } from "../api.js";
import { noteVersion } from "../chrome.js";
import { badge, empty, fileLine, h, processLink, section, skillLink } from "../dom.js";
import { performer, tierBadge } from "../labels.js";
import { witnessChain } from "../parts.js";

export const PROCESS = `query Process($id: ID!) {
  graphVersion
  process(id: $id) {
    id stem name source reachable witness
    steps { id key element name automation lane line skills { id tier covered } calls { id name } }
  }
}`;

export async function viewProcess(id, params) {
  const d = await gql(PROCESS, { id });
  noteVersion(d.graphVersion);
  const p = d.process;
  if (!p) return h("div", null, h("h1", { tabindex: "-1" }, "No process “" + id + "”"));
  const focus = params.get("step");
  return h("article", { class: "detail" },
    h("div", { class: "page-head" },
      h("p", { class: "crumbs" }, "process"),
      h("h1", { tabindex: "-1" }, p.name || p.id),
      h("p", { class: "meta" }, h("code", null, p.id), " · file ", fileLine(p.source), " ", p.reachable ? badge("reachable", "ok") : badge("not reachable", "warn"))),
    p.reachable && p.witness.length > 1 ? section("Reached through", "h-preach", witnessChain(p.witness)) : null,
    section("Steps", "h-psteps", p.steps.length ? h("div", { class: "table-wrap" }, h("table", { class: "rows" },
      h("thead", null, h("tr", null, ["Step", "Performed by", "Skills", "Lane", "Line"].map((x) => h("th", { scope: "col" }, x)))),
      h("tbody", null, p.steps.map((a) => h("tr", { id: "step-" + a.id, class: a.id === focus ? "highlight" : null },
        h("td", { "data-label": "Step" }, a.name || a.id, h("div", { class: "sub" }, h("code", null, a.id), " " + a.element),
          a.calls ? h("div", { class: "sub" }, "calls ", processLink(a.calls.id, null, a.calls.name || a.calls.id)) : null),
        h("td", { "data-label": "Performed by" }, performer(a.automation)),
        h("td", { "data-label": "Skills" }, a.skills.length ? a.skills.map((s, k) => [k ? ", " : "", skillLink(s.id), " ", tierBadge(s.covered ? null : s.tier)]) : h("span", { class: "muted" }, "—")),
        h("td", { "data-label": "Lane" }, a.lane || "—"),
        h("td", { "data-label": "Line" }, fileLine(p.source, a.line))))))) : empty("No steps.")));
}
