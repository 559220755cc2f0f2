// Oxigraph side of cmd/sidebyside/run.sh: load the N-Quads into an
// in-memory oxigraph.Store, then answer coverage, reachability and
// alternatives in SPARQL. Usage:
//   node oxigraph.mjs QUADS.nq ROOTS.json RESULT.json
// ROOTS.json is skillgraph's `{ reachability { roots } }` answer; the roots
// are mapped to IRIs here (see mapRoots). Writes one JSON object.
import { readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
const require = createRequire(import.meta.url);
const oxigraph = require("oxigraph");

const [nqPath, rootsPath, outPath] = process.argv.slice(2);
const SG = "https://w3id.org/skillgraph/ns#";
const PREFIX = `PREFIX sg: <${SG}>\nPREFIX rdf: <http://www.w3.org/1999/02/22-rdf-syntax-ns#>\nPREFIX owl: <http://www.w3.org/2002/07/owl#>\n`;
// Every quad is in a named graph (one per source file): query their union.
const opts = { use_default_graph_as_union: true };
const out = { system: "oxigraph", version: require("oxigraph/package.json").version, answers: {} };

const ms = (t0) => Number(process.hrtime.bigint() - t0) / 1e6;
let t0 = process.hrtime.bigint();
const data = readFileSync(nqPath, "utf8");
out.readMs = ms(t0);
const store = new oxigraph.Store();
t0 = process.hrtime.bigint();
store.load(data, { format: "application/n-quads" });
out.loadMs = ms(t0);
out.quads = store.size;

function select(q) {
  return store.query(PREFIX + q, opts);
}
function timed(name, q, col) {
  const t = process.hrtime.bigint();
  const rows = select(q);
  const elapsed = ms(t);
  const vals = rows.map((r) => col.map((c) => localId(r.get(c).value)).join(" "));
  vals.sort();
  out.answers[name] = { ms: elapsed, count: vals.length, ids: vals };
  console.error(`oxigraph: ${name} ${vals.length} in ${elapsed.toFixed(0)} ms`);
  return rows;
}
// "https://…#skill/pkg/foo" → "skill/pkg/foo" (kind/id; compare.mjs builds
// the same key from skillgraph's package and id)
function localId(iri) {
  const i = iri.indexOf("#");
  return i < 0 ? iri : iri.slice(i + 1);
}

// ---- validity of a satisfies edge (SPEC §5.2), as SPARQL patterns -------
// T sg:satisfies S is contradicted when S has an input contract and either
// the contract is not in the graph (unreadable), a required name is no input
// of T, or an input of T shares a name with a contract property whose JSON
// type differs (integer may serve number; a repeated port is an array).
// Written as three positive patterns over the claimed edge ?t → ?s, each
// a join (an unmatched OPTIONAL for "absent"). The first form, one nested
// FILTER NOT EXISTS per edge, had not finished after 2 min at 10k skills
// (Oxigraph 0.5.11 evaluates [NOT] EXISTS per row in time that grows with the
// corpus); at 1k it took 0.7-1.1 s, this form 0.12-0.16 s, same edges.
const LOCAL_CONTRACT = `?t a sg:Tool ; <urn:bench:satisfies> ?s . ?s a sg:Skill ; sg:inputRef ?ref .
  FILTER(!STRSTARTS(?ref, "https://") && !STRSTARTS(?ref, "http://"))`;
const CONTRADICTED = [
  // the contract is not in the graph
  `${LOCAL_CONTRACT} OPTIONAL { ?s sg:inputContract ?c0 . ?c0 a sg:Contract } FILTER(!BOUND(?c0))`,
  // a required name is no input of T
  `${LOCAL_CONTRACT} ?s sg:inputContract ?c . ?c sg:requiredName ?rn .
   OPTIONAL { ?t sg:hasInput ?ip . ?ip sg:name ?rn } FILTER(!BOUND(?ip))`,
  // an input of T shares a name with a property of another JSON type
  `${LOCAL_CONTRACT} ?s sg:inputContract ?c . ?c sg:hasProperty ?cp .
   ?cp sg:name ?pn ; sg:jsonType ?want .
   ?t sg:hasInput ?ip . ?ip sg:name ?pn ; sg:jsonType ?jt0 .
   OPTIONAL { ?ip sg:repeated ?rep }
   BIND(IF(BOUND(?rep) && STR(?rep) = "true", "array", STR(?jt0)) AS ?got)
   FILTER(STR(?want) != "" && ?got != "" && STR(?want) != ?got
          && !(STR(?want) = "number" && ?got = "integer"))`,
];

// A Tool's sg:subprocess object is minted from the reference as written
// (usually the BPMN file stem: #process/slide-bundle), while the process
// node is #process/<process/@id>; skillgraph resolves the reference by stem
// or id at analysis time. Materialise the resolved edge so the property
// path can follow it (the raw sg:subprocess object is a dangling IRI).
t0 = process.hrtime.bigint();
const SUBP = oxigraph.namedNode("urn:bench:subprocess");
// (by stem as a join, by id as a string test; no FILTER EXISTS, see above)
for (const r of select(`SELECT DISTINCT ?t ?p WHERE { { ?t a sg:Tool ; sg:subprocessRef ?ref . ?p a sg:Process ; sg:stem ?ref }
    UNION { ?t a sg:Tool ; sg:subprocessRef ?ref . ?p a sg:Process . FILTER(STRENDS(STR(?p), CONCAT("#process/", ?ref))) } }`)) {
  store.add(oxigraph.quad(r.get("t"), SUBP, r.get("p"), oxigraph.namedNode("urn:bench:valid")));
}
// the same for call activities: sg:calls is minted from calledElement as
// written, which may be a file stem (#process/calendar-search)
const CALLS = oxigraph.namedNode("urn:bench:calls");
for (const r of select(`SELECT DISTINCT ?a ?p WHERE { { ?a sg:calledElement ?ref . ?p a sg:Process ; sg:stem ?ref }
    UNION { ?a sg:calledElement ?ref . ?p a sg:Process . FILTER(STRENDS(STR(?p), CONCAT("#process/", ?ref))) } }`)) {
  store.add(oxigraph.quad(r.get("a"), CALLS, r.get("p"), oxigraph.namedNode("urn:bench:valid")));
}
// A skill's node is #skill/<package>/<id>; a bare reference (a step's
// sg:namesSkill, a `satisfies: [name]`, a trigger's skill) mints
// #skill/<id>, which each packaged skill file declares owl:sameAs its node
// (docs/decisions.md "IRIs"). skillgraph resolves a bare name to the first of
// its packages in IRI order; materialise that resolved edge as well, so every
// query below meets the skill node itself.
const skillOf = new Map();
for (const r of select(`SELECT ?s WHERE { ?s a sg:Skill }`)) skillOf.set(r.get("s").value, r.get("s").value);
for (const r of select(`SELECT ?o (MIN(STR(?k)) AS ?s) WHERE { { ?o owl:sameAs ?k . ?k a sg:Skill }
    MINUS { ?o a sg:Skill } } GROUP BY ?o`)) skillOf.set(r.get("o").value, r.get("s").value);
const SAT = oxigraph.namedNode("urn:bench:satisfies");
const NAMES = oxigraph.namedNode("urn:bench:namesSkill");
out.danglingSkillRefs = 0;
for (const [pred, edge, subj] of [["sg:satisfies", SAT, "?t a sg:Tool ."], ["sg:namesSkill", NAMES, ""]]) {
  for (const r of select(`SELECT DISTINCT ?t ?o WHERE { ${subj} ?t ${pred} ?o }`)) {
    const sk = skillOf.get(r.get("o").value);
    if (sk) store.add(oxigraph.quad(r.get("t"), edge, oxigraph.namedNode(sk), oxigraph.namedNode("urn:bench:valid")));
    else out.danglingSkillRefs++;
  }
}
out.skillAliases = skillOf.size - select(`SELECT ?s WHERE { ?s a sg:Skill }`).length;
out.resolveSubprocessMs = ms(t0);
out.rawCallTargetsThatAreProcesses = Number(select(`SELECT (COUNT(*) AS ?n) WHERE { ?a sg:calls ?p . ?p a sg:Process }`)[0].get("n").value);
out.calls = Number(select(`SELECT (COUNT(*) AS ?n) WHERE { ?a sg:calls ?p }`)[0].get("n").value);
out.rawSubprocessTargetsThatAreProcesses = Number(select(`SELECT (COUNT(*) AS ?n) WHERE { ?t sg:subprocess ?p . ?p a sg:Process }`)[0].get("n").value);

// (a) coverage
// (written as joins: as FILTER EXISTS this one took 22 s at 10k, 0.03 s now)
timed("claimed", `SELECT DISTINCT ?s WHERE { ?t a sg:Tool ; <urn:bench:satisfies> ?s . ?s a sg:Skill }`, ["s"]);
// materialise valid edges once, as quads in a graph of their own (not counted
// above; SPARQL UPDATE has no union-default-graph option, so SELECT + add)
t0 = process.hrtime.bigint();
const VALID = oxigraph.namedNode("urn:bench:validFor");
const VG = oxigraph.namedNode("urn:bench:valid");
const CONTRA = oxigraph.namedNode("urn:bench:contradicts");
for (const q of CONTRADICTED) {
  for (const r of select(`SELECT DISTINCT ?t ?s WHERE { ${q} }`)) store.add(oxigraph.quad(r.get("t"), CONTRA, r.get("s"), VG));
}
for (const r of select(`SELECT DISTINCT ?t ?s WHERE { { ?t a sg:Tool ; <urn:bench:satisfies> ?s . ?s a sg:Skill }
          MINUS { ?t <urn:bench:contradicts> ?s } }`)) {
  store.add(oxigraph.quad(r.get("t"), VALID, r.get("s"), VG));
}
out.validEdgesMs = ms(t0);
out.validEdges = select(`SELECT ?t WHERE { GRAPH <urn:bench:valid> { ?t <urn:bench:validFor> ?s } }`).length;
timed("covered", `SELECT DISTINCT ?s WHERE { ?t <urn:bench:validFor> ?s . ?s a sg:Skill }`, ["s"]);
timed("contradicted", `SELECT DISTINCT ?s WHERE { ?t a sg:Tool ; <urn:bench:satisfies> ?s . ?s a sg:Skill .
  OPTIONAL { ?t2 <urn:bench:validFor> ?s } FILTER(!BOUND(?t2)) }`, ["s"]);

// (b) reachability: roots from skillgraph, mapped to IRIs
const inst = select(`SELECT ?i ?ep WHERE { ?i a sg:Instance . OPTIONAL { ?i sg:entrypoints ?ep } }`);
if (inst.length !== 1) throw new Error(`expected one instance, got ${inst.length}`);
const base = inst[0].get("i").value;
const ep = inst[0].get("ep") ? JSON.parse(inst[0].get("ep").value) : {};
const roots = JSON.parse(readFileSync(rootsPath, "utf8")).data.reachability.roots;
const rootIRIs = [];
const mcpRoots = [];
const unmapped = [];
for (const r of roots) {
  const [kind, rest] = [r.slice(0, r.indexOf(":")), r.slice(r.indexOf(":") + 1)];
  if (kind === "process") rootIRIs.push(`${base}#process/${rest}`);
  else if (kind === "tool") rootIRIs.push(`${base}#tool/${rest}`);
  else if (kind === "mcp") mcpRoots.push(rest.split("/"));
  else if (kind === "trigger") {
    // triggers are not nodes in the quads; a trigger root stands for the
    // skill or Tool it names (entrypoints JSON literal of the instance)
    const tr = (ep.triggers || []).find((x) => x.id === rest);
    if (tr && tr.skill && skillOf.has(`${base}#skill/${tr.skill}`)) rootIRIs.push(skillOf.get(`${base}#skill/${tr.skill}`));
    else if (tr && tr.tool) rootIRIs.push(`${base}#tool/${tr.tool}`);
    else unmapped.push(r);
  } else unmapped.push(r);
}
// an MCP listing (server, name) stands for the MCP-derived Tool and every
// authored Tool whose invoke.mcp names it (skillgraph's exposedBy join)
const mcpValues = mcpRoots.map(([s, n]) => `(${JSON.stringify(s)} ${JSON.stringify(n)})`).join(" ");
const START = `{
    VALUES ?r { ${rootIRIs.map((i) => `<${i}>`).join(" ")} }
  } UNION {
    VALUES (?sv ?nm) { ${mcpValues} }
    ?r sg:origin "mcp" ; sg:invokeMcpServer ?sv ; sg:mcpName ?nm .
  } UNION {
    VALUES (?sv ?nm) { ${mcpValues} }
    ?m sg:origin "mcp" ; sg:invokeMcpServer ?sv ; sg:mcpName ?nm .
    ?r sg:invokeMcpTool ?nm .
    MINUS { ?r sg:origin "mcp" }
    OPTIONAL { ?r sg:invokeMcpServer ?rs }
    FILTER(!BOUND(?rs) || ?rs = ?sv)
  }`;
// dispatch edges of SPEC §5.3: process → its activities (^partOf), call
// activity → process (calls), step → skill (namesSkill), skill → Tool
// (^satisfies, or ^validFor for valid edges only), Tool → subprocess
// (calls and subprocess resolved, see above; RawRefs follows the stored
// sg:calls and sg:subprocess objects as they are)
const pathClaimed = `(^sg:partOf|<urn:bench:calls>|<urn:bench:namesSkill>|^<urn:bench:satisfies>|<urn:bench:subprocess>)*`;
const pathRaw = `(^sg:partOf|sg:calls|<urn:bench:namesSkill>|^<urn:bench:validFor>|sg:subprocess)*`;
const pathValid = `(^sg:partOf|<urn:bench:calls>|<urn:bench:namesSkill>|^<urn:bench:validFor>|<urn:bench:subprocess>)*`;
out.roots = { given: roots.length, iris: rootIRIs.length, mcp: mcpRoots.length, unmapped };
// The start set is evaluated once and hung under one node, so each closure
// below is one traversal from a bound node rather than the start UNION
// joined into every query (at 1k the closure as one COUNT query went from
// 2.0 s to 0.04-0.17 s, same nodes).
t0 = process.hrtime.bigint();
const ROOT = oxigraph.namedNode("urn:bench:root");
const STARTS = oxigraph.namedNode("urn:bench:start");
for (const r of select(`SELECT DISTINCT ?r WHERE { ${START} }`)) store.add(oxigraph.quad(ROOT, STARTS, r.get("r"), VG));
out.startNodesMs = ms(t0);
for (const [suffix, path, sat] of [["", pathValid, "<urn:bench:validFor>"], ["Claimed", pathClaimed, "<urn:bench:satisfies>"], ["RawRefs", pathRaw, "<urn:bench:validFor>"]]) {
  const reach = `<urn:bench:root> <urn:bench:start>/${path} ?x .`;
  timed("reachableProcesses" + suffix, `SELECT DISTINCT ?x WHERE { ${reach} ?x a sg:Process }`, ["x"]);
  timed("reachableTools" + suffix, `SELECT DISTINCT ?x WHERE { ${reach} ?x a sg:Tool }`, ["x"]);
  // a skill counts as reached when a reached Tool satisfies it (§5.3)
  timed("reachableSkills" + suffix, `SELECT DISTINCT ?s WHERE {
     { ${reach} ?x a sg:Skill . BIND(?x AS ?s) } UNION { ${reach} ?x a sg:Tool ; ${sat} ?s . ?s a sg:Skill } }`, ["s"]);
}
// the closure as one query, timed on its own (the number reported)
{
  const t = process.hrtime.bigint();
  const n = select(`SELECT (COUNT(DISTINCT ?x) AS ?n) WHERE { <urn:bench:root> <urn:bench:start>/${pathValid} ?x . ?x a ?k .
     FILTER(?k IN (sg:Process, sg:Tool, sg:Skill)) }`)[0].get("n").value;
  out.reachOneQuery = { ms: ms(t), typedNodes: Number(n) };
}

// (c) alternatives: Tools A ≠ B sharing a skill through valid edges, with
// equal signatures (SPEC §5.4): same inputs (name, type, required), same
// outputs (name, type), same renders, same maintains, at least one port.
// Each element of a Tool's signature is materialised once as a literal
// (urn:bench:sig) and the signatures are compared as sets of those literals:
// the same test as comparing the port patterns pairwise with nested
// FILTER NOT EXISTS, the first form (2.4 s at 1k, 0.01 s now, same pairs).
t0 = process.hrtime.bigint();
const SIG = oxigraph.namedNode("urn:bench:sig");
for (const r of select(`SELECT DISTINCT ?t ?k ?n ?y ?q WHERE { ?t a sg:Tool ; <urn:bench:satisfies> ?s0 .
    { ?t sg:hasInput ?p . ?p sg:name ?n ; sg:portType ?y . OPTIONAL { ?p sg:required ?q } BIND("in" AS ?k) }
    UNION { ?t sg:hasOutput ?p . ?p sg:name ?n ; sg:portType ?y . BIND("out" AS ?k) }
    UNION { ?t sg:renders ?n . BIND("renders" AS ?k) }
    UNION { ?t sg:maintains ?n . BIND("maintains" AS ?k) } }`)) {
  const k = r.get("k").value, n = r.get("n").value, y = r.get("y"), q = r.get("q");
  // inputs: name, port type (the term), required (absent = false); outputs:
  // name, port type; renders and maintains: the value as a string
  const d = k === "in" ? [k, n, y.termType, y.value, q ? q.value : "false"]
    : k === "out" ? [k, n, y.termType, y.value] : [k, n];
  store.add(oxigraph.quad(r.get("t"), SIG, oxigraph.literal(JSON.stringify(d)), VG));
}
out.signaturesMs = ms(t0);
for (const [suffix, sat] of [["", "<urn:bench:validFor>"], ["Claimed", "<urn:bench:satisfies>"]]) {
  timed("alternativePairs" + suffix, `SELECT DISTINCT ?s ?a ?b WHERE {
    ?a ${sat} ?s . ?b ${sat} ?s . ?s a sg:Skill . ?a a sg:Tool . ?b a sg:Tool .
    FILTER(STR(?a) < STR(?b))
    FILTER EXISTS { { ?a sg:hasInput ?pa } UNION { ?a sg:hasOutput ?pa } }
    FILTER NOT EXISTS { ?a <urn:bench:sig> ?d1 . FILTER NOT EXISTS { ?b <urn:bench:sig> ?d1 } }
    FILTER NOT EXISTS { ?b <urn:bench:sig> ?d2 . FILTER NOT EXISTS { ?a <urn:bench:sig> ?d2 } }
  }`, ["s", "a", "b"]);
}
writeFileSync(outPath, JSON.stringify(out) + "\n");
