// Building DOM nodes and links. Every piece of corpus text reaches the page
// as a text node, never as HTML.

// h builds an element: h("a", {href: "#/"}, "text", child, [more]).
export function h(tag, attrs) {
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
export function append(el, c) {
  if (c === null || c === undefined || c === false) return;
  if (Array.isArray(c)) { c.forEach((x) => append(el, x)); return; }
  el.appendChild(c instanceof Node ? c : document.createTextNode(String(c)));
}
export function clear(el) { while (el.firstChild) el.removeChild(el.firstChild); }
export const fmt = new Intl.NumberFormat();
export function n(x) { return fmt.format(x); }
export function pct(x, total) { return total ? Math.round((100 * x) / total) + "%" : ""; }
export function plural(x, one, many) { return n(x) + " " + (x === 1 ? one : many || one + "s"); }

export function link(hash, text, attrs) { return h("a", Object.assign({ href: hash }, attrs || {}), text); }
export function enc(s) { return encodeURIComponent(s); }
export function skillLink(id, text) { return link("#/skill/" + enc(id), text || id, { class: "skill-link" }); }
export function toolLink(id, text) { return link("#/tool/" + enc(id), text || id, { class: "tool-link" }); }
export function pluginLink(name, text) { return link("#/plugin/" + enc(name), text || name, { class: "plugin-link" }); }
export function processLink(id, step, text) {
  return link("#/process/" + enc(id) + (step ? "?step=" + enc(step) : ""), text || id, { class: "process-link" });
}
export function fileLine(file, line) {
  if (!file) return h("span", { class: "muted" }, "—");
  return h("code", { class: "file" }, file + (line ? ":" + line : ""));
}
export function badge(text, kind, title) { return h("span", { class: "badge " + (kind || ""), title: title || null }, text); }

export function section(title, id, ...children) {
  return h("section", { class: "card", "aria-labelledby": id }, h("h2", { id: id }, title), children);
}
export function empty(text) { return h("p", { class: "empty" }, text); }

// icon draws a small inline SVG (no icon font, no emoji font needed).
export function icon(kind) {
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

export function svgEl(tag, attrs, text) {
  const el = document.createElementNS("http://www.w3.org/2000/svg", tag);
  for (const [k, v] of Object.entries(attrs || {})) el.setAttribute(k, String(v));
  if (text) el.textContent = text;
  return el;
}
