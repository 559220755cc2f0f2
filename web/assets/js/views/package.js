// A skill package's page (#/package/<name>): its coverage bar and its
// skills, each with its tier and reachability (issue #25.8).

import { PAGE, gql } from "../api.js";
import { noteVersion } from "../chrome.js";
import { badge, empty, enc, h, link, plural, section, skillLink } from "../dom.js";
import { tierBadge } from "../labels.js";
import { coverageBar } from "../pictures.js";

export const PACKAGE = `query Package($package: String!, $first: Int, $after: String) {
  graphVersion
  skills(package: $package, first: $first, after: $after, orderBy: TIER) {
    totalCount pageInfo { hasNextPage endCursor }
    nodes { id title tier covered contradicted exempt reachable }
  }
}`;

// packageSkills reads every skill of the package, a page at a time.
async function packageSkills(name) {
  let after = null, version = 0;
  const skills = [];
  for (;;) {
    const d = await gql(PACKAGE, { package: name, first: PAGE, after });
    version = d.graphVersion;
    skills.push(...d.skills.nodes);
    if (!d.skills.pageInfo.hasNextPage) break;
    after = d.skills.pageInfo.endCursor;
  }
  return { version, skills };
}

export async function viewPackage(name) {
  const { version, skills } = await packageSkills(name);
  noteVersion(version);
  if (!skills.length) return h("div", null, h("h1", { tabindex: "-1" }, "No package “" + name + "”"), empty("No skill is in a package of that name."), link("#/queue", "Back to the queue"));
  const unreachable = skills.filter((s) => s.covered && !s.reachable).length;
  return h("article", { class: "detail", "data-package": name },
    h("div", { class: "page-head" },
      h("p", { class: "crumbs" }, link("#/queue?package=" + enc(name), "← Queue of this package"), " · package"),
      h("h1", { tabindex: "-1" }, name),
      h("p", { class: "meta" }, plural(skills.length, "skill"), unreachable ? [" · ", badge(plural(unreachable, "covered skill") + " not reachable", "warn")] : null)),
    section("Coverage", "h-pkgcov", coverageBar(skills, "package-bar", "Skills of package " + name + " by coverage")),
    section("Skills", "h-pkgskills", h("div", { class: "table-wrap" }, h("table", { class: "rows", id: "package-skills" },
      h("thead", null, h("tr", null, ["Skill", "Coverage", "Reachable"].map((x) => h("th", { scope: "col" }, x)))),
      h("tbody", null, skills.map((s) => h("tr", { "data-skill": s.id },
        h("td", { "data-label": "Skill" }, skillLink(s.id, s.title || s.id), s.title ? h("div", { class: "sub" }, h("code", null, s.id)) : null),
        h("td", { "data-label": "Coverage" }, s.covered ? badge("covered", "t-covered") : tierBadge(s.tier),
          s.contradicted ? [" ", badge("contradicted", "t-contradicted")] : null, s.exempt ? [" ", badge("exempt", "t-exempt")] : null),
        h("td", { "data-label": "Reachable" }, s.reachable ? badge("reachable", "ok") : badge("not reachable", s.covered ? "warn" : "muted-b")))))))));
}
