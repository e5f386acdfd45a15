/**
 * An upper bound on this call's reading before its own transcript entry is written, so a call that
 * cannot cross a threshold answers at once instead of waiting for the entry. Pure; the facts it
 * rests on (TOKENS_PER_BYTE, LARGEST_UNSEEN_TOKENS, in claude_code.ts) are measured and pinned by
 * tests/unit/core/ceiling_test.ts.
 */
import { LARGEST_UNSEEN_TOKENS, TOKENS_PER_BYTE } from "./claude_code.ts";
import type { Threshold } from "./numbers.ts";
import { crossedThresholds } from "./thresholds.ts";
import { percentOf, resolveWindow, type WindowInputs } from "./window.ts";

/**
 * How many times the largest measured unseen growth the margin allows: room for a tokenizer
 * denser than any measured, and for sources no measurement could drive (file-changed reminders
 * appear only in interactive sessions). A growth past the margin costs one call: the refresh
 * arrives on the next call, whose ceiling starts from the reading that crossed.
 */
export const SAFETY_FACTOR = 3;

/** Tokens a request may carry beyond what the bytes written since the previous response hold. */
export const MARGIN_TOKENS = Math.ceil(SAFETY_FACTOR * LARGEST_UNSEEN_TOKENS);

/** What the transcript shows at the start of a call whose own entry is not written yet. */
export interface CeilingInput {
  /** The newest reading in the transcript (the previous response's input side). */
  tokens: number;
  /** That response's `output_tokens`; undefined gives no ceiling. */
  outputTokens: number | undefined;
  /**
   * Bytes of transcript after that response's first entry: a streamed response is written as
   * several entries, with the results of its first tool calls between them.
   */
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
 * // 100_000 + 500 + 0.6 × 4_000 + 10_038 = 112_938
 * ```
 */
export function ceilingTokens(input: CeilingInput): number {
  const { tokens, outputTokens, bytesAfter } = input;
  if (outputTokens === undefined || !(outputTokens >= 0) || !(bytesAfter >= 0)) return Infinity;
  return tokens + outputTokens + Math.ceil(TOKENS_PER_BYTE * bytesAfter) + MARGIN_TOKENS;
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
 * earlyCeiling({ tokens: 100_000, outputTokens: 500, bytesAfter: 4_000, window: 200_000 },
 *   [30, 52, 70], []); // undefined: 56.5 % reaches 30 and 52
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
