// The documentation pane: the schema's types, their fields, arguments,
// enum values and descriptions, addressed by the URL fragment (#doc/Type)
// so the browser's back button and plain links navigate it.

import { h, clear } from "./dom.js";
import { typeName } from "./schema.js";

const KIND_LABEL = {
  OBJECT: "type", INPUT_OBJECT: "input", ENUM: "enum", SCALAR: "scalar", INTERFACE: "interface", UNION: "union",
};

// docRoute reads the fragment: {type, field} (both "" for the schema root).
export function docRoute(hash) {
  const m = /^#doc(?:\/([^/]*))?(?:\/([^/]*))?$/.exec(hash || "");
  if (!m) return { type: "", field: "" };
  return { type: decodeURIComponent(m[1] || ""), field: decodeURIComponent(m[2] || "") };
}

function typeHref(name) { return "#doc/" + encodeURIComponent(name); }

// typeRef writes a type reference with its named type as a link: [Skill!]!.
function typeRef(ref) {
  if (!ref) return null;
  if (ref.kind === "NON_NULL") return [typeRef(ref.ofType), "!"];
  if (ref.kind === "LIST") return ["[", typeRef(ref.ofType), "]"];
  return h("a", { href: typeHref(ref.name), class: "type-link" }, ref.name);
}

function description(text) { return text ? h("p", { class: "desc" }, text) : null; }

function deprecation(x) {
  return x.isDeprecated ? h("p", { class: "deprecated" }, "Deprecated" + (x.deprecationReason ? ": " + x.deprecationReason : ".")) : null;
}

function argList(args) {
  if (!args || !args.length) return null;
  return h("ul", { class: "args", "aria-label": "Arguments" }, args.map((a) => h("li", { class: "arg", "data-arg": a.name },
    h("code", null, a.name, ": ", typeRef(a.type), a.defaultValue != null ? " = " + a.defaultValue : ""),
    description(a.description))));
}

// renderDocs draws the pane for a route; search filters the root view.
export function renderDocs(el, schema, route, search) {
  clear(el);
  if (!schema) { el.append(h("p", { class: "muted" }, "The schema is not loaded.")); return; }
  if (search) { el.append(searchView(schema, search)); return; }
  const t = route.type ? schema.type(route.type) : null;
  if (route.type && !t) {
    el.append(h("p", null, h("a", { href: "#doc" }, "← Schema")), h("h3", { class: "doc-title", tabindex: "-1" }, route.type),
      h("p", { class: "muted" }, "No such type in the schema."));
    return;
  }
  el.append(t ? typeView(schema, t) : rootView(schema));
}

function rootView(schema) {
  const roots = [["query", schema.queryType], ["mutation", schema.mutationType], ["subscription", schema.subscriptionType]].filter((r) => r[1]);
  const groups = {};
  for (const t of schema.userTypes()) (groups[t.kind] = groups[t.kind] || []).push(t);
  const order = ["OBJECT", "INTERFACE", "UNION", "INPUT_OBJECT", "ENUM", "SCALAR"];
  return h("div", { class: "doc-root" },
    h("h3", { class: "doc-title", tabindex: "-1" }, "Schema"),
    h("dl", { class: "roots" }, roots.map(([op, name]) => [h("dt", null, op), h("dd", null, h("a", { href: typeHref(name), class: "type-link" }, name))])),
    order.filter((k) => groups[k]).map((k) => h("section", { class: "kind-group" },
      h("h4", null, (KIND_LABEL[k] || k) + " (" + groups[k].length + ")"),
      h("ul", { class: "type-list" }, groups[k].map((t) => h("li", null, h("a", { href: typeHref(t.name), class: "type-link", "data-type": t.name }, t.name)))))));
}

function typeView(schema, t) {
  const parts = [
    h("p", { class: "crumbs" }, h("a", { href: "#doc" }, "← Schema")),
    h("h3", { class: "doc-title", tabindex: "-1", "data-type": t.name }, t.name, " ", h("span", { class: "kind" }, KIND_LABEL[t.kind] || t.kind)),
    description(t.description),
  ];
  if (t.interfaces && t.interfaces.length) parts.push(h("p", null, "Implements ", t.interfaces.map((i, k) => [k ? ", " : "", typeRef(i)])));
  if (t.possibleTypes && t.possibleTypes.length) parts.push(h("p", null, "One of ", t.possibleTypes.map((i, k) => [k ? ", " : "", typeRef(i)])));
  if (t.fields) {
    parts.push(h("h4", null, "Fields"), h("ul", { class: "fields", id: "doc-fields" }, t.fields.map((f) => h("li", { class: "field-doc", "data-field": f.name, id: "f-" + f.name },
      h("code", { class: "sig" }, h("strong", null, f.name), f.args.length ? "(…)" : "", ": ", typeRef(f.type)),
      description(f.description), deprecation(f), argList(f.args)))));
  }
  if (t.inputFields) {
    parts.push(h("h4", null, "Input fields"), h("ul", { class: "fields", id: "doc-fields" }, t.inputFields.map((f) => h("li", { class: "field-doc", "data-field": f.name },
      h("code", { class: "sig" }, h("strong", null, f.name), ": ", typeRef(f.type), f.defaultValue != null ? " = " + f.defaultValue : ""),
      description(f.description)))));
  }
  if (t.enumValues) {
    parts.push(h("h4", null, "Values"), h("ul", { class: "fields" }, t.enumValues.map((v) => h("li", { class: "field-doc", "data-value": v.name },
      h("code", { class: "sig" }, h("strong", null, v.name)), description(v.description), deprecation(v)))));
  }
  const usedBy = [];
  for (const o of schema.userTypes()) for (const f of o.fields || []) if (typeName(f.type) === t.name) usedBy.push([o.name, f.name]);
  if (usedBy.length) {
    parts.push(h("h4", null, "Returned by"), h("ul", { class: "used-by" }, usedBy.slice(0, 40).map(([o, f]) => h("li", null, h("a", { href: typeHref(o) + "/" + encodeURIComponent(f) }, o + "." + f)))));
  }
  return h("div", { class: "doc-type" }, parts);
}

function searchView(schema, q) {
  const p = q.toLowerCase();
  const hits = [];
  for (const t of schema.userTypes()) {
    if (t.name.toLowerCase().includes(p)) hits.push({ href: typeHref(t.name), label: t.name, detail: KIND_LABEL[t.kind] || t.kind });
    for (const f of t.fields || t.inputFields || []) {
      if (f.name.toLowerCase().includes(p)) hits.push({ href: typeHref(t.name) + "/" + encodeURIComponent(f.name), label: t.name + "." + f.name, detail: "field" });
    }
  }
  return h("div", { class: "doc-search-results" },
    h("h3", { class: "doc-title", tabindex: "-1" }, "Matches for “" + q + "”"),
    hits.length ? h("ul", { class: "type-list" }, hits.slice(0, 100).map((x) => h("li", null, h("a", { href: x.href, class: "type-link" }, x.label), " ", h("span", { class: "muted" }, x.detail))))
      : h("p", { class: "muted" }, "Nothing in the schema matches."));
}
