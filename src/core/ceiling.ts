/**
 * An upper bound on this call's reading before its own transcript entry is written, so that a
 * call that cannot cross a threshold answers at once instead of waiting for the entry. Pure; its
 * figures (TOKENS_PER_BYTE, LARGEST_UNSEEN_TOKENS) are Claude Code facts.
 */
import { INLINE_LIMIT, LARGEST_UNSEEN_TOKENS, TOKENS_PER_BYTE } from "./claude_code.ts";
import { type CompactSettings, spanFor } from "./compaction_point.ts";
import { proofOf } from "./facts.ts";
import { type MeasureSettings, windowFor } from "./measure.ts";
import { MAX_TOKENS } from "./numbers.ts";
import { crossedThresholds, type Fill, firedUnder } from "./thresholds.ts";
import type { State } from "../schemas/state.ts";
import type { TranscriptView } from "./view.ts";

/**
 * How many times the largest measured unseen growth the margin allows: room for a denser
 * tokenizer and for sources no measurement could drive. A growth past it costs one call.
 */
const SAFETY_FACTOR = 3;

/** Tokens a request may carry beyond what the bytes written since the previous response hold. */
export const MARGIN_TOKENS = Math.ceil(SAFETY_FACTOR * LARGEST_UNSEEN_TOKENS);

/**
 * The most tokens this call's request can hold: the previous reading, its output, what the bytes
 * written since that response began can carry, and the margin. Infinity when the output is
 * unknown.
 *
 * @example
 * ```ts
 * ceilingTokens(100_000, 500, 4_000); // 100_000 + 500 + 0.6 × 4_000 + 10_038 = 112_938
 * ```
 */
export function ceilingTokens(tokens: number, output: number | undefined, bytesAfter: number) {
  if (output === undefined || !(output >= 0) || !(bytesAfter >= 0)) return Infinity;
  return tokens + output + Math.ceil(TOKENS_PER_BYTE * bytesAfter) + MARGIN_TOKENS;
}

/**
/** A result entry's own fields, and its hooks' records, beyond the result's text. */
const RESULT_ENTRY_BYTES = 4096;

/**
 * What the results of `calls`, not in the transcript yet, will add to it: each result's text twice
 * (the message and `toolUseResult`), the entry's own fields, and this hook's answer to it twice
 * (`hook_success`, `hook_additional_context`), when it answered. Undefined when a call's hook did
 * not record its result's size.
 */
function unwrittenBytes(calls: readonly string[], state: State): number | undefined {
  let bytes = 0;
  for (const call of calls) {
    const size = state.results?.[call];
    if (size === undefined) return undefined;
    const answer = state.deliveries?.some((d) => d.call === call) ? INLINE_LIMIT : 0;
    bytes += 2 * (size + answer) + RESULT_ENTRY_BYTES;
  }
  return bytes;
}

/**
 * The ceiling on this call's reading, when even the ceiling crosses no threshold that counts in
 * `state`: the call may answer without its own entry. A result of the newest response that is not
 * in the transcript yet (Claude Code writes entries in batches, after the hook starts) counts at
 * the size its own hook recorded. Undefined (wait for the entry) when the newest usage is this
 * call's, when such a result's size is unknown, after a prompt (a new turn may switch model), or
 * after a compaction.
 */
export function ceilingOf(
  view: TranscriptView,
  state: State,
  settings: MeasureSettings,
  files: CompactSettings | undefined,
): Fill | undefined {
  const usage = view.usage;
  if (
    !usage || usage.matched || usage.window !== undefined || usage.firstEnd === undefined ||
    view.promptAfterUsage || view.markerSince !== undefined
  ) {
    return undefined;
  }
  const unwritten = unwrittenBytes(usage.unanswered, state);
  if (unwritten === undefined) return undefined;
  // The window chosen without the token count, which can only widen it: never wider than the
  // reading's, so the ceiling's share is never lower than the reading's.
  const model = { model: usage.model, version: usage.version };
  const window = windowFor(model, view.compaction, proofOf(state), settings, files).window;
  const context = {
    env: settings.compactEnv,
    files,
    learned: state.compactedAt,
    thresholds: settings.thresholds,
    scale: settings.scaleForAutocompact,
  };
  // A larger window's span may be smaller (an early point set for it): take the smaller.
  const span = Math.min(
    spanFor(window, usage.model, context).span,
    spanFor(MAX_TOKENS, usage.model, context).span,
  );
  if (!(window > 0) || !(span > 0) || !(usage.tokens >= 0)) return undefined;
  const tokens = ceilingTokens(
    usage.tokens,
    usage.outputTokens,
    view.size - usage.firstEnd + unwritten,
  );
  const counting = firedUnder(state.fired, state.firedWindow, span);
  return crossedThresholds({ tokens, span }, settings.thresholds, counting).length === 0
    ? { tokens, span }
    : undefined;
}
