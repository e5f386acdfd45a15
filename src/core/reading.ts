/**
 * A reading: how full the context is, from where, against which window; or why there is none.
 * Claude Code's own `context_window` figures (the statusLine's stdin) are checked here. Pure.
 */
import { STATUSLINE_MAX_AGE_MS } from "./claude_code.ts";
import type { CompactionPoint } from "./compaction_point.ts";
import { groupDigits, MAX_TOKENS, MIN_TOKENS } from "./numbers.ts";
import type { Fill } from "./thresholds.ts";
import { percentOf } from "./window.ts";
import type { ContextWindow } from "../schemas/payload.ts";
import type { StatuslineRecord } from "../schemas/statusline.ts";

/** Where a reading came from, best first. */
type ReadingSource =
  | "stdin"
  | "statusline"
  | "transcript tool_use match"
  | "transcript latest"
  | "transcript Token usage";

export interface Reading {
  kind: "reading";
  source: ReadingSource;
  /** Percent of the window. */
  percent: number;
  tokens: number | undefined;
  window: number | undefined;
  windowSource: string | undefined;
  model: string | undefined;
  /** Tokens the percentages are measured against, when less than the window. */
  span?: number | undefined;
  /** Where Claude Code will auto-compact this context, as far as the hook can tell. */
  compaction?: CompactionPoint | undefined;
}

/** Why there is no reading, and whether the fallback counter counts this call. */
export interface NoReading {
  kind: "none";
  reason: string;
  /** False right after a compaction: a reading will come, counting would misfire. */
  countCalls: boolean;
  /** Right after a compaction: the compacted context's last reading, no longer the context. */
  before?: { tokens: number; window: number; model: string | undefined };
}

export function isReading(reading: Reading | NoReading): reading is Reading {
  return reading.kind === "reading";
}

/**
 * The reading as thresholds see it: tokens, and the span percentages are measured against. A
 * reading with only a percentage counts as that many hundredths of a span of 100.
 */
export function fillOf(reading: Reading): Fill {
  const window = reading.window;
  const span = reading.span ?? window;
  const tokens = reading.tokens ??
    (window !== undefined ? (reading.percent * window) / 100 : undefined);
  if (span === undefined || tokens === undefined) return { tokens: reading.percent, span: 100 };
  return { tokens, span };
}

/** The tokens `current_usage` gives: Claude Code's own `input + cache_creation + cache_read`. */
function currentTokens(figures: ContextWindow): number | undefined {
  const u = figures.current_usage;
  if (u === undefined || u === null || typeof u === "number") return u ?? undefined;
  return (u.input_tokens ?? 0) + (u.cache_creation_input_tokens ?? 0) +
    (u.cache_read_input_tokens ?? 0);
}

/**
 * What in a `context_window` is outside what Claude Code can send, or undefined when every
 * figure is plausible. Such a reading is not taken.
 *
 * @example
 * ```ts
 * absurdFigure({ used_percentage: 1e308 }); // "used_percentage 1e+308 is not a percentage from 0 to 100"
 * ```
 */
export function absurdFigure(figures: ContextWindow): string | undefined {
  const { used_percentage: used, context_window_size: size } = figures;
  if (typeof used === "number" && !(used >= 0 && used <= 100)) {
    return `used_percentage ${used} is not a percentage from 0 to 100`;
  }
  if (
    typeof size === "number" &&
    !(Number.isInteger(size) && size >= MIN_TOKENS && size <= MAX_TOKENS)
  ) {
    return `context_window_size ${size} is not a window from ${groupDigits(MIN_TOKENS)} to ` +
      `${groupDigits(MAX_TOKENS)} tokens`;
  }
  const tokens = currentTokens(figures);
  if (tokens !== undefined && !(tokens >= 0 && tokens <= MAX_TOKENS)) {
    return `current_usage ${tokens} is not a token count from 0 to ${groupDigits(MAX_TOKENS)}`;
  }
  return undefined;
}

/**
 * The figures a `context_window` gives: tokens over the window are exact and win; the rounded
 * `used_percentage` serves when they are missing.
 *
 * @example
 * ```ts
 * figuresOf({ current_usage: 58_000, context_window_size: 200_000 });
 * // { percent: 29, tokens: 58000, window: 200000 }
 * ```
 */
export function figuresOf(figures: ContextWindow) {
  if (absurdFigure(figures) !== undefined) return undefined;
  const { used_percentage: used, context_window_size: size } = figures;
  const window = typeof size === "number" && size > 0 ? size : undefined;
  const tokens = currentTokens(figures);
  if (tokens !== undefined && window !== undefined) {
    return { percent: percentOf(tokens, window), tokens, window };
  }
  if (typeof used === "number" && used >= 0) return { percent: used, tokens, window };
  return undefined;
}

/**
 * True when a statusline record may be used now: at most a minute old and not older than the
 * transcript's newest usage (`usage.offset` in the transcript, or its time).
 */
export function isFresh(
  record: StatuslineRecord,
  now: number,
  usage: { offset: number; timestamp?: string | undefined } | undefined,
): boolean {
  const age = now - record.recordedAt;
  if (age < 0 || age > STATUSLINE_MAX_AGE_MS) return false;
  if (usage === undefined) return true;
  if (record.transcriptSize !== undefined) return record.transcriptSize > usage.offset;
  const written = usage.timestamp === undefined ? NaN : Date.parse(usage.timestamp);
  return Number.isFinite(written) && written <= record.recordedAt;
}
