// Suggestions in the query editor: a listbox under the caret with the
// fields, arguments, enum values, types and directives that fit there
// (complete.js), driven from the keyboard.

import { suggest } from "./complete.js";
import { isNameChar } from "./language.js";
import { h, clear } from "./dom.js";

const MAX_SHOWN = 200;
const WINDOW = 10; // items drawn at a time

// attachSuggestions wires the listbox list (and its status and info
// elements) to the textarea; schema() returns the current schema or null.
export function attachSuggestions(textarea, list, info, status, schema) {
  let cur = null; // {from, to, items, active}
  let accepting = false;
  let swallow = null; // the key that accepted, whose own input must not land

  function open(explicit) {
    const s = schema();
    const off = textarea.selectionStart;
    if (!s || off !== textarea.selectionEnd) return close();
    const r = suggest(s, textarea.value, off);
    const items = r.items.slice(0, MAX_SHOWN);
    if (!items.length || (!explicit && !r.prefix) || (!explicit && items.length === 1 && items[0].label === r.prefix)) {
      if (explicit) status.textContent = "No suggestion here.";
      return close();
    }
    cur = { from: r.from, to: r.to, items, active: 0, start: 0 };
    render();
  }

  // Only a window of WINDOW items is drawn (no scrolling region): the
  // arrows move the window with the active item.
  function render() {
    cur.start = 0;
    list.hidden = false;
    select(cur.active);
    place();
    status.textContent = cur.items.length === 1 ? "1 suggestion" : cur.items.length + " suggestions";
  }

  function draw() {
    clear(list);
    cur.items.slice(cur.start, cur.start + WINDOW).forEach((it, k) => {
      const i = cur.start + k;
      list.append(h("li", {
        id: "suggestion-" + i, role: "option", class: "suggestion" + (i === cur.active ? " active" : ""),
        "aria-selected": String(i === cur.active), "aria-setsize": cur.items.length, "aria-posinset": i + 1,
        "data-label": it.label, "data-kind": it.kind,
        onmousedown: (ev) => { ev.preventDefault(); cur.active = i; accept(); },
      }, h("span", { class: "s-label" }, it.label), " ", h("span", { class: "s-detail" }, it.detail)));
    });
  }

  function select(i) {
    cur.active = (i + cur.items.length) % cur.items.length;
    if (cur.active < cur.start) cur.start = cur.active;
    if (cur.active >= cur.start + WINDOW) cur.start = cur.active - WINDOW + 1;
    draw();
    textarea.setAttribute("aria-activedescendant", "suggestion-" + cur.active);
    const it = cur.items[cur.active];
    clear(info);
    info.append(h("strong", null, it.label), " ", h("code", null, it.detail), it.description ? h("span", null, " — " + it.description) : null,
      cur.items.length > WINDOW ? h("span", { class: "s-count" }, " (" + (cur.active + 1) + " of " + cur.items.length + ")") : null);
    info.hidden = false;
    placeInfo();
  }

  // placeInfo hangs the active item's description under the list.
  function placeInfo() {
    info.style.top = list.offsetTop + list.offsetHeight + "px";
    info.style.left = list.offsetLeft + "px";
    info.style.width = Math.max(list.offsetWidth, 260) + "px";
  }

  function close() {
    cur = null;
    list.hidden = true;
    info.hidden = true;
    clear(list);
    textarea.removeAttribute("aria-activedescendant");
  }

  function accept() {
    const it = cur.items[cur.active];
    const { from, to } = cur;
    close();
    textarea.focus();
    textarea.setSelectionRange(from, to);
    accepting = true;
    // insertText keeps the browser's undo history; setRangeText is the fallback.
    const done = document.execCommand && document.execCommand("insertText", false, it.insert);
    if (!done) {
      textarea.setRangeText(it.insert, from, to, "end");
      textarea.dispatchEvent(new Event("input", { bubbles: true }));
    }
    accepting = false;
    status.textContent = "Inserted " + it.label + ".";
    if (it.kind === "argument") open(true); // an enum or Boolean value may follow
  }

  // place puts the list under the caret, measured on a mirror of the
  // textarea (same box and font) up to the caret.
  function place() {
    const cs = getComputedStyle(textarea);
    const mirror = document.createElement("div");
    for (const p of ["font", "letterSpacing", "lineHeight", "padding", "border", "boxSizing", "tabSize", "whiteSpace", "wordWrap", "overflowWrap"]) mirror.style[p] = cs[p];
    mirror.style.position = "absolute";
    mirror.style.visibility = "hidden";
    mirror.style.whiteSpace = "pre-wrap";
    mirror.style.width = textarea.clientWidth + "px";
    mirror.textContent = textarea.value.slice(0, cur.from);
    const mark = document.createElement("span");
    mark.textContent = "\u200b";
    mirror.appendChild(mark);
    textarea.parentNode.appendChild(mirror);
    const top = mark.offsetTop + mark.offsetHeight - textarea.scrollTop + textarea.offsetTop;
    const left = Math.min(mark.offsetLeft - textarea.scrollLeft + textarea.offsetLeft, Math.max(0, textarea.clientWidth - 260));
    mirror.remove();
    list.style.top = Math.min(top, textarea.offsetTop + textarea.offsetHeight) + "px";
    list.style.left = Math.max(0, left) + "px";
    placeInfo();
  }

  textarea.addEventListener("keydown", (ev) => {
    if (ev.key === " " && ev.ctrlKey) { ev.preventDefault(); open(true); return; }
    if (!cur) return;
    switch (ev.key) {
      case "ArrowDown": ev.preventDefault(); select(cur.active + 1); break;
      case "ArrowUp": ev.preventDefault(); select(cur.active - 1); break;
      case "PageDown": ev.preventDefault(); select(Math.min(cur.active + 8, cur.items.length - 1)); break;
      case "PageUp": ev.preventDefault(); select(Math.max(cur.active - 8, 0)); break;
      case "Enter":
        if (ev.ctrlKey || ev.metaKey) { close(); return; }
        ev.preventDefault(); swallow = "Enter"; accept(); break;
      case "Tab": ev.preventDefault(); swallow = "Tab"; accept(); break;
      case "Escape": ev.preventDefault(); ev.stopPropagation(); close(); status.textContent = "Suggestions closed."; break;
      case "ArrowLeft": case "ArrowRight": case "Home": case "End": close(); break;
    }
  });
  // A browser that still delivers the accepting key's character (a
  // synthetic key event sends it apart from keydown) must not insert it.
  textarea.addEventListener("beforeinput", (ev) => {
    if (swallow && (ev.inputType === "insertLineBreak" || ev.inputType === "insertParagraph" || (ev.inputType === "insertText" && /^[\r\n\t]$/.test(ev.data || "")))) ev.preventDefault();
  });
  textarea.addEventListener("keyup", () => { swallow = null; });
  textarea.addEventListener("input", (ev) => {
    if (accepting) return;
    const typedName = ev.inputType === "insertText" && ev.data && isNameChar(ev.data[ev.data.length - 1]);
    if (typedName || (cur && ev.inputType && ev.inputType.startsWith("delete"))) open(false);
    else if (ev.inputType === "insertText" && (ev.data === "(" || ev.data === "@")) open(true);
    else close();
  });
  textarea.addEventListener("blur", close);
  textarea.addEventListener("mousedown", close);
  return { open, close };
}
