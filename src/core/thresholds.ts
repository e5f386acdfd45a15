/**
 * Threshold lists: which thresholds a reading crosses and which comes next. A threshold is a
 * percentage of the span the thresholds are measured against (core/compaction_point.ts) or a
 * number of tokens (core/numbers.ts says which). Pure. (The setting is parsed in
 * src/settings/table.ts.)
 */
import { isTokenThreshold, MIN_TOKENS, type Threshold } from "./numbers.ts";

/** The PRD's thresholds, calibrated to the context-degradation curve. */
export const DEFAULT_THRESHOLDS: readonly Threshold[] = [30, 52, 70];

/** How full the context is: tokens used, and the span percentage thresholds are measured against. */
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
 * reaches 29 (`58000 / 200000 * 100` is 28.999...).
 */
export function reaches(fill: Fill, threshold: Threshold): boolean {
  return threshold >= MIN_TOKENS
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
 * A list as the settings keep it: percentages ascending, then token counts ascending, each once.
 *
 * @example
 * ```ts
 * canonicalThresholds([60_000, 52, 30, 52]); // [30, 52, 60_000]
 * ```
 */
export function canonicalThresholds(thresholds: readonly Threshold[]): Threshold[] {
  return [...new Set(thresholds)].sort((a, b) => a - b);
}

/**
 * The thresholds `fill` has reached that have not fired yet in this context, in reach order.
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
  const { tokens, span } = fill;
  const crossed = thresholds.filter((t) =>
    (t >= MIN_TOKENS ? tokens >= t : tokens * 100 >= t * span) && !fired.includes(t)
  );
  return crossed.length > 1 ? inReachOrder(crossed, span) : crossed;
}

/**
 * The first threshold not yet fired, in reach order over `span`, or undefined when all have fired.
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
  // A list of one kind, as the settings keep it, is already in reach order.
  const mixed = thresholds.some((t) => t >= MIN_TOKENS) && thresholds.some((t) => t < MIN_TOKENS);
  const ordered = mixed ? inReachOrder(thresholds, span) : thresholds;
  return ordered.find((t) => !fired.includes(t));
}
