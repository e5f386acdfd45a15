/**
 * What a Codex rollout shows one tool call, read backwards from its end: the same view
 * io/transcript.ts gives of a Claude Code transcript (core/view.ts), so everything after it is
 * shared. The reading is the newest response's input tokens against the `model_context_window`
 * the rollout states; the receipts are Codex's records of delivered hook answers.
 */
import { COMPACTED_KEY, ROLLOUT_KEYS, rolloutLineOf } from "../core/codex.ts";
import { SESSION_START } from "../core/claude_code.ts";
import type { ReceiptEvidence } from "../core/receipts.ts";
import type { TranscriptUsage, TranscriptView, ViewQuery } from "../core/view.ts";
import { type ByteSource, cachedSource } from "./reverse_lines.ts";
import { hostLines, MAX_SCAN_BYTES, type ReceiptQuery } from "./host_lines.ts";

const lines = hostLines({
  keys: ROLLOUT_KEYS,
  markers: [COMPACTED_KEY],
  lineOf: rolloutLineOf,
  answersOf: (line) => line.kind === "answer" ? line.texts : [],
});
const { linesBack } = lines;

/** The view of one call (`query.toolUseId`: its `call_id`), as `viewOf` gives Claude Code's. */
export function rolloutViewOf(raw: ByteSource, size: number, query: ViewQuery): TranscriptView {
  const source = cachedSource(raw);
  const view: TranscriptView = { size, callPresent: false, promptAfterUsage: false, bytesRead: 0 };
  const { toolUseId } = query;
  let newest: TranscriptUsage | undefined;
  let window: number | undefined;
  let model: string | undefined;
  let settled = toolUseId === undefined;
  // Usage lines read, and whether this Codex records a response's usage before the call's hook.
  let usages = 0;
  let records = false;
  for (const { start, line } of linesBack(source, size, query.maxBytes ?? MAX_SCAN_BYTES)) {
    if (line.kind === "compacted") {
      if (!newest) view.markerAfterUsage = start;
      break;
    }
    if (line.kind === "usage" || line.kind === "window") window ??= line.window;
    if (line.kind === "model") model ??= line.model;
    if (line.kind === "usage") {
      usages++;
      records ||= line.record === true;
      if (!newest) {
        newest = {
          tokens: line.tokens,
          toolUseIds: [],
          matched: false,
          offset: start,
          unanswered: [],
        };
      } // An older response: the call was not among the newest one's.
      else settled = true;
    }
    if (line.kind === "call" && line.callId === toolUseId && !settled) {
      // Written before the newest usage: that usage is its response's. After: not yet written.
      if (newest) newest.matched = true;
      settled = true;
    }
    // Unmatched, one more usage line tells whether this Codex writes records (0.171.0: a record
    // precedes each response's count): without them the call's own usage cannot come in time.
    if (newest && settled && window !== undefined && (newest.matched || usages > 1)) break;
  }
  if (newest) {
    newest.model = model;
    if (window !== undefined) newest.window = window;
    view.usage = newest;
    view.callPresent = newest.matched;
  }
  if (toolUseId !== undefined && !view.callPresent && records) view.ownUsageDue = true;
  return lines.finishView(view, source, query, rolloutReceiptsOf);
}

/**
 * Codex's records of this hook's answers back to `from`: an answer's record comes right before
 * its call's output (a SessionStart answer's before no output), and Codex 0.171.0 records every
 * delivered answer, so `records` is true.
 */
export function rolloutReceiptsOf(
  source: ByteSource,
  size: number,
  query: ReceiptQuery,
): ReceiptEvidence {
  let nextOutput: string | undefined;
  return lines.receiptsBack(source, size, query, (line, finds) => {
    if (line.kind === "output") {
      nextOutput = line.callId;
      finds.result(line.callId);
    } else if (line.kind === "answer") {
      finds.answer(nextOutput ?? SESSION_START, line.texts);
    } else if (line.kind === "call" || line.kind === "usage") {
      if (line.kind === "usage") finds.response();
      nextOutput = undefined;
    }
  });
}

/** This hook's refreshes recorded since the newest compaction, as `historyOf` gives them. */
export const rolloutHistoryOf = lines.historyOf;
