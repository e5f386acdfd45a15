/** Which thresholds a reading has reached, which comes next, and which fires still count. */
import { isTokenThreshold, type Threshold } from "./numbers.ts";

/**
 * The thresholds of the lessons-learned plugin's PRD 005, calibrated to the context-degradation
 * curve.
 */
export const DEFAULT_THRESHOLDS: readonly Threshold[] = [30, 52, 70];

/** Tokens used, and the span percentages are measured against. */
export interface Fill {
  tokens: number;
  span: number;
}

export function pointOf(threshold: Threshold, span: number): number {
  return isTokenThreshold(threshold) ? threshold : (threshold * span) / 100;
}

// Multiplies instead of dividing, so 58,000 of 200,000 reaches 29.
const reaches = (fill: Fill, t: Threshold) =>
  isTokenThreshold(t) ? fill.tokens >= t : fill.tokens * 100 >= t * fill.span;

// The order a filling context reaches them in; at the same point, a percentage first.
const inReachOrder = (thresholds: readonly Threshold[], span: number) =>
  [...thresholds].sort((a, b) =>
    pointOf(a, span) - pointOf(b, span) || Number(isTokenThreshold(a)) - Number(isTokenThreshold(b))
  );

/** The thresholds `fill` has reached that are not in `fired`, in reach order. */
export function crossedThresholds(
  fill: Fill,
  thresholds: readonly Threshold[],
  fired: readonly Threshold[],
): Threshold[] {
  const crossed = thresholds.filter((t) => reaches(fill, t) && !fired.includes(t));
  return crossed.length > 1 ? inReachOrder(crossed, fill.span) : crossed;
}

/** The first threshold not in `fired`, in reach order over `span`; undefined when all fired. */
export function nextThreshold(
  thresholds: readonly Threshold[],
  fired: readonly Threshold[],
  span: number,
): Threshold | undefined {
  return inReachOrder(thresholds, span).find((t) => !fired.includes(t));
}

/** The fires that count under `span`: one made under a smaller span fires again on a larger. */
export function firedUnder(
  fired: readonly number[],
  firedWindow: Readonly<Record<string, number>> | undefined,
  span: number | undefined,
): number[] {
  if (firedWindow === undefined || span === undefined) return [...fired];
  return fired.filter((t) => (firedWindow[t] ?? span) >= span);
}
