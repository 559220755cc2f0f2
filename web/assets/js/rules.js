// Rules the page shows but does not decide: each is the API's answer, read
// once per page load and kept (docs/decisions.md, "The page reads rules
// from the API").

import { gql } from "./api.js";

export const TRIAGE_ORDER = `query TriageOrder { triageOrder }`;
export const FINDING_RULES = `query FindingRules { findingRules { code severity spec means why } }`;

let order = null;
let help = null;

// triageOrder is the order of the uncovered tiers (SPEC §6.3: tier C first,
// it needs a human read), as Query.triageOrder states it. The server sorts
// the queue by it (skills(orderBy: TIER)); the page names the tiers in that
// order in the queue's totals and its tier filter.
export async function triageOrder() {
  if (!order) order = gql(TRIAGE_ORDER).then((d) => d.triageOrder, (e) => { order = null; throw e; });
  return order;
}

// findingHelp maps each registered finding code to its registry entry
// (Query.findingRules: what it means, why it matters, its SPEC section).
export async function findingHelp() {
  if (!help) {
    help = gql(FINDING_RULES).then(
      (d) => new Map(d.findingRules.map((r) => [r.code, r])), (e) => { help = null; throw e; });
  }
  return help;
}
