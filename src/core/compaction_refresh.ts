/**
 * The rules restated once after a compaction, by SessionStart(compact)'s answer or else the first
 * tool call. `afterCompact`: `pending`, the next call restates; `delivered`, the first reading
 * takes what it reached as fired, silently. `compactPrompt`: the compaction's `prompt_id`.
 */
import type { State } from "../schemas/state.ts";
import { SESSION_START } from "./claude_code.ts";
import type { Step } from "./step.ts";
import { isReading, type NoReading, type Reading } from "./reading.ts";
import { answerAwaitingReceipt, COMPACT_LABEL } from "./receipts.ts";

function settled(state: State): State {
  const { afterCompact: _a, compactPrompt: _p, ...rest } = state;
  return rest;
}

/** SessionStart(compact) restates the rules, unless a tool call that found the marker did. */
export function compactionEvent(
  current: State,
  reset: State,
  promptId: string | undefined,
  enabled: boolean,
  answerAt?: number,
): { next: State; restateNow: boolean; reason: string } {
  if (!enabled) {
    return { next: reset, restateNow: false, reason: "reset (refresh after compaction is off)" };
  }
  const prompt = promptId === undefined ? {} : { compactPrompt: promptId };
  const { afterCompact, fired, compactPrompt } = current;
  // A tool call that found the marker restated already (it knows no prompt id).
  if (afterCompact === "delivered" && fired.length === 0 && compactPrompt === undefined) {
    const reason =
      "already reset and restated in this context by a tool call that found the marker";
    return { next: { ...current, ...prompt }, restateNow: false, reason };
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

/** `after` (`before` with the transcript's facts) owing the restatement if they reset it. */
export function compactionFound(before: State, after: State, enabled: boolean): State {
  if (!enabled || (after.epoch ?? 0) <= (before.epoch ?? 0)) return after;
  return { ...after, afterCompact: "pending" };
}

/** A pending restatement fires now; after it, the first reading's thresholds count as fired. */
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
  const reason = `${decision.reason}, already restated at SessionStart(compact): taken as fired`;
  return { cause: undefined, next, reason };
}
