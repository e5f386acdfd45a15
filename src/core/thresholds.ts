/**
 * Threshold lists: which thresholds a reading crosses, which comes next, and how they scale for
 * an early auto-compaction. Pure. (The setting itself is parsed in src/settings/table.ts.)
 */

/** The PRD's thresholds, calibrated to the context-degradation curve. */
export const DEFAULT_THRESHOLDS: readonly number[] = [30, 52, 70];

/**
 * The thresholds a reading has reached that have not fired yet in this context, ascending.
 *
 * @example
 * ```ts
 * crossedThresholds(60, [30, 52, 70], [30]); // [52]
 * ```
 */
export function crossedThresholds(
  percent: number,
  thresholds: readonly number[],
  fired: readonly number[],
): number[] {
  return thresholds.filter((t) => percent >= t && !fired.includes(t));
}

/**
 * The lowest threshold not yet fired, or undefined when all have fired.
 *
 * @example
 * ```ts
 * nextThreshold([30, 52, 70], [30]); // 52
 * ```
 */
export function nextThreshold(
  thresholds: readonly number[],
  fired: readonly number[],
): number | undefined {
  return thresholds.find((t) => !fired.includes(t));
}

/**
 * Scales thresholds down so the last one still lands before an auto-compaction that fires at
 * `compactAt` percent (`CLAUDE_AUTOCOMPACT_PCT_OVERRIDE`). Unchanged when the highest threshold is
 * already below it.
 *
 * @example
 * ```ts
 * scaleForAutocompact([30, 52, 70], 50); // [20, 34, 47]
 * ```
 */
export function scaleForAutocompact(thresholds: readonly number[], compactAt: number): number[] {
  const highest = thresholds.at(-1);
  if (highest === undefined || compactAt > highest) return [...thresholds];
  // Keep the last refresh a few points before compaction, and the spacing proportional.
  const target = Math.max(1, compactAt - 3);
  const scaled = thresholds.map((t) => Math.max(1, Math.floor((t * target) / highest)));
  return [...new Set(scaled)].sort((a, b) => a - b);
}
