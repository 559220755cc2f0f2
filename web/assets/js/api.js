// GraphQL over HTTP to the same origin's /graphql, and the maintainer token
// kept in this tab's sessionStorage.

import { withFragments } from "./fragments.js";

export const PAGE = 100; // rows per server-side page
export const TOKEN_KEY = "skillgraph.token";

export function token() { try { return sessionStorage.getItem(TOKEN_KEY) || ""; } catch (e) { return ""; } }
export function setToken(t) {
  try { if (t) sessionStorage.setItem(TOKEN_KEY, t); else sessionStorage.removeItem(TOKEN_KEY); } catch (e) { /* storage off */ }
}

export class GQLError extends Error {
  constructor(msg, status) { super(msg); this.status = status; }
}

export async function gql(query, variables, opts) {
  const headers = { "Content-Type": "application/json", Accept: "application/json" };
  if (opts && opts.auth) headers.Authorization = "Bearer " + token();
  let res;
  try {
    res = await fetch("graphql", { method: "POST", headers, body: JSON.stringify({ query: withFragments(query), variables: variables || {} }) });
  } catch (e) {
    throw new GQLError("The skillgraph server did not answer: " + e.message, 0);
  }
  let body;
  try { body = await res.json(); } catch (e) { throw new GQLError("HTTP " + res.status + " with a body that is not JSON", res.status); }
  if (body.errors && body.errors.length) {
    throw new GQLError(body.errors.map((x) => x.message).join("; "), res.status);
  }
  if (!res.ok) throw new GQLError("HTTP " + res.status, res.status);
  return body.data;
}
