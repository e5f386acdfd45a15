/**
 * A session laid out for a chart: its calls grouped into bins, one per column (each showing its
 * highest reading, every event kept in its bin), and the height scale the text chart and the SVG
 * share.
 */
import { isTokenThreshold, type Threshold } from "../../core/numbers.ts";
import type { Timeline, TimelineEvent } from "./model.ts";

/** Consecutive calls drawn as one column. */
export interface Bin {
  /** The first and last call (1-based positions) in the bin. */
  first: number;
  last: number;
  /** The highest reading among its calls; undefined when none of them has one. */
  tokens: number | undefined;
  /** The window and span in force at the bin's last call (carried over calls without one). */
  window: number | undefined;
  span: number | undefined;
  /** The events that happened in the bin, in the timeline's order. */
  events: TimelineEvent[];
}

/**
 * The calls of `timeline` in `columns` bins of nearly equal size, or one bin per call when there
 * are fewer calls. A compaction goes in the bin of the call after it (the last bin when none came
 * after); a restatement answered at SessionStart goes in the bin of the compaction before it.
 *
 * @example
 * ```ts
 * binTimeline(timeline, 66).length; // 66 for 2,000 calls; 12 for 12 calls
 * ```
 */
export function binTimeline(timeline: Timeline, columns: number): Bin[] {
  const n = timeline.calls.length;
  const count = Math.min(n, Math.max(1, Math.floor(columns)));
  const bins: Bin[] = [];
  let window: number | undefined;
  let span: number | undefined;
  timeline.calls.forEach((call, i) => {
    const at = Math.floor((i * count) / n);
    const bin = bins[at] ??= {
      first: i + 1,
      last: i + 1,
      tokens: undefined,
      window,
      span,
      events: [],
    };
    bin.last = i + 1;
    if (call.tokens !== undefined) bin.tokens = Math.max(bin.tokens ?? 0, call.tokens);
    window = bin.window = call.window ?? window;
    span = bin.span = call.span ?? span;
  });
  const binOf = (call: number) =>
    Math.min(count - 1, Math.max(0, Math.floor(((call - 1) * count) / n)));
  let compaction = 0;
  for (const event of timeline.events) {
    if (event.kind === "compaction") compaction = binOf(event.beforeCall);
    const at = event.kind === "compaction" || event.call === "SessionStart"
      ? compaction
      : binOf(event.call);
    bins[at]?.events.push(event);
  }
  return bins;
}

/** Where `threshold` falls in tokens over `span` (else `window`); undefined when neither is known. */
export function thresholdPoint(
  threshold: Threshold,
  span?: number,
  window?: number,
): number | undefined {
  if (isTokenThreshold(threshold)) return threshold;
  const base = span ?? window;
  return base === undefined ? undefined : (threshold * base) / 100;
}

/** How tokens map to height: 0 at the bottom, `top` at the top, linearly or by square root. */
export interface Scale {
  top: number;
  kind: "linear" | "sqrt";
}

/**
 * The scale for `timeline`. Its top is the largest window, reading or compaction point. It is
 * square-root when linear would squash the session into the bottom of the chart: when the window
 * was proven at least twice as large part-way (200k, then 1M) or no reading reaches a quarter of
 * the top. Else linear.
 *
 * @example
 * ```ts
 * scaleOf(timeline); // { top: 1_000_000, kind: "sqrt" } for a 200k window proven 1M
 * ```
 */
export function scaleOf(timeline: Timeline): Scale {
  const of = (pick: (c: Timeline["calls"][number]) => number | undefined) =>
    timeline.calls.flatMap((c) => pick(c) ?? []);
  const windows = of((c) => c.window);
  const readings = of((c) => c.tokens);
  const points = timeline.events.flatMap((e) => e.kind === "compaction" ? e.preTokens ?? [] : []);
  // No spreading into Math.max: a long session has more values than a call takes arguments.
  const most = (values: number[]) => values.reduce((a, b) => Math.max(a, b), 0);
  const top = Math.max(1, most(windows), most(readings), most(points));
  const grew = most(windows) >= 2 * windows.reduce((a, b) => Math.min(a, b), Infinity);
  const low = readings.length > 0 && most(readings) < top / 4;
  return { top, kind: grew || low ? "sqrt" : "linear" };
}

/** Where `tokens` falls on `scale`: 0 at the bottom, 1 at the top, above 1 past it. */
export function heightOf(tokens: number, scale: Scale): number {
  const share = Math.max(0, tokens) / scale.top;
  return scale.kind === "sqrt" ? Math.sqrt(share) : share;
}

/** The tokens at `height` on `scale`, the inverse of {@link heightOf}: for the axis labels. */
export function tokensAt(height: number, scale: Scale): number {
  return (scale.kind === "sqrt" ? height * height : height) * scale.top;
}
