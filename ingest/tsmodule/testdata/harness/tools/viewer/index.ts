import { defineTool, toolFactory } from "../../schemas/tool.js";

export default toolFactory((t) =>
  defineTool({
    id: "slug-check",
    title: "Slug check",
    description: "Check a slug.",
    install: { none: true },
    invoke: { shell: "bin/slug-check" },
    io: {
      inputs: [{ name: "slug", schema: t("Slug"), required: true, arg: { positional: 0 } }],
      outputs: [{ name: "ok", schema: t("Flag") }],
    },
    satisfies: ["check-slug"],
  }),
);
