export type ToolDefinition = Record<string, unknown>;
export function defineTool(t: ToolDefinition): ToolDefinition {
  return t;
}
export function toolFactory(f: (t: (n: string) => string) => ToolDefinition): ToolDefinition {
  return f((n) => n);
}
