// A skill's page (#/skill/<id>): tier and evidence, Tools, steps,
// reachability, alternatives, findings and the maintainer's read.

import { gql } from "../api.js";
import { noteVersion } from "../chrome.js";
import { badge, empty, enc, fileLine, h, link, plural, pluginLink, processLink, section, toolLink } from "../dom.js";
import { performer, tierBadge, verdictBadge } from "../labels.js";
import { evidenceList, findingsTable, invokeSummary, selectionView, witnessChain } from "../parts.js";
import { drawGraph, pictureCard, witnessGraph } from "../pictures.js";
import { route } from "../router.js";
import { canRecord, state } from "../state.js";

export const SKILL = `query Skill($id: ID!) {
  graphVersion
  skill(id: $id) {
    id iri name title description flavour package instance tier covered contradicted exempt bothHalves evidence
    source line shellBlocks plugin { name } resources
    contract { ref external readable required }
    tools { id title description origin reachable invoke { shell mcpServer mcpTool container inProcess manual } ...SelectionFields findings { ...FindingFields } }
    contradictedBy { id title origin reachable inputs { name jsonType required } findings { ...FindingFields } }
    toolSkills { key title summary }
    steps { id key element name automation lane line process { id stem name source } }
    reachable witness
    coveredSince { version commit time } reachableSince { version commit time }
    alternatives { id title ...SelectionFields alternatives { id title ...SelectionFields } }
    findings { ...FindingFields }
    triage { verdict note recordedAt }
  }
}`;

export async function viewSkill(id, params) {
  const d = await gql(SKILL, { id });
  noteVersion(d.graphVersion);
  const s = d.skill;
  if (!s) return h("div", null, h("h1", { tabindex: "-1" }, "No skill “" + id + "”"), link("#/queue", "Back to the queue"));
  const line = params.get("line");
  const status = s.covered ? badge("covered", "t-covered") : tierBadge(s.tier);
  const root = h("article", { class: "detail", "data-skill": s.id },
    h("div", { class: "page-head" },
      h("p", { class: "crumbs" }, link("#/queue" + (s.tier ? "?tier=" + s.tier : s.covered ? "?tier=covered" : ""), "← Queue"), " · skill"),
      h("h1", { tabindex: "-1" }, s.title || s.id),
      h("p", { class: "meta" }, h("code", null, s.id), " ", status,
        s.contradicted ? badge("contradicted", "t-contradicted", "its only Tools contradict the input contract") : null,
        s.exempt ? badge("exempt", "t-exempt", "uncovered on purpose") : null,
        s.bothHalves ? badge("both halves", "both", "an automated and a person step both name it: mechanism + judgement") : null,
        s.reachable ? badge("reachable", "ok") : badge("not reachable", s.covered ? "warn" : "muted-b"),
        s.triage ? verdictBadge(s.triage.verdict) : null)),
    h("div", { class: "grid2 top-grid" },
      h("section", { class: "card", "aria-labelledby": "h-about" }, h("h2", { id: "h-about" }, "About"),
        s.description ? h("p", { class: "desc" }, s.description) : empty("No description."),
        h("dl", { class: "kv" },
          h("dt", null, "Package"), h("dd", null, s.package ? [link("#/package/" + enc(s.package), s.package, { id: "skill-package" }), " ", h("span", { class: "muted small" }, "(", link("#/queue?package=" + enc(s.package), "its queue"), ")")] : "—"),
          h("dt", null, "Flavour"), h("dd", null, s.flavour),
          h("dt", null, "Source"), h("dd", { id: "skill-source", class: line ? "highlight" : null }, fileLine(s.source, line || s.line)),
          s.plugin ? [h("dt", null, "Plugin"), h("dd", { id: "skill-plugin" }, pluginLink(s.plugin.name))] : null,
          s.resources.length ? [h("dt", null, "Resources"), h("dd", null, h("ul", { class: "plain resources", id: "skill-resources" },
            s.resources.map((r) => h("li", null, h("code", { class: "file" }, r)))))] : null,
          s.shellBlocks.length ? [h("dt", null, "Shell blocks"), h("dd", null, s.shellBlocks.map((l, i) => [i ? ", " : "", fileLine(s.source, l)]))] : null,
          h("dt", null, s.covered ? "Covered since" : "Uncovered since"), h("dd", { id: "covered-since" }, sinceView(s.coveredSince)),
          h("dt", null, s.reachable ? "Reachable since" : "Unreachable since"), h("dd", { id: "reachable-since" }, sinceView(s.reachableSince)),
          h("dt", null, "Input contract"), h("dd", { id: "contract" }, contractView(s.contract)),
          h("dt", null, "Evidence"), h("dd", null, evidenceList(s)),
          h("dt", null, "IRI"), h("dd", null, h("code", { class: "iri" }, s.iri)))),
      triageCard(s)),
    toolsCard(s),
    stepsCard(s),
    reachCard(s),
    altCard(s),
    section("Findings", "h-findings", findingsTable(s.findings, "No finding names this skill.")));
  return root;
}

