// The triage queue (#/queue): uncovered skills in triage order, filtered,
// sorted and paged on the server.

import { PAGE, gql } from "../api.js";
import { noteVersion } from "../chrome.js";
import { badge, empty, enc, h, link, n, plural, skillLink } from "../dom.js";
import { tierBadge, verdictBadge } from "../labels.js";
import { evidenceList } from "../parts.js";
import { setHashParams } from "../router.js";
import { triageOrder } from "../rules.js";

export const QUEUE = `query Queue($tier: String, $tiers: [String!], $covered: Boolean, $contradicted: Boolean, $package: String, $text: String,
    $orderBy: SkillOrder, $desc: Boolean, $first: Int, $after: String, $counts: Boolean!) {
  graphVersion
  packages { name count }
  skills(tier: $tier, tiers: $tiers, covered: $covered, contradicted: $contradicted, package: $package, text: $text,
      orderBy: $orderBy, desc: $desc, first: $first, after: $after) {
    totalCount pageInfo { hasNextPage endCursor } nodes { ...SkillRow }
  }
  C: skills(tier: "C", package: $package, text: $text, first: 0) @include(if: $counts) { totalCount }
  A: skills(tier: "A", package: $package, text: $text, first: 0) @include(if: $counts) { totalCount }
  B: skills(tier: "B", package: $package, text: $text, first: 0) @include(if: $counts) { totalCount }
  D: skills(tier: "D", package: $package, text: $text, first: 0) @include(if: $counts) { totalCount }
}`;

// How the tier filter names each tier; the order is the API's.
const TIER_LABELS = { C: "Tier C — needs a read", A: "Tier A", B: "Tier B", D: "Tier D" };

// Sortable queue columns, ordered on the server over the whole filtered
// list (so paging follows the order): "queue" is tier order C, A, B, D.
export const SORTS = { queue: "TIER", tier: "TIER", id: "ID", package: "PACKAGE" };

export async function fetchQueuePage(filters, sortKey, dir, cursor) {
  const QUEUE_ORDER = await triageOrder();
  const t = filters.tier;
  const v = {
    package: filters.package || null, text: filters.text || null,
    orderBy: SORTS[sortKey], desc: dir === "desc", first: PAGE, after: cursor || null, counts: t === "",
  };
  if (t === "covered") v.covered = true;
  else if (t === "contradicted") v.contradicted = true;
  else if (QUEUE_ORDER.includes(t)) v.tier = t;
  else v.tiers = QUEUE_ORDER;
  const d = await gql(QUEUE, v);
  noteVersion(d.graphVersion);
  const sk = d.skills;
  return { rows: sk.nodes, total: sk.totalCount, next: sk.pageInfo.hasNextPage ? sk.pageInfo.endCursor : null, counts: t === "" ? d : null, packages: d.packages, order: QUEUE_ORDER };
}

