// Pictures (issue #25.8): a process drawn from its BPMN file (bpmn-js's
// NavigatedViewer; files without BPMN DI laid out by bpmn-auto-layout)
// with its steps marked by the snapshot's answers, reachability graphs
// laid out by elkjs and drawn here as SVG, and coverage bars. The
// third-party code is two vendored bundles (vendor/pictures/bpmn.js,
// 0.2 MB, and elk.js, 1.5 MB; built by scripts/vendor-web.sh), each
// loaded the first time a view draws with it.

import { h, svgEl } from "./dom.js";
import { TIER_INFO } from "./labels.js";

const bundles = {};
// lib loads a vendored bundle once, when the first picture needs it.
function lib(name) {
  if (!bundles[name]) bundles[name] = import("../vendor/pictures/" + name + ".js");
  return bundles[name];
}

const BPMN = "http://www.omg.org/spec/BPMN/20100524/MODEL";
const BPMNDI = "http://www.omg.org/spec/BPMN/20100524/DI";

// css reads a colour of the page's palette, so the diagram follows the
// light or dark theme.
function css(name) { return getComputedStyle(document.documentElement).getPropertyValue(name).trim(); }

// onlyProcess keeps the one process to draw: bpmn-auto-layout lays out
// the first process of a file, and a file may hold several.
function onlyProcess(doc, id) {
  const procs = [...doc.getElementsByTagNameNS(BPMN, "process")];
  if (procs.length > 1) procs.filter((p) => p.getAttribute("id") !== id).forEach((p) => p.remove());
  for (const c of [...doc.getElementsByTagNameNS(BPMN, "collaboration")]) c.remove();
  // The layout draws no lanes, and lanes without shapes hide their nodes
  // from bpmn-js: the lanes stay in the step table.
  for (const l of [...doc.getElementsByTagNameNS(BPMN, "laneSet")]) l.remove();
  return new XMLSerializer().serializeToString(doc);
}

// drawProcess draws the BPMN file xml of process id into el and marks
// each step of marks (id → {state, unreachable, note}): state is the
// workflow state (performed, manual or gap), unreachable whether no root
// reaches the step. It resolves to {laidOut, shapes}: laidOut when the
// file had no DI and the layout is bpmn-auto-layout's.
export async function drawProcess(el, xml, id, marks) {
  const doc = new DOMParser().parseFromString(xml, "application/xml");
  if (doc.getElementsByTagName("parsererror").length) throw new Error("the file is not well-formed XML");
  const { NavigatedViewer, layoutProcess } = await lib("bpmn");
  const laidOut = doc.getElementsByTagNameNS(BPMNDI, "BPMNShape").length === 0;
  const text = laidOut ? await layoutProcess(onlyProcess(doc, id)) : xml;
  const viewer = new NavigatedViewer({
    container: el,
    bpmnRenderer: { defaultFillColor: css("--card"), defaultStrokeColor: css("--fg"), defaultLabelColor: css("--fg") },
  });
  const { warnings } = await viewer.importXML(text);
  el.dataset.warnings = String(warnings.length);
  // A file with several processes has a diagram per process (or one
  // collaboration): open the one showing this process.
  const defs = viewer.getDefinitions();
  const shows = (d) => {
    const e = d.plane && d.plane.bpmnElement;
    return e && (e.id === id || (e.participants || []).some((p) => p.processRef && p.processRef.id === id));
  };
  const diagram = (defs.diagrams || []).find(shows);
  if (diagram && diagram !== defs.diagrams[0]) await viewer.open(diagram);
  const canvas = viewer.get("canvas");
  const registry = viewer.get("elementRegistry");
  const overlays = viewer.get("overlays");
  let marked = 0;
  for (const [step, m] of marks) {
    if (!registry.get(step)) continue;
    marked++;
    if (m.state) canvas.addMarker(step, "sg-" + m.state);
    if (m.unreachable) canvas.addMarker(step, "sg-unreachable");
    if (m.note) overlays.add(step, { position: { top: -11, right: 8 }, html: h("span", { class: "sg-flag" + (m.unreachable ? " sg-flag-unreachable" : ""), title: m.note }, m.unreachable ? "unreachable" : m.state) });
  }
  // The box takes the diagram's own height (within bounds), so a tall
  // one is not shrunk to fit a short box; then fit it, but never blow a
  // small one up past its own size.
  const inner = canvas.viewbox().inner;
  el.style.height = Math.round(Math.min(Math.max(inner.height * Math.min(1, el.clientWidth / Math.max(inner.width + 40, 1)) + 48, 160), 720)) + "px";
  canvas.resized();
  if (canvas.zoom("fit-viewport", "auto") > 1) canvas.zoom(1, "auto");
  const svg = el.querySelector("svg");
  if (svg) {
    svg.setAttribute("role", "img");
    svg.setAttribute("aria-label", "BPMN diagram of " + id + (laidOut ? " (laid out automatically: the file has no diagram interchange)" : ""));
  }
  return { laidOut, marked, shapes: registry.getAll().filter((e) => e.type !== "label" && !e.waypoints).length - 1 };
}

