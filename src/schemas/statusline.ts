/**
 * The statusline bridge's shapes: the statusLine command's stdin as far as the bridge reads it
 * (loose: new fields never break it), and the record it keeps per session (io/statusline_store.ts).
 */
import * as z from "zod/mini";

export const StatuslineRecordSchema = z.looseObject({
  sessionId: z.string(),
  /** When the statusline command ran (ms since the epoch). */
  recordedAt: z.number(),
  percent: z.number(),
  tokens: z.optional(z.number()),
  window: z.optional(z.number()),
  model: z.optional(z.string()),
  transcriptPath: z.optional(z.string()),
  /** The transcript's size when recorded: entries starting before it were already written. */
  transcriptSize: z.optional(z.number()),
});

export const StatuslineInputSchema = z.looseObject({
  session_id: z.string().check(z.minLength(1)),
  transcript_path: z.optional(z.nullable(z.string())),
  model: z.optional(z.nullable(z.looseObject({ id: z.optional(z.nullable(z.string())) }))),
  context_window: z.optional(z.nullable(z.unknown())),
});

export type StatuslineRecord = z.infer<typeof StatuslineRecordSchema>;
export type StatuslineInput = z.infer<typeof StatuslineInputSchema>;
