// Coverage measured in workflows (#/workflows).

import { gql } from "../api.js";
import { noteVersion } from "../chrome.js";
import { clear, empty, h, n, pct, plural, processLink, skillLink } from "../dom.js";
import { STATE_INFO, stateTag } from "../labels.js";
import { profilePicker } from "../parts.js";
import { setHashParams } from "../router.js";
import { state } from "../state.js";

export const WF_PAGE = 50; // workflows rendered at a time

export const WORKFLOWS = `query Workflows($profile: String) {
  graphVersion
  profiles { name readOnly tools transports }
  workflows(profile: $profile) {
    process { id name }
    ratio total performed manual gap
    firstGap { step { id key } skillRef }
    steps { step { id key name element automation process { id } } skillRef skill { id } state }
  }
}`;

export async function viewWorkflows(params) {
  const profile = params.get("profile") || "";
  const only = ["gap", "manual", "complete"].includes(params.get("only")) ? params.get("only") : "";
  const q = (params.get("q") || "").trim();
  const d = await gql(WORKFLOWS, { profile: profile || null });
  noteVersion(d.graphVersion);
  state.profiles = d.profiles;
  const all = d.workflows;
  const ql = q.toLowerCase();
  const list = all.filter((w) => (!ql || (w.process.id + " " + (w.process.name || "")).toLowerCase().includes(ql)) &&
    (only === "" || (only === "gap" ? w.gap > 0 : only === "manual" ? w.manual > 0 : w.total > 0 && w.performed === w.total)));
  const sum = { complete: 0, gap: 0, none: 0 };
  all.forEach((w) => { if (!w.total) sum.none++; else if (w.gap) sum.gap++; else if (w.performed === w.total) sum.complete++; });

  const textIn = h("input", { id: "wf-text", name: "q", type: "search", value: q, placeholder: "process id or name" });
  const onlySel = h("select", { id: "wf-only", name: "only" },
    [["", "All processes"], ["gap", "With a gap"], ["manual", "With a manual step"], ["complete", "Fully performed"]]
      .map(([v, l]) => h("option", { value: v, selected: v === only }, l)));
  const filters = h("form", { class: "filters", id: "wf-filters", role: "search" },
    h("div", { class: "field grow" }, h("label", { for: "wf-text" }, "Process"), textIn),
    h("div", { class: "field" }, h("label", { for: "wf-only" }, "Show"), onlySel),
    h("div", { class: "field actions" }, h("button", { type: "submit", class: "btn primary", id: "wf-apply" }, "Filter")));
  filters.addEventListener("submit", (ev) => { ev.preventDefault(); setHashParams("/workflows", { profile, q: textIn.value.trim(), only: onlySel.value }); });
  onlySel.addEventListener("change", () => filters.requestSubmit());

  const legend = h("ul", { class: "wf-legend", "aria-label": "Step states" },
    ["performed", "manual", "gap"].map((k) => h("li", null, stateTag(k), " " + STATE_INFO[k].help)));

  const ol = h("ol", { class: "wf-list", id: "wf-list" });
  const more = h("div", { class: "pager" });
  let shown = 0;
  const range = h("span", { class: "range", id: "wf-range", "aria-live": "polite" });
  // Render lazily: WF_PAGE processes at a time, appended on demand.
  function showMore(focusNew) {
    const start = shown;
    const batch = list.slice(shown, shown + WF_PAGE);
    batch.forEach((w) => ol.append(workflowItem(w)));
    shown += batch.length;
    range.textContent = list.length ? "Processes 1–" + n(shown) + " of " + n(list.length) : "";
    clear(more);
    more.append(range);
    if (shown < list.length) {
      more.append(h("button", { type: "button", class: "btn", id: "wf-more", onclick: () => showMore(true) },
        "Show " + n(Math.min(WF_PAGE, list.length - shown)) + " more"));
    }
    if (focusNew && ol.children[start]) {
      const a = ol.children[start].querySelector("h2 a");
      if (a) a.focus();
    }
  }
  showMore(false);

  return h("div", { class: "workflows" },
    h("div", { class: "page-head" },
      h("h1", { tabindex: "-1" }, "Workflows"),
      h("p", { class: "meta" }, "Coverage measured in workflows: each process's skill-naming steps in sequence-flow order, called processes' steps in place, worst first."),
      profilePicker(d.profiles, profile, "/workflows", "Which Tools a host exposes: performed steps need a reachable, valid Tool the profile keeps.")),
    h("ul", { class: "tally wf-tally", "aria-label": "Workflow totals" },
      h("li", null, h("span", { class: "tally-link", "data-count": "wf-total" }, h("span", { class: "tally-num" }, n(all.length)), h("span", { class: "tally-label" }, "processes"))),
      h("li", null, h("span", { class: "tally-link", "data-count": "wf-complete" }, h("span", { class: "tally-num" }, n(sum.complete)), h("span", { class: "tally-label" }, "run end to end"))),
      h("li", null, h("span", { class: "tally-link", "data-count": "wf-gap" }, h("span", { class: "tally-num" }, n(sum.gap)), h("span", { class: "tally-label" }, "break at a gap")))),
    legend, filters,
    list.length ? [ol, more] : empty(all.length ? "No process matches these filters." : "No process names a skill."));
}

