/** lessons-learned's `lesson-manifest.json` as read here; one bad lesson never hides the rest. */
import * as z from "zod/mini";

/** One lesson record; unknown fields are kept and ignored. */
export const LessonSchema = z.looseObject({
  slug: z.string(),
  type: z.string(), // directive, protocol (session start), hint, guard (PreToolUse), reminder
  priority: z.optional(z.nullable(z.number())),
  message: z.string(),
  summary: z.optional(z.nullable(z.string())),
  // Session start counts their lengths against its budget; any other value counts as none.
  problem: z.optional(z.unknown()),
  solution: z.optional(z.unknown()),
  tags: z.optional(z.nullable(z.array(z.string()))),
  scope: z.optional(z.nullable(z.string())),
  disabled: z.optional(z.nullable(z.boolean())),
});

export const MANIFEST_TYPE = "lessons-learned-manifest";
export const MANIFEST_VERSION = 1;

/** The envelope; `lessons` is checked loosely here and per lesson by {@link LessonSchema}. */
export const ManifestSchema = z.looseObject({
  type: z.literal(MANIFEST_TYPE),
  version: z.literal(MANIFEST_VERSION),
  lessons: z.record(z.string(), z.unknown()),
  /** Session start's `maxSessionStartLessons` and `sessionStartBudgetBytes`, read leniently. */
  config: z.optional(z.unknown()),
});

export type Lesson = z.infer<typeof LessonSchema>;
