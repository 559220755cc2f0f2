import { defineTool, type ToolDefinition } from "../schemas/tool.js";

interface Viewer { id: string; script: string; renders?: string[] }

const VIEWERS: Viewer[] = [
  { id: "notes-viewer", script: "notes:viz", renders: ["notes"] },
  { id: "plain-viewer", script: "plain:viz" },
];

export function viewerTools(t: (n: string) => string): ToolDefinition[] {
  return VIEWERS.map((v) =>
    defineTool({
      id: v.id,
      title: v.id.length > 3 ? `Viewer ${v.id}` : "Viewer",
      description: "Render pages.",
      install: { none: true },
      invoke: { shell: `bun run ${v.script}` },
      io: {
        inputs: [{ name: "check", type: t("Flag"), required: false, arg: { flag: "--check" } }],
        outputs: [{ name: "pages", schema: t("Path") }],
      },
      satisfies: ["render-pages"],
      ...(v.renders ? { renders: v.renders } : {}),
    }),
  );
}
