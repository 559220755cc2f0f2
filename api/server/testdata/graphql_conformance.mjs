// Conformance of skillgraph's /graphql with independent clients
// (run by api/server's TestGraphQLConformance; nothing here is ours but
// the glue): graphql-js builds the client schema from the standard
// introspection query, prints it for comparison with docs/schema.graphql
// and validates the dashboard queries against it; graphql-http's server
// audit checks GraphQL over HTTP.
//
//   node graphql_conformance.mjs URL SCHEMA_FILE QUERIES_JSON
//
// Prints one JSON object: {introspectionStatus, schemaKeys, typeKeys, printed, invalid: [{query, errors}], audits:
// [{id, name, status, reason}]}.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";

const [url, schemaFile, queriesFile] = process.argv.slice(2);
const require = createRequire(process.env.SKILLGRAPH_NODE_MODULES + "/");
const graphql = require("graphql");
const { auditServer } = require("graphql-http");

const res = await fetch(url, {
  method: "POST",
  headers: { "content-type": "application/json", accept: "application/graphql-response+json" },
  // Every option of the current spec's introspection (issue 25.5).
  body: JSON.stringify({
    query: graphql.getIntrospectionQuery({
      descriptions: true,
      specifiedByUrl: true,
      directiveIsRepeatable: true,
      schemaDescription: true,
      inputValueDeprecation: true,
      oneOf: true,
    }),
  }),
});
const body = await res.json();
if (body.errors || !body.data) {
  console.log(JSON.stringify({ introspectionStatus: res.status, introspectionErrors: body.errors }));
  process.exit(0);
}
const schema = graphql.buildClientSchema(body.data);
// Keys in selection order (spec §7.2.2), as JSON.parse keeps them.
const schemaKeys = Object.keys(body.data.__schema);
const typeKeys = Object.keys(body.data.__schema.types[0]);
// Both sides are sorted and printed by graphql-js, so the comparison is
// of schemas, not of two printers' layouts or of type map order.
const printed = graphql.printSchema(graphql.lexicographicSortSchema(schema));
const committed = graphql.printSchema(graphql.lexicographicSortSchema(graphql.buildSchema(readFileSync(schemaFile, "utf8"))));
const invalid = [];
for (const q of JSON.parse(readFileSync(queriesFile, "utf8"))) {
  let errors;
  try {
    errors = graphql.validate(schema, graphql.parse(q)).map((e) => e.message);
  } catch (e) {
    errors = [String(e)];
  }
  if (errors.length) invalid.push({ query: q, errors });
}
const audits = (await auditServer({ url })).map((r) => ({ id: r.id, name: r.name, status: r.status, reason: r.reason }));
console.log(JSON.stringify({ introspectionStatus: res.status, schemaKeys, typeKeys, printed, committed, invalid, audits }));
