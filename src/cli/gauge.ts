/**
 * The gauge bar: how full the context is, with the thresholds marked. Pure text, shared by
 * `status`, `demo` and `statusline`.
 */
import { formatTokens } from "../core/header.ts";

/**
 * A bar of `width` cells, `#` up to `percent`, `.` beyond, a `|` before the cell where each
 * threshold starts, then the percentage and the window.
 *
 * @example
 * ```ts
 * gauge(47, [30, 52, 70], 200_000, 20);
 * // "[######|###.|....|......] 47% of 200k"
 * ```
 */
export function gauge(
  percent: number | undefined,
  thresholds: readonly number[],
  window: number | undefined,
  width = 40,
): string {
  const filled = percent === undefined
    ? 0
    : Math.min(width, Math.max(0, Math.round((percent / 100) * width)));
  const marks = new Set(thresholds.map((t) => Math.round((t / 100) * width)));
  let bar = "";
  for (let cell = 0; cell < width; cell++) {
    if (marks.has(cell) && cell > 0) bar += "|";
    bar += cell < filled ? "#" : ".";
  }
  const amount = percent === undefined ? "?%" : `${Math.floor(percent)}%`;
  const of = window === undefined ? "" : ` of ${formatTokens(window)}`;
  return `[${bar}] ${amount}${of}`;
}
