// One GraphQL-over-HTTP POST to the same origin's /graphql.

const TOKEN_KEY = "skillgraph.token"; // shared with the triage page

export function token() { try { return sessionStorage.getItem(TOKEN_KEY) || ""; } catch (e) { return ""; } }
export function setToken(t) {
  try { if (t) sessionStorage.setItem(TOKEN_KEY, t); else sessionStorage.removeItem(TOKEN_KEY); } catch (e) { /* storage off */ }
}

// post sends {query, variables, operationName} and returns the status and
// the decoded body (null when it is not JSON). A network failure throws.
export async function post(request) {
  const headers = { "Content-Type": "application/json", Accept: "application/graphql-response+json, application/json;q=0.9" };
  const t = token();
  if (t) headers.Authorization = "Bearer " + t;
  const res = await fetch("graphql", { method: "POST", headers, body: JSON.stringify(request) });
  const text = await res.text();
  let body = null;
  try { body = JSON.parse(text); } catch (e) { body = null; }
  return { status: res.status, body, text };
}