export function workflowItem(w) {
  const p = w.process;
  const fg = w.firstGap;
  const isFirstGap = (st) => fg && st.step.key === fg.step.key;
  const fgStep = fg ? w.steps.find(isFirstGap) : null;
  const seg = (k, v) => v ? h("span", { class: "wf-seg seg-" + k, style: null, "data-w": v }) : null;
  const bar = h("div", { class: "wf-bar", role: "img", "aria-label": n(w.performed) + " of " + n(w.total) + " steps performed, " + n(w.manual) + " manual, " + n(w.gap) + " gap" },
    seg("performed", w.performed), seg("manual", w.manual), seg("gap", w.gap));
  // Widths through the CSSOM: the page's CSP allows no inline style attribute.
  bar.querySelectorAll(".wf-seg").forEach((el) => { el.style.width = (100 * Number(el.dataset.w)) / Math.max(w.total, 1) + "%"; });
  const chips = h("ol", { class: "chips", "aria-label": "Steps of " + (p.name || p.id) }, w.steps.map((st) => {
    const first = isFirstGap(st);
    const callee = st.step.process.id !== p.id;
    return h("li", { class: "chip st-" + st.state + (first ? " first-gap" : ""), "data-state": st.state, "data-step": st.step.id, "data-process": st.step.process.id },
      stateTag(st.state),
      first ? h("strong", { class: "first-flag" }, "first gap") : null,
      h("span", { class: "chip-step" }, processLink(st.step.process.id, st.step.id, st.step.name || st.step.id)),
      h("span", { class: "chip-skill" }, st.skill ? skillLink(st.skill.id, st.skillRef) : h("code", { title: "names no known skill" }, st.skillRef + " (unknown)")),
      callee ? h("span", { class: "chip-in" }, "in ", h("code", null, st.step.process.id)) : null);
  }));
  return h("li", { class: "card wf", "data-process": p.id },
    h("div", { class: "wf-head" },
      h("h2", null, processLink(p.id, null, p.name || p.id)),
      h("span", { class: "wf-pct", "data-ratio": String(w.ratio) }, w.total ? pct(w.performed, w.total) + " performed" : "no skill step")),
    h("p", { class: "sub" }, h("code", null, p.id), " · " + n(w.performed) + " performed, " + n(w.manual) + " manual, " + n(w.gap) + " gap of " + plural(w.total, "step")),
    w.total ? bar : null,
    fg ? h("p", { class: "wf-first", "data-step": fg.step.id }, stateTag("gap"), " Breaks first at ",
      fgStep ? processLink(fgStep.step.process.id, fg.step.id, fgStep.step.name || fg.step.id) : h("code", null, fg.step.key),
      " — skill ", h("code", null, fg.skillRef))
      : w.total ? h("p", { class: "wf-first ok-text" }, w.manual ? "No gap: every step is performed or done by a person." : "Runs end to end: every step is performed.") : null,
    w.steps.length ? chips : null);
}
