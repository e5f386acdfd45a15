/** A timeline laid out for a chart: its calls in bins (columns), and the height scale. */
import { formatTokens } from "../../core/header.ts";
import { isTokenThreshold, type Threshold, thresholdText } from "../../core/numbers.ts";
import { pointOf } from "../../core/thresholds.ts";
import type { Timeline, TimelineEvent } from "./model.ts";

type Call = Timeline["calls"][number];

/**
 * Calls `first` to `last` as one column: their highest reading, the window and span at the last,
 * each threshold's point in tokens (undefined when unknown or never reached), their events.
 */
export interface Bin extends Pick<Call, "tokens" | "window" | "span" | "large"> {
  first: number;
  last: number;
  points: (number | undefined)[];
  events: TimelineEvent[];
}

/**
 * The calls in at most `columns` bins of nearly equal size. A compaction goes in the bin of the
 * call after it; a restatement at SessionStart in its compaction's bin.
 */
export function binTimeline(timeline: Timeline, columns: number): Bin[] {
  const n = timeline.calls.length;
  const count = Math.min(n, Math.max(1, Math.floor(columns)));
  const binOf = (call: number) =>
    Math.min(count - 1, Math.max(0, Math.floor(((call - 1) * count) / n)));
  const bins: Bin[] = [];
  let window: number | undefined;
  let span: number | undefined;
  timeline.calls.forEach((call, i) => {
    const bin = bins[binOf(i + 1)] ??= {
      first: i + 1,
      last: 0,
      tokens: undefined,
      window,
      span,
      large: false,
      points: [],
      events: [],
    };
    bin.last = i + 1;
    if (call.tokens !== undefined) bin.tokens = Math.max(bin.tokens ?? 0, call.tokens);
    window = bin.window = call.window ?? window;
    span = bin.span = call.span ?? span;
    bin.large = call.large;
  });
  for (const bin of bins) {
    const base = bin.span ?? bin.window;
    bin.points = timeline.thresholds.map((t) => {
      if (!bin.large && timeline.cadence.includes(t)) return undefined;
      const at = isTokenThreshold(t) || base !== undefined ? pointOf(t, base ?? 0) : undefined;
      return at !== undefined && at < (bin.window ?? Infinity) ? at : undefined;
    });
  }
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

/**
 * A threshold line's label, `at` tokens in `bin`: in tokens where the bin's span is over 200k, so
 * that no axis mixes `30%` with `180k`.
 */
export const thresholdLabel = (t: Threshold, at: number, bin: Bin | undefined): string =>
  bin?.large || isTokenThreshold(t) ? formatTokens(Math.round(at)) : thresholdText(t);

/** How tokens map to height: 0 at the bottom, `top` at the top. */
export interface Scale {
  top: number;
  kind: "linear" | "sqrt";
}

/**
 * Up to the largest window, reading or compaction point; square-root when linear would squash the
 * session: the window grew at least twofold (200k, then 1M), or no reading reaches a quarter.
 */
export function scaleOf(timeline: Timeline): Scale {
  const windows = timeline.calls.flatMap((c) => c.window ?? []);
  const readings = timeline.calls.flatMap((c) => c.tokens ?? []);
  const points = timeline.events.flatMap((e) => e.kind === "compaction" ? e.preTokens ?? [] : []);
  // Not Math.max(...values): a long session has more values than a call takes arguments.
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

/** The inverse of {@link heightOf}, for the axis labels. */
export function tokensAt(height: number, scale: Scale): number {
  return (scale.kind === "sqrt" ? height * height : height) * scale.top;
}
