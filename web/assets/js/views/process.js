// A process's page (#/process/<id>?step=<step>): its diagram (the BPMN
// file drawn by bpmn-js, steps marked by their workflow state and
// reachability), what reaches it, and its steps.

import { gql } from "../api.js";
import { noteVersion } from "../chrome.js";
import { badge, empty, fileLine, h, processLink, section, skillLink } from "../dom.js";
import { performer, tierBadge } from "../labels.js";
import { witnessChain } from "../parts.js";
import { drawGraph, drawProcess, pictureCard, witnessGraph } from "../pictures.js";

export const PROCESS = `query Process($id: ID!) {
  graphVersion
  process(id: $id) {
    id stem name source reachable witness
    steps { id key element name automation lane line skills { id tier covered } calls { id name } }
  }
  workflows { process { id } steps { state skillRef step { id process { id } } } }
}`;

// stepMarks maps each step of process p to what the diagram shows on it:
// its workflow state (gap: a skill it names is performed by nothing), and
// whether it is unreachable (no root reaches its process).
export function stepMarks(p, workflows) {
  const marks = new Map();
  for (const a of p.steps) marks.set(a.id, { state: null, unreachable: !p.reachable, note: p.reachable ? null : "no root reaches this process" });
  const wf = workflows.find((w) => w.process.id === p.id);
  for (const ws of wf ? wf.steps : []) {
    if (ws.step.process.id !== p.id) continue; // a callee's step, drawn in its own diagram
    const m = marks.get(ws.step.id);
    if (!m) continue;
    // A step naming several skills shows its worst state.
    const rank = { performed: 0, manual: 1, gap: 2 };
    if (!m.state || rank[ws.state] > rank[m.state]) m.state = ws.state;
    if (m.state === "gap" && !m.unreachable) m.note = "gap: nothing performs " + ws.skillRef;
  }
  return marks;
}

// diagramCard fetches the process's BPMN file and draws it; a server
// without the file (a replica, a file changed since it was read) says so.
function diagramCard(p, marks) {
  const legend = h("ul", { class: "wf-legend", "aria-label": "Diagram legend" },
    ["performed", "manual", "gap"].map((k) => h("li", null, h("span", { class: "sg-key sg-key-" + k, "aria-hidden": "true" }), k)),
    h("li", null, h("span", { class: "sg-key sg-key-unreachable", "aria-hidden": "true" }), "unreachable"));
  const note = h("p", { class: "muted small", id: "diagram-note" });
  return section("Diagram", "h-pdiagram", legend,
    pictureCard("diagram", ["The process as its file draws it; steps coloured by their workflow state. ", note], async (el) => {
      el.classList.add("bpmn");
      const res = await fetch("diagram/" + encodeURIComponent(p.id));
      if (!res.ok) throw new Error((await res.text()).trim() || "HTTP " + res.status);
      const r = await drawProcess(el, await res.text(), p.id, marks);
      el.dataset.shapes = String(r.shapes);
      el.dataset.marked = String(r.marked);
      note.textContent = r.laidOut ? "The file has no BPMN diagram interchange (DI): laid out automatically." : "Drawn from the file's BPMN DI.";
    }));
}


export async function viewProcess(id, params) {
  const d = await gql(PROCESS, { id });
  noteVersion(d.graphVersion);
  const p = d.process;
  if (!p) return h("div", null, h("h1", { tabindex: "-1" }, "No process “" + id + "”"));
  const focus = params.get("step");
  return h("article", { class: "detail", "data-process": p.id },
    h("div", { class: "page-head" },
      h("p", { class: "crumbs" }, "process"),
      h("h1", { tabindex: "-1" }, p.name || p.id),
      h("p", { class: "meta" }, h("code", null, p.id), " · file ", fileLine(p.source), " ", p.reachable ? badge("reachable", "ok") : badge("not reachable", "warn"))),
    diagramCard(p, stepMarks(p, d.workflows)),
    p.reachable && p.witness.length > 1 ? section("Reached through", "h-preach",
      pictureCard("reach-graph", "The witness path from a root to this process.", (el) => { const g = witnessGraph(p.witness); return drawGraph(el, g.nodes, g.edges, "Witness path: " + p.witness.join(" → ")); }),
      witnessChain(p.witness)) : null,
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
