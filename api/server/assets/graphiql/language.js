// Reading GraphQL text: a tolerant lexer (a half-typed query is the normal
// case in an editor) and the operations a document defines.

const NAME_START = /[_A-Za-z]/;
const NAME_CHAR = /[_0-9A-Za-z]/;

export function isNameChar(c) { return NAME_CHAR.test(c); }

// tokenize lexes text[0:end) into names, variables ($x), numbers, strings
// and punctuators, skipping whitespace, commas and comments. open is set
// when end falls inside a string or a comment (nothing to suggest there).
export function tokenize(text, end = text.length) {
  const toks = [];
  let open = false;
  let i = 0;
  while (i < end) {
    const c = text[i];
    if (c === " " || c === "\t" || c === "\n" || c === "\r" || c === "," || c === "\ufeff") { i++; continue; }
    const start = i;
    if (c === "#") {
      while (i < end && text[i] !== "\n") i++;
      if (i >= end) open = true;
      continue;
    }
    if (c === '"') {
      if (text.startsWith('"""', i)) {
        i += 3;
        while (i < end && !text.startsWith('"""', i)) i += text.startsWith('\\"""', i) ? 4 : 1;
        if (i >= end) open = true; else i += 3;
      } else {
        i++;
        while (i < end && text[i] !== '"' && text[i] !== "\n") i += text[i] === "\\" ? 2 : 1;
        if (i >= end) open = true; else i++;
      }
      toks.push({ kind: "string", start, end: Math.min(i, end) });
      continue;
    }
    if (NAME_START.test(c)) {
      while (i < end && NAME_CHAR.test(text[i])) i++;
      toks.push({ kind: "name", value: text.slice(start, i), start, end: i });
      continue;
    }
    if (c === "$") {
      i++;
      while (i < end && NAME_CHAR.test(text[i])) i++;
      toks.push({ kind: "var", value: text.slice(start + 1, i), start, end: i });
      continue;
    }
    if (c === "-" || (c >= "0" && c <= "9")) {
      i++;
      while (i < end && /[0-9.eE+-]/.test(text[i])) i++;
      toks.push({ kind: "number", start, end: i });
      continue;
    }
    if (text.startsWith("...", i)) {
      i += 3;
      toks.push({ kind: "punct", value: "...", start, end: i });
      continue;
    }
    i++;
    toks.push({ kind: "punct", value: c, start, end: i });
  }
  return { toks, open };
}

// operations lists the operations of a document: {kind, name, start, end}
// (name "" for an anonymous one), end being just past its closing brace.
export function operations(text) {
  const { toks } = tokenize(text);
  const ops = [];
  let depth = 0, cur = null, parens = 0;
  for (let k = 0; k < toks.length; k++) {
    const t = toks[k];
    if (depth === 0 && parens === 0 && t.kind === "name" && !cur && ["query", "mutation", "subscription", "fragment"].includes(t.value)) {
      const next = toks[k + 1];
      cur = { kind: t.value, name: next && next.kind === "name" && next.value !== "on" ? next.value : "", start: t.start, end: text.length };
      continue;
    }
    if (t.kind !== "punct") continue;
    if (t.value === "(") parens++;
    else if (t.value === ")") parens = Math.max(0, parens - 1);
    else if (t.value === "{") {
      if (depth === 0 && parens === 0 && !cur) cur = { kind: "query", name: "", start: t.start, end: text.length };
      depth++;
    } else if (t.value === "}") {
      depth = Math.max(0, depth - 1);
      if (depth === 0 && cur) { cur.end = t.end; ops.push(cur); cur = null; }
    }
  }
  if (cur) ops.push(cur);
  return ops;
}

// operationAt is the name of the executable operation to run for a cursor:
// the one around it, else the first; "" when the document has one or none.
export function operationAt(text, offset) {
  const ops = operations(text).filter((o) => o.kind !== "fragment");
  if (ops.length < 2) return "";
  const at = ops.find((o) => offset >= o.start && offset <= o.end) || ops[0];
  return at.name;
}
