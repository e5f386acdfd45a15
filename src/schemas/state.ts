/**
 * The per-context state file: the `{ "fired": [30], "toolCount": 7 }` of the lessons-learned
 * plugin's PRD 005, plus what tells a reset, a compaction and a concurrent hook apart; and its
 * guard, `isState`. Unknown fields are kept and ignored.
 */
import {
  allOptional,
  isArrayOf,
  isBoolean,
  isCount,
  isNumber,
  isObject,
  isString,
  optional,
} from "./guards.ts";

/** One thing a refresh delivered, and its receipt (core/receipts.ts). */
export interface Delivery {
  refresh: string; // a threshold as its header names it (`"30"`), or `"compact"`
  call: string; // the `tool_use_id` whose answer carried it, or `"SessionStart"`
  at: number; // transcript size when claimed: Claude Code's record of it can only come later
  sent: number; // 1, or 2 once re-sent
  // `pending` until recorded or given up; `unrecorded`: sent once, nothing records it.
  status: "pending" | "delivered" | "given up" | "unrecorded";
  reason?: string | undefined; // why it was re-sent or given up
}

/** One chain of entries (`parentUuid`) of the session file, and what was refreshed on it. */
export interface Chain {
  tip: string; // the `uuid` of the newest tool call's entry known on it
  message?: string | undefined; // that entry's `message.id` (a response may span entries)
  fired: number[]; // the thresholds refreshed on this chain (core/chains.ts)
  anchor?: boolean | undefined; // a refresh was made here: kept when the chain moves on
}

/** A context's state; every count is a non-negative safe integer. */
export interface State {
  fired: number[]; // thresholds already injected in this context
  toolCount: number; // tool calls since the last reset, for the fallback counter
  // Bumped by every reset: a hook that read state before one stands down.
  epoch?: number | undefined;
  firedAt?: number | undefined; // transcript size when `fired` last grew: later markers end it
  firedPercent?: number | undefined; // the reading that last fired
  checkedTo?: number | undefined; // checked for compaction markers up to here
  afterCompact?: "pending" | "delivered" | undefined; // core/decide.ts
  compactPrompt?: string | undefined; // the `prompt_id` of the compaction that set it
  firedWindow?: Record<string, number> | undefined; // window per fired threshold
  provenWindow?: number | undefined; // a window this session proved (above 200k); kept by resets
  compactedAt?: number | undefined; // the newest auto-compaction's `preTokens`; kept by resets
  // The transcript's end at SessionStart(compact), before Claude Code wrote the marker: later
  // calls look for it from here.
  compactedFrom?: number | undefined;
  claudeSettings?: string | undefined; // Claude Code's auto-compaction settings, as read (JSON)
  provenModel?: string | undefined; // the model and version whose evidence proved the window
  provenVersion?: string | undefined;
  agentTranscript?: string | undefined; // where a subagent's transcript was found
  deliveries?: Delivery[] | undefined; // each refresh's delivery, and its receipt
  // Two processes appending to one session file after a resume: each chain's own `fired`.
  chains?: Chain[] | undefined;
  forked?: boolean | undefined; // a call met a tip not the newest, or none: chains interleave
  // Each recent tool result's size (bytes of `tool_response`), as its own hook saw it: what the
  // transcript will hold once written (core/ceiling.ts).
  results?: Record<string, number> | undefined;
}

/** The state of a context nothing has happened in. */
export const EMPTY_STATE: State = { fired: [], toolCount: 0, epoch: 0 };

const STATE_COUNTS = "epoch firedAt checkedTo provenWindow compactedAt compactedFrom".split(" ");
const STATE_STRINGS = "compactPrompt claudeSettings provenModel provenVersion agentTranscript"
  .split(" ");
const DELIVERY_STATUSES: readonly unknown[] = ["pending", "delivered", "given up", "unrecorded"];

function isDelivery(d: unknown): boolean {
  return isObject(d) && isString(d.refresh) && isString(d.call) && isCount(d.at) &&
    isCount(d.sent) && DELIVERY_STATUSES.includes(d.status) && optional(d.reason, isString);
}
const isDeliveries = (value: unknown) => isArrayOf(value, isDelivery);
function isChain(c: unknown): boolean {
  return isObject(c) && isString(c.tip) && optional(c.message, isString) &&
    isArrayOf(c.fired, isNumber) && optional(c.anchor, isBoolean);
}
const isAfterCompact = (value: unknown) => value === "pending" || value === "delivered";
/** zod's `z.record(z.string(), z.number())` */
const isNumberRecord = (value: unknown) =>
  isObject(value) && isArrayOf(Object.values(value), isNumber);

/** Whether `value` is a {@link State}; a state file that is not is treated as corrupt. */
export function isState(value: unknown): value is State {
  return isObject(value) && isArrayOf(value.fired, isNumber) && isCount(value.toolCount) &&
    allOptional(value, STATE_COUNTS, isCount) && allOptional(value, STATE_STRINGS, isString) &&
    optional(value.firedPercent, isNumber) && optional(value.afterCompact, isAfterCompact) &&
    optional(value.firedWindow, isNumberRecord) && optional(value.deliveries, isDeliveries) &&
    optional(value.results, isNumberRecord) &&
    optional(value.chains, (v) => isArrayOf(v, isChain)) && optional(value.forked, isBoolean);
}
