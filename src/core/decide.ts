/**
 * The decision, pure: `decideToolCall` for a tool call, `decideReset` for SessionStart(clear,
 * compact). Every reset is decided here: those two events, and a compaction marker a tool call
 * finds after its context's last fire (`endedByMarker`); so is the rules' restatement after one.
 */
import type { State } from "../schemas/state.ts";
import { SESSION_START } from "./claude_code.ts";
import { advanceChains, firedOnChain } from "./chains.ts";
import { applyFacts, type ContextFacts } from "./facts.ts";
import type { RefreshCause } from "./header.ts";
import type { Threshold } from "./numbers.ts";
import { onThresholds, type Step } from "./crossing.ts";
import { fillOf, isReading, type NoReading, type Reading } from "./reading.ts";
import { answerAwaitingReceipt, COMPACT_LABEL, type DeliveryReport } from "./receipts.ts";
import { type ReceiptEvidence, reportOf, settleDeliveries, withReceipts } from "./receipts.ts";
import { scheduledThresholds } from "./schedule.ts";
import { firedUnder, nextThreshold } from "./thresholds.ts";

export interface DecideSettings {
  thresholds: readonly Threshold[];
  toolCountInterval: number;
  refreshAfterCompact: boolean;
}

/** A tool call; `claim`: where its receipt is looked for. */
export interface ToolCallInput {
  state: State;
  stateFound: boolean;
  reading: Reading | NoReading;
  facts: ContextFacts;
  receipts: ReceiptEvidence | undefined;
  claim: { call: string | undefined; at: number | undefined };
  settings: DecideSettings;
}

/**
 * SessionStart(clear) or (compact); `restate`: the compaction's answer restates the rules,
 * `answerAt`: where its receipt is looked for, `compactedFrom`: where its marker is looked for.
 */
export interface ResetInput {
  event: "clear" | "compact";
  state: State;
  facts: ContextFacts;
  promptId: string | undefined;
  restate: boolean;
  answerAt: number | undefined;
  compactedFrom?: number | undefined;
}

/** What the hook does, and what `status` and the debug line say about it. */
export interface Decision {
  cause: RefreshCause | undefined;
  /** The state decided on: as loaded, with the transcript's facts and the receipts applied. */
  known: State;
  /** The state to keep. */
  state: State;
  reason: string;
  /** One phrase per delivery awaiting its receipt. */
  receipts: string[];
  /** Deliveries, `fired` (under this reading): before this decision; `upcoming`: after it. */
  deliveries: DeliveryReport[];
  fired: Threshold[];
  upcoming: Threshold | undefined;
  /** Every threshold of this context, the cadence's points included (core/schedule.ts). */
  thresholds: Threshold[];
}

/** What a reset keeps: what the session proved about its window, where it compacts, its file. */
const KEPT = [
  "provenWindow",
  "provenModel",
  "provenVersion",
  "compactedAt",
  "agentTranscript",
] as const;

/** The state after a reset (clear, compaction): nothing fired, nothing counted, a new epoch. */
export function resetState(state: State, checkedTo?: number): State {
  const next: State = { fired: [], toolCount: 0, epoch: (state.epoch ?? 0) + 1 };
  for (const key of KEPT) if (state[key] !== undefined) Object.assign(next, { [key]: state[key] });
  if (checkedTo !== undefined) next.checkedTo = checkedTo;
  return next;
}

/**
 * SessionStart: the context starts afresh. After a compaction the answer restates the rules (and
 * `afterCompact` records it), unless a tool call that found the marker restated already.
 */
export function decideReset(input: ResetInput): Decision {
  const { state, promptId, answerAt: at } = input;
  const prompt = promptId === undefined ? {} : { compactPrompt: promptId };
  const compact = input.event === "compact" && input.restate;
  // A tool call that found the marker restated already (it knows no prompt id).
  const restated = compact && state.afterCompact === "delivered" && state.fired.length === 0 &&
    state.compactPrompt === undefined;
  const restate = compact && !restated;
  const receipt = restate && at !== undefined
    ? { deliveries: [answerAwaitingReceipt(COMPACT_LABEL, SESSION_START, at)] }
    : {};
  const after = restated
    ? { ...state, ...prompt }
    : restate
    ? { ...resetState(state), afterCompact: "delivered" as const, ...prompt, ...receipt }
    : resetState(state);
  // What the compaction proved outlives the context it ended; its marker is read later.
  const from = input.compactedFrom;
  const next = applyFacts(
    from === undefined ? after : { ...after, compactedFrom: from },
    input.facts,
    true,
  );
  return {
    cause: restate ? { kind: "compaction", thresholds: [] } : undefined,
    known: state,
    state: next,
    reason: input.event === "clear"
      ? "forgot fired thresholds and tool count"
      : !compact
      ? "reset (refresh after compaction is off)"
      : restated
      ? "already reset and restated in this context by a tool call that found the marker"
      : "reset; restating the rules in the new context",
    receipts: [],
    deliveries: reportOf(next.deliveries),
    fired: next.fired,
    upcoming: undefined,
    thresholds: [],
  };
}

