// The page around the views: the sign-in box, the banner, the footer's graph
// version and the version poll.

import { gql, setToken, token } from "./api.js";
import { append, badge, clear, h } from "./dom.js";
import { route } from "./router.js";
import { canRecord, state } from "./state.js";

export const VIEWER = `query Viewer { viewer { canRecord readOnly } }`;
export const VERSION = `query Version { graphVersion }`;

// loadViewer asks the server what this tab may do, sending the kept token
// (if any) with a plain query; a token the server no longer accepts is
// forgotten.
export async function loadViewer() {
  try {
    const d = await gql(VIEWER, null, { auth: !!token() });
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

export function renderAuth() {
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
export async function checkToken(t) {
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

export function showBanner(content, kind) {
  const b = document.getElementById("banner");
  clear(b);
  if (!content) { b.hidden = true; return; }
  b.className = "banner " + (kind || "");
  append(b, content);
  b.hidden = false;
}

// noteVersion shows the graph version a view was drawn from; a version
// the page has not seen yet (the first, or one after a re-ingest) may hold
// plugins where the last held none, so the Plugins link is asked again.
export function noteVersion(v) {
  const seen = v === state.version;
  state.version = v;
  document.getElementById("foot-version").textContent = "graph version " + v;
  if (!seen) showPluginsNav();
}

export const PLUGIN_COUNT = `query PluginCount { plugins(first: 0) { totalCount } }`;

// showPluginsNav shows the navigation's Plugins link only when the graph
// holds an agent-host plugin (Query.plugins.totalCount), so the page of a
// harness corpus looks as it did before plugins were read.
export async function showPluginsNav() {
  const item = document.getElementById("nav-plugins");
  try {
    const d = await gql(PLUGIN_COUNT);
    item.hidden = d.plugins.totalCount === 0;
  } catch (e) { /* transient; the next new version asks again */ }
}

// Poll the graph version so a maintainer sees when a re-ingest lands.
export async function pollVersion() {
  if (document.hidden || state.version === null) return;
  try {
    const d = await gql(VERSION);
    if (d.graphVersion !== state.version) {
      showBanner([
        "The graph changed (version " + state.version + " → " + d.graphVersion + "). ",
        h("button", { type: "button", class: "btn small", onclick: () => { showBanner(null); route(); } }, "Show the new version"),
      ], "info");
    }
  } catch (e) { /* transient; the next view load reports errors */ }
}
