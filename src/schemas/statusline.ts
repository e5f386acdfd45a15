/** The statusLine command's stdin as the bridge reads it, and the record it keeps per session. */
import * as z from "zod/mini";

export const StatuslineRecordSchema = z.looseObject({
  sessionId: z.string(),
  recordedAt: z.number(), // ms since the epoch
  percent: z.number(),
  tokens: z.optional(z.number()),
  window: z.optional(z.number()),
  model: z.optional(z.string()),
  transcriptPath: z.optional(z.string()),
  transcriptSize: z.optional(z.number()), // entries starting before it were written already
});

export const StatuslineInputSchema = z.looseObject({
  session_id: z.string().check(z.minLength(1)),
  transcript_path: z.optional(z.nullable(z.string())),
  model: z.optional(z.nullable(z.looseObject({ id: z.optional(z.nullable(z.string())) }))),
  context_window: z.optional(z.nullable(z.unknown())),
});

export type StatuslineRecord = z.infer<typeof StatuslineRecordSchema>;
export type StatuslineInput = z.infer<typeof StatuslineInputSchema>;