/**
 * A compaction marker written after the context's last fire ends it: reset, keeping what this
 * call learned of the new context (Claude Code's settings, its result's size), owing the
 * restatement when it is on. Else `state` as it is.
 */
function endedByMarker(state: State, facts: ContextFacts, restate: boolean): State {
  const { marker } = facts;
  if (marker === undefined || state.fired.length === 0 || marker < (state.firedAt ?? 0)) {
    return state;
  }
  const { claudeSettings, result } = facts;
  const next = applyFacts(resetState(state, marker), { claudeSettings, result }, true);
  return restate ? { ...next, afterCompact: "pending" } : next;
}

/** Decides a tool call: at 55% with 30 fired, the reason is "55% crossed 52". */
export function decideToolCall(input: ToolCallInput): Decision {
  const { reading, settings } = input;
  const learned = applyFacts(input.state, input.facts, input.stateFound);
  const known = endedByMarker(learned, input.facts, settings.refreshAfterCompact);
  const settled = settleDeliveries(known, input.receipts);
  const state = settled.state;
  // Thresholds count on the chain of entries that received them (core/chains.ts).
  const chain = input.facts.chain;
  const line = { ...state, fired: firedOnChain(state, chain) };
  const thresholds = isReading(reading)
    ? scheduledThresholds(settings.thresholds, reading)
    : [...settings.thresholds];
  const crossed = onThresholds(reading, line, { ...settings, thresholds }, input.claim.at);
  const onChain = { ...crossed, next: advanceChains(crossed.next, state, chain) };
  const step = afterCompaction(onChain, state, reading);
  const decided = step.next ?? state;
  const { cause, deliveries } = withReceipts({
    cause: step.cause,
    owed: settled.owed,
    deliveries: state.deliveries ?? [],
    reading,
    firedPercent: decided.firedPercent,
    claim: input.claim,
  });
  const { owed } = settled;
  const resend = owed.length > 0 ? `; sending ${owed.join(", ")} again (not delivered)` : "";
  const next = deliveries ? { ...decided, deliveries } : decided;
  const span = isReading(reading) ? fillOf(reading).span : undefined;
  const after = firedUnder(next.fired, next.firedWindow, span);
  return {
    cause,
    known: state,
    state: next,
    reason: step.reason + resend,
    receipts: settled.notes,
    deliveries: settled.report,
    fired: firedUnder(state.fired, state.firedWindow, span),
    upcoming: nextThreshold(thresholds, after, span ?? 100),
    thresholds,
  };
}

function settledCompaction(state: State): State {
  const { afterCompact: _a, compactPrompt: _p, ...rest } = state;
  return rest;
}

/**
 * The restatement after a compaction: `pending`, this call restates; `delivered`, the first
 * reading takes what it reached as fired, silently.
 */
function afterCompaction(decision: Step, state: State, reading: Reading | NoReading): Step {
  if (state.afterCompact === "pending") {
    const thresholds = decision.cause?.kind === "thresholds" ? decision.cause.thresholds : [];
    const next = settledCompaction(decision.next ?? state);
    return {
      cause: { kind: "compaction", thresholds },
      // Restated without a reading: the first reading still takes what it reached as fired.
      next: isReading(reading) ? next : { ...next, afterCompact: "delivered" },
      reason: `restating after a compaction (${decision.reason})`,
    };
  }
  if (state.afterCompact !== "delivered" || !isReading(reading)) return decision;
  const next = settledCompaction(decision.next ?? state);
  if (decision.cause?.kind !== "thresholds") return { ...decision, next };
  const reason = `${decision.reason}, already restated at SessionStart(compact): taken as fired`;
  return { cause: undefined, next, reason };
}
