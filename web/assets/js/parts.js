// Pieces several views draw: evidence, findings tables, witness paths,
// selections, invocations, the profile picker.

import { empty, enc, fileLine, h, link, plural, processLink, skillLink, toolLink } from "./dom.js";
import { performer, sevBadge } from "./labels.js";
import { setHashParams } from "./router.js";
import { state } from "./state.js";

export function ingestedLine(at) {
  if (!at) return h("span", { id: "ingested" }, "ingest time unknown");
  const t = new Date(at);
  return h("span", { id: "ingested" }, "ingested ", h("time", { datetime: at, title: at }, isNaN(t) ? at : t.toLocaleString()));
}

export function profileSummary(p) {
  const parts = [];
  if (p.readOnly) parts.push("read-only Tools");
  if (p.tools.length) parts.push(plural(p.tools.length, "listed tool"));
  if (p.transports.length) parts.push(p.transports.join("/"));
  return parts.length ? parts.join(", ") : "no restriction";
}

// profilePicker offers the declared exposure profiles; choosing one
// re-queries the view under it ("" = every Tool counts).
export function profilePicker(profiles, current, base, note) {
  const sel = h("select", { id: "profile", name: "profile" },
    h("option", { value: "", selected: !current }, "All Tools (no profile)"),
    profiles.map((p) => h("option", { value: p.name, selected: p.name === current }, p.name + " — " + profileSummary(p))),
    current && !profiles.some((p) => p.name === current) ? h("option", { value: current, selected: true }, current + " (not declared)") : null);
  sel.addEventListener("change", () => { state.profile = sel.value; setHashParams(base, { profile: sel.value }); });
  return h("form", { class: "profile-pick", id: "profile-form", onsubmit: (ev) => ev.preventDefault() },
    h("label", { for: "profile" }, "Exposure profile"), sel,
    h("span", { class: "muted small" }, profiles.length ? note : "No profile is declared (instance profiles: …)."));
}

// evidenceList links each piece of tier evidence to the step, or
// to the file and line it stands on; s carries its steps with automation.
export function evidenceList(s) {
  if (!s.evidence || !s.evidence.length) return h("span", { class: "muted" }, s.covered ? "—" : "no evidence");
  return h("ul", { class: "evidence" }, s.evidence.map((e) => h("li", null, evidenceItem(s, e))));
}
export function evidenceItem(s, e) {
  let m = /^([A-Za-z]+):([^/]+)\/(.+)$/.exec(e);
  if (m && !e.startsWith("shell-block:") && !e.startsWith("script:")) {
    // Who performs the step is the API's answer for that step, not a
    // reading of the element name here.
    const step = (s.steps || []).find((x) => x.id === m[3] && x.process.id === m[2]);
    return [performer(step ? step.automation : null), " ", processLink(m[2], m[3], m[2] + "/" + m[3]), h("span", { class: "muted small" }, " " + m[1])];
  }
  if ((m = /^shell-block:(\d+)$/.exec(e))) {
    return [h("span", { class: "ev-kind" }, "shell block"), " ", link("#/skill/" + enc(s.id) + "?line=" + m[1], (s.source || s.id) + ":" + m[1], { class: "file-link" })];
  }
  if (e === "io-contract") {
    return [h("span", { class: "ev-kind" }, "I/O contract"), " ", s.contract && s.contract.ref ? h("code", { class: "file" }, s.contract.ref) : h("span", { class: "muted" }, "output contract only")];
  }
  if ((m = /^script:(.+)$/.exec(e))) return [h("span", { class: "ev-kind" }, "package script"), " ", h("code", null, m[1])];
  return h("code", null, e);
}


export function invokeSummary(t) {
  const i = t.invoke;
  const out = [];
  if (i.shell && i.shell.length) out.push(h("code", { class: "argv" }, i.shell.join(" ")));
  if (i.mcpTool) out.push(h("span", null, "MCP ", h("code", null, (i.mcpServer ? i.mcpServer + "/" : "") + i.mcpTool)));
  if (i.container) out.push(h("span", null, "container ", h("code", null, i.container)));
  if (i.inProcess) out.push(h("span", null, "in-process ", h("code", null, i.inProcess)));
  if (i.manual) out.push(h("span", null, "manual"));
  return out.length ? out.map((x, k) => [k ? " · " : "", x]) : h("span", { class: "muted" }, "no invocation");
}

export function witnessChain(keys, id) {
  return h("ol", { class: "chain", id: id || null, "aria-label": "Witness path from a root" }, keys.map((k, i) => h("li", { class: "chain-node" + (i === 0 ? " root" : "") }, keyLink(k))));
}
export function keyLink(k) {
  const i = k.indexOf(":");
  const kind = k.slice(0, i), rest = k.slice(i + 1);
  const label = [h("span", { class: "kind" }, kind), " ", h("span", { class: "key" }, rest)];
  switch (kind) {
    case "skill": return h("a", { href: "#/skill/" + enc(rest), "data-key": k }, label);
    case "tool": return h("a", { href: "#/tool/" + enc(rest), "data-key": k }, label);
    case "process": return h("a", { href: "#/process/" + enc(rest), "data-key": k }, label);
    case "activity": {
      const j = rest.indexOf("/");
      return h("a", { href: "#/process/" + enc(rest.slice(0, j)) + "?step=" + enc(rest.slice(j + 1)), "data-key": k }, label);
    }
    default: return h("span", { "data-key": k }, label);
  }
}

export function selectionView(t) {
  if (!t.selection) return h("p", { class: "warn-text small" }, "No selection: an agent cannot choose between the alternatives (alternative-without-selection).");
  return h("dl", { class: "kv small" }, h("dt", null, "when"), h("dd", null, t.selection.when), h("dt", null, "limits"), h("dd", null, t.selection.limits), h("dt", null, "cost"), h("dd", null, t.selection.cost));
}

export function findingsTable(list, none) {
  if (!list.length) return empty(none);
  return h("div", { class: "table-wrap" }, h("table", { class: "rows findings" },
    h("thead", null, h("tr", null, ["Severity", "Code", "Message", "Where"].map((x) => h("th", { scope: "col" }, x)))),
    h("tbody", null, list.map(findingRow))));
}
export function findingRow(f) {
  return h("tr", { "data-code": f.code },
    h("td", { "data-label": "Severity" }, sevBadge(f.severity)),
    h("td", { "data-label": "Code" }, link("#/findings?code=" + enc(f.code), f.code, { class: "code-link" })),
    h("td", { "data-label": "Message" }, f.message),
    h("td", { "data-label": "Where" }, fileLine(f.file, f.line), f.subject ? h("div", { class: "sub" }, subjectLink(f.subject)) : null));
}
// subjectLink turns a node IRI (<doc>#<kind>/<id>) into a page link.
export function subjectLink(iri) {
  const m = /#(skill|tool|process)\/([^/]+)$/.exec(iri);
  if (!m) return null;
  const id = decodeURIComponent(m[2]);
  return m[1] === "skill" ? skillLink(id) : m[1] === "tool" ? toolLink(id) : processLink(id);
}
