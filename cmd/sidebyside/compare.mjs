// skillgraph side of cmd/sidebyside/run.sh, over GraphQL on loopback, and
// the comparison table. Usage:
//   node compare.mjs http://127.0.0.1:PORT/graphql TIMES.json OX.json [ANSWERS.json]
// TIMES.json holds the wall times the shell measured (seconds); ANSWERS.json,
// when given, gets each answer's two query times (scripts/goals.sh reads it).
import { readFileSync, writeFileSync } from "node:fs";

const [url, timesPath, oxPath, answersPath] = process.argv.slice(2);
const times = JSON.parse(readFileSync(timesPath, "utf8"));
const ox = JSON.parse(readFileSync(oxPath, "utf8"));

async function gql(query, variables = {}) {
  const r = await fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ query, variables }) });
  const j = await r.json();
  if (j.errors) throw new Error(JSON.stringify(j.errors));
  return j.data;
}
// every node of a connection, in pages of 500 (the server's cost limit)
async function all(field, args, sel) {
  const out = [];
  let after = null;
  for (;;) {
    const d = await gql(`query($after: String) { c: ${field}(${args ? args + ", " : ""}first: 500, after: $after) { pageInfo { hasNextPage endCursor } nodes { ${sel} } } }`, { after });
    out.push(...d.c.nodes);
    if (!d.c.pageInfo.hasNextPage) return out;
    after = d.c.pageInfo.endCursor;
  }
}
const sg = {};
// a skill's key as Oxigraph's side spells its IRI: skill/<package>/<id>
// (skill/<id> for a skill without a package)
const sk = (s) => "skill/" + (s.package ? s.package + "/" : "") + s.id;
async function timed(name, fn) {
  const t = process.hrtime.bigint();
  const ids = [...new Set(await fn())].sort();
  sg[name] = { ms: Number(process.hrtime.bigint() - t) / 1e6, count: ids.length, ids };
}
await timed("claimed", async () => (await all("tools", "", "satisfies { id package }")).flatMap((t) => t.satisfies.map(sk)));
await timed("covered", async () => (await gql("{ coverage { covered { id package } } }")).coverage.covered.map(sk));
await timed("contradicted", async () => (await gql("{ coverage { contradicted { id package } } }")).coverage.contradicted.map(sk));
await timed("reachableProcesses", async () => (await all("processes", "reachable: true", "id")).map((p) => "process/" + p.id));
await timed("reachableTools", async () => (await all("tools", "reachable: true", "id")).map((t) => "tool/" + t.id));
await timed("reachableSkills", async () => (await all("skills", "reachable: true", "id package")).map(sk));
await timed("alternativePairs", async () => {
  const pairs = [];
  for (const g of (await gql("{ alternatives { groups { skill { id package } tools { id } } } }")).alternatives.groups) {
    const ts = g.tools.map((t) => t.id).sort();
    for (let i = 0; i < ts.length; i++) for (let j = i + 1; j < ts.length; j++) pairs.push(`${sk(g.skill)} tool/${ts[i]} tool/${ts[j]}`);
  }
  return pairs;
});
const groups = (await gql("{ alternatives { groups { skill { id } } } }")).alternatives.groups.length;

