// A Tool's page (#/tool/<id>).

import { gql } from "../api.js";
import { noteVersion } from "../chrome.js";
import { badge, empty, fileLine, h, link, processLink, section, skillLink, toolLink } from "../dom.js";
import { findingsTable, invokeSummary, selectionView, witnessChain } from "../parts.js";
import { drawGraph, keyNode, pictureCard, witnessGraph } from "../pictures.js";

export const TOOL = `query Tool($id: ID!) {
  graphVersion
  tool(id: $id) {
    id iri title description origin instance source line reachable witness readOnly requires renders
    satisfies { id title } validFor { id }
    invoke { shell mcpServer mcpTool container inProcess manual }
    inputs { name type jsonType required repeated arg description }
    outputs { name type jsonType render }
    ...SelectionFields
    alternatives { id title }
    exposedBy { id }
    parity { state against { id } ports { name output codes } }
    gatedBy { key title }
    subprocesses { id name }
    findings { ...FindingFields }
  }
  programs { name dynamic installed tools { id } }
}`;

export async function viewTool(id) {
  const d = await gql(TOOL, { id });
  noteVersion(d.graphVersion);
  const t = d.tool;
  if (!t) return h("div", null, h("h1", { tabindex: "-1" }, "No tool “" + id + "”"), link("#/unreachable", "Unreachable tools"));
  const valid = new Set(t.validFor.map((s) => s.id));
  const progs = d.programs.filter((p) => p.tools.some((x) => x.id === t.id));
  // The MCP column shows the API's per-port parity answer (Tool.parity.ports);
  // it appears only when the Tool was compared with a listed MCP tool.
  const pp = t.parity ? t.parity.ports : [];
  const mcpCell = (p, out) => {
    const x = pp.find((y) => y.name === p.name && y.output === out);
    return h("td", { "data-label": "MCP", class: "mcp-parity" }, !x ? "—"
      : x.codes.length ? x.codes.map((c, k) => [k ? " " : "", badge(c, "warn")]) : badge("agrees", "ok"));
  };
  const mcpCol = (out) => pp.some((y) => y.output === out);
  const ports = (list, out) => list.length ? h("div", { class: "table-wrap" }, h("table", { class: "rows" },
    h("thead", null, h("tr", null, (out ? ["Output", "Type", "Render"] : ["Input", "Type", "Required", "Passed as"]).concat(mcpCol(out) ? ["MCP"] : []).map((x) => h("th", { scope: "col" }, x)))),
    h("tbody", null, list.map((p) => h("tr", null,
      h("td", { "data-label": out ? "Output" : "Input" }, h("code", null, p.name), p.description ? h("div", { class: "sub" }, p.description) : null),
      h("td", { "data-label": "Type" }, h("code", null, p.jsonType || shortType(p.type) || "—")),
      out ? h("td", { "data-label": "Render" }, p.render || "—")
        : [h("td", { "data-label": "Required" }, p.required ? "yes" : "no", p.repeated ? " (repeated)" : ""), h("td", { "data-label": "Passed as" }, p.arg || "—")],
      mcpCol(out) ? mcpCell(p, out) : null))))) : empty(out ? "No outputs." : "No inputs.");
  return h("article", { class: "detail" },
    h("div", { class: "page-head" },
      h("p", { class: "crumbs" }, "tool"),
      h("h1", { tabindex: "-1" }, t.title || t.id),
      h("p", { class: "meta" }, h("code", null, t.id), " ", badge(t.origin, "muted-b"), " ", t.reachable ? badge("reachable", "ok") : badge("not reachable", "warn"))),
    h("div", { class: "grid2 top-grid" },
      section("About", "h-tabout",
        t.description ? h("p", { class: "desc" }, t.description) : empty("No description."),
        h("dl", { class: "kv" },
          h("dt", null, "Satisfies"), h("dd", null, t.satisfies.length ? t.satisfies.map((s, k) => [k ? ", " : "", skillLink(s.id), valid.has(s.id) ? "" : [" ", badge("contradicted", "t-contradicted")]]) : "—"),
          h("dt", null, "Invoke"), h("dd", null, invokeSummary(t)),
          h("dt", null, "Requires"), h("dd", null, t.requires.length ? t.requires.join(", ") : "—"),
          h("dt", null, "Read-only"), h("dd", null, t.readOnly === null ? "not stated" : t.readOnly ? "yes" : "no"),
          t.exposedBy.length ? [h("dt", null, "Exposed by"), h("dd", null, t.exposedBy.map((x, k) => [k ? ", " : "", toolLink(x.id)]))] : null,
          t.parity ? [h("dt", null, "MCP parity"), h("dd", { id: "mcp-parity" }, badge(t.parity.state, t.parity.state === "agrees" ? "ok" : t.parity.state === "unrecorded" ? "muted-b" : "warn"),
            t.parity.against.length ? [" with ", t.parity.against.map((x, k) => [k ? ", " : "", toolLink(x.id)])] : null)] : null,
          h("dt", null, "Gated by"), h("dd", { id: "gated-by" }, t.gatedBy.length
            ? t.gatedBy.map((g, k) => [k ? ", " : "", h("code", { title: g.title || null }, g.key)]) : h("span", { class: "muted" }, "no required tool skill")),
          progs.length ? [h("dt", null, "Program"), h("dd", { id: "program" }, progs.map((p, k) => [k ? ", " : "", h("code", null, p.name),
            p.dynamic ? [" ", badge("dynamic", "muted-b", "the first argv word contains a parameter")] : null,
            p.installed ? null : [" ", badge("not installed", "warn", "no Tool installs it (program-not-installed)")]]))] : null,
          t.subprocesses.length ? [h("dt", null, "Subprocesses"), h("dd", null, t.subprocesses.map((p, k) => [k ? ", " : "", processLink(p.id, null, p.name || p.id)]))] : null,
          h("dt", null, "Source"), h("dd", null, fileLine(t.source, t.line)),
          h("dt", null, "IRI"), h("dd", null, h("code", { class: "iri" }, t.iri)))),
      section("Selection and alternatives", "h-tsel", selectionView(t),
        t.alternatives.length ? h("p", null, "Alternatives: ", t.alternatives.map((a, k) => [k ? ", " : "", toolLink(a.id)])) : empty("No derived alternative."))),
    section("Inputs", "h-tin", ports(t.inputs, false)),
    section("Outputs", "h-tout", ports(t.outputs, true)),
    section("Reachability", "h-treach",
      pictureCard("tool-graph", "This Tool's neighbours: what reaches it (its witness path), the skills it performs, its alternatives and the MCP tools that are the same mechanism.",
        (el) => { const g = neighbours(t); return drawGraph(el, g.nodes, g.edges, "Neighbours of Tool " + t.id); }),
      t.reachable && t.witness.length ? witnessChain(t.witness, "witness") : h("p", { class: "warn-text" }, "No process, transport or trigger reaches this Tool: a command nothing invokes.")),
    section("Findings", "h-tfind", findingsTable(t.findings, "No finding names this Tool.")));
}
export function shortType(iri) { if (!iri) return ""; const i = iri.lastIndexOf("/"); return i >= 0 ? iri.slice(i + 1) : iri; }

// neighbours is the graph around Tool t: its witness path (root → … →
// the Tool), the skills it satisfies (valid ones plain, contradicted ones
// marked), its derived alternatives and the MCP tools exposing it.
export function neighbours(t) {
  const self = "tool:" + t.id;
  const g = t.reachable && t.witness.length ? witnessGraph(t.witness) : { nodes: [], edges: [] };
  const has = (id) => g.nodes.some((n) => n.id === id);
  const add = (node) => { if (!has(node.id)) g.nodes.push(node); return node.id; };
  add(Object.assign(keyNode(self), { cls: "g-target" }));
  const valid = new Set(t.validFor.map((s) => s.id));
  for (const s of t.satisfies) g.edges.push({ from: self, to: add(Object.assign(keyNode("skill:" + s.id), { cls: valid.has(s.id) ? null : "g-gap" })) });
  for (const a of t.alternatives) g.edges.push({ from: self, to: add(Object.assign(keyNode("tool:" + a.id), { kind: "alternative" })) });
  for (const m of t.exposedBy) g.edges.push({ from: add(Object.assign(keyNode("tool:" + m.id), { kind: "MCP tool" })), to: self });
  return g;
}
