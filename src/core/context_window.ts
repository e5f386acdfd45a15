/**
 * Figures from Claude Code's own `context_window` object (the statusLine stdin carries it, and
 * PostToolUse stdin might one day). Pure.
 */
import type { ContextWindow } from "../schemas/payload.ts";
import { percentOf, usedTokens } from "./window.ts";

export interface WindowFigures {
  percent: number;
  tokens: number | undefined;
  window: number | undefined;
}

/**
 * The reading a `context_window` gives. Tokens over the window are exact and win; Claude Code's
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