// ---- table ----
const f = (x, d = 2) => (x == null ? "—" : Number(x).toFixed(d));
const rows = [];
const row = (...c) => rows.push("| " + c.join(" | ") + " |");
console.log(`quads: ${times.quads} (N-Quads ${(times.nqBytes / 1e6).toFixed(1)} MB), skills: ${times.skills}\n`);
row("step", "Cayley CLI (bolt)", "Oxigraph (memory)", "skillgraph", "skillgraph / Cayley", "skillgraph / Oxigraph");
row("---", "---", "---", "---", "---", "---");
row("load the N-Quads (s)", f(times.cayleyLoad), f(ox.loadMs / 1000), `${f(times.sgLoadNq)} (loadnq → bbolt)`, f(times.sgLoadNq / times.cayleyLoad), f(times.sgLoadNq / (ox.loadMs / 1000)));
row("ingest the corpus files (s)", "—", "—", `${f(times.sgIngest)} (ingest → bbolt)`, f(times.sgIngest / times.cayleyLoad), f(times.sgIngest / (ox.loadMs / 1000)));
row("first answer after load: snapshot from bbolt (s)", "—", "—", f(times.sgSnapshot), "", "");
const sameIds = (a, b) => a.length === b.length && a.every((x, i) => x === b[i]);
const answers = [
  ["(a) claimed skills (≥1 satisfies)", "claimed", "claimed"],
  ["(a) covered skills (valid edge)", "covered", "covered"],
  ["(a) contradicted skills", "contradicted", "contradicted"],
  ["(b) reachable processes", "reachableProcesses", "reachableProcesses"],
  ["(b) reachable Tools", "reachableTools", "reachableTools"],
  ["(b) reachable skills", "reachableSkills", "reachableSkills"],
  ["(b) reachable Tools, claimed edges", "reachableToolsClaimed", "reachableTools"],
  ["(b) reachable skills, claimed edges", "reachableSkillsClaimed", "reachableSkills"],
  ["(b) reachable processes, raw sg:calls/sg:subprocess objects", "reachableProcessesRawRefs", "reachableProcesses"],
  ["(b) reachable skills, raw sg:calls/sg:subprocess objects", "reachableSkillsRawRefs", "reachableSkills"],
  ["(c) alternative pairs (valid edges)", "alternativePairs", "alternativePairs"],
  ["(c) alternative pairs, claimed edges", "alternativePairsClaimed", "alternativePairs"],
];
const agree = {};
const perAnswer = [];
for (const [label, ok, sk] of answers) {
  const o = ox.answers[ok], s = sg[sk];
  perAnswer.push({ label, oxMs: o.ms, sgMs: s.ms });
  const same = sameIds(o.ids, s.ids);
  agree[label] = same;
  const only = (a, b) => a.filter((x) => !b.includes(x));
  const diff = same ? "same ids" : `differ: +${only(o.ids, s.ids).length} only Oxigraph, +${only(s.ids, o.ids).length} only skillgraph`;
  row(`${label}: count`, "—", String(o.count), String(s.count), "", diff);
  row(`${label}: time (ms)`, "—", f(o.ms, 1), f(s.ms, 1), "", f(s.ms / o.ms));
}
console.log(rows.join("\n"));
if (answersPath) writeFileSync(answersPath, JSON.stringify(perAnswer, null, 1) + "\n");
console.log(`\nOxigraph: read file ${f(ox.readMs / 1000)} s, ${ox.quads} quads in the store; valid-edge check in SPARQL ${f(ox.validEdgesMs, 0)} ms, call, subprocess and skill (owl:sameAs) references resolved in ${f(ox.resolveSubprocessMs, 0)} ms (stored objects that are process nodes: sg:calls ${ox.rawCallTargetsThatAreProcesses} of ${ox.calls}, sg:subprocess ${ox.rawSubprocessTargetsThatAreProcesses}) (${ox.validEdges} valid of the claimed edges); start nodes of the ${ox.roots.given} roots in ${f(ox.startNodesMs, 0)} ms, their closure (valid edges) as one COUNT query ${f(ox.reachOneQuery.ms, 0)} ms; Tool signatures materialised in ${f(ox.signaturesMs, 0)} ms; whole node process ${f(times.oxigraphAll)} s.`);
console.log(`skillgraph: ${groups} alternative groups; answer times are GraphQL over loopback on a served snapshot (paged by 500 where a list is a connection).`);
console.log(`Cayley: ${times.cayleyQuads} quads read back with \`cayley dump\`.`);
for (const [k, v] of Object.entries(agree)) if (!v) {
  const [label, ok, sk] = answers.find((a) => a[0] === k);
  const o = ox.answers[ok].ids, s = sg[sk].ids;
  console.log(`\n${k}: only Oxigraph: ${o.filter((x) => !s.includes(x)).slice(0, 8).join(", ")}${o.filter((x) => !s.includes(x)).length > 8 ? ", …" : ""}; only skillgraph: ${s.filter((x) => !o.includes(x)).slice(0, 8).join(", ")}`);
}