export async function viewQueue(params) {
  const filters = { tier: params.get("tier") || "", package: params.get("package") || "", text: params.get("text") || "" };
  const sortKey = SORTS.hasOwnProperty(params.get("sort")) ? params.get("sort") : "queue";
  const dir = params.get("dir") === "desc" ? "desc" : "asc";
  const cursor = params.get("after") || "";
  const pageNo = Math.max(1, parseInt(params.get("page") || "1", 10) || 1);
  const res = await fetchQueuePage(filters, sortKey, dir, cursor);

  const nav = (extra) => Object.assign({ tier: filters.tier, package: filters.package, text: filters.text, sort: sortKey === "queue" ? "" : sortKey, dir: dir === "desc" ? "desc" : "" }, extra);

  // Filters
  const tierSel = h("select", { id: "f-tier", name: "tier" },
    [["", "All uncovered (" + res.order.join(", ") + ")"], ...res.order.map((k) => [k, TIER_LABELS[k] || "Tier " + k]), ["contradicted", "Contradicted"], ["covered", "Covered"]]
      .map(([v, l]) => h("option", { value: v, selected: v === filters.tier }, l)));
  const pkg = h("input", { id: "f-package", name: "package", list: "packages", value: filters.package, autocomplete: "off", placeholder: "any package" });
  const text = h("input", { id: "f-text", name: "text", type: "search", value: filters.text, placeholder: "id, name, title, description" });
  const form = h("form", { class: "filters", id: "queue-filters", role: "search" },
    h("div", { class: "field" }, h("label", { for: "f-tier" }, "Tier"), tierSel),
    h("div", { class: "field" }, h("label", { for: "f-package" }, "Package"), pkg,
      h("datalist", { id: "packages" }, res.packages.map((p) => h("option", { value: p.name, label: p.name + " (" + plural(p.count, "skill") + ")" })))),
    h("div", { class: "field grow" }, h("label", { for: "f-text" }, "Text"), text),
    h("div", { class: "field actions" }, h("button", { type: "submit", class: "btn primary", id: "f-apply" }, "Filter"),
      h("button", { type: "button", class: "btn", onclick: () => setHashParams("/queue", {}) }, "Reset")));
  form.addEventListener("submit", (ev) => {
    ev.preventDefault();
    setHashParams("/queue", nav({ tier: tierSel.value, package: pkg.value.trim(), text: text.value.trim() }));
  });
  tierSel.addEventListener("change", () => form.requestSubmit());

  // A new order starts again at the first page.
  const th = (key, label) => {
    const active = sortKey === key || (sortKey === "queue" && key === "tier");
    const nextDir = active && dir === "asc" ? "desc" : "asc";
    return h("th", { scope: "col", "aria-sort": active && sortKey !== "queue" ? (dir === "asc" ? "ascending" : "descending") : null },
      h("button", { type: "button", class: "sort" + (active ? " on" : ""), "data-sort": key,
        onclick: () => setHashParams("/queue", nav({ sort: key, dir: nextDir === "desc" ? "desc" : "" })) },
        label, h("span", { class: "arrow", "aria-hidden": "true" }, active ? (dir === "asc" ? " ▲" : " ▼") : " ⇅")));
  };
  const plainTh = (label) => h("th", { scope: "col" }, label);
  const table = h("table", { class: "rows queue", id: "queue-table" },
    h("caption", { class: "sr-only" }, "Triage queue"),
    h("thead", null, h("tr", null, th("tier", "Tier"), th("id", "Skill"), th("package", "Package"), plainTh("Evidence"), plainTh("Read"))),
    h("tbody", null, res.rows.map(queueRow)));

  const first = (pageNo - 1) * PAGE + 1;
  const last = first + res.rows.length - 1;
  const pager = h("nav", { class: "pager", "aria-label": "Queue pages" },
    h("span", { class: "range", id: "queue-range" }, res.total ? "Skills " + n(first) + "–" + n(last) + " of " + n(res.total) : "No skill matches"),
    pageNo > 1 ? h("button", { type: "button", class: "btn", onclick: () => history.back() }, "← Previous") : null,
    res.next ? h("button", { type: "button", class: "btn", id: "queue-next", onclick: () => setHashParams("/queue", Object.assign(nav({}), { after: res.next, page: pageNo + 1 })) }, "Next " + PAGE + " →") : null);

  const tierTotals = res.counts ? h("p", { class: "muted" }, "Queue order: ", res.order.map((k, i) => [i ? " → " : "", tierBadge(k), " " + n(res.counts[k].totalCount)])) : null;
  return h("div", null,
    h("div", { class: "page-head" }, h("h1", { tabindex: "-1" }, "Triage queue"),
      h("p", { class: "meta" }, "Uncovered skills, tier C first: they need a human read. Then A (automation evidence), B (a person performs it) and D (no evidence).")),
    form, tierTotals,
    res.rows.length ? h("div", { class: "table-wrap" }, table) : empty("No skill matches these filters."),
    pager);
}

export function queueRow(s) {
  return h("tr", { "data-skill": s.id },
    h("td", { "data-label": "Tier" }, tierBadge(s.tier), s.contradicted ? badge("contradicted", "t-contradicted") : null),
    h("td", { "data-label": "Skill" }, skillLink(s.id), s.title && s.title !== s.id ? h("div", { class: "sub" }, s.title) : null),
    h("td", { "data-label": "Package" }, s.package ? link("#/queue?package=" + enc(s.package), s.package, { class: "pkg" }) : h("span", { class: "muted" }, "—")),
    h("td", { "data-label": "Evidence" }, evidenceList(s)),
    h("td", { "data-label": "Read" }, s.triage ? verdictBadge(s.triage.verdict) : h("span", { class: "muted" }, "not read")));
}
