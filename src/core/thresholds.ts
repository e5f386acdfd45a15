/**
 * Threshold lists: parsing the user's setting and deciding which thresholds a reading crosses.
 * Pure functions; warnings are returned, never printed.
 */

/** The PRD's thresholds, calibrated to the context-degradation curve. */
export const DEFAULT_THRESHOLDS: readonly number[] = [30, 52, 70];

export interface ParsedThresholds {
  values: number[];
  /** One line naming what was wrong and what is used instead, when the setting was bad. */
  warning?: string;
}

/**
 * Parses a comma-separated threshold list. Each value must be a number from 1 to 99; invalid
 * entries are dropped and named; duplicates are dropped; the result is sorted ascending. A list
 * with nothing valid falls back to the defaults.
 *
 * @example
 * ```ts
 * parseThresholds("70, 30,30"); // { values: [30, 70] }
 * parseThresholds("abc").warning; // 'LESSONS_REINJECT_THRESHOLDS: "abc" is not a number ...'
 * ```
 */
export function parseThresholds(
  raw: string | undefined,
  name = "LESSONS_REINJECT_THRESHOLDS",
): ParsedThresholds {
  if (raw === undefined) return { values: [...DEFAULT_THRESHOLDS] };
  const problems: string[] = [];
  const values = new Set<number>();
  const parts = raw.split(",").map((p) => p.trim());
  if (raw.trim() === "") problems.push("it is empty");
  else {
    for (const part of parts) {
      const value = Number(part);
      if (part === "") problems.push("an empty entry");
      else if (!Number.isFinite(value)) problems.push(`"${part}" is not a number`);
      else if (value < 1 || value > 99) problems.push(`${part} is outside 1-99`);
      else values.add(value);
    }
  }
  const sorted = [...values].sort((a, b) => a - b);
  if (problems.length === 0) return { values: sorted };
  const used = sorted.length > 0 ? sorted : [...DEFAULT_THRESHOLDS];
  const fallback = sorted.length > 0 ? "the valid ones" : "the defaults";
  return {
    values: used,
    warning: `lessons-reinject: ${name}="${raw}": ${problems.join(", ")}; using ${fallback}: ${
      used.join(",")
    }`,
  };
}

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

/** The lowest threshold not yet fired, or undefined when all have fired. */
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
