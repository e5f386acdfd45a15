/**
 * The subset of Claude Code's hook payload this program reads; loose, so new fields never break
 * it. The hook checks these shapes with ./guards.ts (proven equal by a test).
 */
import * as z from "zod/mini";

const nonEmpty = z.string().check(z.minLength(1));

/** `context_window` as the statusLine stdin carries it (and PostToolUse might one day). */
export const ContextWindowSchema = z.looseObject({
  used_percentage: z.optional(z.nullable(z.number())),
  context_window_size: z.optional(z.nullable(z.number())),
  current_usage: z.optional(z.nullable(z.union([
    z.number(),
    z.looseObject({
      input_tokens: z.optional(z.number()),
      cache_creation_input_tokens: z.optional(z.number()),
      cache_read_input_tokens: z.optional(z.number()),
    }),
  ]))),
});

/** Every hook event shares these; only `session_id` and `hook_event_name` are required. */
export const HookPayloadSchema = z.looseObject({
  session_id: nonEmpty,
  hook_event_name: nonEmpty,
  transcript_path: z.optional(z.string()),
  cwd: z.optional(z.string()),
  tool_name: z.optional(z.string()),
  tool_use_id: z.optional(z.string()),
  agent_id: z.optional(z.string()),
  agent_type: z.optional(z.string()),
  agent_transcript_path: z.optional(z.string()),
  source: z.optional(z.string()),
  prompt_id: z.optional(z.string()),
  model: z.optional(z.unknown()),
  context_window: z.optional(z.unknown()),
  tool_response: z.optional(z.unknown()), // PostToolUse's result: sized, never read
  error: z.optional(z.unknown()), // PostToolUseFailure's, likewise
});

export type HookPayload = z.infer<typeof HookPayloadSchema>;
export type ContextWindow = z.infer<typeof ContextWindowSchema>;
