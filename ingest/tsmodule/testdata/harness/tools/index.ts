// Tools as code, in the shapes real harness modules use.
import { readFileSync } from "node:fs";
import { defineTool, type ToolDefinition } from "../schemas/tool.js";
import { viewerTools } from "./viewers.js";

function stub(): string {
  const d = JSON.parse(readFileSync("harness.json", "utf-8"));
  return d.name;
}

export function tools(base?: string): ToolDefinition[] {
  const t = (n: string): string => `${base}/types#${n}`;
  const inProcess = (module: string, name: string) => ({
    inProcess: { module },
    mcp: { tool: name },
  });
  const bundled = { none: true } as const;
  const prefix = "notes";
  return [
    defineTool({
      id: prefix + "-archive",
      title: `Archive ${prefix}`,
      description: "Archive the notes of a finished piece of work.",
      install: bundled,
      invoke: { ...inProcess("src/archive.ts", "archive_notes"), shell: "bin/archive" },
      io: {
        inputs: [
          { name: "path", schema: t("Path"), required: true, arg: { flag: "--path" } },
          { name: "count", schema: t("Count"), required: false, arg: { flag: "-n" } },
        ],
        outputs: [{ name: "archive", schema: t("NotesPath") }],
      },
      satisfies: ["archive-notes"],
      maintains: [{ source: "schemas/notes.ts", artefact: `${stub()}.schema.json`, format: "json-schema" }],
    }),
    ...viewerTools(t),
  ];
}
