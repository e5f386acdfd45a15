/**
 * The per-context state file: the `{ "fired": [30], "toolCount": 7 }` of the lessons-learned
 * plugin's PRD 005, plus what tells a reset, a compaction and a concurrent hook apart. The hook
 * checks it with `isState` (./guards.ts).
 */
import * as z from "zod/mini";

const count = z.number().check(z.int(), z.nonnegative());

/** One thing a refresh delivered, and its receipt (core/receipts.ts). */
const DeliverySchema = z.looseObject({
  refresh: z.string(), // a threshold as its header names it (`"30"`), or `"compact"`
  call: z.string(), // the `tool_use_id` whose answer carried it, or `"SessionStart"`
  at: count, // transcript size when claimed: Claude Code's record of it can only come later
  sent: count, // 1, or 2 once re-sent
  // `pending` until recorded or given up; `unrecorded`: sent once, nothing records it.
  status: z.enum(["pending", "delivered", "given up", "unrecorded"]),
  reason: z.optional(z.string()), // why it was re-sent or given up
});

export type Delivery = z.infer<typeof DeliverySchema>;

/** One chain of entries (`parentUuid`) of the session file, and what was refreshed on it. */
const ChainSchema = z.looseObject({
  tip: z.string(), // the `uuid` of the newest tool call's entry known on it
  message: z.optional(z.string()), // that entry's `message.id` (a response may span entries)
  fired: z.array(z.number()), // the thresholds refreshed on this chain (core/chains.ts)
  anchor: z.optional(z.boolean()), // a refresh was made here: kept when the chain moves on
});

export type Chain = z.infer<typeof ChainSchema>;

export const StateSchema = z.looseObject({
  fired: z.array(z.number()), // thresholds already injected in this context
  toolCount: count, // tool calls since the last reset, for the fallback counter
  epoch: z.optional(count), // bumped by every reset: a hook that read state before one stands down
  firedAt: z.optional(count), // transcript size when `fired` last grew: later markers end it
  firedPercent: z.optional(z.number()), // the reading that last fired
  checkedTo: z.optional(count), // checked for compaction markers up to here
  afterCompact: z.optional(z.enum(["pending", "delivered"])), // core/decide.ts
  compactPrompt: z.optional(z.string()), // the `prompt_id` of the compaction that set it
  firedWindow: z.optional(z.record(z.string(), z.number())), // window per fired threshold
  provenWindow: z.optional(count), // a window this session proved (above 200k); kept by resets
  compactedAt: z.optional(count), // the newest auto-compaction's `preTokens`; kept by resets
  // The transcript's end at SessionStart(compact), before Claude Code wrote the marker: later
  // calls look for it from here.
  compactedFrom: z.optional(count),
  claudeSettings: z.optional(z.string()), // Claude Code's auto-compaction settings, as read (JSON)
  provenModel: z.optional(z.string()), // the model and version whose evidence proved the window
  provenVersion: z.optional(z.string()),
  agentTranscript: z.optional(z.string()), // where a subagent's transcript was found
  deliveries: z.optional(z.array(DeliverySchema)), // each refresh's delivery, and its receipt
  // Two processes appending to one session file after a resume: each chain's own `fired`.
  chains: z.optional(z.array(ChainSchema)),
  forked: z.optional(z.boolean()), // a call met a tip not the newest, or none: chains interleave
  // Each recent tool result's size (bytes of `tool_response`), as its own hook saw it: what the
  // transcript will hold once written (core/ceiling.ts).
  results: z.optional(z.record(z.string(), z.number())),
});

export type State = z.infer<typeof StateSchema>;
