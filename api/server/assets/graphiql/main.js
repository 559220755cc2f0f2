// skillgraph's GraphQL explorer: wires the schema (introspection), the
// documentation pane, the query editor with its suggestions, the variables
// and the result. Plain ES modules, no build step, same origin only.

import { loadSchema } from "./schema.js";
import { post, token, setToken } from "./request.js";
import { renderDocs, docRoute } from "./docs.js";
import { attachSuggestions } from "./editor.js";
import { operationAt } from "./language.js";

const QUERY_KEY = "skillgraph.explorer.query";
const VARS_KEY = "skillgraph.explorer.variables";

const $ = (id) => document.getElementById(id);
const editor = $("editor"), vars = $("variables"), result = $("result"), resultStatus = $("result-status");
const statusEl = $("schema-status"), doc = $("doc"), search = $("doc-search");
let schema = null;

function remember(key, value) { try { sessionStorage.setItem(key, value); } catch (e) { /* storage off */ } }
function recall(key) { try { return sessionStorage.getItem(key); } catch (e) { return null; } }

// The query to start with: ?query= (a link to a prepared query), else this
// tab's last one, else the example in the page.
const params = new URLSearchParams(location.search);
editor.value = params.get("query") || recall(QUERY_KEY) || editor.value;
vars.value = params.get("variables") || recall(VARS_KEY) || vars.value;
editor.addEventListener("input", () => remember(QUERY_KEY, editor.value));
vars.addEventListener("input", () => remember(VARS_KEY, vars.value));

const tokenIn = $("token");
if (token()) tokenIn.placeholder = "kept from the triage page";
tokenIn.addEventListener("change", () => setToken(tokenIn.value.trim()));

attachSuggestions(editor, $("suggestions"), $("suggestion-info"), $("suggest-status"), () => schema);

function showDocs(focus) {
  renderDocs(doc, schema, docRoute(location.hash), search.value.trim());
  const route = docRoute(location.hash);
  if (route.field) {
    const li = doc.querySelector(`[data-field="${CSS.escape(route.field)}"]`);
    if (li) { li.classList.add("highlight"); li.scrollIntoView({ block: "nearest" }); }
  }
  if (focus) { const t = doc.querySelector(".doc-title"); if (t) t.focus(); }
}
window.addEventListener("hashchange", () => { if (location.hash.startsWith("#doc")) { search.value = ""; showDocs(true); } });
search.addEventListener("input", () => showDocs(false));
$("doc-search-form").addEventListener("submit", (ev) => {
  ev.preventDefault();
  const first = doc.querySelector(".type-link");
  if (first) first.focus();
});

async function run() {
  let variables = {};
  const text = vars.value.trim();
  if (text) {
    try { variables = JSON.parse(text); } catch (e) { show("error", "Variables are not JSON: " + e.message, ""); vars.focus(); return; }
    if (variables === null || typeof variables !== "object" || Array.isArray(variables)) { show("error", "Variables must be a JSON object.", ""); vars.focus(); return; }
  }
  const operationName = operationAt(editor.value, editor.selectionStart) || undefined;
  show("running", "Running…", "");
  try {
    const res = await post({ query: editor.value, variables, operationName });
    const hasErrors = !!(res.body && res.body.errors && res.body.errors.length);
    show(hasErrors ? "errors" : "ok", "HTTP " + res.status + (hasErrors ? " · with errors" : ""),
      res.body ? JSON.stringify(res.body, null, 2) : res.text);
  } catch (e) {
    show("error", "The server did not answer: " + e.message, "");
  }
}

function show(state, status, body) {
  result.dataset.state = state;
  resultStatus.textContent = status;
  result.textContent = body;
}

$("run").addEventListener("click", run);
for (const el of [editor, vars]) {
  el.addEventListener("keydown", (ev) => {
    if (ev.key === "Enter" && (ev.ctrlKey || ev.metaKey)) { ev.preventDefault(); run(); }
  });
}

async function start() {
  try {
    schema = await loadSchema(post);
    const fields = schema.userTypes().reduce((n, t) => n + (t.fields ? t.fields.length : 0), 0);
    statusEl.dataset.state = "ready";
    statusEl.dataset.types = String(schema.types.size);
    statusEl.textContent = "Schema loaded: " + schema.userTypes().length + " types, " + fields + " fields.";
  } catch (e) {
    statusEl.dataset.state = "error";
    statusEl.textContent = "Schema not loaded (" + e.message + "): queries still run, without docs or suggestions.";
  }
  showDocs(false);
}
start();
