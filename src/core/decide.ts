/** The decision: one pure function for every event the hook answers. */
import type { State } from "../schemas/state.ts";
import { advanceChains, firedOnChain } from "./chains.ts";
import { afterCompaction, compactionEvent, compactionFound } from "./compaction_refresh.ts";
import { applyFacts, type ContextFacts, resetState } from "./facts.ts";
import type { RefreshCause } from "./header.ts";
import type { Step } from "./step.ts";
import { groupDigits, isTokenThreshold, percentText, type Threshold } from "./numbers.ts";
import { thresholdText } from "./numbers.ts";
import { fillOf, isReading, type NoReading, type Reading } from "./reading.ts";
import { type DeliveryReport, type ReceiptEvidence, reportOf } from "./receipts.ts";
import { settleDeliveries, withReceipts } from "./receipts.ts";
import { scheduledThresholds } from "./schedule.ts";
import { crossedThresholds, firedUnder, nextThreshold, pointOf } from "./thresholds.ts";

export interface DecideSettings {
  thresholds: readonly Threshold[];
  toolCountInterval: number;
  refreshAfterCompact: boolean;
}

/** A tool call (`claim`: where its receipt is looked for), or an event that ends a context. */
export type DecideInput =
  | {
    event: "tool call";
    state: State;
    stateFound: boolean;
    reading: Reading | NoReading;
    facts: ContextFacts;
    receipts: ReceiptEvidence | undefined;
    claim: { call: string | undefined; at: number | undefined };
    settings: DecideSettings;
  }
  | {
    event: "clear" | "SessionStart";
    state: State;
    facts: ContextFacts;
    promptId: string | undefined;
    restate: boolean;
    answerAt: number | undefined;
    compactedFrom?: number | undefined;
  };

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

/** Decides one event: at 55% with 30 fired, the reason is "55% crossed 52". */
export function decide(input: DecideInput): Decision {
  if (input.event !== "tool call") {
    const state = input.state;
    const reset = resetState(state);
    const step = input.event === "clear"
      ? { next: reset, restateNow: false, reason: "forgot fired thresholds and tool count" }
      : compactionEvent(state, reset, input.promptId, input.restate, input.answerAt);
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
  const { reading, settings } = input;
  const known = applyFacts(input.state, input.facts, input.stateFound);
  const found = compactionFound(input.state, known, settings.refreshAfterCompact);
  const settled = settleDeliveries(found, input.receipts);
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
  const decision = withReceipts(step, settled, reading, input.claim);
  const next = decision.next ?? state;
  const span = isReading(reading) ? fillOf(reading).span : undefined;
  const after = firedUnder(next.fired, next.firedWindow, span);
  return {
    cause: decision.cause,
    known: state,
    state: next,
    reason: decision.reason,
    receipts: settled.notes,
    deliveries: settled.report,
    fired: firedUnder(state.fired, state.firedWindow, span),
    upcoming: nextThreshold(thresholds, after, span ?? 100),
    thresholds,
  };
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
