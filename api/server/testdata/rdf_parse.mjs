// Parses /id/'s Turtle and N-Quads with the independent n3 library (run by
// api/server's TestEveryMintedIRIDereferences; nothing here is ours but
// the glue). Prints {"turtle": triples, "nquads": quads}; a syntax error
// exits 1 with the parser's message.
//
//   node rdf_parse.mjs FILE.ttl FILE.nq
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";

const require = createRequire(process.env.SKILLGRAPH_NODE_MODULES + "/");
const { Parser } = require("n3");
const [ttl, nq] = process.argv.slice(2);
const turtle = new Parser({ format: "text/turtle" }).parse(readFileSync(ttl, "utf8"));
const nquads = new Parser({ format: "application/n-quads" }).parse(readFileSync(nq, "utf8"));
console.log(JSON.stringify({ turtle: turtle.length, nquads: nquads.length }));
