/**
 * Figures from Claude Code's own `context_window` object (the statusLine stdin carries it, and
 * PostToolUse stdin might one day). Pure.
 */
import type { ContextWindow } from "../schemas/payload.ts";
import { groupDigits, MAX_TOKENS, MIN_TOKENS } from "./numbers.ts";
import { percentOf, usedTokens } from "./window.ts";

export interface WindowFigures {
  percent: number;
  tokens: number | undefined;
  window: number | undefined;
}

/**
 * What in a `context_window` is outside what Claude Code can send (2.1.328 clamps
 * `used_percentage` to 0-100, and windows and token counts are bounded), or undefined when every
 * figure is plausible. Such a reading is not taken.
 *
 * @example
 * ```ts
 * absurdFigure({ used_percentage: 1e308 }); // "used_percentage 1e+308 is not a percentage from 0 to 100"
 * ```
 */
export function absurdFigure(contextWindow: ContextWindow): string | undefined {
  const { used_percentage: used, context_window_size: size, current_usage: current } =
    contextWindow;
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
  const tokens = typeof current === "number" ? current : current ? usedTokens(current) : undefined;
  if (tokens !== undefined && !(tokens >= 0 && tokens <= MAX_TOKENS)) {
    return `current_usage ${tokens} is not a token count from 0 to ${groupDigits(MAX_TOKENS)}`;
  }
  return undefined;
}

/**
 * The reading a `context_window` gives (none when {@link absurdFigure} finds a figure absurd). Tokens over the window are exact and win; Claude Code's
 * `used_percentage` is rounded to a whole percent, so it only serves when they are missing.
 * `windowOverride` (LESSONS_CONTEXT_WINDOW) replaces the reported window.
 *
 * @example
 * ```ts
 * figuresOf({ current_usage: 58_000, context_window_size: 200_000 });
 * // { percent: 29, tokens: 58000, window: 200000 }
 * ```
 */
export function figuresOf(
  contextWindow: ContextWindow,
  windowOverride?: number,
): WindowFigures | undefined {
  if (absurdFigure(contextWindow) !== undefined) return undefined;
  const { used_percentage: used, context_window_size: size, current_usage: current } =
    contextWindow;
  const reported = typeof size === "number" && size > 0 ? size : undefined;
  const window = windowOverride ?? reported;
  const tokens = typeof current === "number" ? current : current ? usedTokens(current) : undefined;
  if (tokens !== undefined && window !== undefined) {
    return { percent: percentOf(tokens, window), tokens, window };
  }
  if (typeof used === "number" && Number.isFinite(used) && used >= 0) {
    return { percent: used, tokens, window: reported };
  }
  return undefined;
}