// sinceView names the version since which a state holds (a link to what
// changed in it), or says the kept history cannot tell.
function sinceView(v) {
  if (!v) return h("span", { class: "muted" }, "not known within the kept history");
  return [link("#/version/" + v.version, "version " + v.version, { class: "version-link" }),
    v.commit ? [" · ", h("code", null, v.commit.slice(0, 12))] : null, v.time ? " · " + v.time.slice(0, 10) : null];
}

export function contractView(c) {
  if (!c) return "none";
  const out = [h("code", { class: "file" }, c.ref), " "];
  if (c.external) out.push(badge("external — not checked", "muted-b", "https contracts are not fetched"));
  else if (!c.readable) out.push(badge("unreadable", "sev-error", "missing or not valid JSON (contract-unreadable)"));
  if (c.readable) {
    out.push(h("div", { class: "sub", id: "contract-required" }, c.required.length
      ? ["requires ", c.required.map((r, k) => [k ? ", " : "", h("code", null, r)])]
      : "requires nothing"));
  }
  return out;
}

export function triageCard(s) {
  const current = s.triage
    ? h("div", { class: "verdict-now", id: "verdict-now" }, "Recorded read: ", verdictBadge(s.triage.verdict),
        s.triage.note ? h("blockquote", { class: "note" }, s.triage.note) : null,
        s.triage.recordedAt ? h("p", { class: "muted small" }, "recorded " + new Date(s.triage.recordedAt).toLocaleString()) : null)
    : h("p", { id: "verdict-now", class: "muted" }, "No read recorded yet.");
  if (state.viewer.readOnly) {
    return section("Maintainer's read", "h-triage", current,
      h("p", { class: "readonly", id: "readonly-note" }, "Read-only: mutations disabled on this server (it has no maintainer token)."));
  }
  if (!canRecord()) {
    return section("Maintainer's read", "h-triage", current,
      h("p", { class: "readonly", id: "readonly-note" }, "Read-only: no token in this tab. ",
        h("button", { type: "button", class: "linkish", onclick: () => { const b = document.getElementById("signin"); if (b) b.click(); } }, "Sign in with the maintainer token"),
        " to record a verdict."));
  }
  const opts = [["mechanism", "Mechanism", "a Tool should perform it"], ["judgement", "Judgement", "a person performs it"], ["split", "Split", "mechanism plus judgement"]];
  const cur = s.triage ? s.triage.verdict : "";
  const note = h("textarea", { id: "verdict-note", name: "note", rows: "3", maxlength: "2000" });
  note.value = s.triage && s.triage.note ? s.triage.note : "";
  const msg = h("p", { id: "verdict-msg", class: "form-msg", role: "status" });
  const form = h("form", { id: "verdict-form", class: "verdict-form" },
    h("fieldset", null, h("legend", null, "Verdict"),
      opts.map(([v, l, help]) => h("label", { class: "radio" },
        h("input", { type: "radio", name: "verdict", value: v, id: "verdict-" + v, required: true, checked: v === cur }),
        h("span", null, h("strong", null, l), " — " + help)))),
    h("label", { for: "verdict-note" }, "Note ", h("span", { class: "muted small" }, "(what you read, why)")), note,
    h("div", { class: "actions" }, h("button", { type: "submit", class: "btn primary", id: "verdict-save" }, "Record verdict")), msg);
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const v = form.querySelector("input[name=verdict]:checked");
    if (!v) { msg.textContent = "Choose a verdict."; return; }
    msg.textContent = "Recording…";
    try {
      const d = await gql(`mutation Record($skill: ID!, $verdict: Verdict!, $note: String) { recordTriage(skill: $skill, verdict: $verdict, note: $note) { graphVersion } }`,
        { skill: s.id, verdict: v.value, note: note.value.trim() || null }, { auth: true });
      state.version = d.recordTriage.graphVersion;
      msg.textContent = "Recorded (graph version " + d.recordTriage.graphVersion + ").";
      await route();
      const m2 = document.getElementById("verdict-msg");
      if (m2) m2.textContent = "Recorded (graph version " + d.recordTriage.graphVersion + ").";
    } catch (e) {
      if (e.status === 401 || e.status === 403) msg.textContent = "Token refused: " + e.message + ". Forget it and sign in again.";
      else msg.textContent = "Not recorded: " + e.message;
    }
  });
  return section("Maintainer's read", "h-triage", current, form);
}

