// What may be typed at the cursor: walks the query text before the cursor
// (fields, arguments, fragments, directives, variable definitions) against
// the introspected schema and lists the names that fit there.

import { tokenize, isNameChar } from "./language.js";
import { typeName, typeString } from "./schema.js";

const OPERATION_KEYWORDS = ["query", "mutation", "subscription", "fragment"];
// Where a directive after a field or fragment may stand.
const SELECTION_LOCATIONS = new Set(["FIELD", "FRAGMENT_SPREAD", "INLINE_FRAGMENT"]);

// suggest returns {from, to, items} for text with the cursor at offset:
// items replace text[from:to) (the name being typed). items is [] where
// nothing fits (inside a string or a comment, an unknown type, a value).
export function suggest(schema, text, offset) {
  let from = offset;
  while (from > 0 && isNameChar(text[from - 1])) from--;
  const prefix = text.slice(from, offset);
  const none = { from, to: offset, items: [], prefix };
  if (/^[0-9]/.test(prefix) || text[from - 1] === "$") return none;
  const { toks, open } = tokenize(text, from);
  if (open) return none;
  const where = position(schema, toks);
  const items = candidates(schema, where);
  return { from, to: offset, prefix, context: where.kind, items: rank(items, prefix) };
}

// position replays the tokens and says what kind of name comes next.
function position(schema, toks) {
  const stack = [{ kind: "doc", pending: null, fragment: 0 }];
  const top = () => stack[stack.length - 1];
  let prev = null;
  for (const t of toks) {
    const f = top();
    const p = t.kind === "punct" ? t.value : null;
    switch (f.kind) {
      case "doc":
        if (t.kind === "name") {
          if (f.fragment === 1) f.fragment = 2; // fragment name
          else if (f.fragment === 2 && t.value === "on") f.fragment = 3;
          else if (f.fragment === 3) { f.pending = t.value; f.fragment = 0; }
          else if (t.value === "fragment") f.fragment = 1;
          else if (OPERATION_KEYWORDS.includes(t.value) && (!prev || prev.kind === "punct")) f.pending = schema.rootType(t.value);
        } else if (p === "(") stack.push({ kind: "vardefs", expect: "var" });
        else if (p === "{") { stack.push(selection(f.pending || schema.queryType)); f.pending = null; }
        break;
      case "vardefs":
        if (p === ")") stack.pop();
        else if (t.kind === "var" && f.expect !== "default") f.expect = "colon";
        else if (p === ":") f.expect = "type";
        else if (t.kind === "name" && f.expect === "type") f.expect = "after";
        else if (p === "=") f.expect = "default";
        else if (f.expect === "default" && (t.kind !== "punct" || p === "]" || p === "}")) f.expect = "after";
        break;
      case "selection":
        if (t.kind === "name") {
          if (f.expect === "typeCondition") { f.inline = t.value; f.expect = "field"; }
          else if (prev && prev.kind === "punct" && prev.value === "...") {
            if (t.value === "on") f.expect = "typeCondition";
            f.field = null; // a fragment spread
          } else if (prev && prev.kind === "punct" && prev.value === "@") { f.directive = t.value; }
          else { f.field = schema.field(f.type, t.value); f.directive = null; f.inline = null; }
        } else if (p === ":") f.field = null; // an alias: the field name follows
        else if (p === "(") stack.push(args(f.directive ? directiveArgs(schema, f.directive) : f.field ? f.field.args : null));
        else if (p === "{") {
          const child = f.inline || (f.field ? typeName(f.field.type) : null);
          f.inline = null;
          stack.push(selection(child));
        } else if (p === "}") stack.pop();
        break;
      case "args":
        if (f.depth === 0) {
          if (p === ")") { stack.pop(); top().directive = null; break; }
          if (f.expect === "name" && t.kind === "name") { f.arg = t.value; f.used.add(t.value); f.expect = "colon"; }
          else if (p === ":") f.expect = "value";
          else if (p === "[" || p === "{") f.depth++;
          else if (f.expect === "value") f.expect = "name";
        } else if (p === "[" || p === "{") f.depth++;
        else if (p === "]" || p === "}") { f.depth--; if (f.depth === 0) f.expect = "name"; }
        break;
    }
    if (stack.length === 0) stack.push({ kind: "doc", pending: null, fragment: 0 });
    prev = t;
  }
  const f = top();
  const after = prev && prev.kind === "punct" ? prev.value : null;
  switch (f.kind) {
    case "doc":
      if (f.fragment === 3) return { kind: "type", filter: (t) => t.kind === "OBJECT" || t.kind === "INTERFACE" || t.kind === "UNION" };
      if (f.fragment === 2) return { kind: "keyword", words: ["on"] };
      if (f.fragment === 1 || f.pending) return { kind: "none" };
      return { kind: "keyword", words: ["query", "mutation", "subscription", "fragment"] };
    case "vardefs":
      if (f.expect === "type") return { kind: "type", filter: (t) => t.kind === "SCALAR" || t.kind === "ENUM" || t.kind === "INPUT_OBJECT" };
      return { kind: "none" };
    case "selection":
      if (after === "@") return { kind: "directive" };
      if (after === "...") return { kind: "keyword", words: ["on"] };
      if (f.expect === "typeCondition") {
        const parent = schema.type(f.type);
        const possible = parent && parent.possibleTypes ? new Set(parent.possibleTypes.map((x) => x.name)) : null;
        return { kind: "type", filter: (t) => possible ? possible.has(t.name) || t.name === f.type : t.name === f.type };
      }
      return f.type ? { kind: "field", type: f.type } : { kind: "none" };
    case "args":
      if (f.depth > 0 || !f.list) return { kind: "none" };
      if (f.expect === "name") return { kind: "argument", args: f.list.filter((a) => !f.used.has(a.name) || a.name === f.arg && after !== ":") };
      if (f.expect === "value" && after === ":") {
        const a = f.list.find((x) => x.name === f.arg);
        return a ? { kind: "value", type: typeName(a.type) } : { kind: "none" };
      }
      return { kind: "none" };
  }
  return { kind: "none" };
}

