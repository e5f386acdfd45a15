/**
 * The refresh right after a compaction: the rules restated once, at the first opportunity in the
 * new context (SessionStart(compact)'s own answer, else the first tool call), never twice back to
 * back. Pure: state in, state and decision out; the hook does the reading and writing.
 */
import type { State } from "../schemas/state.ts";
import { SESSION_START } from "./claude_code.ts";
import type { Step } from "./decide.ts";
import { isReading, type NoReading, type Reading } from "./reading.ts";
import { answerAwaitingReceipt, COMPACT_LABEL } from "./receipts.ts";

/**
 * The compaction bookkeeping a state carries (fields of schemas/state.ts):
 * - `afterCompact: "pending"`: a compaction ended the last context and nothing restated the rules
 *   yet: the next tool call does;
 * - `afterCompact: "delivered"`: SessionStart(compact) restated them; the first reading of the new
 *   context takes the thresholds it has already reached as fired, silently;
 * - `compactPrompt`: the `prompt_id` of the compaction that set it, so that the PostCompact of the
 *   same compaction (it comes after SessionStart, measured) is recognised.
 *
 * `state` without those fields: what a context keeps once the restatement is settled.
 */
function settled(state: State): State {
  const { afterCompact: _a, compactPrompt: _p, ...rest } = state;
  return rest;
}

/** The state a compaction event leaves (after the reset), and whether to answer it with the rules. */
export interface CompactionStep {
  /** The state to write, or undefined to leave the current one. */
  next: State | undefined;
  restateNow: boolean;
  reason: string;
}

/**
 * What a compaction event does to `current` (already loaded) given `reset` (the plain reset of
 * it). SessionStart(compact) answers with the rules itself (its answer reaches the model in the
 * first request of the new context, measured); PostCompact cannot (Claude Code refuses its
 * `hookSpecificOutput`, measured), so unless SessionStart already answered for this compaction it
 * leaves the restatement to the next tool call. With `enabled` false both only reset.
 */
export function compactionEvent(
  event: "SessionStart" | "PostCompact",
  current: State,
  reset: State,
  promptId: string | undefined,
  enabled: boolean,
  /** Transcript size when SessionStart answers: its receipt is looked for after it. */
  answerAt?: number,
): CompactionStep {
  if (!enabled) {
    return { next: reset, restateNow: false, reason: "reset (refresh after compaction is off)" };
  }
  const prompt = promptId === undefined ? {} : { compactPrompt: promptId };
  if (event === "SessionStart") {
    // A tool call that found this compaction's marker in the transcript restated already (it
    // knows no prompt id): the rules are not said twice back to back.
    if (
      current.afterCompact === "delivered" && current.compactPrompt === undefined &&
      current.fired.length === 0
    ) {
      return {
        next: { ...current, ...prompt },
        restateNow: false,
        reason: "already reset and restated in this context by a tool call that found the marker",
      };
    }
    const receipt = answerAt === undefined
      ? {}
      : { deliveries: [answerAwaitingReceipt(COMPACT_LABEL, SESSION_START, answerAt)] };
    return {
      next: { ...reset, afterCompact: "delivered", ...prompt, ...receipt },
      restateNow: true,
      reason: "reset; restating the rules in the new context",
    };
  }
  const same = current.afterCompact === "delivered" &&
    (promptId === undefined || current.compactPrompt === undefined ||
      current.compactPrompt === promptId);
  if (same && current.fired.length === 0) {
    return {
      next: undefined,
      restateNow: false,
      reason: "SessionStart(compact) already reset and restated for this compaction",
    };
  }
  return {
    next: { ...reset, afterCompact: "pending", ...prompt },
    restateNow: false,
    reason: "reset; the next tool call restates the rules",
  };
}

/**
 * The state after a compaction found only in the transcript (no event reported it): `before` is
 * the state as loaded, `after` the state the transcript's facts made of it. A reset there (a new
 * epoch) leaves the restatement to this call.
 */
export function compactionFound(before: State, after: State, enabled: boolean): State {
  if (!enabled || (after.epoch ?? 0) <= (before.epoch ?? 0)) return after;
  return { ...after, afterCompact: "pending" };
}

/**
 * `decision` (from decide.ts, for `state`) adjusted for a compaction: a pending restatement
 * fires now, naming any thresholds crossed with it; once the rules were restated (at
 * SessionStart, or on a call without a reading), the thresholds the first reading has already
 * reached are taken as fired without a second refresh.
 */
export function afterCompaction(
  decision: Step,
  state: State,
  reading: Reading | NoReading,
): Step {
  if (state.afterCompact === "pending") {
    const thresholds = decision.cause?.kind === "thresholds" ? decision.cause.thresholds : [];
    const next = settled(decision.next ?? state);
    return {
      cause: { kind: "compaction", thresholds },
      // Restated without a reading: the first reading still takes what it reached as fired.
      next: isReading(reading) ? next : { ...next, afterCompact: "delivered" },
      reason: `restating after a compaction (${decision.reason})`,
    };
  }
  if (state.afterCompact === "delivered" && isReading(reading)) {
    if (decision.cause?.kind === "thresholds") {
      return {
        cause: undefined,
        next: settled(decision.next ?? state),
        reason: `${decision.reason}, already restated at SessionStart(compact): taken as fired`,
      };
    }
    return { ...decision, next: settled(decision.next ?? state) };
  }
  return decision;
}
