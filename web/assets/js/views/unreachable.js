// Covered but not reachable, unreachable Tools and processes
// (#/unreachable).

import { PAGE, gql } from "../api.js";
import { noteVersion } from "../chrome.js";
import { badge, empty, fileLine, h, n, processLink, section, skillLink, toolLink } from "../dom.js";
import { setHashParams } from "../router.js";

export const UNREACH = `query Unreachable($first: Int, $afterS: String, $afterT: String) {
  graphVersion
  cnr: skills(covered: true, reachable: false, first: $first, after: $afterS) {
    totalCount pageInfo { hasNextPage endCursor } nodes { id title package source line tools { id } }
  }
  ut: tools(reachable: false, first: $first, after: $afterT) {
    totalCount pageInfo { hasNextPage endCursor } nodes { id title origin source line satisfies { id } }
  }
  reachability { unreachableProcesses toolsWithoutCommand { id title source line invoke { inProcess manual } } }
}`;

export async function viewUnreachable(params) {
  const afterS = params.get("s") || null, afterT = params.get("t") || null;
  const d = await gql(UNREACH, { first: PAGE, afterS, afterT });
  noteVersion(d.graphVersion);
  const pager = (conn, key, label) => conn.pageInfo.hasNextPage
    ? h("button", { type: "button", class: "btn", onclick: () => { const o = { s: params.get("s") || "", t: params.get("t") || "" }; o[key] = conn.pageInfo.endCursor; setHashParams("/unreachable", o); } }, "Next " + PAGE + " " + label + " →")
    : null;
  const back = (params.get("s") || params.get("t")) ? h("button", { type: "button", class: "btn", onclick: () => history.back() }, "← Previous") : null;
  const tw = d.reachability.toolsWithoutCommand;
  return h("div", null,
    h("div", { class: "page-head" }, h("h1", { tabindex: "-1" }, "Unreachable"),
      h("p", { class: "meta" }, "Covered is not reachable: a skill can have a Tool while nothing — no process, transport or trigger — ever reaches it.")),
    section("Covered but not reachable (" + n(d.cnr.totalCount) + ")", "h-cnr",
      d.cnr.nodes.length ? h("div", { class: "table-wrap" }, h("table", { class: "rows", id: "cnr-table" },
        h("thead", null, h("tr", null, ["Skill", "Package", "Its Tools", "Source"].map((x) => h("th", { scope: "col" }, x)))),
        h("tbody", null, d.cnr.nodes.map((s) => h("tr", { "data-skill": s.id },
          h("td", { "data-label": "Skill" }, skillLink(s.id), s.title ? h("div", { class: "sub" }, s.title) : null),
          h("td", { "data-label": "Package" }, s.package || "—"),
          h("td", { "data-label": "Its Tools" }, s.tools.map((t, k) => [k ? ", " : "", toolLink(t.id)])),
          h("td", { "data-label": "Source" }, fileLine(s.source, s.line))))))) : empty("Every covered skill is reachable."),
      pager(d.cnr, "s", "skills")),
    h("section", { class: "card", id: "tools", "aria-labelledby": "h-ut" }, h("h2", { id: "h-ut" }, "Unreachable tools (" + n(d.ut.totalCount) + ")"),
      d.ut.nodes.length ? h("div", { class: "table-wrap" }, h("table", { class: "rows", id: "ut-table" },
        h("thead", null, h("tr", null, ["Tool", "Origin", "Satisfies", "Source"].map((x) => h("th", { scope: "col" }, x)))),
        h("tbody", null, d.ut.nodes.map((t) => h("tr", { "data-tool": t.id },
          h("td", { "data-label": "Tool" }, toolLink(t.id), t.title ? h("div", { class: "sub" }, t.title) : null),
          h("td", { "data-label": "Origin" }, t.origin),
          h("td", { "data-label": "Satisfies" }, t.satisfies.length ? t.satisfies.map((s, k) => [k ? ", " : "", skillLink(s.id)]) : "—"),
          h("td", { "data-label": "Source" }, fileLine(t.source, t.line))))))) : empty("Every Tool is reachable."),
      pager(d.ut, "t", "tools")),
    section("Tools without a command (" + n(tw.length) + ")", "h-tnc",
      tw.length ? h("ul", { class: "plain" }, tw.slice(0, 500).map((t) => h("li", null, toolLink(t.id), t.title ? " — " + t.title : "", " ",
        badge(t.invoke.inProcess ? "in-process only" : "manual only", "muted-b"), " ", fileLine(t.source, t.line)))) : empty("Every Tool has a command."),
      tw.length > 500 ? h("p", { class: "muted small" }, "Showing 500 of " + n(tw.length) + ".") : null),
    section("Unreachable processes (" + n(d.reachability.unreachableProcesses.length) + ")", "h-up",
      d.reachability.unreachableProcesses.length ? h("ul", { class: "plain" }, d.reachability.unreachableProcesses.slice(0, 500).map((p) => h("li", null, processLink(p)))) : empty("Every process is reachable.")),
    h("div", { class: "pager" }, back));
}
