// What changed in one graph version (#/version/<n>): the bounded change
// lists the store keeps with its tallies (GraphVersion.changes), each
// name linking to its skill or Tool. The overview's trend chart links
// every point here.

import { gql } from "../api.js";
import { noteVersion } from "../chrome.js";
import { empty, h, link, n, section, skillLink, toolLink } from "../dom.js";

// INDEX lists the kept versions (cheap); VERSION reads one and the one
// before it in full, by cursor (a version's cursor names it).
export const INDEX = `query Versions { graphVersion history(first: 500) { edges { cursor node { version } } } }`;
export const VERSION = `query Version($first: Int, $after: String) {
  history(first: $first, after: $after) { edges { node { version time commit
    tallies { coverage { total covered } findings { error warning } }
    changes { newErrors
      newlyCovered { ids more } newlyUncovered { ids more } reachableSkills { ids more } unreachableSkills { ids more } addedSkills { ids more } removedSkills { ids more }
      reachableTools { ids more } unreachableTools { ids more } addedTools { ids more } removedTools { ids more } } } } }
}`;

// LISTS are the change lists shown, worst news first.
const LISTS = [
  { key: "newlyUncovered", title: "Newly uncovered skills", tool: false },
  { key: "unreachableSkills", title: "Skills no longer reachable", tool: false },
  { key: "unreachableTools", title: "Tools no longer reachable", tool: true },
  { key: "removedSkills", title: "Removed skills", tool: false, gone: true },
  { key: "removedTools", title: "Removed Tools", tool: true, gone: true },
  { key: "newlyCovered", title: "Newly covered skills", tool: false },
  { key: "reachableSkills", title: "Skills reachable again", tool: false },
  { key: "reachableTools", title: "Tools reachable again", tool: true },
  { key: "addedSkills", title: "Added skills", tool: false },
  { key: "addedTools", title: "Added Tools", tool: true },
];

export async function viewVersion(version) {
  const idx = await gql(INDEX);
  noteVersion(idx.graphVersion);
  const all = idx.history.edges;
  const at = all.findIndex((e) => String(e.node.version) === version);
  const back = link("#/", "← Overview");
  if (at < 0) {
    return h("div", null, h("p", { class: "crumbs" }, back), h("h1", { tabindex: "-1" }, "No version " + version),
      empty("The store keeps no record of graph version " + version + " (pruned, or never written)."));
  }
  const d = await gql(VERSION, at > 1 ? { first: 2, after: all[at - 2].cursor } : { first: at + 1 });
  const edges = d.history.edges;
  const i = edges.findIndex((e) => String(e.node.version) === version);
  if (i < 0) throw new Error("Version " + version + " was pruned meanwhile: retry.");
  const v = edges[i].node, prev = i > 0 ? edges[i - 1].node : null;
  const c = v.changes;
  const pct = (t) => (t.coverage.total ? Math.round((t.coverage.covered / t.coverage.total) * 1000) / 10 : 0) + "%";
  const head = h("div", { class: "page-head" },
    h("p", { class: "crumbs" }, back, " · graph version"),
    h("h1", { tabindex: "-1" }, "Version " + v.version),
    h("p", { class: "meta", id: "version-meta" }, v.commit ? ["commit ", h("code", null, v.commit.slice(0, 12)), " · "] : null,
      v.time ? v.time.slice(0, 10) + " · " : null,
      "coverage " + pct(v.tallies) + (prev ? " (was " + pct(prev.tallies) + " at version " + prev.version + ")" : ""),
      " · " + n(v.tallies.findings.error) + " errors, " + n(v.tallies.findings.warning) + " warnings"));
  if (!c) {
    return h("div", { "data-version": v.version }, head, section("What changed", "h-changes",
      h("p", { class: "empty", id: "changes-unknown" }, "Not known: this version's record was written without the version before it " +
        "(a first ingest, a triage decision or a check with a store), so only its numbers are kept.")));
  }
  const cards = LISTS.filter((l) => c[l.key].ids.length || c[l.key].more).map((l) => {
    const list = c[l.key];
    const item = (id) => h("li", null, l.gone ? h("code", null, id) : l.tool ? toolLink(id) : skillLink(id));
    return section(l.title + " (" + n(list.ids.length + list.more) + ")", "h-" + l.key,
      h("ul", { class: "plain changed", "data-list": l.key }, list.ids.map(item)),
      list.more ? h("p", { class: "muted small" }, "and " + n(list.more) + " more not kept (the store keeps 64 names a list)") : null);
  });
  return h("div", { "data-version": v.version }, head,
    section("What changed" + (prev ? " since version " + prev.version : ""), "h-changes",
      h("p", { id: "changes-summary" }, n(c.newErrors) + " new error finding" + (c.newErrors === 1 ? "" : "s") + "."),
      cards.length ? null : empty("No skill or Tool changed state.")),
    cards);
}
