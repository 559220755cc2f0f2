// Views addressed by the URL fragment (#/skill/<id>?line=3): parsing it,
// changing it, drawing the view it names.

import { clear, empty, enc, h, link } from "./dom.js";
import { state } from "./state.js";

export const main = document.getElementById("main");

// views maps a fragment's first part to the function that draws it:
// (parts after the first, params) → a node. app.js fills it, so the router
// imports no view and the views may import the router.
const views = new Map();

// registerView adds a view under its name.
export function registerView(name, draw) { views.set(name, draw); }

// parseHash splits the fragment into path parts and query parameters.
export function parseHash() {
  let raw = location.hash.replace(/^#/, "");
  if (!raw.startsWith("/")) raw = "/";
  const q = raw.indexOf("?");
  const pathPart = q < 0 ? raw : raw.slice(0, q);
  const params = new URLSearchParams(q < 0 ? "" : raw.slice(q + 1));
  const parts = pathPart.split("/").filter(Boolean).map(decodeURIComponent);
  return { parts, params };
}

// setHashParams navigates to base with params (empty ones dropped); the
// same fragment again redraws the view.
export function setHashParams(base, params) {
  const qs = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== "" && v !== null && v !== undefined) qs.set(k, v);
  const s = qs.toString();
  const next = "#" + base + (s ? "?" + s : "");
  if (location.hash !== next) location.hash = next;
  else route();
}

let firstRoute = true;
// route draws the view the fragment names; a newer navigation wins over a
// slower older one.
export async function route() {
  const seq = ++state.renderSeq;
  const { parts, params } = parseHash();
  const view = parts[0] || "overview";
  // The exposure profile rides along between the views that honour it.
  if (view === "overview" || view === "workflows") state.profile = params.get("profile") || "";
  document.querySelectorAll("[data-nav]").forEach((a) => {
    const on = a.dataset.nav === view || (view === "skill" && a.dataset.nav === "queue") || (view === "plugin" && a.dataset.nav === "plugins");
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
    const draw = views.get(view);
    node = draw ? await draw(parts.slice(1), params)
      : h("div", null, h("h1", { tabindex: "-1" }, "Not found"), empty("No view called “" + view + "”."), link("#/", "Back to the overview"));
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