function selection(type) { return { kind: "selection", type, field: null, inline: null, directive: null, expect: "field" }; }
function args(list) { return { kind: "args", list, used: new Set(), expect: "name", arg: null, depth: 0 }; }
function directiveArgs(schema, name) {
  const d = schema.directives.find((x) => x.name === name);
  return d ? d.args : null;
}

// candidates turns a position into suggestion items.
function candidates(schema, where) {
  switch (where.kind) {
    case "field":
      return schema.fields(where.type).map((f) => ({
        kind: "field", label: f.name, detail: typeString(f.type), description: f.description || "",
        deprecated: !!f.isDeprecated, insert: f.name,
      }));
    case "argument":
      return where.args.map((a) => ({ kind: "argument", label: a.name, detail: typeString(a.type), description: a.description || "", insert: a.name + ": " }));
    case "value": {
      const t = schema.type(where.type);
      if (t && t.kind === "ENUM") return t.enumValues.map((v) => ({ kind: "enum", label: v.name, detail: t.name, description: v.description || "", insert: v.name }));
      if (where.type === "Boolean") return ["true", "false"].map((v) => ({ kind: "value", label: v, detail: "Boolean", description: "", insert: v }));
      return [];
    }
    case "type":
      return schema.userTypes().filter(where.filter).map((t) => ({ kind: "type", label: t.name, detail: t.kind.toLowerCase().replace("_", " "), description: t.description || "", insert: t.name }));
    case "directive":
      return schema.directives.filter((d) => d.locations.some((l) => SELECTION_LOCATIONS.has(l))).map((d) => ({ kind: "directive", label: d.name, detail: "directive", description: d.description || "", insert: d.name }));
    case "keyword":
      return where.words.map((w) => ({ kind: "keyword", label: w, detail: "keyword", description: "", insert: w }));
  }
  return [];
}

// rank keeps the items that match what is typed: names that start with it
// first, then names that contain it; deprecated ones last.
function rank(items, prefix) {
  const p = prefix.toLowerCase();
  const scored = [];
  for (const it of items) {
    const l = it.label.toLowerCase();
    const s = !p ? 1 : l.startsWith(p) ? 0 : l.includes(p) ? 1 : -1;
    if (s < 0) continue;
    scored.push([s + (it.deprecated || it.label.startsWith("__") ? 2 : 0), it]);
  }
  scored.sort((a, b) => a[0] - b[0] || a[1].label.localeCompare(b[1].label));
  return scored.map((x) => x[1]);
}
