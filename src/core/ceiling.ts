/** A bound on this call's reading before its entry is written: below every threshold, no wait. */
import { INLINE_LIMIT, LARGEST_UNSEEN_TOKENS, TOKENS_PER_BYTE } from "./claude_code.ts";
import { type CompactSettings, spanFor } from "./compaction_point.ts";
import { percentSpan } from "./schedule.ts";
import { proofOf } from "./facts.ts";
import { type MeasureSettings, windowFor } from "./measure.ts";
import { MAX_TOKENS } from "./numbers.ts";
import { crossedThresholds, type Fill, firedUnder } from "./thresholds.ts";
import type { State } from "../schemas/state.ts";
import type { TranscriptUsage, TranscriptView } from "./view.ts";

/** Room for a denser tokenizer and sources no measurement drove; a growth past it costs a call. */
const SAFETY_FACTOR = 3;
/** Tokens a request may carry beyond what its transcript bytes hold. */
export const MARGIN_TOKENS = Math.ceil(SAFETY_FACTOR * LARGEST_UNSEEN_TOKENS);

/** The most this call's request can hold: the last reading, its output, new bytes, the margin. */
export function ceilingTokens(tokens: number, output: number | undefined, bytesAfter: number) {
  if (output === undefined || !(output >= 0) || !(bytesAfter >= 0)) return Infinity;
  return tokens + output + Math.ceil(TOKENS_PER_BYTE * bytesAfter) + MARGIN_TOKENS;
}

/** A result entry's own fields, and its hooks' records, beyond the result's text. */
const RESULT_ENTRY_BYTES = 4096;

/** What unwritten results will add (text, answer twice); undefined: a size or response unknown. */
function unwrittenBytes({ toolUseIds: own, unanswered }: TranscriptUsage, state: State) {
  // A call recorded after the response's own is of a response the file does not show yet.
  const recorded = Object.keys(state.results ?? {});
  const last = Math.max(-1, ...own.map((id) => recorded.indexOf(id)));
  if (recorded.slice(last + 1).some((id) => !own.includes(id))) return undefined;
  let bytes = 0;
  for (const call of unanswered) {
    const size = state.results?.[call];
    if (size === undefined) return undefined;
    const answer = state.deliveries?.some((d) => d.call === call) ? INLINE_LIMIT : 0;
    bytes += 2 * (size + answer) + RESULT_ENTRY_BYTES;
  }
  return bytes;
}

/**
 * The ceiling on this call's reading when it crosses no threshold: the call need not wait for its
 * entry. Undefined (wait) when the newest usage is this call's, an unwritten result's size is
 * unknown, or after a prompt (a new turn may switch model) or a compaction.
 */
export function ceilingOf(
  view: TranscriptView,
  state: State,
  settings: MeasureSettings,
  files: CompactSettings | undefined,
): Fill | undefined {
  const usage = view.usage;
  // Interleaved chains (core/chains.ts): the newest usage may be another process's context.
  if (
    state.forked || !usage || usage.matched || usage.window !== undefined ||
    usage.firstEnd === undefined || usage.loadsTools ||
    view.promptAfterUsage || view.markerSince !== undefined
  ) {
    return undefined;
  }
  const unwritten = unwrittenBytes(usage, state);
  if (unwritten === undefined) return undefined;
  // Without the token count, which can only widen it: never wider than the reading's window.
  const model = { model: usage.model, version: usage.version };
  const window = windowFor(model, view.compaction, proofOf(state), settings, files).window;
  const { compactEnv: env, thresholds, scaleForAutocompact: scale, cadence } = settings;
  const context = { env, files, learned: state.compactedAt, thresholds, scale };
  // A larger window's span may be smaller (an early point set for it): take the smaller.
  const span = Math.min(
    percentSpan(spanFor(window, usage.model, context).span, cadence),
    percentSpan(spanFor(MAX_TOKENS, usage.model, context).span, cadence),
  );
  if (!(window > 0) || !(span > 0) || !(usage.tokens >= 0)) return undefined;
  const bytesAfter = view.size - usage.firstEnd + unwritten;
  const tokens = ceilingTokens(usage.tokens, usage.outputTokens, bytesAfter);
  const counting = firedUnder(state.fired, state.firedWindow, span);
  // The cadence's points never make a call wait: one comes every 40k tokens, so waiting for them
  // would hold most calls of a 1M session; when the entry is late, its refresh comes a call later.
  const crossed = crossedThresholds({ tokens, span }, thresholds, counting);
  return crossed.length === 0 ? { tokens, span } : undefined;
}
