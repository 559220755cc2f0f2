// The coverage overview (#/).

import { gql } from "../api.js";
import { noteVersion } from "../chrome.js";
import { empty, h, link, n, pct, plural, section, skillLink, svgEl } from "../dom.js";
import { TIER_INFO } from "../labels.js";
import { ingestedLine, profilePicker } from "../parts.js";
import { state } from "../state.js";
import { trendSection } from "../trend.js";

export const OVERVIEW = `query Overview($profile: String) {
  graphVersion ingestedAt
  instances { name title version }
  profiles { name readOnly tools transports }
  coverage(profile: $profile) { total uncovered contradicted { id tier } tiers { tier count } bothHalves { id title } exempt { id title } }
  reachability(profile: $profile) { roots toolsWithoutCommand { id } unreachableProcesses coveredNotReachable { id } unreachableTools { id } }
  error: findings(severity: ERROR, first: 0) { totalCount }
  warning: findings(severity: WARNING, first: 0) { totalCount }
  info: findings(severity: INFO, first: 0) { totalCount }
}`;

export async function viewOverview(params) {
  const profile = params.get("profile") || "";
  const d = await gql(OVERVIEW, { profile: profile || null });
  noteVersion(d.graphVersion);
  state.profiles = d.profiles;
  const c = d.coverage;
  const tiers = {};
  c.tiers.forEach((t) => { tiers[t.tier] = t.count; });
  const counts = { covered: c.total - c.uncovered, contradicted: c.contradicted.length, A: tiers.A || 0, B: tiers.B || 0, C: tiers.C || 0, D: tiers.D || 0 };
  const names = d.instances.map((i) => (i.title || i.name) + (i.version ? " " + i.version : "")).join(", ");
  const reach = d.reachability;

  const root = h("div", { class: "overview" },
    h("div", { class: "page-head" },
      h("h1", { tabindex: "-1" }, "Coverage overview"),
      h("p", { class: "meta" },
        names ? [h("strong", null, names), " · "] : null,
        "graph version ", h("strong", { id: "graph-version" }, String(d.graphVersion)),
        " · ", ingestedLine(d.ingestedAt),
        " · ", plural(c.total, "skill"), ", ", n(c.uncovered), " uncovered")),
    profilePicker(d.profiles, profile, "/", "Counts which Tools count as performers; the queue and the skill pages always use every Tool."));

  // Stacked bar of the whole: covered + A + B + C + D = total.
  const order = ["covered", "A", "B", "C", "D"];
  const total = Math.max(c.total, 1);
  const W = 1000, H = 36;
  let x = 0;
  const svg = svgEl("svg", { viewBox: "0 0 " + W + " " + H, class: "stack", role: "img", "aria-labelledby": "stack-title", preserveAspectRatio: "none" });
  svg.appendChild(svgEl("title", { id: "stack-title" }, "Skills by coverage: " + order.map((k) => TIER_INFO[k].label + " " + counts[k]).join(", ")));
  for (const k of order) {
    const w = (counts[k] / total) * W;
    if (w <= 0) continue;
    const r = svgEl("rect", { x: x, y: 0, width: w, height: H, class: "seg seg-" + k });
    r.appendChild(svgEl("title", null, TIER_INFO[k].label + ": " + counts[k]));
    svg.appendChild(r);
    x += w;
  }
  // Contradicted skills are uncovered and sit in a tier: hatch their share
  // at the start of each tier's segment.
  const defs = svgEl("defs");
  const pat = svgEl("pattern", { id: "hatch", width: 8, height: 8, patternUnits: "userSpaceOnUse", patternTransform: "rotate(45)" });
  pat.appendChild(svgEl("rect", { x: 0, y: 0, width: 4, height: 8, class: "hatch-stroke" }));
  defs.appendChild(pat);
  svg.insertBefore(defs, svg.firstChild);
  let tx = (counts.covered / total) * W;
  for (const k of ["A", "B", "C", "D"]) {
    const inTier = c.contradicted.filter((s) => s.tier === k).length;
    if (inTier > 0) {
      const r = svgEl("rect", { x: tx, y: 0, width: (inTier / total) * W, height: H, fill: "url(#hatch)", class: "seg-hatch" });
      r.appendChild(svgEl("title", null, "Contradicted, tier " + k + ": " + inTier));
      svg.appendChild(r);
    }
    tx += (counts[k] / total) * W;
  }

  const cards = h("ul", { class: "tally", "aria-label": "Coverage totals" });
  for (const k of ["covered", "contradicted", "A", "B", "C", "D"]) {
    const href = k === "covered" ? "#/queue?tier=covered" : k === "contradicted" ? "#/queue?tier=contradicted" : "#/queue?tier=" + k;
    cards.append(h("li", { class: "tally-item tally-" + k },
      h("a", { href, class: "tally-link", "data-count": k },
        h("span", { class: "swatch seg-" + k, "aria-hidden": "true" }),
        h("span", { class: "tally-num" }, n(counts[k])),
        h("span", { class: "tally-pct" }, pct(counts[k], c.total)),
        h("span", { class: "tally-label" }, TIER_INFO[k].label),
        h("span", { class: "tally-help" }, TIER_INFO[k].help))));
  }
  root.append(section(profile ? "Skills by coverage under profile “" + profile + "”" : "Skills by coverage", "h-cov",
    h("figure", { class: "chart" }, svg,
      h("figcaption", null, "Covered, then tiers A–D of the uncovered skills (sums to " + n(c.total) + "). " + (counts.contradicted ? "Hatching marks the " + plural(counts.contradicted, "contradicted skill") + " inside their tier." : "No skill is contradicted."))),
    cards,
    h("p", { class: "next" }, counts.C > 0
      ? [h("strong", null, "Read next: "), plural(counts.C, "tier-C skill") + " need a human read. ", link("#/queue?tier=C", "Open the tier-C queue →", { class: "btn primary" })]
      : ["No tier-C skill is waiting for a read. ", link("#/queue", "Open the queue →")])));

  root.append(trendSection());

  const sev = h("ul", { class: "sev-tally", "aria-label": "Findings by severity" });
  for (const s of ["error", "warning", "info"]) {
    sev.append(h("li", null, h("a", { href: "#/findings?severity=" + s.toUpperCase(), class: "sev-link sev-" + s, "data-severity": s },
      h("span", { class: "tally-num" }, n(d[s].totalCount)), h("span", { class: "tally-label" }, s))));
  }
  root.append(h("div", { class: "grid2" },
    section("Findings by severity", "h-sev", sev),
    section("Reachability", "h-reach",
      h("ul", { class: "plain" },
        h("li", null, h("a", { href: "#/unreachable" }, h("strong", { "data-count": "covered-not-reachable" }, n(reach.coveredNotReachable.length)), " covered but not reachable")),
        h("li", null, h("a", { href: "#/unreachable" }, h("strong", null, n(reach.unreachableTools.length)), reach.unreachableTools.length === 1 ? " unreachable tool" : " unreachable tools")),
        h("li", null, h("a", { href: "#/unreachable" }, h("strong", null, n(reach.toolsWithoutCommand.length)), reach.toolsWithoutCommand.length === 1 ? " tool without a command" : " tools without a command")),
        h("li", null, h("a", { href: "#/unreachable" }, h("strong", null, n(reach.unreachableProcesses.length)), reach.unreachableProcesses.length === 1 ? " unreachable process" : " unreachable processes"))),
      profile ? h("p", { class: "muted small" }, "Under profile “" + profile + "”; the Unreachable page lists them with every Tool.") : null,
      h("p", { class: "muted small" }, "Roots: ", reach.roots.length ? reach.roots.map((r, i) => [i ? ", " : "", h("code", null, r)]) : "none"))));

  root.append(h("div", { class: "grid2" },
    section("Both halves (mechanism + judgement)", "h-both",
      c.bothHalves.length ? h("ul", { class: "plain" }, c.bothHalves.map((s) => h("li", null, skillLink(s.id), s.title ? " — " + s.title : ""))) : empty("None: no tier-A skill is also named by a person step.")),
    section("Exempt (uncovered on purpose)", "h-exempt",
      c.exempt.length ? h("ul", { class: "plain" }, c.exempt.map((s) => h("li", null, skillLink(s.id), s.title ? " — " + s.title : ""))) : empty("No standing exemption."))));
  return root;
}
