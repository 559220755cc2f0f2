// skillgraph coverage-triage page. Vanilla JS, no dependencies, no build
// step. It talks only to the same origin's /graphql. Every piece of corpus
// text reaches the DOM as a text node (never as HTML).
"use strict";

(function () {
  const PAGE = 100; // rows per server-side page
  const TOKEN_KEY = "skillgraph.token";
  const QUEUE_ORDER = ["C", "A", "B", "D"];
  const TIER_INFO = {
    covered: { label: "Covered", help: "a Tool with a valid satisfies edge can perform it" },
    contradicted: { label: "Contradicted", help: "uncovered: its only Tools contradict its input contract" },
    A: { label: "Tier A", help: "automation evidence: an automated step names it, or it has an I/O contract" },
    B: { label: "Tier B", help: "a person-performed step names it" },
    C: { label: "Tier C", help: "ambiguous — needs a human read (shell block or package script)" },
    D: { label: "Tier D", help: "no evidence at all" },
  };
  const MACHINE = new Set(["serviceTask", "scriptTask", "sendTask", "businessRuleTask"]);
  const PERSON = new Set(["userTask", "manualTask", "receiveTask"]);

  const main = document.getElementById("main");
  const WF_PAGE = 50; // workflows rendered at a time
  const STATE_INFO = {
    performed: { label: "performed", help: "a reachable, valid Tool performs the skill" },
    manual: { label: "manual", help: "only a person performs it: a person step whose skill is uncovered" },
    gap: { label: "gap", help: "nothing performs it" },
  };
  const state = { version: null, viewer: { canRecord: false, readOnly: false }, profiles: null, renderSeq: 0 };

  // ---------- DOM helpers ----------

  // h builds an element: h("a", {href: "#/"}, "text", child, [more]).
  function h(tag, attrs) {
    const el = document.createElement(tag);
    if (attrs) {
      for (const [k, v] of Object.entries(attrs)) {
        if (v === null || v === undefined || v === false) continue;
        if (k === "class") el.className = v;
        else if (k.startsWith("on") && typeof v === "function") el.addEventListener(k.slice(2), v);
        else if (v === true) el.setAttribute(k, "");
        else el.setAttribute(k, String(v));
      }
    }
    for (let i = 2; i < arguments.length; i++) append(el, arguments[i]);
    return el;
  }
  function append(el, c) {
    if (c === null || c === undefined || c === false) return;
    if (Array.isArray(c)) { c.forEach((x) => append(el, x)); return; }
    el.appendChild(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  function clear(el) { while (el.firstChild) el.removeChild(el.firstChild); }
  const fmt = new Intl.NumberFormat();
  function n(x) { return fmt.format(x); }
  function pct(x, total) { return total ? Math.round((100 * x) / total) + "%" : ""; }
  function plural(x, one, many) { return n(x) + " " + (x === 1 ? one : many || one + "s"); }

  function link(hash, text, attrs) { return h("a", Object.assign({ href: hash }, attrs || {}), text); }
  function enc(s) { return encodeURIComponent(s); }
  function skillLink(id, text) { return link("#/skill/" + enc(id), text || id, { class: "skill-link" }); }
  function toolLink(id, text) { return link("#/tool/" + enc(id), text || id, { class: "tool-link" }); }
  function processLink(id, step, text) {
    return link("#/process/" + enc(id) + (step ? "?step=" + enc(step) : ""), text || id, { class: "process-link" });
  }
  function fileLine(file, line) {
    if (!file) return h("span", { class: "muted" }, "—");
    return h("code", { class: "file" }, file + (line ? ":" + line : ""));
  }
  function badge(text, kind, title) { return h("span", { class: "badge " + (kind || ""), title: title || null }, text); }
  function tierBadge(tier) {
    if (!tier) return badge("covered", "t-covered");
    return badge(tier, "t-" + tier, TIER_INFO[tier] ? TIER_INFO[tier].help : null);
  }
  function sevBadge(sev) { return badge(sev.toLowerCase(), "sev-" + sev.toLowerCase()); }
  function section(title, id, ...children) {
    return h("section", { class: "card", "aria-labelledby": id }, h("h2", { id: id }, title), children);
  }
  function empty(text) { return h("p", { class: "empty" }, text); }

  // icon draws a small inline SVG (no icon font, no emoji font needed).
  function icon(kind) {
    const svg = svgEl("svg", { viewBox: "0 0 16 16", class: "icon", "aria-hidden": "true", focusable: "false" });
    if (kind === "machine") {
      svg.appendChild(svgEl("rect", { x: 2.5, y: 4.5, width: 11, height: 8, rx: 2, fill: "none", stroke: "currentColor", "stroke-width": 1.6 }));
      svg.appendChild(svgEl("circle", { cx: 6, cy: 8.5, r: 1.2, fill: "currentColor" }));
      svg.appendChild(svgEl("circle", { cx: 10, cy: 8.5, r: 1.2, fill: "currentColor" }));
      svg.appendChild(svgEl("path", { d: "M8 4.5V2", stroke: "currentColor", "stroke-width": 1.6 }));
    } else if (kind === "check") {
      svg.appendChild(svgEl("path", { d: "M3 8.5l3.2 3.2L13 4.8", fill: "none", stroke: "currentColor", "stroke-width": 2.2, "stroke-linecap": "round", "stroke-linejoin": "round" }));
    } else if (kind === "gap") {
      svg.appendChild(svgEl("path", { d: "M4 4l8 8M12 4l-8 8", fill: "none", stroke: "currentColor", "stroke-width": 2.2, "stroke-linecap": "round" }));
    } else {
      svg.appendChild(svgEl("circle", { cx: 8, cy: 5, r: 2.8, fill: "currentColor" }));
      svg.appendChild(svgEl("path", { d: "M2.5 14.5c0-3.2 2.5-5 5.5-5s5.5 1.8 5.5 5z", fill: "currentColor" }));
    }
    return svg;
  }

  function performer(element, automation) {
    const a = automation || (MACHINE.has(element) ? "automated" : PERSON.has(element) ? "person" : null);
    if (a === "automated") return h("span", { class: "perf perf-machine" }, icon("machine"), "machine");
    if (a === "person") return h("span", { class: "perf perf-person" }, icon("person"), "person");
    return h("span", { class: "perf perf-none", title: "task, callActivity and subProcess carry no automation evidence" }, "? not stated");
  }

  // ---------- GraphQL ----------

  function token() { try { return sessionStorage.getItem(TOKEN_KEY) || ""; } catch (e) { return ""; } }
  function setToken(t) {
    try { if (t) sessionStorage.setItem(TOKEN_KEY, t); else sessionStorage.removeItem(TOKEN_KEY); } catch (e) { /* storage off */ }
  }

  class GQLError extends Error {
    constructor(msg, status) { super(msg); this.status = status; }
  }

  async function gql(query, variables, opts) {
    const headers = { "Content-Type": "application/json", Accept: "application/json" };
    if (opts && opts.auth) headers.Authorization = "Bearer " + token();
    let res;
    try {
      res = await fetch("graphql", { method: "POST", headers, body: JSON.stringify({ query, variables: variables || {} }) });
    } catch (e) {
      throw new GQLError("The skillgraph server did not answer: " + e.message, 0);
    }
    let body;
    try { body = await res.json(); } catch (e) { throw new GQLError("HTTP " + res.status + " with a body that is not JSON", res.status); }
    if (body.errors && body.errors.length) {
      throw new GQLError(body.errors.map((x) => x.message).join("; "), res.status);
    }
    if (!res.ok) throw new GQLError("HTTP " + res.status, res.status);
    return body.data;
  }

  // ---------- chrome: auth box, banner, footer ----------

  function canRecord() { return !!token() && state.viewer.canRecord && !state.viewer.readOnly; }

  // loadViewer asks the server what this tab may do, sending the kept token
  // (if any) with a plain query; a token the server no longer accepts is
  // forgotten.
  async function loadViewer() {
    try {
      const d = await gql("query Viewer { viewer { canRecord readOnly } }", null, { auth: !!token() });
      state.viewer = d.viewer;
    } catch (e) {
      state.viewer = { canRecord: false, readOnly: false };
      return;
    }
    if (token() && !state.viewer.canRecord) {
      setToken("");
      state.tokenDropped = true;
    }
  }

  function renderAuth() {
    const box = document.getElementById("auth");
    clear(box);
    if (state.viewer.readOnly) {
      box.append(badge("read-only", "auth-off", "this server has no token configured"),
        h("span", { class: "muted small", id: "mutations-off" }, "mutations disabled on this server"));
      return;
    }
    if (canRecord()) {
      box.append(
        badge("maintainer", "auth-on", "a token is kept in this tab's sessionStorage"),
        h("button", { type: "button", class: "btn small", id: "signout", onclick: () => { setToken(""); state.viewer.canRecord = false; renderAuth(); route(); } }, "Forget token")
      );
      return;
    }
    const err = h("p", { class: "auth-error", id: "token-error", role: "alert" },
      state.tokenDropped ? "The kept token is no longer accepted; sign in again." : null);
    const input = h("input", { type: "password", id: "token-input", name: "token", autocomplete: "off", spellcheck: "false", placeholder: "bearer token", required: true });
    const form = h("form", { class: "token-form", id: "token-form", hidden: !state.tokenDropped },
      h("label", { for: "token-input" }, "Maintainer token"), input,
      h("button", { type: "submit", class: "btn small", id: "token-submit" }, "Use token"), err);
    form.addEventListener("submit", async (ev) => {
      ev.preventDefault();
      const t = input.value.trim();
      if (!t) return;
      err.textContent = "Checking…";
      const check = await checkToken(t);
      if (!check.ok) { err.textContent = check.message; input.value = ""; input.focus(); return; }
      state.tokenDropped = false;
      setToken(t);
      renderAuth();
      route();
    });
    const toggle = h("button", { type: "button", class: "btn small", id: "signin", "aria-expanded": String(!form.hidden), "aria-controls": "token-form" }, "Sign in to record reads");
    toggle.addEventListener("click", () => {
      form.hidden = !form.hidden;
      toggle.setAttribute("aria-expanded", String(!form.hidden));
      if (!form.hidden) input.focus();
    });
    box.append(badge("read-only", "auth-off", "no token: the page cannot record verdicts"), toggle, form);
  }

  // checkToken proves a token without changing anything: a plain viewer
  // query sent with it says whether the server would accept a mutation.
  async function checkToken(t) {
    try {
      const res = await fetch("graphql", {
        method: "POST",
        headers: { "Content-Type": "application/json", Accept: "application/json", Authorization: "Bearer " + t },
        body: JSON.stringify({ query: "query Viewer { viewer { canRecord readOnly } }" }),
      });
      const body = await res.json().catch(() => ({}));
      const v = body.data && body.data.viewer;
      if (!res.ok || !v) {
        const msg = body.errors && body.errors[0] ? body.errors[0].message : "HTTP " + res.status;
        return { ok: false, message: "Token refused: " + msg };
      }
      state.viewer = v;
      if (v.readOnly) return { ok: false, message: "Mutations are disabled on this server." };
      if (!v.canRecord) return { ok: false, message: "Token refused: the server does not accept it." };
      return { ok: true };
    } catch (e) {
      return { ok: false, message: "Could not reach the server: " + e.message };
    }
  }

  function showBanner(content, kind) {
    const b = document.getElementById("banner");
    clear(b);
    if (!content) { b.hidden = true; return; }
    b.className = "banner " + (kind || "");
    append(b, content);
    b.hidden = false;
  }

  function noteVersion(v) {
    state.version = v;
    document.getElementById("foot-version").textContent = "graph version " + v;
  }

  // Poll the graph version so a maintainer sees when a re-ingest lands.
  async function pollVersion() {
    if (document.hidden || state.version === null) return;
    try {
      const d = await gql("{ graphVersion }");
      if (d.graphVersion !== state.version) {
        showBanner([
          "The graph changed (version " + state.version + " → " + d.graphVersion + "). ",
          h("button", { type: "button", class: "btn small", onclick: () => { showBanner(null); route(); } }, "Show the new version"),
        ], "info");
      }
    } catch (e) { /* transient; the next view load reports errors */ }
  }

  // ---------- router ----------

  function parseHash() {
    let raw = location.hash.replace(/^#/, "");
    if (!raw.startsWith("/")) raw = "/";
    const q = raw.indexOf("?");
    const pathPart = q < 0 ? raw : raw.slice(0, q);
    const params = new URLSearchParams(q < 0 ? "" : raw.slice(q + 1));
    const parts = pathPart.split("/").filter(Boolean).map(decodeURIComponent);
    return { parts, params };
  }

  function setHashParams(base, params) {
    const qs = new URLSearchParams();
    for (const [k, v] of Object.entries(params)) if (v !== "" && v !== null && v !== undefined) qs.set(k, v);
    const s = qs.toString();
    const next = "#" + base + (s ? "?" + s : "");
    if (location.hash !== next) location.hash = next;
    else route();
  }

  let firstRoute = true;
  async function route() {
    const seq = ++state.renderSeq;
    const { parts, params } = parseHash();
    const view = parts[0] || "overview";
    // The exposure profile rides along between the views that honour it.
    if (view === "overview" || view === "workflows") state.profile = params.get("profile") || "";
    document.querySelectorAll("[data-nav]").forEach((a) => {
      const on = a.dataset.nav === view || (view === "skill" && a.dataset.nav === "queue");
      if (on) a.setAttribute("aria-current", "page"); else a.removeAttribute("aria-current");
      if (a.dataset.nav === "overview" || a.dataset.nav === "workflows") {
        const base = a.dataset.nav === "overview" ? "#/" : "#/workflows";
        a.setAttribute("href", state.profile ? base + "?profile=" + enc(state.profile) : base);
      }
    });
    clear(main);
    main.setAttribute("aria-busy", "true");
    main.append(h("p", { class: "loading" }, "Loading…"));
    let node;
    try {
      switch (view) {
        case "overview": node = await viewOverview(params); break;
        case "workflows": node = await viewWorkflows(params); break;
        case "queue": node = await viewQueue(params); break;
        case "skill": node = await viewSkill(parts[1] || "", params); break;
        case "tool": node = await viewTool(parts[1] || ""); break;
        case "process": node = await viewProcess(parts[1] || "", params); break;
        case "unreachable": node = await viewUnreachable(params); break;
        case "findings": node = await viewFindings(params); break;
        default: node = h("div", null, h("h1", { tabindex: "-1" }, "Not found"), empty("No view called “" + view + "”."), link("#/", "Back to the overview"));
      }
    } catch (e) {
      node = h("div", null, h("h1", { tabindex: "-1" }, "Something went wrong"),
        h("p", { class: "error", role: "alert" }, e.message), h("button", { type: "button", class: "btn", onclick: route }, "Retry"));
    }
    if (seq !== state.renderSeq) return; // a newer navigation won
    clear(main);
    main.append(node);
    main.removeAttribute("aria-busy");
    const h1 = main.querySelector("h1");
    if (h1) {
      document.title = h1.textContent + " — skillgraph";
      if (!firstRoute) { h1.setAttribute("tabindex", "-1"); h1.focus({ preventScroll: false }); }
    }
    firstRoute = false;
    const target = main.querySelector(".highlight");
    if (target) target.scrollIntoView({ block: "center" });
  }

  // ---------- overview ----------

  const OVERVIEW = `query Overview($profile: String) {
    graphVersion ingestedAt
    instances { name title version }
    profiles { name readOnly tools transports }
    coverage(profile: $profile) { total uncovered contradicted { id tier } tiers { tier count } bothHalves { id title } exempt { id title } }
    reachability(profile: $profile) { roots toolsWithoutCommand { id } unreachableProcesses coveredNotReachable { id } unreachableTools { id } }
    error: findings(severity: ERROR, first: 0) { totalCount }
    warning: findings(severity: WARNING, first: 0) { totalCount }
    info: findings(severity: INFO, first: 0) { totalCount }
  }`;

  async function viewOverview(params) {
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

  function ingestedLine(at) {
    if (!at) return h("span", { id: "ingested" }, "ingest time unknown");
    const t = new Date(at);
    return h("span", { id: "ingested" }, "ingested ", h("time", { datetime: at, title: at }, isNaN(t) ? at : t.toLocaleString()));
  }

  function profileSummary(p) {
    const parts = [];
    if (p.readOnly) parts.push("read-only Tools");
    if (p.tools.length) parts.push(plural(p.tools.length, "listed tool"));
    if (p.transports.length) parts.push(p.transports.join("/"));
    return parts.length ? parts.join(", ") : "no restriction";
  }

  // profilePicker offers the declared exposure profiles; choosing one
  // re-queries the view under it ("" = every Tool counts).
  function profilePicker(profiles, current, base, note) {
    const sel = h("select", { id: "profile", name: "profile" },
      h("option", { value: "", selected: !current }, "All Tools (no profile)"),
      profiles.map((p) => h("option", { value: p.name, selected: p.name === current }, p.name + " — " + profileSummary(p))),
      current && !profiles.some((p) => p.name === current) ? h("option", { value: current, selected: true }, current + " (not declared)") : null);
    sel.addEventListener("change", () => { state.profile = sel.value; setHashParams(base, { profile: sel.value }); });
    return h("form", { class: "profile-pick", id: "profile-form", onsubmit: (ev) => ev.preventDefault() },
      h("label", { for: "profile" }, "Exposure profile"), sel,
      h("span", { class: "muted small" }, profiles.length ? note : "No profile is declared (instance profiles: …)."));
  }

  function svgEl(tag, attrs, text) {
    const el = document.createElementNS("http://www.w3.org/2000/svg", tag);
    for (const [k, v] of Object.entries(attrs || {})) el.setAttribute(k, String(v));
    if (text) el.textContent = text;
    return el;
  }

  // ---------- triage queue ----------

  const SKILL_ROW = `id title package tier covered contradicted evidence source line contract { ref } triage { verdict note }`;
  const QUEUE = `query Queue($tier: String, $tiers: [String!], $covered: Boolean, $contradicted: Boolean, $package: String, $text: String,
      $orderBy: SkillOrder, $desc: Boolean, $first: Int, $after: String, $counts: Boolean!) {
    graphVersion
    packages { name count }
    skills(tier: $tier, tiers: $tiers, covered: $covered, contradicted: $contradicted, package: $package, text: $text,
        orderBy: $orderBy, desc: $desc, first: $first, after: $after) {
      totalCount pageInfo { hasNextPage endCursor } nodes { ${SKILL_ROW} }
    }
    C: skills(tier: "C", package: $package, text: $text, first: 0) @include(if: $counts) { totalCount }
    A: skills(tier: "A", package: $package, text: $text, first: 0) @include(if: $counts) { totalCount }
    B: skills(tier: "B", package: $package, text: $text, first: 0) @include(if: $counts) { totalCount }
    D: skills(tier: "D", package: $package, text: $text, first: 0) @include(if: $counts) { totalCount }
  }`;

  // Sortable queue columns, ordered on the server over the whole filtered
  // list (so paging follows the order): "queue" is tier order C, A, B, D.
  const SORTS = { queue: "TIER", tier: "TIER", id: "ID", package: "PACKAGE" };

  async function fetchQueuePage(filters, sortKey, dir, cursor) {
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
    return { rows: sk.nodes, total: sk.totalCount, next: sk.pageInfo.hasNextPage ? sk.pageInfo.endCursor : null, counts: t === "" ? d : null, packages: d.packages };
  }

  async function viewQueue(params) {
    const filters = { tier: params.get("tier") || "", package: params.get("package") || "", text: params.get("text") || "" };
    const sortKey = SORTS.hasOwnProperty(params.get("sort")) ? params.get("sort") : "queue";
    const dir = params.get("dir") === "desc" ? "desc" : "asc";
    const cursor = params.get("after") || "";
    const pageNo = Math.max(1, parseInt(params.get("page") || "1", 10) || 1);
    const res = await fetchQueuePage(filters, sortKey, dir, cursor);

    const nav = (extra) => Object.assign({ tier: filters.tier, package: filters.package, text: filters.text, sort: sortKey === "queue" ? "" : sortKey, dir: dir === "desc" ? "desc" : "" }, extra);

    // Filters
    const tierSel = h("select", { id: "f-tier", name: "tier" },
      [["", "All uncovered (C, A, B, D)"], ["C", "Tier C — needs a read"], ["A", "Tier A"], ["B", "Tier B"], ["D", "Tier D"], ["contradicted", "Contradicted"], ["covered", "Covered"]]
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

    const tierTotals = res.counts ? h("p", { class: "muted" }, "Queue order: ", QUEUE_ORDER.map((k, i) => [i ? " → " : "", tierBadge(k), " " + n(res.counts[k].totalCount)])) : null;
    return h("div", null,
      h("div", { class: "page-head" }, h("h1", { tabindex: "-1" }, "Triage queue"),
        h("p", { class: "meta" }, "Uncovered skills, tier C first: they need a human read. Then A (automation evidence), B (a person performs it) and D (no evidence).")),
      form, tierTotals,
      res.rows.length ? h("div", { class: "table-wrap" }, table) : empty("No skill matches these filters."),
      pager);
  }

  function queueRow(s) {
    return h("tr", { "data-skill": s.id },
      h("td", { "data-label": "Tier" }, tierBadge(s.tier), s.contradicted ? badge("contradicted", "t-contradicted") : null),
      h("td", { "data-label": "Skill" }, skillLink(s.id), s.title && s.title !== s.id ? h("div", { class: "sub" }, s.title) : null),
      h("td", { "data-label": "Package" }, s.package ? link("#/queue?package=" + enc(s.package), s.package, { class: "pkg" }) : h("span", { class: "muted" }, "—")),
      h("td", { "data-label": "Evidence" }, evidenceList(s)),
      h("td", { "data-label": "Read" }, s.triage ? verdictBadge(s.triage.verdict) : h("span", { class: "muted" }, "not read")));
  }

  function verdictBadge(v) { return badge(v, "verdict v-" + v); }

  // evidenceList links each piece of tier evidence to the step, or to the
  // file and line it stands on.
  function evidenceList(s) {
    if (!s.evidence || !s.evidence.length) return h("span", { class: "muted" }, s.covered ? "—" : "no evidence");
    return h("ul", { class: "evidence" }, s.evidence.map((e) => h("li", null, evidenceItem(s, e))));
  }
  function evidenceItem(s, e) {
    let m = /^([A-Za-z]+):([^/]+)\/(.+)$/.exec(e);
    if (m && !e.startsWith("shell-block:") && !e.startsWith("script:")) {
      return [performer(m[1]), " ", processLink(m[2], m[3], m[2] + "/" + m[3]), h("span", { class: "muted small" }, " " + m[1])];
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

  // ---------- skill detail ----------

  const FINDING = `code severity message file line`;
  const SEL = `selection { when limits cost }`;
  const SKILL = `query Skill($id: ID!) {
    graphVersion
    skill(id: $id) {
      id iri name title description flavour package instance tier covered contradicted exempt bothHalves evidence
      source line shellBlocks
      contract { ref external readable required }
      tools { id title description origin reachable invoke { shell mcpServer mcpTool container inProcess manual } ${SEL} findings { ${FINDING} } }
      contradictedBy { id title origin reachable inputs { name jsonType required } findings { ${FINDING} } }
      toolSkills { key title summary }
      steps { id key element name automation lane line process { id stem name source } }
      reachable witness
      alternatives { id title ${SEL} alternatives { id title ${SEL} } }
      findings { ${FINDING} }
      triage { verdict note recordedAt }
    }
  }`;

  async function viewSkill(id, params) {
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
            h("dt", null, "Package"), h("dd", null, s.package ? link("#/queue?package=" + enc(s.package), s.package) : "—"),
            h("dt", null, "Flavour"), h("dd", null, s.flavour),
            h("dt", null, "Source"), h("dd", { id: "skill-source", class: line ? "highlight" : null }, fileLine(s.source, line || s.line)),
            s.shellBlocks.length ? [h("dt", null, "Shell blocks"), h("dd", null, s.shellBlocks.map((l, i) => [i ? ", " : "", fileLine(s.source, l)]))] : null,
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

  function contractView(c) {
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

  function triageCard(s) {
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

  function invokeSummary(t) {
    const i = t.invoke;
    const out = [];
    if (i.shell && i.shell.length) out.push(h("code", { class: "argv" }, i.shell.join(" ")));
    if (i.mcpTool) out.push(h("span", null, "MCP ", h("code", null, (i.mcpServer ? i.mcpServer + "/" : "") + i.mcpTool)));
    if (i.container) out.push(h("span", null, "container ", h("code", null, i.container)));
    if (i.inProcess) out.push(h("span", null, "in-process ", h("code", null, i.inProcess)));
    if (i.manual) out.push(h("span", null, "manual"));
    return out.length ? out.map((x, k) => [k ? " · " : "", x]) : h("span", { class: "muted" }, "no invocation");
  }

  function toolsCard(s) {
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

  function stepsCard(s) {
    if (!s.steps.length) return section("Process steps naming it", "h-steps", empty("No process step names this skill."));
    return section("Process steps naming it", "h-steps",
      h("div", { class: "table-wrap" }, h("table", { class: "rows" },
        h("thead", null, h("tr", null, ["Step", "Performed by", "Process", "Lane", "Source"].map((x) => h("th", { scope: "col" }, x)))),
        h("tbody", null, s.steps.map((a) => h("tr", null,
          h("td", { "data-label": "Step" }, processLink(a.process.id, a.id, a.name || a.id), h("div", { class: "sub" }, h("code", null, a.id))),
          h("td", { "data-label": "Performed by" }, performer(a.element, a.automation), h("div", { class: "sub" }, a.element)),
          h("td", { "data-label": "Process" }, processLink(a.process.id, null, a.process.name || a.process.id)),
          h("td", { "data-label": "Lane" }, a.lane || h("span", { class: "muted" }, "—")),
          h("td", { "data-label": "Source" }, fileLine(a.process.source, a.line))))))));
  }

  // witnessChain draws a witness path: root → … → node.
  function witnessChain(keys, id) {
    return h("ol", { class: "chain", id: id || null, "aria-label": "Witness path from a root" }, keys.map((k, i) => h("li", { class: "chain-node" + (i === 0 ? " root" : "") }, keyLink(k))));
  }
  function keyLink(k) {
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

  function reachCard(s) {
    let body;
    if (s.reachable && s.witness.length) {
      body = [h("p", null, "Reached from ", h("code", null, s.witness[0]), " in " + plural(s.witness.length - 1, "step") + ":"), witnessChain(s.witness, "witness")];
    } else if (s.covered) {
      body = h("p", { class: "warn-text" }, "Covered but not reachable: no process, transport or trigger reaches this skill or any of its Tools (covered-not-reachable).");
    } else {
      body = h("p", { class: "muted" }, "Not reachable: no root reaches this skill.");
    }
    return section("Reachability", "h-reach-s", body);
  }

  function selectionView(t) {
    if (!t.selection) return h("p", { class: "warn-text small" }, "No selection: an agent cannot choose between the alternatives (alternative-without-selection).");
    return h("dl", { class: "kv small" }, h("dt", null, "when"), h("dd", null, t.selection.when), h("dt", null, "limits"), h("dd", null, t.selection.limits), h("dt", null, "cost"), h("dd", null, t.selection.cost));
  }

  function altCard(s) {
    if (!s.alternatives.length) {
      return section("Alternatives", "h-alt", empty(s.tools.length > 1 ? "Its Tools are complementary: none substitutes for another." : "No Tool of this skill has a derived alternative."));
    }
    return section("Alternatives", "h-alt",
      h("p", { class: "small muted" }, "Tools with equal signatures that share this skill; each needs a selection so an agent can choose."),
      h("ul", { class: "alts" }, s.alternatives.map((t) => h("li", { class: "alt" },
        h("div", { class: "tool-head" }, toolLink(t.id), t.title ? " — " + t.title : "", " ", h("span", { class: "muted" }, "⇄ "), t.alternatives.map((a, k) => [k ? ", " : "", toolLink(a.id)])),
        selectionView(t)))));
  }

  function findingsTable(list, none) {
    if (!list.length) return empty(none);
    return h("div", { class: "table-wrap" }, h("table", { class: "rows findings" },
      h("thead", null, h("tr", null, ["Severity", "Code", "Message", "Where"].map((x) => h("th", { scope: "col" }, x)))),
      h("tbody", null, list.map(findingRow))));
  }
  function findingRow(f) {
    return h("tr", { "data-code": f.code },
      h("td", { "data-label": "Severity" }, sevBadge(f.severity)),
      h("td", { "data-label": "Code" }, link("#/findings?code=" + enc(f.code), f.code, { class: "code-link" })),
      h("td", { "data-label": "Message" }, f.message),
      h("td", { "data-label": "Where" }, fileLine(f.file, f.line), f.subject ? h("div", { class: "sub" }, subjectLink(f.subject)) : null));
  }
  // subjectLink turns a node IRI (<doc>#<kind>/<id>) into a page link.
  function subjectLink(iri) {
    const m = /#(skill|tool|process)\/([^/]+)$/.exec(iri);
    if (!m) return null;
    const id = decodeURIComponent(m[2]);
    return m[1] === "skill" ? skillLink(id) : m[1] === "tool" ? toolLink(id) : processLink(id);
  }

  // ---------- tool and process ----------

  const TOOL = `query Tool($id: ID!) {
    graphVersion
    tool(id: $id) {
      id iri title description origin instance source line reachable witness readOnly requires renders
      satisfies { id title } validFor { id }
      invoke { shell mcpServer mcpTool container inProcess manual }
      inputs { name type jsonType required repeated arg description }
      outputs { name type jsonType render }
      ${SEL}
      alternatives { id title }
      exposedBy { id }
      gatedBy { key title }
      subprocesses { id name }
      findings { ${FINDING} }
    }
    programs { name dynamic installed tools { id } }
  }`;

  async function viewTool(id) {
    const d = await gql(TOOL, { id });
    noteVersion(d.graphVersion);
    const t = d.tool;
    if (!t) return h("div", null, h("h1", { tabindex: "-1" }, "No tool “" + id + "”"), link("#/unreachable", "Unreachable tools"));
    const valid = new Set(t.validFor.map((s) => s.id));
    const progs = d.programs.filter((p) => p.tools.some((x) => x.id === t.id));
    const ports = (list, out) => list.length ? h("div", { class: "table-wrap" }, h("table", { class: "rows" },
      h("thead", null, h("tr", null, (out ? ["Output", "Type", "Render"] : ["Input", "Type", "Required", "Passed as"]).map((x) => h("th", { scope: "col" }, x)))),
      h("tbody", null, list.map((p) => h("tr", null,
        h("td", { "data-label": out ? "Output" : "Input" }, h("code", null, p.name), p.description ? h("div", { class: "sub" }, p.description) : null),
        h("td", { "data-label": "Type" }, h("code", null, p.jsonType || shortType(p.type) || "—")),
        out ? h("td", { "data-label": "Render" }, p.render || "—")
          : [h("td", { "data-label": "Required" }, p.required ? "yes" : "no", p.repeated ? " (repeated)" : ""), h("td", { "data-label": "Passed as" }, p.arg || "—")]))))) : empty(out ? "No outputs." : "No inputs.");
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
      section("Reachability", "h-treach", t.reachable && t.witness.length ? witnessChain(t.witness, "witness") : h("p", { class: "warn-text" }, "No process, transport or trigger reaches this Tool: a command nothing invokes.")),
      section("Findings", "h-tfind", findingsTable(t.findings, "No finding names this Tool.")));
  }
  function shortType(iri) { if (!iri) return ""; const i = iri.lastIndexOf("/"); return i >= 0 ? iri.slice(i + 1) : iri; }

  const PROCESS = `query Process($id: ID!) {
    graphVersion
    process(id: $id) {
      id stem name source reachable witness
      steps { id key element name automation lane line skills { id tier covered } calls { id name } }
    }
  }`;

  async function viewProcess(id, params) {
    const d = await gql(PROCESS, { id });
    noteVersion(d.graphVersion);
    const p = d.process;
    if (!p) return h("div", null, h("h1", { tabindex: "-1" }, "No process “" + id + "”"));
    const focus = params.get("step");
    return h("article", { class: "detail" },
      h("div", { class: "page-head" },
        h("p", { class: "crumbs" }, "process"),
        h("h1", { tabindex: "-1" }, p.name || p.id),
        h("p", { class: "meta" }, h("code", null, p.id), " · file ", fileLine(p.source), " ", p.reachable ? badge("reachable", "ok") : badge("not reachable", "warn"))),
      p.reachable && p.witness.length > 1 ? section("Reached through", "h-preach", witnessChain(p.witness)) : null,
      section("Steps", "h-psteps", p.steps.length ? h("div", { class: "table-wrap" }, h("table", { class: "rows" },
        h("thead", null, h("tr", null, ["Step", "Performed by", "Skills", "Lane", "Line"].map((x) => h("th", { scope: "col" }, x)))),
        h("tbody", null, p.steps.map((a) => h("tr", { id: "step-" + a.id, class: a.id === focus ? "highlight" : null },
          h("td", { "data-label": "Step" }, a.name || a.id, h("div", { class: "sub" }, h("code", null, a.id), " " + a.element),
            a.calls ? h("div", { class: "sub" }, "calls ", processLink(a.calls.id, null, a.calls.name || a.calls.id)) : null),
          h("td", { "data-label": "Performed by" }, performer(a.element, a.automation)),
          h("td", { "data-label": "Skills" }, a.skills.length ? a.skills.map((s, k) => [k ? ", " : "", skillLink(s.id), " ", tierBadge(s.covered ? null : s.tier)]) : h("span", { class: "muted" }, "—")),
          h("td", { "data-label": "Lane" }, a.lane || "—"),
          h("td", { "data-label": "Line" }, fileLine(p.source, a.line))))))) : empty("No steps.")));
  }

  // ---------- workflows ----------

  const WORKFLOWS = `query Workflows($profile: String) {
    graphVersion
    profiles { name readOnly tools transports }
    workflows(profile: $profile) {
      process { id name }
      ratio total performed manual gap
      firstGap { step { id key } skillRef }
      steps { step { id key name element automation process { id } } skillRef skill { id } state }
    }
  }`;

  async function viewWorkflows(params) {
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

  function stateTag(k) {
    return h("span", { class: "st-tag st-" + k }, icon(k === "performed" ? "check" : k === "manual" ? "person" : "gap"), STATE_INFO[k] ? STATE_INFO[k].label : k);
  }

  function workflowItem(w) {
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

  // ---------- unreachable ----------

  const UNREACH = `query Unreachable($first: Int, $afterS: String, $afterT: String) {
    graphVersion
    cnr: skills(covered: true, reachable: false, first: $first, after: $afterS) {
      totalCount pageInfo { hasNextPage endCursor } nodes { id title package source line tools { id } }
    }
    ut: tools(reachable: false, first: $first, after: $afterT) {
      totalCount pageInfo { hasNextPage endCursor } nodes { id title origin source line satisfies { id } }
    }
    reachability { unreachableProcesses toolsWithoutCommand { id title source line invoke { inProcess manual } } }
  }`;

  async function viewUnreachable(params) {
    const afterS = params.get("s") || null, afterT = params.get("t") || null;
    const d = await gql(UNREACH, { first: PAGE, afterS, afterT });
    noteVersion(d.graphVersion);
    const pager = (conn, key, label) => conn.pageInfo.hasNextPage
      ? h("button", { type: "button", class: "btn", onclick: () => { const o = { s: params.get("s") || "", t: params.get("t") || "" }; o[key] = conn.pageInfo.endCursor; setHashParams("/unreachable", o); } }, "Next " + PAGE + " " + label + " →")
      : null;
    const back = (params.get("s") || params.get("t")) ? h("button", { type: "button", class: "btn", onclick: () => history.back() }, "← Previous") : null;
    const tw = d.reachability.toolsWithoutCommand;
    return h("div", null,
      h("div", { class: "page-head" }, h("h1", { tabindex: "-1" }, "Unreachable"),
        h("p", { class: "meta" }, "Covered is not reachable: a skill can have a Tool while nothing — no process, transport or trigger — ever reaches it.")),
      section("Covered but not reachable (" + n(d.cnr.totalCount) + ")", "h-cnr",
        d.cnr.nodes.length ? h("div", { class: "table-wrap" }, h("table", { class: "rows", id: "cnr-table" },
          h("thead", null, h("tr", null, ["Skill", "Package", "Its Tools", "Source"].map((x) => h("th", { scope: "col" }, x)))),
          h("tbody", null, d.cnr.nodes.map((s) => h("tr", { "data-skill": s.id },
            h("td", { "data-label": "Skill" }, skillLink(s.id), s.title ? h("div", { class: "sub" }, s.title) : null),
            h("td", { "data-label": "Package" }, s.package || "—"),
            h("td", { "data-label": "Its Tools" }, s.tools.map((t, k) => [k ? ", " : "", toolLink(t.id)])),
            h("td", { "data-label": "Source" }, fileLine(s.source, s.line))))))) : empty("Every covered skill is reachable."),
        pager(d.cnr, "s", "skills")),
      h("section", { class: "card", id: "tools", "aria-labelledby": "h-ut" }, h("h2", { id: "h-ut" }, "Unreachable tools (" + n(d.ut.totalCount) + ")"),
        d.ut.nodes.length ? h("div", { class: "table-wrap" }, h("table", { class: "rows", id: "ut-table" },
          h("thead", null, h("tr", null, ["Tool", "Origin", "Satisfies", "Source"].map((x) => h("th", { scope: "col" }, x)))),
          h("tbody", null, d.ut.nodes.map((t) => h("tr", { "data-tool": t.id },
            h("td", { "data-label": "Tool" }, toolLink(t.id), t.title ? h("div", { class: "sub" }, t.title) : null),
            h("td", { "data-label": "Origin" }, t.origin),
            h("td", { "data-label": "Satisfies" }, t.satisfies.length ? t.satisfies.map((s, k) => [k ? ", " : "", skillLink(s.id)]) : "—"),
            h("td", { "data-label": "Source" }, fileLine(t.source, t.line))))))) : empty("Every Tool is reachable."),
        pager(d.ut, "t", "tools")),
      section("Tools without a command (" + n(tw.length) + ")", "h-tnc",
        tw.length ? h("ul", { class: "plain" }, tw.slice(0, 500).map((t) => h("li", null, toolLink(t.id), t.title ? " — " + t.title : "", " ",
          badge(t.invoke.inProcess ? "in-process only" : "manual only", "muted-b"), " ", fileLine(t.source, t.line)))) : empty("Every Tool has a command."),
        tw.length > 500 ? h("p", { class: "muted small" }, "Showing 500 of " + n(tw.length) + ".") : null),
      section("Unreachable processes (" + n(d.reachability.unreachableProcesses.length) + ")", "h-up",
        d.reachability.unreachableProcesses.length ? h("ul", { class: "plain" }, d.reachability.unreachableProcesses.slice(0, 500).map((p) => h("li", null, processLink(p)))) : empty("Every process is reachable.")),
      h("div", { class: "pager" }, back));
  }

  // ---------- findings ----------

  const FINDINGS = `query Findings($severity: Severity, $code: String, $first: Int, $after: String) {
    graphVersion
    findingCodes { name count }
    findings(severity: $severity, code: $code, first: $first, after: $after) {
      totalCount pageInfo { hasNextPage endCursor } edges { node { code severity message file line subject } }
    }
  }`;

  async function viewFindings(params) {
    const severity = ["ERROR", "WARNING", "INFO"].includes(params.get("severity")) ? params.get("severity") : "";
    const code = params.get("code") || "";
    const after = params.get("after") || "";
    const pageNo = Math.max(1, parseInt(params.get("page") || "1", 10) || 1);
    const d = await gql(FINDINGS, { severity: severity || null, code: code || null, first: PAGE, after: after || null });
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
      findingsTable(list, "No finding matches these filters."),
      h("nav", { class: "pager", "aria-label": "Finding pages" },
        h("span", { class: "range", id: "findings-range" }, d.findings.totalCount ? "Findings " + n(first) + "–" + n(first + list.length - 1) + " of " + n(d.findings.totalCount) : "No findings"),
        pageNo > 1 ? h("button", { type: "button", class: "btn", onclick: () => history.back() }, "← Previous") : null,
        pi.hasNextPage ? h("button", { type: "button", class: "btn", onclick: () => setHashParams("/findings", { severity, code, after: pi.endCursor, page: pageNo + 1 }) }, "Next " + PAGE + " →") : null));
  }

  // ---------- start ----------

  document.getElementById("skip-link").addEventListener("click", (ev) => { ev.preventDefault(); main.focus(); });
  window.addEventListener("hashchange", route);
  renderAuth();
  loadViewer().then(() => { renderAuth(); route(); });
  setInterval(pollVersion, 30000);
})();