// measure sizes a node's label (SVG text in a hidden probe, the same font).
function measurer(host) {
  const probe = svgEl("svg", { class: "graph-probe", "aria-hidden": "true", width: 0, height: 0 });
  host.appendChild(probe);
  return {
    width(text, cls) {
      const t = svgEl("text", { class: cls }, text);
      probe.appendChild(t);
      const w = t.getComputedTextLength();
      probe.removeChild(t);
      return w;
    },
    done() { host.removeChild(probe); },
  };
}

// drawGraph lays out a small directed graph with ELK (layered, left to
// right) and draws it as an SVG into el: nodes {id, kind, label, href,
// cls}, edges {from, to, label}. title names the picture for a screen
// reader (the same facts are listed in text next to it).
export async function drawGraph(el, nodes, edges, title) {
  const { ELK } = await lib("elk");
  const m = measurer(el);
  const kids = nodes.map((n) => ({ id: n.id, width: Math.ceil(Math.max(m.width(n.label, "g-label"), m.width(n.kind, "g-kind")) + 24), height: 42 }));
  m.done();
  const seen = new Set(nodes.map((n) => n.id));
  const graph = {
    id: "root",
    layoutOptions: { "elk.algorithm": "layered", "elk.direction": "RIGHT", "elk.spacing.nodeNode": "18", "elk.layered.spacing.nodeNodeBetweenLayers": "42", "elk.edgeRouting": "ORTHOGONAL" },
    children: kids,
    edges: edges.filter((e) => seen.has(e.from) && seen.has(e.to)).map((e, i) => ({ id: "e" + i, sources: [e.from], targets: [e.to] })),
  };
  const out = await new ELK().layout(graph);
  const pad = 6;
  const W = Math.ceil(out.width + 2 * pad), H = Math.ceil(out.height + 2 * pad);
  // A group, not an image: its nodes are links a keyboard reaches.
  const svg = svgEl("svg", { class: "graph", viewBox: "0 0 " + W + " " + H, width: W, height: H, role: "group", "aria-label": title });
  svg.appendChild(svgEl("title", null, title));
  const defs = svgEl("defs");
  const arrow = svgEl("marker", { id: "g-arrow-" + el.id, viewBox: "0 0 10 10", refX: 9, refY: 5, markerWidth: 7, markerHeight: 7, orient: "auto-start-reverse" });
  arrow.appendChild(svgEl("path", { d: "M0 0L10 5L0 10z", class: "g-arrowhead" }));
  defs.appendChild(arrow);
  svg.appendChild(defs);
  const g = svgEl("g", { transform: "translate(" + pad + " " + pad + ")" });
  for (const e of out.edges || []) {
    for (const s of e.sections || []) {
      const pts = [s.startPoint, ...(s.bendPoints || []), s.endPoint];
      g.appendChild(svgEl("path", { class: "g-edge", d: pts.map((p, i) => (i ? "L" : "M") + p.x + " " + p.y).join(""), "marker-end": "url(#g-arrow-" + el.id + ")" }));
    }
  }
  const byId = new Map(nodes.map((n) => [n.id, n]));
  for (const c of out.children) {
    const n = byId.get(c.id);
    const box = svgEl("g", { class: "g-node g-" + n.kind + (n.cls ? " " + n.cls : ""), transform: "translate(" + c.x + " " + c.y + ")", "data-node": n.id });
    box.appendChild(svgEl("rect", { width: c.width, height: c.height, rx: 6 }));
    box.appendChild(svgEl("text", { class: "g-kind", x: 12, y: 15 }, n.kind));
    box.appendChild(svgEl("text", { class: "g-label", x: 12, y: 32 }, n.label));
    if (n.href) {
      const a = svgEl("a", { href: n.href });
      a.appendChild(box);
      g.appendChild(a);
    } else g.appendChild(box);
  }
  svg.appendChild(g);
  el.appendChild(svg);
  return svg;
}

