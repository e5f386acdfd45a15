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
import { groupDigits, isTokenThreshold, percentText, type Threshold } from "./numbers.ts";
import { thresholdText } from "./numbers.ts";
import { fillOf, isReading, type NoReading, type Reading } from "./reading.ts";
import { answerAwaitingReceipt, COMPACT_LABEL, type DeliveryReport } from "./receipts.ts";
import { type ReceiptEvidence, reportOf, settleDeliveries, withReceipts } from "./receipts.ts";
import { scheduledThresholds } from "./schedule.ts";
import { crossedThresholds, firedUnder, nextThreshold, pointOf } from "./thresholds.ts";

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

/** An event to decide: a tool call or a reset. */
export type DecideInput = ({ event: "tool call" } & ToolCallInput) | ResetInput;

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

/**
 * Decides one event, once per hook call (tests/integration/decide_once_test.ts counts it): a
 * tool call by `decideToolCall`, SessionStart(clear, compact) by `decideReset`.
 */
export function decide(input: DecideInput): Decision {
  return input.event === "tool call" ? decideToolCall(input) : decideReset(input);
}

/** What to refresh for, the state to write (undefined: as it was), and why. */
interface Step {
  cause: RefreshCause | undefined;
  next: State | undefined;
  reason: string;
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
  const next: Record<string, unknown> = { fired: [], toolCount: 0, epoch: (state.epoch ?? 0) + 1 };
  for (const key of KEPT) if (state[key] !== undefined) next[key] = state[key];
  if (checkedTo !== undefined) next.checkedTo = checkedTo;
  return next as State;
}

/**
 * SessionStart: the context starts afresh. After a compaction the answer restates the rules (and
 * `afterCompact` records it), unless a tool call that found the marker restated already.
 */
export function decideReset(input: ResetInput): Decision {
  const { state, promptId } = input;
  const reset = resetState(state);
  const prompt = promptId === undefined ? {} : { compactPrompt: promptId };
  let step: { next: State; restateNow: boolean; reason: string };
  if (input.event === "clear") {
    step = { next: reset, restateNow: false, reason: "forgot fired thresholds and tool count" };
  } else if (!input.restate) {
    step = { next: reset, restateNow: false, reason: "reset (refresh after compaction is off)" };
  } else if (
    // A tool call that found the marker restated already (it knows no prompt id).
    state.afterCompact === "delivered" && state.fired.length === 0 &&
    state.compactPrompt === undefined
  ) {
    const reason =
      "already reset and restated in this context by a tool call that found the marker";
    step = { next: { ...state, ...prompt }, restateNow: false, reason };
  } else {
    const at = input.answerAt;
    const receipt = at === undefined
      ? {}
      : { deliveries: [answerAwaitingReceipt(COMPACT_LABEL, SESSION_START, at)] };
    step = {
      next: { ...reset, afterCompact: "delivered", ...prompt, ...receipt },
      restateNow: true,
      reason: "reset; restating the rules in the new context",
    };
  }
  // What the compaction proved outlives the context it ended; its marker is read later.
  const from = input.compactedFrom;
  const base = from === undefined ? step.next : { ...step.next, compactedFrom: from };
  const next = applyFacts(base, input.facts, true);
  return {
    cause: step.restateNow ? { kind: "compaction", thresholds: [] } : undefined,
    known: state,
    state: next,
    reason: step.reason,
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

/** `52`; on a span over 200k, where readings are in tokens, `52% (104k)`; `180k`. */
function crossedText(threshold: Threshold, large: boolean, span: number): string {
  if (!large || isTokenThreshold(threshold)) return thresholdText(threshold, { bare: true });
  return `${threshold}% (${thresholdText(Math.round(pointOf(threshold, span)))})`;
}

/** Thresholds reached and not fired fire now, in one refresh; with no reading, every n-th call. */
function onThresholds(
  reading: Reading | NoReading,
  state: State,
  settings: DecideSettings,
  at: number | undefined,
): Step {
  if (!isReading(reading)) {
    if (!reading.countCalls) return { cause: undefined, next: undefined, reason: reading.reason };
    const toolCount = state.toolCount + 1;
    const every = settings.toolCountInterval;
    const due = toolCount % every === 0;
    const when = due
      ? ` is a multiple of ${every}`
      : `, next refresh at ${Math.ceil(toolCount / every) * every}`;
    return {
      cause: due ? { kind: "toolCount", calls: toolCount } : undefined,
      next: { ...state, toolCount },
      reason: `${reading.reason}; tool call ${toolCount}${when}`,
    };
  }
  // Refreshes made under a smaller span than this reading's no longer count (never miss).
  const fill = fillOf(reading);
  const counting = firedUnder(state.fired, state.firedWindow, fill.span);
  // The settings' thresholds and, on a span over 200k, the cadence's points (decide()).
  const { thresholds } = settings;
  const crossed = crossedThresholds(fill, thresholds, counting);
  const large = reading.cadence !== undefined;
  const narrowed = !large && reading.span !== undefined && reading.span !== reading.window;
  const shown = large
    ? `${groupDigits(fill.tokens)} tokens`
    : percentText((fill.tokens * 100) / fill.span) +
      (narrowed ? ` of ${reading.span} (the span before auto-compaction)` : "");
  if (crossed.length === 0) {
    const next = nextThreshold(thresholds, counting, fill.span);
    const at = next !== undefined && large && !isTokenThreshold(next)
      ? ` (${groupDigits(pointOf(next, fill.span))} tokens)`
      : "";
    const reason = next === undefined
      ? "every threshold has fired in this context"
      : `${shown} is below the next threshold, ${thresholdText(next)}${at}`;
    return { cause: undefined, next: undefined, reason };
  }
  const fired = [...new Set([...counting, ...crossed])].sort((a, b) => a - b);
  // The span each percentage fired under (token thresholds do not move with it).
  let firedWindow = state.firedWindow;
  if (reading.window !== undefined) {
    const spans: Record<string, number> = {};
    for (const t of fired) if (firedWindow?.[t] !== undefined) spans[t] = firedWindow[t];
    for (const t of crossed) if (!isTokenThreshold(t)) spans[t] = fill.span;
    firedWindow = spans;
  }
  return {
    cause: {
      kind: "thresholds",
      thresholds: crossed,
      percent: reading.percent,
      ...(reading.window !== undefined ? { window: reading.window } : {}),
      ...(narrowed && reading.span !== undefined ? { span: reading.span } : {}),
      ...(reading.tokens !== undefined ? { tokens: reading.tokens } : {}),
      ...(large ? { inTokens: true } : {}),
    },
    next: {
      ...state,
      fired,
      ...(firedWindow !== undefined ? { firedWindow } : {}),
      firedPercent: reading.percent,
      ...(at !== undefined ? { firedAt: at } : {}),
    },
    reason: `${shown} crossed ${crossed.map((t) => crossedText(t, large, fill.span)).join(", ")}`,
  };
}
