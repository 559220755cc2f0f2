// Oxigraph side of cmd/sidebyside/run.sh: load the N-Quads into an
// in-memory oxigraph.Store, then answer coverage, reachability and
// alternatives in SPARQL. Usage:
//   node oxigraph.mjs QUADS.nq ROOTS.json > result.json
// ROOTS.json is skillgraph's `{ reachability { roots } }` answer; the roots
// are mapped to IRIs here (see mapRoots). Prints one JSON object.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
const require = createRequire(import.meta.url);
const oxigraph = require("oxigraph");

const [nqPath, rootsPath] = process.argv.slice(2);
const SG = "https://w3id.org/skillgraph/ns#";
const PREFIX = `PREFIX sg: <${SG}>\nPREFIX rdf: <http://www.w3.org/1999/02/22-rdf-syntax-ns#>\n`;
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
  return rows;
}
// "https://…#skill/foo" → "skill/foo" (kind/id, the key skillgraph uses)
function localId(iri) {
  const i = iri.indexOf("#");
  return i < 0 ? iri : iri.slice(i + 1);
}

// ---- validity of a satisfies edge (SPEC §5.2), as a SPARQL pattern -----
// T sg:satisfies S is contradicted when S has an input contract and either
// the contract is not in the graph (unreadable), a required name is no input
// of T, or an input of T shares a name with a contract property whose JSON
// type differs (integer may serve number; a repeated port is an array).
const CONTRADICTED = `
  ?s sg:inputRef ?ref .
  FILTER(!STRSTARTS(?ref, "https://") && !STRSTARTS(?ref, "http://"))
  FILTER(
    NOT EXISTS { ?s sg:inputContract ?c0 . ?c0 a sg:Contract }
    || EXISTS { ?s sg:inputContract ?c . ?c sg:requiredName ?rn .
                FILTER NOT EXISTS { ?t sg:hasInput ?ip . ?ip sg:name ?rn } }
    || EXISTS { ?s sg:inputContract ?c . ?c sg:hasProperty ?cp .
                ?cp sg:name ?pn ; sg:jsonType ?want .
                ?t sg:hasInput ?ip . ?ip sg:name ?pn ; sg:jsonType ?jt0 .
                OPTIONAL { ?ip sg:repeated ?rep }
                BIND(IF(BOUND(?rep) && STR(?rep) = "true", "array", STR(?jt0)) AS ?got)
                FILTER(STR(?want) != "" && ?got != "" && STR(?want) != ?got
                       && !(STR(?want) = "number" && ?got = "integer")) }
  )`;

// A Tool's sg:subprocess object is minted from the reference as written
// (usually the BPMN file stem: #process/slide-bundle), while the process
// node is #process/<process/@id>; skillgraph resolves the reference by stem
// or id at analysis time. Materialise the resolved edge so the property
// path can follow it (the raw sg:subprocess object is a dangling IRI).
t0 = process.hrtime.bigint();
const SUBP = oxigraph.namedNode("urn:bench:subprocess");
for (const r of select(`SELECT DISTINCT ?t ?p WHERE { ?t a sg:Tool ; sg:subprocessRef ?ref . ?p a sg:Process .
    FILTER(EXISTS { ?p sg:stem ?ref } || STRENDS(STR(?p), CONCAT("#process/", ?ref))) }`)) {
  store.add(oxigraph.quad(r.get("t"), SUBP, r.get("p"), oxigraph.namedNode("urn:bench:valid")));
}
// the same for call activities: sg:calls is minted from calledElement as
// written, which may be a file stem (#process/calendar-search)
const CALLS = oxigraph.namedNode("urn:bench:calls");
for (const r of select(`SELECT DISTINCT ?a ?p WHERE { ?a sg:calledElement ?ref . ?p a sg:Process .
    FILTER(EXISTS { ?p sg:stem ?ref } || STRENDS(STR(?p), CONCAT("#process/", ?ref))) }`)) {
  store.add(oxigraph.quad(r.get("a"), CALLS, r.get("p"), oxigraph.namedNode("urn:bench:valid")));
}
out.resolveSubprocessMs = ms(t0);
out.rawCallTargetsThatAreProcesses = Number(select(`SELECT (COUNT(*) AS ?n) WHERE { ?a sg:calls ?p . ?p a sg:Process }`)[0].get("n").value);
out.calls = Number(select(`SELECT (COUNT(*) AS ?n) WHERE { ?a sg:calls ?p }`)[0].get("n").value);
out.rawSubprocessTargetsThatAreProcesses = Number(select(`SELECT (COUNT(*) AS ?n) WHERE { ?t sg:subprocess ?p . ?p a sg:Process }`)[0].get("n").value);

