import { z } from "zod";
import { SlugSchema } from "./slug.js";

export const PathSchema = z.string().min(1).regex(/^[^\s]+$/).describe("A path.");
const CountSchema = z.number().int().min(0);
const RatioSchema = z.number();
const FlagSchema = z.boolean();
const FactsSchema = z.record(z.string(), z.string());
const ListSchema = z.array(z.string());
const ModeSchema = z.enum(["fast", "slow"]);
const NotesPathSchema = PathSchema.describe("A notes path.");

export const TOOL_TYPES = {
  Path: PathSchema,
  Count: CountSchema,
  Ratio: RatioSchema,
  Flag: FlagSchema,
  Facts: FactsSchema,
  List: ListSchema,
  Mode: ModeSchema,
  NotesPath: NotesPathSchema,
  Slug: SlugSchema,
} as const;

export type ToolTypeName = keyof typeof TOOL_TYPES;

export const INJECTION_SAFE: ReadonlySet<ToolTypeName> = new Set<ToolTypeName>(["Count", "Flag", "Mode", "Slug"]);
