/** How full the context is, from where, against which window; or why there is no reading. */
import { PERCENT_OF_AUTO_WINDOW_FROM, STATUSLINE_MAX_AGE_MS } from "./claude_code.ts";
import type { CompactionPoint } from "./compaction_point.ts";
import { groupDigits, MAX_TOKENS, MIN_TOKENS } from "./numbers.ts";
import type { Fill } from "./thresholds.ts";
import { compareVersions, percentOf } from "./window.ts";
import type { ContextWindow } from "../schemas/payload.ts";
import type { StatuslineRecord } from "../schemas/statusline.ts";

export interface Reading {
  kind: "reading";
  source: "stdin" | "statusline" | `transcript ${"tool_use match" | "latest" | "Token usage"}`;
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
  /** On a span larger than 200k: `span` is 200k, and refreshes follow every `every` tokens. */
  cadence?: { every: number; points: number[] } | undefined;
}

export interface NoReading {
  kind: "none";
  reason: string;
  /** Whether the fallback counter counts this call: not right after a compaction. */
  countCalls: boolean;
  /** Right after a compaction: the compacted context's last reading. */
  before?: { tokens: number; window: number; model: string | undefined };
}

export function isReading(reading: Reading | NoReading): reading is Reading {
  return reading.kind === "reading";
}

/** The reading as thresholds see it; with only a percentage, that many tokens of a span of 100. */
export function fillOf(reading: Reading): Fill {
  const window = reading.window;
  const span = reading.span ?? window;
  const tokens = reading.tokens ??
    (window !== undefined ? (reading.percent * window) / 100 : undefined);
  if (span === undefined || tokens === undefined) return { tokens: reading.percent, span: 100 };
  return { tokens, span };
}

/** `current_usage` as Claude Code counts it, `input + cache_creation + cache_read`; else its total. */
function currentTokens(figures: ContextWindow): number | undefined {
  const { current_usage: u, total_input_tokens: total } = figures;
  if (u === undefined && typeof total === "number") return total;
  if (u === undefined || u === null || typeof u === "number") return u ?? undefined;
  return (u.input_tokens ?? 0) + (u.cache_creation_input_tokens ?? 0) +
    (u.cache_read_input_tokens ?? 0);
}

/** What in a `context_window` Claude Code cannot have sent; such a reading is not taken. */
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
 * A `context_window`'s figures: tokens over the window, else the rounded `used_percentage`: of the
 * window only before 2.1.336 (`version`), later of the auto-compact window, whose size is not sent.
 */
export function figuresOf(figures: ContextWindow, version?: string) {
  if (absurdFigure(figures) !== undefined) return undefined;
  const { used_percentage: used, context_window_size: size } = figures;
  const window = typeof size === "number" && size > 0 ? size : undefined;
  const tokens = currentTokens(figures);
  if (tokens !== undefined && window !== undefined) {
    return { percent: percentOf(tokens, window), tokens, window };
  }
  if (!(typeof used === "number" && used >= 0)) return undefined;
  const ofWindow = window !== undefined && version !== undefined &&
    compareVersions(version, PERCENT_OF_AUTO_WINDOW_FROM) < 0;
  if (!ofWindow) return { percent: used, tokens, window: undefined };
  return { percent: used, tokens: Math.round((used * window) / 100), window };
}

/** A statusline record is fresh: at most a minute old and newer than the transcript's usage. */
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
