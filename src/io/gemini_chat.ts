/**
 * What a Gemini CLI conversation file shows one tool call, read backwards from its end: the same
 * view io/transcript.ts gives of a Claude Code transcript (core/view.ts), so everything after it is
 * shared. The reading is the newest `gemini` message's `tokens.input` against its model's window;
 * a compression is the `$set` of a history that starts with a snapshot. The call's own message is
 * written before its AfterTool hook runs, so nothing is waited for.
 */
import { CHAT_KEYS, chatLineOf, SNAPSHOT_TAG, windowOf } from "../core/gemini.ts";
import type { ReceiptEvidence } from "../core/receipts.ts";
import type { TranscriptView, ViewQuery } from "../core/view.ts";
import { type ByteSource, cachedSource } from "./reverse_lines.ts";
import { hostLines, MAX_SCAN_BYTES, type ReceiptQuery } from "./host_lines.ts";

const lines = hostLines({
  keys: CHAT_KEYS,
  markers: [SNAPSHOT_TAG],
  lineOf: chatLineOf,
  answersOf: (line) => line.kind === "results" ? line.results.flatMap((r) => r.answers) : [],
});
const { linesBack } = lines;

/** The view of one AfterTool call, as `viewOf` gives Claude Code's. */
export function chatViewOf(raw: ByteSource, size: number, query: ViewQuery): TranscriptView {
  const source = cachedSource(raw);
  const view: TranscriptView = { size, callPresent: false, promptAfterUsage: false, bytesRead: 0 };
  for (const { start, line } of linesBack(source, size, query.maxBytes ?? MAX_SCAN_BYTES)) {
    if (line.kind === "compacted") {
      view.markerAfterUsage = start;
      break;
    }
    if (line.kind !== "usage") continue;
    const { tokens, model, id } = line;
    const windowSource = `${model ?? "the model"}'s window in Gemini CLI`;
    const usage = { tokens, model, messageId: id, window: windowOf(model), windowSource };
    view.usage = { ...usage, toolUseIds: [], matched: false, offset: start, unanswered: [] };
    break;
  }
  return lines.finishView(view, source, query, chatReceiptsOf);
}

/**
 * Gemini's records of this hook's answers back to `from`: each is in its call's tool result (the
 * result names the call). Only the timeline asks: the AfterTool payload names no call to claim.
 */
function chatReceiptsOf(
  source: ByteSource,
  size: number,
  query: ReceiptQuery,
): ReceiptEvidence {
  const seen = new Set<string>();
  return lines.receiptsBack(source, size, query, (line, finds) => {
    if (line.kind === "usage" && !seen.has(line.id)) {
      seen.add(line.id); // a message written again (its tool calls) is one response
      finds.response();
    }
    if (line.kind !== "results") return;
    for (const { id, answers } of line.results) {
      finds.result(id);
      finds.answer(id, answers);
    }
  });
}

/** This hook's refreshes delivered since the newest compression, as `historyOf` gives them. */
export const chatHistoryOf = lines.historyOf;
