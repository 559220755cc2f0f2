// Rules the page still applies itself because the API does not answer them
// yet; everything else it shows is the API's answer as it is. Each is
// listed in docs/decisions.md ("The page reads rules from the API").

// QUEUE_ORDER is the triage order of the uncovered tiers (SPEC §6.3: tier
// C first, it needs a human read; then A, B, D). The server sorts by it
// (skills(orderBy: TIER)); the page uses it to name the tiers in that
// order in the queue's totals and its tier filter.
export const QUEUE_ORDER = ["C", "A", "B", "D"];
