// The page's words for tiers, step states, severities, verdicts and plugin
// hosts and listings, and the badges that show them.

import { badge, h, icon } from "./dom.js";

export const TIER_INFO = {
  covered: { label: "Covered", help: "a Tool with a valid satisfies edge can perform it" },
  contradicted: { label: "Contradicted", help: "uncovered: its only Tools contradict its input contract" },
  A: { label: "Tier A", help: "automation evidence: an automated step names it, or it has an I/O contract" },
  B: { label: "Tier B", help: "a person-performed step names it" },
  C: { label: "Tier C", help: "ambiguous — needs a human read (shell block or package script)" },
  D: { label: "Tier D", help: "no evidence at all" },
};

export const STATE_INFO = {
  performed: { label: "performed", help: "a reachable, valid Tool performs the skill" },
  manual: { label: "manual", help: "only a person performs it: a person step whose skill is uncovered" },
  gap: { label: "gap", help: "nothing performs it" },
};

export function tierBadge(tier) {
  if (!tier) return badge("covered", "t-covered");
  return badge(tier, "t-" + tier, TIER_INFO[tier] ? TIER_INFO[tier].help : null);
}
export function sevBadge(sev) { return badge(sev.toLowerCase(), "sev-" + sev.toLowerCase()); }

// performer shows who performs a step as the API classifies it
// (Step.automation: "automated", "person" or null, SPEC §2.4).
export function performer(automation) {
  const a = automation;
  if (a === "automated") return h("span", { class: "perf perf-machine" }, icon("machine"), "machine");
  if (a === "person") return h("span", { class: "perf perf-person" }, icon("person"), "person");
  return h("span", { class: "perf perf-none", title: "task, callActivity and subProcess carry no automation evidence" }, "? not stated");
}

export function verdictBadge(v) { return badge(v, "verdict v-" + v); }

export function stateTag(k) {
  return h("span", { class: "st-tag st-" + k }, icon(k === "performed" ? "check" : k === "manual" ? "person" : "gap"), STATE_INFO[k] ? STATE_INFO[k].label : k);
}

// hostList names the hosts a plugin is packaged for, as the API lists them.
export function hostList(hosts) {
  return hosts.length ? hosts.map((x, k) => [k ? " " : "", badge(x, "host")]) : h("span", { class: "muted" }, "—");
}

// listedBadge says whether a marketplace of the repository lists the
// plugin (Plugin.listed).
export function listedBadge(listed) {
  return listed ? badge("listed", "ok", "a marketplace of this repository lists it")
    : badge("not listed", "warn", "no marketplace of this repository lists it");
}
