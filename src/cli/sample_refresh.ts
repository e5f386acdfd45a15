/**
 * The one measure of the standing rules every command quotes when no real call is at hand: a
 * refresh at the first threshold, with no window named, exactly as `preview` shows it without a
 * session. `doctor`'s checks, `status`'s left-out list and `preview` then agree on every figure.
 */
import { type RefreshCause, refreshHeader } from "../core/header.ts";
import { renderCombined } from "../core/render_rules.ts";
import type { StandingRules } from "../io/standing_rules.ts";
import { isTokenThreshold } from "../core/numbers.ts";

/** A token of the real one's length, for a header that names no session. */
const SAMPLE_TOKEN = "00000000";

/**
 * The refresh `preview` shows without a session: at `threshold`, else the first threshold.
 *
 * @example
 * ```ts
 * sampleCause([30, 52, 70]); // { kind: "thresholds", thresholds: [30], percent: 30 }
 * ```
 */
export function sampleCause(
  thresholds: readonly number[],
  threshold?: number,
): Extract<RefreshCause, { kind: "thresholds" }> {
  const chosen = threshold ?? thresholds[0] ?? 30;
  // A token threshold is stated in tokens: no window is named, so no share of one.
  return isTokenThreshold(chosen)
    ? { kind: "thresholds", thresholds: [chosen], percent: 0, tokens: chosen }
    : { kind: "thresholds", thresholds: [chosen], percent: chosen };
}

/** `rules` laid out as that refresh, within `maxChars`. */
export function sampleRefresh(
  rules: Pick<StandingRules, "blocks" | "lessons">,
  thresholds: readonly number[],
  maxChars: number,
): ReturnType<typeof renderCombined> {
  const header = refreshHeader(sampleCause(thresholds), SAMPLE_TOKEN, rules);
  return renderCombined(header, rules.blocks, rules.lessons, maxChars);
}
