// jsonld.js, with its default settings (no custom document loader), turns
// skillgraph's JSON-LD export into N-Quads: the export must carry or name
// a context a default processor can use (run by api/server's
// TestJSONLDExportWithDefaultLoader; nothing here is ours but the glue).
//
//   node jsonld_default.mjs URL_OR_FILE
//
// Prints one JSON object: {quads: N} or {error: "..."}.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";

const [src] = process.argv.slice(2);
const require = createRequire(process.env.SKILLGRAPH_NODE_MODULES + "/");
const jsonld = require("jsonld");

try {
  const doc = src.startsWith("http")
    ? await (await fetch(src, { headers: { Accept: "application/ld+json" } })).json()
    : JSON.parse(readFileSync(src, "utf8"));
  const nq = await jsonld.toRDF(doc, { format: "application/n-quads" });
  process.stdout.write(JSON.stringify({ quads: nq.split("\n").filter((l) => l.trim() !== "").length }));
} catch (e) {
  process.stdout.write(JSON.stringify({ error: String(e && e.message ? e.message : e) }));
}
