/** A reading against the thresholds: which fire now, in one refresh, or why none does. */
import type { State } from "../schemas/state.ts";
import type { RefreshCause } from "./header.ts";
import { groupDigits, isTokenThreshold, percentText, type Threshold } from "./numbers.ts";
import { thresholdText } from "./numbers.ts";
import { fillOf, isReading, type NoReading, type Reading } from "./reading.ts";
import { crossedThresholds, firedUnder, nextThreshold, pointOf } from "./thresholds.ts";

/** What to refresh for, the state to write (undefined: as it was), and why. */
export interface Step {
  cause: RefreshCause | undefined;
  next: State | undefined;
  reason: string;
}

/** `52`; on a span over 200k, where readings are in tokens, `52% (104k)`; `180k`. */
function crossedText(threshold: Threshold, large: boolean, span: number): string {
  if (!large || isTokenThreshold(threshold)) return thresholdText(threshold, { bare: true });
  return `${threshold}% (${thresholdText(Math.round(pointOf(threshold, span)))})`;
}

/**
 * The refresh for `thresholds` at `reading`: the one place a threshold refresh's cause is made,
 * for a crossing, a re-send and what a command shows. Without a reading, at `percent`.
 */
export function thresholdsCause(
  thresholds: readonly Threshold[],
  reading: Reading | NoReading | undefined,
  percent = 0,
): Extract<RefreshCause, { kind: "thresholds" }> {
  if (!reading || !isReading(reading)) return { kind: "thresholds", thresholds, percent };
  const { window, span, tokens, cadence } = reading;
  return {
    kind: "thresholds",
    thresholds,
    percent: reading.percent,
    ...(window !== undefined ? { window } : {}),
    ...(!cadence && span !== undefined && span !== window ? { span } : {}),
    ...(tokens !== undefined ? { tokens } : {}),
    ...(cadence ? { inTokens: true } : {}),
  };
}

/** Thresholds reached and not fired fire now, in one refresh; with no reading, every n-th call. */
export function onThresholds(
  reading: Reading | NoReading,
  state: State,
  settings: { thresholds: readonly Threshold[]; toolCountInterval: number },
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
  // The settings' thresholds and, on a span over 200k, the cadence's points (decideToolCall()).
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
    cause: thresholdsCause(crossed, reading),
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
