/**
 * The refreshes a context gets. Rules fade with the tokens that follow them, not with the share of
 * the window they sit in: on a span larger than 200k the thresholds land where a 200k session has
 * them, and a steady cadence follows up to the compaction point (docs/thresholds.md).
 */
import type { Threshold } from "./numbers.ts";
import { pointOf } from "./thresholds.ts";

/** The span the lessons-learned PRD 005's 30/52/70 % were written for: 60k, 104k and 140k. */
export const REFERENCE_SPAN = 200_000;
/** Tokens between refreshes past the last threshold; 0 turns the cadence off. */
export const DEFAULT_CADENCE = 40_000;
/** A cadence below this would refresh more often than a refresh's worth of context is read. */
export const MIN_CADENCE = 10_000;

/** What a span's percentages are measured against, and the cadence's points (token counts). */
export interface Schedule {
  span: number;
  /** Present only on a span larger than 200k with the cadence on. */
  cadence?: { every: number; points: number[] };
}

/**
 * The schedule for a context whose percentages are of `span` and which ends at `end` tokens (the
 * compaction point, or the blocking limit; undefined: unknown). A span of 200k or less, or the
 * cadence off (0), keeps the thresholds as they are: `scheduleFor([30,52,70], 40000, 1e6, 967000)`
 * puts 30/52/70 at 60k, 104k and 140k, then refreshes at 180k, 220k, ... 940k.
 */
export function scheduleFor(
  thresholds: readonly Threshold[],
  cadence: number,
  span: number,
  end: number | undefined,
): Schedule {
  if (percentSpan(span, cadence) === span) return { span };
  const last = Math.max(0, ...thresholds.map((t) => pointOf(t, REFERENCE_SPAN)));
  const points: number[] = [];
  const stop = end ?? 0;
  for (let at = Math.round(last + cadence); at < stop; at += cadence) points.push(at);
  return { span: REFERENCE_SPAN, cadence: { every: cadence, points } };
}

/** What a span's percentages are of: 200k for a larger span with the cadence on, else the span. */
export function percentSpan(span: number, cadence: number): number {
  return cadence > 0 && span > REFERENCE_SPAN ? REFERENCE_SPAN : span;
}

/** The thresholds and the cadence's points, duplicates dropped. */
export function scheduledThresholds(
  thresholds: readonly Threshold[],
  schedule: { cadence?: { points: readonly number[] } | undefined } | undefined,
): Threshold[] {
  const points = schedule?.cadence?.points;
  if (!points?.length) return [...thresholds];
  return [...new Set([...thresholds, ...points])];
}

/**
 * The refreshes to come in reach order, each a threshold (or several landing on one token count,
 * merged: 30% and 60k) and the tokens where it lands.
 */
export function plannedRefreshes(thresholds: readonly Threshold[], span: number) {
  const byPoint = new Map<number, Threshold[]>();
  for (const t of thresholds) {
    const at = Math.round(pointOf(t, span));
    byPoint.set(at, [...(byPoint.get(at) ?? []), t]);
  }
  return [...byPoint].sort(([a], [b]) => a - b).map(([tokens, ts]) => ({ thresholds: ts, tokens }));
}

/** Where the refreshes land, in tokens, before the context ends at `end` (its compaction point). */
export const refreshPoints = (thresholds: readonly Threshold[], span: number, end: number) =>
  plannedRefreshes(thresholds, span).map((p) => p.tokens).filter((t) => t < end);

/** The widest gap (from 0, then between refreshes) and where it starts. */
export function widestGap(points: readonly number[]): { from: number; tokens: number } {
  let widest = { from: 0, tokens: 0 };
  let from = 0;
  for (const at of [...points].sort((a, b) => a - b)) {
    if (at - from > widest.tokens) widest = { from, tokens: at - from };
    from = at;
  }
  return widest;
}