// keyNode turns a witness key (kind:rest) into a graph node.
export function keyNode(k) {
  const i = k.indexOf(":");
  const kind = k.slice(0, i), rest = k.slice(i + 1);
  const enc = encodeURIComponent;
  let href = null;
  if (kind === "skill") href = "#/skill/" + enc(rest);
  else if (kind === "tool") href = "#/tool/" + enc(rest);
  else if (kind === "process") href = "#/process/" + enc(rest);
  else if (kind === "activity") { const j = rest.indexOf("/"); href = "#/process/" + enc(rest.slice(0, j)) + "?step=" + enc(rest.slice(j + 1)); }
  return { id: k, kind, label: rest, href };
}

// witnessGraph is the picture of a witness path: root first, each key an
// edge to the next.
export function witnessGraph(keys) {
  const nodes = [], edges = [], seen = new Set();
  keys.forEach((k, i) => {
    if (!seen.has(k)) { seen.add(k); nodes.push(Object.assign(keyNode(k), { cls: i === 0 ? "g-root" : i === keys.length - 1 ? "g-target" : null })); }
    if (i) edges.push({ from: keys[i - 1], to: k });
  });
  return { nodes, edges };
}

// pictureCard is a figure that draws itself once in the page: draw(el)
// fills el; a failure (no bundle, a layout error) becomes a note, never a
// broken view.
export function pictureCard(id, caption, draw) {
  const box = h("div", { class: "picture", id: id, "data-state": "drawing" });
  const fig = h("figure", { class: "figure" }, box, h("figcaption", { class: "muted small" }, caption));
  queueMicrotask(async () => {
    try {
      await draw(box);
      box.dataset.state = "drawn";
    } catch (e) {
      box.dataset.state = "failed";
      box.appendChild(h("p", { class: "muted" }, "No picture: " + e.message));
    }
  });
  return fig;
}

// coverageBar is a stacked bar of skills by coverage (covered, tier A–D)
// with its legend; skills are {covered, tier}.
export function coverageBar(skills, id, what) {
  const order = ["covered", "A", "B", "C", "D"];
  const counts = { covered: 0, A: 0, B: 0, C: 0, D: 0 };
  for (const s of skills) counts[s.covered ? "covered" : s.tier || "D"]++;
  const total = skills.length;
  const W = 1000, H = 20;
  const svg = svgEl("svg", { viewBox: "0 0 " + W + " " + H, class: "stack stack-small", role: "img", "aria-labelledby": id + "-title", preserveAspectRatio: "none", id: id });
  svg.appendChild(svgEl("title", { id: id + "-title" }, what + ": " + order.map((k) => TIER_INFO[k].label + " " + counts[k]).join(", ")));
  let x = 0;
  for (const k of order) {
    const w = total ? (counts[k] / total) * W : 0;
    if (w <= 0) continue;
    const r = svgEl("rect", { x, y: 0, width: w, height: H, class: "seg seg-" + k, "data-count": counts[k], "data-part": k });
    r.appendChild(svgEl("title", null, TIER_INFO[k].label + ": " + counts[k]));
    svg.appendChild(r);
    x += w;
  }
  const legend = h("ul", { class: "legend small" }, order.filter((k) => counts[k]).map((k) =>
    h("li", null, h("span", { class: "swatch seg-" + k, "aria-hidden": "true" }), TIER_INFO[k].label + " " + counts[k])));
  return h("div", { class: "coverage-bar" },
    h("p", { class: "small" }, h("strong", null, total ? Math.round((100 * counts.covered) / total) + "% covered" : "no skills"), " · " + counts.covered + " of " + total + " skills"),
    svg, legend);
}
