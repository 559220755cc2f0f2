// An independent MCP client for skillgraph's tests: the official
// TypeScript SDK drives `skillgraph mcp` over stdio, or `skillgraph serve`'s
// POST /mcp over Streamable HTTP, and prints what it saw as one JSON object.
//
//   node mcp-client.mjs stdio <skillgraph binary> <corpus>
//   node mcp-client.mjs http <http://host:port/mcp>
//
// It initializes, lists the tools, calls every tool once with the given
// arguments (read from the MCP_CALLS environment variable as JSON: {tool:
// arguments}), reads the resource MCP_RESOURCE when set, calls an unknown
// tool and one tool with bad arguments.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

const [mode, a, b] = process.argv.slice(2);
const transport = mode === "stdio"
  ? new StdioClientTransport({ command: a, args: ["mcp", "--corpus", b], stderr: "ignore" })
  : new StreamableHTTPClientTransport(new URL(a));
const client = new Client({ name: "skillgraph-ts-test", version: "1.0.0" });
const out = { calls: {} };
try {
  await client.connect(transport);
  const v = client.getServerVersion();
  out.server = v && v.name;
  out.protocolVersion = transport.protocolVersion || null;
  const list = await client.listTools();
  out.tools = list.tools.map((t) => ({ name: t.name, readOnly: !!(t.annotations && t.annotations.readOnlyHint),
    input: !!t.inputSchema, output: !!t.outputSchema }));
  const calls = JSON.parse(process.env.MCP_CALLS || "{}");
  for (const [name, args] of Object.entries(calls)) {
    const r = await client.callTool({ name, arguments: args });
    out.calls[name] = { isError: !!r.isError, structured: r.structuredContent ?? null };
  }
  if (process.env.MCP_RESOURCE) {
    const r = await client.readResource({ uri: process.env.MCP_RESOURCE });
    out.resource = { text: r.contents.map((c) => c.text).join("") };
    const t = await client.callTool({ name: "get_skill", arguments: { skill: process.env.MCP_RESOURCE.replace("skill://", "") } });
    out.resource.toolText = t.content.map((c) => c.text).join("");
  }
  try {
    const r = await client.callTool({ name: "no_such_tool", arguments: {} });
    out.unknownTool = { isError: !!r.isError };
  } catch (e) {
    out.unknownTool = { error: e.code ?? String(e) };
  }
  try {
    const r = await client.callTool({ name: "find_tool_for_skill", arguments: { skill: 3 } });
    out.badArguments = { isError: !!r.isError };
  } catch (e) {
    out.badArguments = { error: e.code ?? String(e) };
  }
} catch (e) {
  out.failure = String(e && e.stack || e);
} finally {
  await client.close().catch(() => {});
}
process.stdout.write(JSON.stringify(out) + "\n");
