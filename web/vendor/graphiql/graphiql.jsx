// skillgraph's /graphiql: the real GraphiQL 3 (CodeMirror 5 editors, no
// eval, no workers), mounted on #graphiql with a fetcher for the same
// origin's /graphql. Bundled by scripts/vendor-web.sh; the page that loads
// it is web/assets/graphiql.html (no inline script: the CSP forbids it).
import React from "react";
import { createRoot } from "react-dom/client";
import { GraphiQL } from "graphiql";
import "graphiql/graphiql.css";

// The same origin's endpoint, relative so the page works under /graphiql
// and when a browser opens /graphql itself. Headers typed in the headers
// editor (e.g. Authorization: Bearer <token> for mutations) are sent as is.
async function fetcher(params, opts) {
  const headers = Object.assign({ "Content-Type": "application/json", Accept: "application/json" }, (opts && opts.headers) || {});
  const res = await fetch(new URL("graphql", document.baseURI), { method: "POST", headers, body: JSON.stringify(params) });
  const text = await res.text();
  try {
    return JSON.parse(text);
  } catch (e) {
    return { errors: [{ message: "HTTP " + res.status + ": " + text.slice(0, 200) }] };
  }
}

const defaultQuery = `# skillgraph's GraphQL API: Ctrl+Enter runs, Shift+Ctrl+P prettifies,
# the docs and history are in the left bar.
{
  graphVersion
  coverage { total tiers { tier count } }
}
`;

// GraphiQL 3's CodeMirror editors come without accessible names, and
// their scrolling panes are not keyboard-reachable regions (axe: label,
// scrollable-region-focusable): name each editor's input and let its
// pane take focus, whenever GraphiQL (re)creates one.
function labelEditors(root) {
  const name = (sel, label) => root.querySelectorAll(sel).forEach((ta) => { if (!ta.getAttribute("aria-label")) ta.setAttribute("aria-label", label); });
  name(".graphiql-query-editor .CodeMirror textarea", "Query editor");
  root.querySelectorAll(".graphiql-editor-tool .graphiql-editor").forEach((ed, i) =>
    ed.querySelectorAll(".CodeMirror textarea").forEach((ta) => { if (!ta.getAttribute("aria-label")) ta.setAttribute("aria-label", i === 0 ? "Variables editor" : "Headers editor"); }));
  name(".result-window .CodeMirror textarea", "Result (read-only)");
  name(".CodeMirror textarea", "Editor");
  // CodeMirror gives its scroller tabindex -1: out of the tab order.
  root.querySelectorAll(".CodeMirror-scroll:not([tabindex='0'])").forEach((el) => el.setAttribute("tabindex", "0"));
}
const mount = document.getElementById("graphiql");
new MutationObserver(() => labelEditors(mount)).observe(mount, { childList: true, subtree: true });

createRoot(mount).render(
  React.createElement(GraphiQL, { fetcher, defaultQuery, defaultEditorToolsVisibility: true, isHeadersEditorEnabled: true, shouldPersistHeaders: false }),
);
