// The overview's trend (#/): coverage and findings at each graph version the
// store keeps tallies of (Query.trend), drawn as an SVG line chart of our
// own. Every point is focusable and names its version and commit on hover
// or focus; the same numbers are a table below for screen readers and
// anyone who wants them as text.

import { gql } from "./api.js";
import { clear, h, link, n, section, svgEl } from "./dom.js";

export const TREND = `query Trend {
  coverage: trend(metric: COVERAGE) { version time commit value }
  skills: trend(metric: SKILLS) { value }
  errors: trend(metric: ERRORS) { value }
  warnings: trend(metric: WARNINGS) { value }
  infos: trend(metric: INFOS) { value }
}`;

// The series drawn: coverage against the left axis (a share), the
// findings against the right one (a count).
const SERIES = [
  { key: "coverage", label: "Coverage", cls: "covered", share: true },
  { key: "errors", label: "Errors", cls: "error" },
  { key: "warnings", label: "Warnings", cls: "warning" },
];

// trendSection returns the overview's "Over time" card at once and fills
// it when the history is read, so the rest of the overview never waits.
export function trendSection() {
  const body = h("div", { class: "trend" }, h("p", { class: "muted small" }, "Reading the history…"));
  gql(TREND).then((d) => fill(body, d), (e) => {
    clear(body);
    body.append(h("p", { class: "empty" }, "The history could not be read: " + e.message));
  });
  return section("Over time", "h-trend", body);
}

// niceCeil is the least 1, 2 or 5 times a power of ten at or above v.
function niceCeil(v) {
  const p = Math.pow(10, Math.floor(Math.log10(v)));
  for (const m of [1, 2, 5, 10]) if (m * p >= v) return m * p;
  return 10 * p;
}

function short(commit) { return commit ? commit.slice(0, 12) : ""; }
function day(time) { return time ? time.slice(0, 10) : ""; }
function percent(v) { return Math.round(v * 1000) / 10 + "%"; }

// rows joins the series into one row per version.
function rows(d) {
  return d.coverage.map((p, i) => ({
    version: p.version, time: p.time, commit: p.commit, coverage: p.value,
    skills: d.skills[i].value, errors: d.errors[i].value, warnings: d.warnings[i].value, infos: d.infos[i].value,
  }));
}

// describe is what a point says of its version.
function describe(r) {
  return "Version " + r.version + (r.commit ? ", commit " + short(r.commit) : "") + (r.time ? ", " + day(r.time) : "") +
    ": coverage " + percent(r.coverage) + " of " + n(r.skills) + " skills, " + n(r.errors) + " errors, " + n(r.warnings) + " warnings";
}

