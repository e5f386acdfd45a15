/**
 * A proven upper bound on this call's reading before its own transcript entry is written, so a
 * call that cannot cross a threshold answers at once instead of waiting for the entry. Pure; the
 * constants (TOKENS_PER_BYTE and UNSEEN_TOKENS are Claude Code facts, in claude_code.ts) are derived
 * from real transcripts and pinned by tests/unit/core/ceiling_test.ts.
 */
import { TOKENS_PER_BYTE, UNSEEN_TOKENS } from "./claude_code.ts";
import type { Threshold } from "./numbers.ts";
import { crossedThresholds } from "./thresholds.ts";
import { percentOf, resolveWindow, type WindowInputs } from "./window.ts";

/**
 * A share of the window added to the margin: the scripted sessions of the e2e suite (and the
 * transcripts recorded from them in tests/fixtures) jump by up to 22 % of the window in one step
 * with almost no bytes written (e.g. 310,000 to 530,000 of 1,000,000 tokens), which no real
 * session was seen to do. A bound that let those steps through would break the e2e scenarios.
 */
export const WINDOW_SHARE = 0.25;

/** What the transcript shows at the start of a call whose own entry is not written yet. */
export interface CeilingInput {
  /** The newest reading in the transcript (the previous response's input side). */
  tokens: number;
  /** That response's `output_tokens`; undefined gives no ceiling. */
  outputTokens: number | undefined;
  /** Bytes of transcript after that entry. */
  bytesAfter: number;
  /** The window this call's reading will be measured against (see {@link ceilingWindow}). */
  window: number;
  /**
   * The span the percentage thresholds are measured against under that window (the window, or
   * less before an early auto-compaction; core/compaction_point.ts). Undefined: the window.
   */
  span?: number;
}

/**
 * The most tokens this call's request can hold: the previous reading, plus that response's
 * output, plus what the bytes written since can carry, plus the margin. Infinity when the output
 * is unknown.
 *
 * @example
 * ```ts
 * ceilingTokens({ tokens: 100_000, outputTokens: 500, bytesAfter: 4_000, window: 1_000_000 });
 * // 100_000 + 500 + 4_000 + max(20_000, 250_000) = 354_500
 * ```
 */
export function ceilingTokens(input: CeilingInput): number {
  const { tokens, outputTokens, bytesAfter, window } = input;
  if (outputTokens === undefined || !(outputTokens >= 0) || !(bytesAfter >= 0)) return Infinity;
  return tokens + outputTokens + TOKENS_PER_BYTE * bytesAfter +
    Math.max(UNSEEN_TOKENS, WINDOW_SHARE * window);
}

/**
 * The window to measure the ceiling against: the one chosen for the model without looking at
 * token counts. A count above 200k can only widen the window the reading gets (see
 * `resolveWindow`), so this is never wider than the reading's, and the ceiling's percent never
 * lower than the reading's.
 */
export function ceilingWindow(inputs: Omit<WindowInputs, "tokens">): number {
  return resolveWindow({ ...inputs, tokens: undefined }).window;
}

/**
 * The ceiling's percent of the span when no reading up to it can cross a threshold that has not
 * fired (the call may answer without waiting), else undefined (wait for this call's own entry).
 *
 * @example
 * ```ts
 * earlyCeiling({ tokens: 100_000, outputTokens: 500, bytesAfter: 4_000, window: 1_000_000 },
 *   [30, 52, 70], []); // undefined: 35.45 % reaches 30
 * ```
 */
export function earlyCeiling(
  input: CeilingInput,
  thresholds: readonly Threshold[],
  fired: readonly Threshold[],
): number | undefined {
  const span = input.span ?? input.window;
  if (!(input.window > 0) || !(span > 0) || !(input.tokens >= 0)) return undefined;
  const tokens = ceilingTokens(input);
  const crossed = crossedThresholds({ tokens, span }, thresholds, fired);
  return crossed.length === 0 ? percentOf(tokens, span) : undefined;
}
