/**
 * The gauge bar: how full the context is, with the thresholds marked. Pure text, shared by
 * `status`, `demo` and `statusline`.
 */
import { formatTokens } from "../core/header.ts";
import { percentText, type Threshold } from "../core/numbers.ts";
import { pointOf } from "../core/thresholds.ts";

/**
 * A bar of `width` cells, `#` up to `percent` (of the window), `.` beyond, a `|` before the cell
 * where each threshold starts (a percentage of `span`, the window unless given; a token count
 * where it falls in the window), then the percentage and the window.
 *
 * @example
 * ```ts
 * gauge(47, [30, 52, 70], 200_000, 20);
 * // "[######|###.|....|......] 47% of 200k"
 * ```
 */
export function gauge(
  percent: number | undefined,
  thresholds: readonly Threshold[],
  window: number | undefined,
  width = 40,
  span?: number,
): string {
  const filled = percent === undefined
    ? 0
    : Math.min(width, Math.max(0, Math.round((percent / 100) * width)));
  const at = (t: Threshold) =>
    window === undefined ? (t < 100 ? t : Infinity) : (pointOf(t, span ?? window) * 100) / window;
  const marks = new Set(
    thresholds.map(at).filter((p) => p < 100).map((p) => Math.round((p / 100) * width)),
  );
  let bar = "";
  for (let cell = 0; cell < width; cell++) {
    if (marks.has(cell) && cell > 0) bar += "|";
    bar += cell < filled ? "#" : ".";
  }
  const amount = percent === undefined ? "?%" : percentText(percent);
  const of = window === undefined ? "" : ` of ${formatTokens(window)}`;
  return `[${bar}] ${amount}${of}`;
}
