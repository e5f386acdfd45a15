/**
 * The refresh right after a compaction: the rules restated once, at the first opportunity in the
 * new context (SessionStart(compact)'s own answer, else the first tool call), never twice back to
 * back. The state's `afterCompact` says where that stands: `pending`, the next tool call restates;
 * `delivered`, restated, and the first reading takes the thresholds it reached as fired, silently.
 * `compactPrompt` is the `prompt_id` of the compaction that set it. Pure.
 */
import type { State } from "../schemas/state.ts";
import { SESSION_START } from "./claude_code.ts";
import type { Step } from "./decide.ts";
import { isReading, type NoReading, type Reading } from "./reading.ts";
import { answerAwaitingReceipt, COMPACT_LABEL } from "./receipts.ts";

/** `state` once the restatement is settled. */
function settled(state: State): State {
  const { afterCompact: _a, compactPrompt: _p, ...rest } = state;
  return rest;
}

/**
 * What SessionStart(compact) does to `current`, given `reset` (its plain reset): it answers with
 * the rules itself (its answer reaches the model in the new context's first request), unless a
 * tool call that found this compaction's marker restated them already. With `enabled` false it
 * only resets.
 */
export function compactionEvent(
  current: State,
  reset: State,
  promptId: string | undefined,
  enabled: boolean,
  /** Transcript size when SessionStart answers: its receipt is looked for after it. */
  answerAt?: number,
): { next: State; restateNow: boolean; reason: string } {
  if (!enabled) {
    return { next: reset, restateNow: false, reason: "reset (refresh after compaction is off)" };
  }
  const prompt = promptId === undefined ? {} : { compactPrompt: promptId };
  // A tool call that found this compaction's marker restated already (it knows no prompt id).
  if (
    current.afterCompact === "delivered" && current.fired.length === 0 &&
    current.compactPrompt === undefined
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

/**
 * `after` (the state as loaded, `before`, with the transcript's facts applied) owing the
 * restatement when those facts reset it: a compaction no event reported.
 */
export function compactionFound(before: State, after: State, enabled: boolean): State {
  if (!enabled || (after.epoch ?? 0) <= (before.epoch ?? 0)) return after;
  return { ...after, afterCompact: "pending" };
}

/**
 * `decision` (made on `state`) adjusted for a compaction: a pending restatement fires now, naming
 * any thresholds crossed with it; once the rules were restated, the thresholds the first reading
 * has reached are taken as fired without a second refresh.
 */
export function afterCompaction(decision: Step, state: State, reading: Reading | NoReading): Step {
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
  if (state.afterCompact !== "delivered" || !isReading(reading)) return decision;
  const next = settled(decision.next ?? state);
  if (decision.cause?.kind !== "thresholds") return { ...decision, next };
  return {
    cause: undefined,
    next,
    reason: `${decision.reason}, already restated at SessionStart(compact): taken as fired`,
  };
}