function fill(body, d) {
  clear(body);
  const rs = rows(d);
  if (!rs.length) {
    body.append(h("p", { class: "empty" }, "No version recorded yet."));
    return;
  }
  const W = 1000, H = 260, L = 56, R = 56, T = 14, B = 34;
  // The count axis ends at a round number above the largest count, so
  // the findings' lines do not run along the coverage line's 100%.
  const maxCount = niceCeil(1.15 * Math.max(1, ...rs.map((r) => Math.max(r.errors, r.warnings))));
  const x = (i) => (rs.length === 1 ? (L + W - R) / 2 : L + (i * (W - L - R)) / (rs.length - 1));
  const yShare = (v) => T + (1 - v) * (H - T - B);
  const yCount = (v) => T + (1 - v / maxCount) * (H - T - B);
  const svg = svgEl("svg", { viewBox: "0 0 " + W + " " + H, class: "trend-chart", role: "group", "aria-labelledby": "trend-title" });
  svg.appendChild(svgEl("title", { id: "trend-title" }, "Coverage and findings at each of " + rs.length + " graph versions; the table below has the numbers"));
  // Grid and axes: the share on the left, the count on the right.
  for (const f of [0, 0.5, 1]) {
    const y = yShare(f);
    svg.appendChild(svgEl("line", { x1: L, x2: W - R, y1: y, y2: y, class: "trend-grid" }));
    svg.appendChild(svgEl("text", { x: L - 8, y: y + 4, class: "trend-axis", "text-anchor": "end" }, f * 100 + "%"));
    svg.appendChild(svgEl("text", { x: W - R + 8, y: y + 4, class: "trend-axis" }, n(Math.round(f * maxCount))));
  }
  const first = rs[0], last = rs[rs.length - 1];
  svg.appendChild(svgEl("text", { x: L, y: H - 10, class: "trend-axis" }, "v" + first.version + (first.time ? " · " + day(first.time) : "")));
  if (rs.length > 1) {
    svg.appendChild(svgEl("text", { x: W - R, y: H - 10, class: "trend-axis", "text-anchor": "end" }, "v" + last.version + (last.time ? " · " + day(last.time) : "")));
  }
  const readout = h("p", { class: "trend-readout", id: "trend-readout", "aria-live": "polite" }, describe(last));
  // One focusable band per version: hovering or focusing it names the
  // version and marks its points.
  const marks = [];
  rs.forEach((r, i) => {
    // A point is a link to what changed in its version: click or Enter.
    const g = svgEl("g", { class: "trend-point", tabindex: 0, role: "link", "aria-label": describe(r) + ". Show what changed", "data-version": r.version });
    const half = rs.length === 1 ? 20 : (W - L - R) / (rs.length - 1) / 2;
    g.appendChild(svgEl("rect", { x: x(i) - half, y: T, width: 2 * half, height: H - T - B, class: "trend-band" }));
    for (const s of SERIES) {
      g.appendChild(svgEl("circle", { cx: x(i), cy: s.share ? yShare(r[s.key]) : yCount(r[s.key]), r: 4.5, class: "trend-dot trend-" + s.cls }));
    }
    g.appendChild(svgEl("title", null, describe(r)));
    const show = () => {
      marks.forEach((m) => m.classList.remove("active"));
      g.classList.add("active");
      readout.textContent = describe(r);
    };
    g.addEventListener("mouseenter", show);
    g.addEventListener("focus", show);
    const open = () => { location.hash = "#/version/" + r.version; };
    g.addEventListener("click", open);
    g.addEventListener("keydown", (ev) => { if (ev.key === "Enter") { ev.preventDefault(); open(); } });
    marks.push(g);
    svg.appendChild(g);
  });
  if (marks.length) marks[marks.length - 1].classList.add("active");
  // The lines over the bands, so a marked version's band tints no line.
  for (const s of SERIES) {
    const y = (r) => (s.share ? yShare(r[s.key]) : yCount(r[s.key]));
    if (rs.length > 1) {
      svg.appendChild(svgEl("polyline", { points: rs.map((r, i) => x(i) + "," + y(r)).join(" "), class: "trend-line trend-" + s.cls }));
    }
  }

  const legend = h("ul", { class: "trend-legend", "aria-hidden": "true" },
    SERIES.map((s) => h("li", null, h("span", { class: "trend-key trend-" + s.cls }), s.label + (s.share ? " (left axis)" : " (right axis)"))));
  const table = h("table", { class: "rows trend-table" },
    h("caption", null, "Coverage and findings per graph version, oldest first"),
    h("thead", null, h("tr", null, ["Version", "Recorded", "Commit", "Coverage", "Skills", "Errors", "Warnings", "Info"].map((c) => h("th", { scope: "col" }, c)))),
    h("tbody", null, rs.map((r) => h("tr", { "data-version": r.version },
      h("th", { scope: "row" }, link("#/version/" + r.version, String(r.version), { class: "version-link" })), h("td", null, day(r.time)), h("td", null, r.commit ? h("code", null, short(r.commit)) : "—"),
      h("td", null, percent(r.coverage)), h("td", null, n(r.skills)), h("td", null, n(r.errors)), h("td", null, n(r.warnings)), h("td", null, n(r.infos))))));
  body.append(h("figure", { class: "chart" }, svg, legend, readout),
    h("details", { class: "trend-numbers" }, h("summary", null, "The numbers as a table"), h("div", { class: "table-wrap" }, table)));
}
