// Every finding, filtered by severity and code (#/findings).

import { PAGE, gql } from "../api.js";
import { noteVersion } from "../chrome.js";
import { h, n } from "../dom.js";
import { findingsTable } from "../parts.js";
import { setHashParams } from "../router.js";
import { findingHelp } from "../rules.js";

export const FINDINGS = `query Findings($severity: Severity, $code: String, $first: Int, $after: String) {
  graphVersion
  findingCodes { name count }
  findings(severity: $severity, code: $code, first: $first, after: $after) {
    totalCount pageInfo { hasNextPage endCursor } edges { node { code severity message file line subject } }
  }
}`;

export async function viewFindings(params) {
  const severity = ["ERROR", "WARNING", "INFO"].includes(params.get("severity")) ? params.get("severity") : "";
  const code = params.get("code") || "";
  const after = params.get("after") || "";
  const pageNo = Math.max(1, parseInt(params.get("page") || "1", 10) || 1);
  const [d, rules] = await Promise.all([
    gql(FINDINGS, { severity: severity || null, code: code || null, first: PAGE, after: after || null }),
    findingHelp(),
  ]);
  noteVersion(d.graphVersion);
  const list = d.findings.edges.map((e) => e.node);
  const sevSel = h("select", { id: "f-severity", name: "severity" },
    [["", "All severities"], ["ERROR", "error"], ["WARNING", "warning"], ["INFO", "info"]].map(([v, l]) => h("option", { value: v, selected: v === severity }, l)));
  const codeIn = h("input", { id: "f-code", name: "code", list: "codes", value: code, autocomplete: "off", placeholder: "any code" });
  const form = h("form", { class: "filters", id: "findings-filters", role: "search" },
    h("div", { class: "field" }, h("label", { for: "f-severity" }, "Severity"), sevSel),
    h("div", { class: "field grow" }, h("label", { for: "f-code" }, "Code"), codeIn,
      h("datalist", { id: "codes" }, d.findingCodes.map((c) => h("option", { value: c.name, label: c.name + " (" + n(c.count) + ")" })))),
    h("div", { class: "field actions" }, h("button", { type: "submit", class: "btn primary", id: "ff-apply" }, "Filter"),
      h("button", { type: "button", class: "btn", onclick: () => setHashParams("/findings", {}) }, "Reset")));
  form.addEventListener("submit", (ev) => { ev.preventDefault(); setHashParams("/findings", { severity: sevSel.value, code: codeIn.value.trim() }); });
  sevSel.addEventListener("change", () => form.requestSubmit());
  const first = (pageNo - 1) * PAGE + 1;
  const pi = d.findings.pageInfo;
  return h("div", null,
    h("div", { class: "page-head" }, h("h1", { tabindex: "-1" }, "Findings"),
      h("p", { class: "meta" }, "Every integrity and analysis finding, with its stable code, file and line.")),
    form,
    code ? codeHelp(code, rules.get(code)) : null,
    findingsTable(list, "No finding matches these filters."),
    h("nav", { class: "pager", "aria-label": "Finding pages" },
      h("span", { class: "range", id: "findings-range" }, d.findings.totalCount ? "Findings " + n(first) + "–" + n(first + list.length - 1) + " of " + n(d.findings.totalCount) : "No findings"),
      pageNo > 1 ? h("button", { type: "button", class: "btn", onclick: () => history.back() }, "← Previous") : null,
      pi.hasNextPage ? h("button", { type: "button", class: "btn", onclick: () => setHashParams("/findings", { severity, code, after: pi.endCursor, page: pageNo + 1 }) }, "Next " + PAGE + " →") : null));
}

// codeHelp is the registry's entry for a code (Query.findingRules): what it
// means, why it matters and the SPEC section, as docs/findings.md has it.
function codeHelp(code, r) {
  if (!r) return h("p", { class: "muted", id: "finding-help" }, code + " is not a registered finding code.");
  return h("section", { class: "card", id: "finding-help", "aria-label": "About " + code },
    h("h2", null, h("code", null, r.code), " — " + r.severity.toLowerCase() + ", SPEC " + r.spec),
    h("p", null, r.means),
    r.why ? h("p", { class: "muted" }, r.why) : null);
}