// (a) coverage
timed("claimed", `SELECT ?s WHERE { ?s a sg:Skill . FILTER EXISTS { ?t a sg:Tool ; sg:satisfies ?s } }`, ["s"]);
// materialise valid edges once, as quads in a graph of their own (not counted
// above; SPARQL UPDATE has no union-default-graph option, so SELECT + add)
t0 = process.hrtime.bigint();
const VALID = oxigraph.namedNode("urn:bench:validFor");
const VG = oxigraph.namedNode("urn:bench:valid");
for (const r of select(`SELECT ?t ?s WHERE { ?t a sg:Tool ; sg:satisfies ?s . ?s a sg:Skill .
          FILTER NOT EXISTS { ${CONTRADICTED} } }`)) {
  store.add(oxigraph.quad(r.get("t"), VALID, r.get("s"), VG));
}
out.validEdgesMs = ms(t0);
out.validEdges = select(`SELECT ?t WHERE { GRAPH <urn:bench:valid> { ?t <urn:bench:validFor> ?s } }`).length;
timed("covered", `SELECT ?s WHERE { ?s a sg:Skill . FILTER EXISTS { ?t <urn:bench:validFor> ?s } }`, ["s"]);
timed("contradicted", `SELECT ?s WHERE { ?s a sg:Skill .
  FILTER EXISTS { ?t a sg:Tool ; sg:satisfies ?s }
  FILTER NOT EXISTS { ?t2 <urn:bench:validFor> ?s } }`, ["s"]);

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
    if (tr && tr.skill) rootIRIs.push(`${base}#skill/${tr.skill}`);
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
    FILTER NOT EXISTS { ?r sg:origin "mcp" }
    OPTIONAL { ?r sg:invokeMcpServer ?rs }
    FILTER(!BOUND(?rs) || ?rs = ?sv)
  }`;
// dispatch edges of SPEC §5.3: process → its activities (^partOf), call
// activity → process (calls), step → skill (namesSkill), skill → Tool
// (^satisfies, or ^validFor for valid edges only), Tool → subprocess
// (calls and subprocess resolved, see above; RawRefs follows the stored
// sg:calls and sg:subprocess objects as they are)
const pathClaimed = `(^sg:partOf|<urn:bench:calls>|sg:namesSkill|^sg:satisfies|<urn:bench:subprocess>)*`;
const pathRaw = `(^sg:partOf|sg:calls|sg:namesSkill|^<urn:bench:validFor>|sg:subprocess)*`;
const pathValid = `(^sg:partOf|<urn:bench:calls>|sg:namesSkill|^<urn:bench:validFor>|<urn:bench:subprocess>)*`;
out.roots = { given: roots.length, iris: rootIRIs.length, mcp: mcpRoots.length, unmapped };
for (const [suffix, path, sat] of [["", pathValid, "<urn:bench:validFor>"], ["Claimed", pathClaimed, "sg:satisfies"], ["RawRefs", pathRaw, "<urn:bench:validFor>"]]) {
  const reach = `${START} ?r ${path} ?x .`;
  timed("reachableProcesses" + suffix, `SELECT DISTINCT ?x WHERE { ${reach} ?x a sg:Process }`, ["x"]);
  timed("reachableTools" + suffix, `SELECT DISTINCT ?x WHERE { ${reach} ?x a sg:Tool }`, ["x"]);
  // a skill counts as reached when a reached Tool satisfies it (§5.3)
  timed("reachableSkills" + suffix, `SELECT DISTINCT ?s WHERE {
     { ${reach} ?x a sg:Skill . BIND(?x AS ?s) } UNION { ${reach} ?x a sg:Tool ; ${sat} ?s . ?s a sg:Skill } }`, ["s"]);
}
// the closure as one query, timed on its own (the number reported)
{
  const t = process.hrtime.bigint();
  const n = select(`SELECT (COUNT(DISTINCT ?x) AS ?n) WHERE { ${START} ?r ${pathValid} ?x . ?x a ?k .
     FILTER(?k IN (sg:Process, sg:Tool, sg:Skill)) }`)[0].get("n").value;
  out.reachOneQuery = { ms: ms(t), typedNodes: Number(n) };
}

// (c) alternatives: Tools A ≠ B sharing a skill through valid edges, with
// equal signatures (SPEC §5.4): same inputs (name, type, required), same
// outputs (name, type), same renders, same maintains, at least one port.
const sameSet = (a, b) => `
  FILTER NOT EXISTS { ${a} sg:hasInput ?p1 . ?p1 sg:name ?n1 ; sg:portType ?y1 .
    OPTIONAL { ?p1 sg:required ?q1 } BIND(COALESCE(STR(?q1), "false") AS ?r1)
    FILTER NOT EXISTS { ${b} sg:hasInput ?p2 . ?p2 sg:name ?n1 ; sg:portType ?y1 .
      OPTIONAL { ?p2 sg:required ?q2 } FILTER(COALESCE(STR(?q2), "false") = ?r1) } }
  FILTER NOT EXISTS { ${a} sg:hasOutput ?o1 . ?o1 sg:name ?m1 ; sg:portType ?z1 .
    FILTER NOT EXISTS { ${b} sg:hasOutput ?o2 . ?o2 sg:name ?m1 ; sg:portType ?z1 } }
  FILTER NOT EXISTS { ${a} sg:renders ?x1 . FILTER NOT EXISTS { ${b} sg:renders ?x2 . FILTER(STR(?x2) = STR(?x1)) } }
  FILTER NOT EXISTS { ${a} sg:maintains ?w1 . FILTER NOT EXISTS { ${b} sg:maintains ?w2 . FILTER(STR(?w2) = STR(?w1)) } }`;
for (const [suffix, sat] of [["", "<urn:bench:validFor>"], ["Claimed", "sg:satisfies"]]) {
  timed("alternativePairs" + suffix, `SELECT DISTINCT ?s ?a ?b WHERE {
    ?a ${sat} ?s . ?b ${sat} ?s . ?s a sg:Skill . ?a a sg:Tool . ?b a sg:Tool .
    FILTER(STR(?a) < STR(?b))
    FILTER EXISTS { { ?a sg:hasInput ?pa } UNION { ?a sg:hasOutput ?pa } }
    ${sameSet("?a", "?b")}
    ${sameSet("?b", "?a")}
  }`, ["s", "a", "b"]);
}
console.log(JSON.stringify(out));
