/**
 * The per-context state file: the PRD's `{ "fired": [30], "toolCount": 7 }` plus what tells a
 * reset, a compaction and a concurrent hook apart. The hook checks it with `isState`
 * (./guards.ts, proven equal by a test); this schema is the truth.
 */
import * as z from "zod/mini";

const count = z.number().check(z.int(), z.nonnegative());

/** One thing a refresh delivered, and its receipt (core/receipts.ts). */
const DeliverySchema = z.looseObject({
  /** A threshold as its refresh header names it (`"30"`), or `"compact"` for the restatement. */
  refresh: z.string(),
  /** The `tool_use_id` whose answer carried it (`"SessionStart"` for that event's answer). */
  call: z.string(),
  /** Transcript size when it was claimed: Claude Code's record of it can only come later. */
  at: count,
  /** Times sent: 1, or 2 once re-sent. */
  sent: count,
  /** `pending` until recorded or given up; `unrecorded`: sent once, nothing records it. */
  status: z.enum(["pending", "delivered", "given up", "unrecorded"]),
  /** Why it was re-sent or given up. */
  reason: z.optional(z.string()),
});

export type Delivery = z.infer<typeof DeliverySchema>;

export const StateSchema = z.looseObject({
  /** Thresholds already injected in this context. */
  fired: z.array(z.number()),
  /** Tool calls counted since the last reset, for the fallback counter. */
  toolCount: count,
  /** Bumped by every reset, so a hook that read state before a reset does not act after it. */
  epoch: z.optional(count),
  /** Transcript size when `fired` last grew: compaction markers past it end this context. */
  firedAt: z.optional(count),
  /** The reading (percent) that last fired. */
  firedPercent: z.optional(z.number()),
  /** The transcript has been checked for compaction markers up to this offset. */
  checkedTo: z.optional(count),
  /** After a compaction: the rules still to restate, or restated (core/compaction_refresh.ts). */
  afterCompact: z.optional(z.enum(["pending", "delivered"])),
  /** The `prompt_id` of the compaction that set `afterCompact`. */
  compactPrompt: z.optional(z.string()),
  /** The window (tokens) each fired threshold was measured against (core/thresholds.ts firedUnder). */
  firedWindow: z.optional(z.record(z.string(), z.number())),
  /** A window this session proved (a reading or a compaction above 200k); kept by resets. */
  provenWindow: z.optional(count),
  /** `preTokens` of the newest auto-compaction: where Claude Code really compacts; kept by resets. */
  compactedAt: z.optional(count),
  /**
   * Where the transcript ended when SessionStart(compact) reset the context, before Claude Code
   * wrote the compaction's marker: later calls look for it from here, for what its size proves.
   */
  compactedFrom: z.optional(count),
  /** Claude Code's auto-compaction settings as this context's first call read them (JSON). */
  claudeSettings: z.optional(z.string()),
  /** The model and the Claude Code version whose evidence proved `provenWindow`. */
  provenModel: z.optional(z.string()),
  provenVersion: z.optional(z.string()),
  /** Where a subagent's own transcript was found, so it is searched once. */
  agentTranscript: z.optional(z.string()),
  /** What each refresh of this context delivered, and whether Claude Code recorded it. */
  deliveries: z.optional(z.array(DeliverySchema)),
  /**
   * The size of each recent tool call's result (bytes of its `tool_response`), as its own hook
   * saw it: what the transcript will hold once Claude Code writes it (core/ceiling.ts).
   */
  results: z.optional(z.record(z.string(), z.number())),
});

export type State = z.infer<typeof StateSchema>;
