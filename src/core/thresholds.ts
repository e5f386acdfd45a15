/**
 * Threshold lists: which thresholds a reading has reached and which comes next. A threshold is a
 * percentage of the span the percentages are measured against, or a number of tokens
 * (core/numbers.ts says which). Pure.
 */
import { isTokenThreshold, type Threshold } from "./numbers.ts";

/** The PRD's thresholds, calibrated to the context-degradation curve. */
export const DEFAULT_THRESHOLDS: readonly Threshold[] = [30, 52, 70];

/** How full the context is: tokens used, and the span percentages are measured against. */
export interface Fill {
  tokens: number;
  span: number;
}

/**
 * The tokens at which `threshold` is reached over `span`.
 *
 * @example
 * ```ts
 * pointOf(30, 200_000); // 60_000
 * pointOf(60_000, 1_000_000); // 60_000
 * ```
 */
export function pointOf(threshold: Threshold, span: number): number {
  return isTokenThreshold(threshold) ? threshold : (threshold * span) / 100;
}

/**
 * True when `fill` has reached `threshold`. Multiplies instead of dividing, so 58,000 of 200,000
 * reaches 29.
 */
export function reaches(fill: Fill, threshold: Threshold): boolean {
  return isTokenThreshold(threshold)
    ? fill.tokens >= threshold
    : fill.tokens * 100 >= threshold * fill.span;
}

/**
 * `thresholds` in the order a filling context reaches them over `span` (a percentage before a
 * token count at the same point).
 *
 * @example
 * ```ts
 * inReachOrder([30, 52, 20_000], 200_000); // [20_000, 30, 52]
 * ```
 */
export function inReachOrder(thresholds: readonly Threshold[], span: number): Threshold[] {
  return [...thresholds].sort((a, b) =>
    pointOf(a, span) - pointOf(b, span) || Number(isTokenThreshold(a)) - Number(isTokenThreshold(b))
  );
}

/**
 * The thresholds `fill` has reached that are not in `fired`, in reach order.
 *
 * @example
 * ```ts
 * crossedThresholds({ tokens: 120_000, span: 200_000 }, [30, 52, 70], [30]); // [52]
 * ```
 */
export function crossedThresholds(
  fill: Fill,
  thresholds: readonly Threshold[],
  fired: readonly Threshold[],
): Threshold[] {
  const crossed = thresholds.filter((t) => reaches(fill, t) && !fired.includes(t));
  return crossed.length > 1 ? inReachOrder(crossed, fill.span) : crossed;
}

/**
 * The first threshold not in `fired`, in reach order over `span`, or undefined when all fired.
 *
 * @example
 * ```ts
 * nextThreshold([30, 52, 70], [30], 200_000); // 52
 * ```
 */
export function nextThreshold(
  thresholds: readonly Threshold[],
  fired: readonly Threshold[],
  span: number,
): Threshold | undefined {
  return inReachOrder(thresholds, span).find((t) => !fired.includes(t));
}
