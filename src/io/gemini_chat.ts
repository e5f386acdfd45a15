/**
 * What a Gemini CLI conversation file shows one tool call, read backwards from its end: the same
 * view io/transcript.ts gives of a Claude Code transcript (core/view.ts), so everything after it is
 * shared. The reading is the newest `gemini` message's `tokens.input` against its model's window;
 * a compression is the `$set` of a history that starts with a snapshot. The call's own message is
 * written before its AfterTool hook runs, so nothing is waited for.
 */
import { CHAT_KEYS, type ChatLine, chatLineOf, windowOf } from "../core/gemini.ts";
import { parseRefreshHeader, refreshLabelOf } from "../core/header.ts";
import type { ReceiptEvidence } from "../core/receipts.ts";
import { parseLine } from "../core/transcript_entry.ts";
import type { TranscriptView, ViewQuery } from "../core/view.ts";
import {
  type ByteSource,
  cachedSource,
  countingSource,
  readLinesBackward,
} from "./reverse_lines.ts";

const MAX_SCAN_BYTES = 64 * 1024 * 1024;
const RECEIPT_MAX_BYTES = 8 * 1024 * 1024;
const decoder = new TextDecoder();

/** The meaningful lines of `source`'s first `size` bytes, newest first, within `maxBytes`. */
function* linesBack(
  source: ByteSource,
  size: number,
  maxBytes: number,
): Generator<{ start: number; line: ChatLine }> {
  for (const line of readLinesBackward(source, size, { maxBytes })) {
    if (line.oversized) continue;
    const raw = decoder.decode(line.bytes);
    if (!CHAT_KEYS.some((key) => raw.includes(key))) continue;
    const parsed = chatLineOf(parseLine(line.bytes));
    if (parsed) yield { start: line.start, line: parsed };
  }
}

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
  if (query.markersFrom !== undefined && view.markerAfterUsage === undefined) {
    Object.assign(view, markersSince(source, size, query.markersFrom));
  }
  if (query.receipts) view.receipts = chatReceiptsOf(source, size, query.receipts);
  view.bytesRead = source.bytesRead;
  return view;
}

/** The newest compression at or after `from`, and whether the whole range was read. */
function markersSince(source: ByteSource, size: number, from: number): Partial<TranscriptView> {
  const start = Math.max(from, size - MAX_SCAN_BYTES);
  for (const { start: at, line } of linesBack(source, size, size - start)) {
    if (at < start) break;
    if (line.kind === "compacted") return { markerSince: at, markersChecked: start === from };
  }
  return { markersChecked: start === from };
}

/**
 * Gemini's records of this hook's answers back to `from`: each is in its call's tool result (the
 * result names the call). Only the timeline asks: the AfterTool payload names no call to claim.
 */
function chatReceiptsOf(
  source: ByteSource,
  size: number,
  query: { from: number; calls: readonly string[]; token: string },
): ReceiptEvidence {
  const results: Record<string, number> = {};
  const answers: Record<string, number[]> = {};
  const responses: number[] = [];
  const seen = new Set<string>();
  let from = size;
  for (const { start, line } of linesBack(source, size, RECEIPT_MAX_BYTES)) {
    from = Math.max(start, query.from);
    if (start < query.from) break;
    if (line.kind === "usage" && !seen.has(line.id)) {
      seen.add(line.id); // a message written again (its tool calls) is one response
      if (responses.length < 2) responses.push(start);
    }
    if (line.kind !== "results") continue;
    for (const { id, answers: texts } of line.results) {
      if (!query.calls.includes(id)) continue;
      results[id] ??= start;
      if (texts.some((text) => refreshLabelOf(text, query.token) !== undefined)) {
        (answers[id] ??= []).push(start);
      }
    }
  }
  return { from, results, answers, cancelled: [], responses, records: true };
}

/** This hook's refreshes delivered since the newest compression, as `historyOf` gives them. */
export function chatHistoryOf(raw: ByteSource, size: number, token: string) {
  const source = countingSource(raw);
  const refreshed = new Set<number>();
  let marker: number | undefined;
  for (const { start, line } of linesBack(source, size, MAX_SCAN_BYTES)) {
    if (line.kind === "compacted") {
      marker = start;
      break;
    }
    if (line.kind !== "results") continue;
    for (const text of line.results.flatMap((r) => r.answers)) {
      for (const t of parseRefreshHeader(text, token) ?? []) refreshed.add(t);
    }
  }
  const { bytesRead } = source;
  return {
    ...(marker === undefined ? {} : { marker }),
    refreshed: [...refreshed].sort((a, b) => a - b),
    truncated: marker === undefined && bytesRead >= MAX_SCAN_BYTES && size > bytesRead,
    bytesRead,
  };
}
