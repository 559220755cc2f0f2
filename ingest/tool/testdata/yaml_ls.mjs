// Drives the real yaml-language-server (npm, the server VS Code's, Neovim's
// and Zed's YAML support run) over stdio as an editor does: initialize,
// open each file, collect the diagnostics it publishes. Run by
// ingest/tool's TestYAMLLanguageServer; nothing here is ours but the glue.
//
//   node yaml_ls.mjs FILE...
//
// Prints one JSON object: {"<file>": [{line, message, source}], ...}.
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";

const files = process.argv.slice(2).map((f) => resolve(f));
const server = spawn(process.execPath, [process.env.SKILLGRAPH_NODE_MODULES + "/yaml-language-server/bin/yaml-language-server", "--stdio"], {
  stdio: ["pipe", "pipe", "inherit"],
});

let buf = Buffer.alloc(0);
let nextId = 1;
const pending = new Map();
const diagnostics = new Map();
const waiting = new Map(); // uri -> resolve, once diagnostics for the file arrive

function send(msg) {
  const body = Buffer.from(JSON.stringify({ jsonrpc: "2.0", ...msg }));
  server.stdin.write(`Content-Length: ${body.length}\r\n\r\n`);
  server.stdin.write(body);
}
function request(method, params) {
  const id = nextId++;
  send({ id, method, params });
  return new Promise((ok) => pending.set(id, ok));
}
function onMessage(msg) {
  if (msg.id !== undefined && msg.method === undefined) {
    pending.get(msg.id)?.(msg.result);
    pending.delete(msg.id);
    return;
  }
  if (msg.method === "textDocument/publishDiagnostics") {
    diagnostics.set(msg.params.uri, msg.params.diagnostics);
    waiting.get(msg.params.uri)?.();
    return;
  }
  if (msg.id !== undefined) {
    // requests from the server: workspace/configuration asks for settings
    // per section; everything else is answered with null
    let result = null;
    if (msg.method === "workspace/configuration") {
      result = msg.params.items.map((it) => (it.section === "yaml" ? settings.yaml : null));
    }
    send({ id: msg.id, result });
  }
}
server.stdout.on("data", (chunk) => {
  buf = Buffer.concat([buf, chunk]);
  for (;;) {
    const head = buf.indexOf("\r\n\r\n");
    if (head < 0) return;
    const m = /Content-Length: (\d+)/i.exec(buf.subarray(0, head).toString());
    const len = Number(m[1]);
    if (buf.length < head + 4 + len) return;
    const body = buf.subarray(head + 4, head + 4 + len).toString();
    buf = buf.subarray(head + 4 + len);
    onMessage(JSON.parse(body));
  }
});

// Validation on, no schema store (no network): the schema each file names
// in its own yaml-language-server line is the only one.
const settings = { yaml: { validate: true, hover: false, completion: false, schemaStore: { enable: false }, schemas: {} } };
await request("initialize", {
  processId: process.pid,
  rootUri: null,
  capabilities: { workspace: { configuration: true }, textDocument: { publishDiagnostics: {} } },
});
send({ method: "initialized", params: {} });
send({ method: "workspace/didChangeConfiguration", params: { settings } });

const out = {};
for (const file of files) {
  const uri = pathToFileURL(file).href;
  // The server publishes once for the parse and again when the schema has
  // loaded: wait for a quiet moment after the first report.
  const got = new Promise((ok) => {
    let timer;
    waiting.set(uri, () => {
      clearTimeout(timer);
      timer = setTimeout(ok, 800);
    });
    setTimeout(ok, 5000);
  });
  send({ method: "textDocument/didOpen", params: { textDocument: { uri, languageId: "yaml", version: 1, text: readFileSync(file, "utf8") } } });
  await got;
  out[file] = (diagnostics.get(uri) || []).map((d) => ({ line: d.range.start.line + 1, message: d.message, source: d.source }));
}
console.log(JSON.stringify(out));
await request("shutdown", null);
send({ method: "exit" });
server.kill();