export function toolsCard(s) {
  const items = [];
  s.tools.forEach((t) => items.push(h("li", { class: "tool valid", "data-tool": t.id },
    h("div", { class: "tool-head" }, badge("valid", "ok"), " ", toolLink(t.id), t.title ? " — " + t.title : "",
      t.reachable ? null : badge("not reachable", "warn")),
    h("div", { class: "small" }, invokeSummary(t)),
    t.selection ? h("p", { class: "small" }, h("strong", null, "When: "), t.selection.when) : null)));
  s.contradictedBy.forEach((t) => {
    const contract = t.findings.filter((f) => f.code.startsWith("contract-"));
    items.push(h("li", { class: "tool contradicted", "data-tool": t.id },
      h("div", { class: "tool-head" }, badge("contradicted", "t-contradicted"), " ", toolLink(t.id), t.title ? " — " + t.title : ""),
      h("div", { class: "mismatch" },
        h("strong", null, "Contract mismatch: "),
        contract.length ? h("ul", null, contract.map((f) => h("li", null, h("code", null, f.code), " ", f.message))) : "the input contract contradicts this Tool (no message recorded).",
        t.inputs.length ? h("p", { class: "small muted" }, "Tool inputs: ", t.inputs.map((p, k) => [k ? ", " : "", h("code", null, p.name + (p.jsonType ? ": " + p.jsonType : "") + (p.required ? "" : "?"))])) : null)));
  });
  const guides = s.toolSkills.length ? h("p", { class: "small" }, "Guided by tool skills: ", s.toolSkills.map((g, k) => [k ? ", " : "", h("code", null, g.key)])) : null;
  return section("Tools", "h-tools",
    items.length ? h("ul", { class: "tools" }, items) : empty("No Tool claims this skill."),
    s.contract ? h("p", { class: "small muted" }, s.contract.external ? ["Input contract ", h("code", null, s.contract.ref), " is external: not fetched, not checked."]
      : s.contract.readable ? ["Checked against the input contract ", h("code", null, s.contract.ref), "."]
        : ["Input contract ", h("code", null, s.contract.ref), " is unreadable: nothing was checked."]) : null,
    guides);
}

export function stepsCard(s) {
  if (!s.steps.length) return section("Process steps naming it", "h-steps", empty("No process step names this skill."));
  return section("Process steps naming it", "h-steps",
    h("div", { class: "table-wrap" }, h("table", { class: "rows" },
      h("thead", null, h("tr", null, ["Step", "Performed by", "Process", "Lane", "Source"].map((x) => h("th", { scope: "col" }, x)))),
      h("tbody", null, s.steps.map((a) => h("tr", null,
        h("td", { "data-label": "Step" }, processLink(a.process.id, a.id, a.name || a.id), h("div", { class: "sub" }, h("code", null, a.id))),
        h("td", { "data-label": "Performed by" }, performer(a.automation), h("div", { class: "sub" }, a.element)),
        h("td", { "data-label": "Process" }, processLink(a.process.id, null, a.process.name || a.process.id)),
        h("td", { "data-label": "Lane" }, a.lane || h("span", { class: "muted" }, "—")),
        h("td", { "data-label": "Source" }, fileLine(a.process.source, a.line))))))));
}

export function reachCard(s) {
  let body;
  if (s.reachable && s.witness.length) {
    body = [h("p", null, "Reached from ", h("code", null, s.witness[0]), " in " + plural(s.witness.length - 1, "step") + ":"),
      pictureCard("reach-graph", "The witness path: the first way found from a root to this skill.",
        (el) => { const g = witnessGraph(s.witness); return drawGraph(el, g.nodes, g.edges, "Witness path of skill " + s.id + ": " + s.witness.join(" → ")); }),
      witnessChain(s.witness, "witness")];
  } else if (s.covered) {
    body = h("p", { class: "warn-text" }, "Covered but not reachable: no process, transport or trigger reaches this skill or any of its Tools (covered-not-reachable).");
  } else {
    body = h("p", { class: "muted" }, "Not reachable: no root reaches this skill.");
  }
  return section("Reachability", "h-reach-s", body);
}

export function altCard(s) {
  if (!s.alternatives.length) {
    return section("Alternatives", "h-alt", empty(s.tools.length > 1 ? "Its Tools are complementary: none substitutes for another." : "No Tool of this skill has a derived alternative."));
  }
  return section("Alternatives", "h-alt",
    h("p", { class: "small muted" }, "Tools with equal signatures that share this skill; each needs a selection so an agent can choose."),
    h("ul", { class: "alts" }, s.alternatives.map((t) => h("li", { class: "alt" },
      h("div", { class: "tool-head" }, toolLink(t.id), t.title ? " — " + t.title : "", " ", h("span", { class: "muted" }, "⇄ "), t.alternatives.map((a, k) => [k ? ", " : "", toolLink(a.id)])),
      selectionView(t)))));
}
