// Package mix is the dashboard query mix of issue #14: the six GraphQL
// queries a coverage dashboard sends, shared by cmd/loadgen (over HTTP)
// and the in-process benchmarks (api, api/server), so both measure the
// same requests.
package mix

import "strconv"

// Query is one dashboard request.
type Query struct {
	// Name says what the dashboard shows with it (benchmark names).
	Name string
	// Text is the GraphQL document; it starts with "{" (an anonymous
	// query), which Vary relies on.
	Text string
}

// Dashboard is a dashboard's worth of queries: overview totals, a triage
// page, a skill detail, findings, reachability lists, alternatives and
// workflows.
var Dashboard = []Query{
	{"overview", `{ graphVersion coverage { total uncovered tiers { tier count } } findings(first: 1) { totalCount } }`},
	{"triage", `{ skills(tiers: ["C","A","B","D"], orderBy: TIER, first: 100) { totalCount nodes { id package tier evidence } pageInfo { endCursor hasNextPage } } }`},
	{"skill", `{ skills(covered: true, first: 1) { nodes { id title description tools { id selection { when } } steps { id automation } witness alternatives { id } findings { code message } } } }`},
	{"findings", `{ findings(severity: ERROR, first: 100) { totalCount edges { node { code file line message } } } }`},
	{"reachability", `{ reachability { coveredNotReachable { id } toolsWithoutCommand { id } unreachableProcesses } }`},
	{"workflows", `{ alternatives { missingSelection { id } } workflows { process { id } ratio firstGap { skillRef } } }`},
}

// Vary returns the query text with a leading alias field named after n
// (`{ v<n>: __typename …`): the answer is the same plus one
// "v<n>":"Query" entry, but the normalised text — and so the response
// cache key — differs for every n. It is the honest way to measure an
// uncached answer from outside the server: what a dashboard pays for
// its first request after each new graph version, or for a query nobody
// asked before.
func Vary(text string, n int) string {
	return "{ v" + strconv.Itoa(n) + ": __typename " + text[1:]
}
